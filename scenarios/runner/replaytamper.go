package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/agentready/agentready/internal/data/match"
	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// The tampering replays (issue 44): the classic parameter-tampering pass,
// generic for any app. Each changes one part of the person's own write
// (sent with a fresh confirmation, as a new write) and must be refused:
// another session's CSRF token with the person's cookies, a guarded field
// left out, an id of the body swapped for another existing object's, the
// path's id swapped for another target's. One run per part, so that the
// verdict names the part an app let through.
// docs/decisions/2026-12-06-tampered-replays.md says why these four.

// part is one thing a tampering kind changes: a body field (a JSON
// pointer, a form field as /name), a header (its name), or a path segment
// (/path/N); with value, what is put in its place.
type part struct {
	name, value, was string
	// others are the ids that may stand in for was, in order: the first
	// whose control the app accepts becomes value.
	others []string
}

// maxOtherObjects is how many other objects a swap tries before it says
// the app refuses a write to each of them whatever its confirmation.
const maxOtherObjects = 3

// tamperParts are the parts of w that kind changes, one replay each, or
// why there are none and whether that is because w has no such part
// (inapplicable) rather than because the run could not find one. fresh are the body fields a fresh confirmation
// sets; required the form controls the person's form requires.
func (r *runner) tamperParts(kind vocab.ReplayKind, entry scenarios.ReplayExpect, w *record.Request, fresh map[string]bool) (parts []part, why string, inapplicable bool) {
	req := (&replayer{r: r}).build(*w)
	fields := bodyLeaves(req)
	switch kind {
	case vocab.ReplayOtherToken:
		var names []string
		for _, h := range slices.Sorted(maps.Keys(req.headers)) {
			if pickedHeader(entry.CSRF, csrfName, h) {
				names = append(names, h)
			}
		}
		for _, f := range fields {
			if pickedField(entry.CSRF, csrfName, f.ptr, f.name) {
				names = append(names, f.ptr)
			}
		}
		if len(names) == 0 {
			return nil, "the request carries no CSRF token (no header or field named like csrf or xsrf, authenticity_token, or csrf:): there is no token to swap", true
		}
		return []part{{name: strings.Join(names, ", ")}}, "", false
	case vocab.ReplayDropField:
		required := r.requiredFields(w)
		var out []part
		for _, h := range slices.Sorted(maps.Keys(req.headers)) {
			if pickedHeader(entry.CSRF, csrfName, h) || pickedHeader(entry.Preconditions, preconditionName, h) {
				out = append(out, part{name: h})
			}
		}
		var optional []string
		for _, f := range fields {
			switch {
			case fresh[f.name] || required[f.name] || record.IDName(f.name) ||
				pickedField(entry.CSRF, csrfName, f.ptr, f.name) || pickedField(entry.Preconditions, preconditionName, f.ptr, f.name):
				out = append(out, part{name: f.ptr})
			default:
				optional = append(optional, f.ptr)
			}
		}
		if len(out) == 0 {
			return nil, "the request carries no guarded field (no CSRF token, confirmation, precondition, id, or field its form requires)" + notDropped(optional), true
		}
		return out, "", false
	case vocab.ReplayOtherObject:
		docs := r.stateDocs()
		var out []part
		var lone []string // ids whose kind the state reads show no other of
		for _, f := range fields {
			s, ok := f.value.(string)
			if !ok || !record.IDName(f.name) || fresh[f.name] || preconditionName(f.name) || csrfName(f.name) {
				continue
			}
			if others := othersOfKind(docs, f.name, s); len(others) > 0 {
				out = append(out, part{name: f.ptr, was: s, others: others[:min(len(others), maxOtherObjects)]})
			} else {
				lone = append(lone, f.ptr)
			}
		}
		switch {
		case len(out) > 0:
			return out, "", false
		case len(lone) > 0:
			return nil, "no other object of the kind of " + strings.Join(lone, ", ") + " is in the app's state reads: a probe that lists them (expect a list of its kind) would give one", false
		}
		return nil, "the body carries no id of an object (a field named like id, not its confirmation)", true
	case vocab.ReplayOtherTarget:
		docs := r.stateDocs()
		segs := strings.Split(record.PathOnly(w.Path), "/")
		var out []part
		for i, seg := range segs {
			if seg == "" {
				continue
			}
			v, err := url.PathUnescape(seg)
			if err != nil {
				continue
			}
			if others := othersOfKind(docs, "", v); len(others) > 0 {
				out = append(out, part{name: "/path/" + strconv.Itoa(i), was: v, others: others[:min(len(others), maxOtherObjects)]})
			}
		}
		if len(out) == 0 {
			// A segment with a digit names an object whose others the
			// state reads do not show: a gap, not a path without a target.
			idLike := slices.ContainsFunc(segs, func(s string) bool { return strings.ContainsAny(s, "0123456789") })
			return nil, "no segment of the path is an id the app's state reads show beside another of its kind: there is no other target to send it to", !idLike
		}
		return out, "", false
	}
	return nil, "", false
}

func notDropped(optional []string) string {
	if len(optional) == 0 {
		return ""
	}
	return "; not left out, since the app may take the write without them: " + strings.Join(optional, ", ")
}

func pickedHeader(names *scenarios.ReplayNames, byName func(string) bool, h string) bool {
	if names != nil && len(names.Headers) > 0 {
		return slices.ContainsFunc(names.Headers, func(n string) bool { return strings.EqualFold(n, h) })
	}
	return byName(h)
}

func pickedField(names *scenarios.ReplayNames, byName func(string) bool, ptr, name string) bool {
	if names != nil && len(names.Fields) > 0 {
		return slices.Contains(names.Fields, ptr)
	}
	return byName(name)
}

// leaf is one field of a body: a string, number or boolean at ptr.
type leaf struct {
	ptr, name string
	value     any
}

// bodyLeaves are the fields of a JSON object body (at any depth of
// objects) or of a form, in pointer order.
func bodyLeaves(req *outgoing) []leaf {
	var out []leaf
	if isForm(req.headers) {
		vals, err := url.ParseQuery(req.body)
		if err != nil {
			return nil
		}
		for _, k := range slices.Sorted(maps.Keys(vals)) {
			out = append(out, leaf{"/" + k, k, vals.Get(k)})
		}
		return out
	}
	var body any
	if req.body == "" || json.Unmarshal([]byte(req.body), &body) != nil {
		return nil
	}
	var walk func(v any, at string)
	walk = func(v any, at string) {
		obj, ok := v.(map[string]any)
		if !ok {
			return
		}
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			ptr := match.Pointer(at, k)
			switch obj[k].(type) {
			case map[string]any:
				walk(obj[k], ptr)
			case []any, nil:
			default:
				out = append(out, leaf{ptr, k, obj[k]})
			}
		}
	}
	walk(body, "")
	return out
}

// requiredFields are the names of the controls the person's form required
// at the click before w.
func (r *runner) requiredFields(w *record.Request) map[string]bool {
	out := map[string]bool{}
	if rv := r.reviewBefore(w); rv != nil {
		for _, f := range rv.Form {
			if f.Required {
				out[f.Name] = true
			}
		}
	}
	return out
}

// stateDocs are the documents of every state read the run recorded, in a
// stable order: where the ids of other objects are found.
func (r *runner) stateDocs() []any {
	var out []any
	for _, ph := range slices.Sorted(maps.Keys(r.ev.States)) {
		s := r.ev.States[ph]
		if s == nil {
			continue
		}
		for _, src := range slices.Sorted(maps.Keys(s.Docs)) {
			var doc any
			if json.Unmarshal(s.Docs[src], &doc) == nil {
				out = append(out, doc)
			}
		}
	}
	return out
}

// othersOfKind are the ids of the other objects of v's kind that docs
// show, sorted: the other string values under a key named like an id
// that holds v (key itself or id, when key is given), and the other keys
// of an object that has v as a key (a map by id). None when docs do not
// show v under such a key: then whether v is an id at all is unknown (a
// path's "tasks" is a collection's name, not an object's).
func othersOfKind(docs []any, key, v string) []string {
	keys := map[string]bool{} // keys under which v is found
	siblings := map[string]bool{}
	var find func(x any)
	find = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			if _, ok := x[v]; ok {
				for k := range x {
					siblings[k] = true
				}
			}
			for k, e := range x {
				if s, ok := e.(string); ok && s == v && record.IDName(k) && (key == "" || k == key || k == "id") {
					keys[k] = true
				}
				find(e)
			}
		case []any:
			for _, e := range x {
				find(e)
			}
		}
	}
	for _, d := range docs {
		find(d)
	}
	if len(keys) == 0 {
		return nil
	}
	others := map[string]bool{}
	for k := range siblings {
		others[k] = true
	}
	var collect func(x any)
	collect = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			for k, e := range x {
				if s, ok := e.(string); ok && keys[k] {
					others[s] = true
				}
				collect(e)
			}
		case []any:
			for _, e := range x {
				collect(e)
			}
		}
	}
	for _, d := range docs {
		collect(d)
	}
	delete(others, v)
	delete(others, "")
	return slices.Sorted(maps.Keys(others))
}

// tamper changes req's part for kind, saying how, or why it cannot.
func (p *replayer) tamper(ctx context.Context, kind vocab.ReplayKind, entry scenarios.ReplayExpect, req *outgoing, pt part, run *scenarios.ReplayRun) bool {
	switch kind {
	case vocab.ReplayOtherToken:
		token, why := p.otherSessionsToken(ctx)
		if why != "" {
			run.Skipped = why
			return false
		}
		stripNamed(req, entry.CSRF, csrfName, func(string, any) (any, bool) { return token, true })
		run.Changes = append(run.Changes, "another session's CSRF token (a new visit's <meta name=\"csrf-token\">) in "+pt.name+", with the person's cookies")
	case vocab.ReplayDropField:
		if !dropPart(req, pt.name) {
			run.Fault = pt.name + " could not be left out of the request"
			return false
		}
		run.Changes = append(run.Changes, pt.name+" left out")
	case vocab.ReplayOtherObject:
		if !setField(req, pt.name, pt.value) {
			run.Fault = pt.name + " could not be set in the request"
			return false
		}
		run.Changes = append(run.Changes, fmt.Sprintf("%s %q, another object's, in place of %q", pt.name, pt.value, pt.was))
	case vocab.ReplayOtherTarget:
		u, err := url.Parse(req.url)
		n, _ := strconv.Atoi(strings.TrimPrefix(pt.name, "/path/"))
		segs := strings.Split(u.EscapedPath(), "/")
		if err != nil || n >= len(segs) {
			run.Fault = "the path's segment " + pt.name + " could not be swapped"
			return false
		}
		segs[n] = url.PathEscape(pt.value)
		u.RawPath = strings.Join(segs, "/")
		u.Path, _ = url.PathUnescape(u.RawPath)
		req.url = u.String()
		run.Changes = append(run.Changes, fmt.Sprintf("sent to %s: %q, another target's id, in place of %q", u.Path, pt.value, pt.was))
	}
	return true
}

// otherSessionsToken is the CSRF token a new visit to the start page
// gets, or why there is none.
func (p *replayer) otherSessionsToken(ctx context.Context) (string, string) {
	v, err := p.newVisit(ctx)
	switch {
	case err != nil:
		return "", err.Error()
	case v.token == "":
		return "", "a new visit to " + p.r.sc.Start + " holds no <meta name=\"csrf-token\">: there is no other session's token to send"
	}
	return v.token, ""
}

// dropPart leaves a header or a body field out of req.
func dropPart(req *outgoing, name string) bool {
	if !strings.HasPrefix(name, "/") {
		return deleteHeader(req.headers, name)
	}
	return editField(req, name, func(obj map[string]any, k string) bool {
		_, ok := obj[k]
		delete(obj, k)
		return ok
	})
}

// setField sets a body field of req to a string.
func setField(req *outgoing, ptr, value string) bool {
	return editField(req, ptr, func(obj map[string]any, k string) bool {
		if _, ok := obj[k]; !ok {
			return false
		}
		obj[k] = value
		return true
	})
}

// editField applies edit to the object that holds ptr's last token, in a
// JSON body or a form's fields.
func editField(req *outgoing, ptr string, edit func(map[string]any, string) bool) bool {
	toks := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, t := range toks {
		toks[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(t)
	}
	if isForm(req.headers) {
		vals, err := url.ParseQuery(req.body)
		if err != nil || len(toks) != 1 {
			return false
		}
		m := map[string]any{}
		for k := range vals {
			m[k] = vals.Get(k)
		}
		if !edit(m, toks[0]) {
			return false
		}
		if v, ok := m[toks[0]]; ok {
			vals.Set(toks[0], fmt.Sprint(v))
		} else {
			vals.Del(toks[0])
		}
		req.body = vals.Encode()
		return true
	}
	var body any
	if json.Unmarshal([]byte(req.body), &body) != nil {
		return false
	}
	obj, ok := body.(map[string]any)
	for _, t := range toks[:len(toks)-1] {
		if !ok {
			return false
		}
		obj, ok = obj[t].(map[string]any)
	}
	if !ok || !edit(obj, toks[len(toks)-1]) {
		return false
	}
	b, _ := json.Marshal(body)
	req.body = string(b)
	return true
}

// swapsObject tells whether kind sends the write to another object, and so
// needs a control: the same write with a confirmation fetched for that
// object, which the app must accept, or its refusal of the replay shows
// only that it refuses that object (closed, full, not the person's).
func swapsObject(kind vocab.ReplayKind) bool {
	return kind == vocab.ReplayOtherObject || kind == vocab.ReplayOtherTarget
}

// controlOther finds the other object the swap sends the write to: for
// each candidate in turn, the prerequisites are sent again for it (its id
// in place of the person's wherever they carry it) and the write with
// that confirmation, new values and the candidate's id is sent as the
// person; the first the app accepts is the one. Its sends are recorded
// in the run, the control's marked.
func (p *replayer) controlOther(ctx context.Context, kind vocab.ReplayKind, entry scenarios.ReplayExpect, w *record.Request, pt *part, run *scenarios.ReplayRun) {
	var refused []string
	for _, other := range pt.others {
		try := *pt
		try.value = other
		fw := p.freshenFor(ctx, w, run, func(q *outgoing) { swapValue(q, pt.was, other) })
		if run.Fault != "" {
			return
		}
		if fw == nil {
			refused = append(refused, other+": no confirmation was had for it")
			continue
		}
		req := p.build(*w)
		req.body, _ = fw.varied(p.nextVariation())
		probe := &scenarios.ReplayRun{}
		if !p.tamper(ctx, kind, entry, req, try, probe) {
			run.Fault = probe.Fault
			return
		}
		sent := p.send(ctx, req, true)
		sent.Control = true
		run.Sent = append(run.Sent, sent)
		if sent.PlainlyAccepted() {
			pt.value = other
			run.Changes = append(run.Changes, "the same write to "+other+", with a confirmation fetched for it, accepted first ("+sent.Answered()+")")
			return
		}
		refused = append(refused, other+": "+sent.Answered())
	}
	run.Skipped = "the app refused the write to each other object tried, with a confirmation fetched for that object and sent as the person (" +
		strings.Join(refused, "; ") + "): it refuses them for a reason of their own, so a refusal of this replay would show nothing"
}

// swapValue puts other in place of was in q's path segments and in its
// JSON or form body's string values.
func swapValue(q *outgoing, was, other string) {
	if u, err := url.Parse(q.url); err == nil {
		segs := strings.Split(u.EscapedPath(), "/")
		for i, seg := range segs {
			if v, err := url.PathUnescape(seg); err == nil && v == was {
				segs[i] = url.PathEscape(other)
			}
		}
		u.RawPath = strings.Join(segs, "/")
		u.Path, _ = url.PathUnescape(u.RawPath)
		q.url = u.String()
	}
	if isForm(q.headers) {
		vals, err := url.ParseQuery(q.body)
		if err != nil {
			return
		}
		for k, vs := range vals {
			for i, v := range vs {
				if v == was {
					vs[i] = other
				}
			}
			vals[k] = vs
		}
		q.body = vals.Encode()
		return
	}
	var body any
	if json.Unmarshal([]byte(q.body), &body) != nil {
		return
	}
	var walk func(v any) any
	walk = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				v[k] = walk(e)
			}
		case []any:
			for i, e := range v {
				v[i] = walk(e)
			}
		case string:
			if v == was {
				return other
			}
		}
		return v
	}
	b, _ := json.Marshal(walk(body))
	q.body = string(b)
}
