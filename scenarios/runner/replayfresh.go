package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/agentready/agentready/internal/data/match"
	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/live/observer"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// A replay's fresh write (replays.go): a new confirmation fetched as the
// person would, and values of the same shape as the person's.

// freshWrite is w's body with the values of fresh prerequisites' answers,
// and the values the person saw at the click, which each write sent with
// it replaces by new ones (varied).
type freshWrite struct {
	body    any
	changes []string
	fresh   map[string]bool // the names set from the answers: kept
	seen    map[string]bool // values a visible control of the clicked form showed
	form    bool            // body is a form's fields, sent form-encoded
}

// varied is the fresh write as a new one the person could have made: each
// string of the body the person saw at the click (not a confirmation, a
// CSRF token or a precondition) gets a new value of its shape, numbered n,
// so that a rule refusing the same data twice (an email registered
// already) does not stand in for the rule a replay attacks. An email gets
// a +rN tag, free text (with a space, a capital or a letter beyond ASCII)
// " N"; a token such as an enum value or an id is kept.
func (fw *freshWrite) varied(n int) (string, []string) {
	b, _ := json.Marshal(fw.body)
	var body any
	_ = json.Unmarshal(b, &body)
	var changes []string
	var walk func(v any, at string)
	walk = func(v any, at string) {
		switch v := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				ptr := match.Pointer(at, k)
				str, ok := v[k].(string)
				if !ok {
					walk(v[k], ptr)
					continue
				}
				if fw.fresh[k] || csrfName(k) || preconditionName(k) || !fw.seen[str] {
					continue
				}
				if nv := newValue(str, n); nv != str {
					v[k] = nv
					changes = append(changes, ptr+" a new value of its shape")
				}
			}
		case []any:
			for i, e := range v {
				walk(e, fmt.Sprintf("%s/%d", at, i))
			}
		}
	}
	walk(body, "")
	if m, ok := body.(map[string]any); ok && fw.form {
		vals := url.Values{}
		for k, v := range m {
			vals.Set(k, fmt.Sprint(v))
		}
		return vals.Encode(), changes
	}
	out, _ := json.Marshal(body)
	return string(out), changes
}

func newValue(s string, n int) string {
	if at := strings.LastIndexByte(s, '@'); at > 0 && strings.Count(s, "@") == 1 && !strings.ContainsAny(s, " \t") {
		return s[:at] + "+r" + strconv.Itoa(n) + s[at:]
	}
	for _, r := range s {
		if r == ' ' || r > unicode.MaxASCII || unicode.IsUpper(r) {
			return s + " " + strconv.Itoa(n)
		}
	}
	return s
}

// freshen sends w's prerequisites again as the person and puts the values
// their answers name into w's JSON body where w carries a field of the same
// name: a new confirmation for w. Nil when w has none, or none of its
// fields came from them.
func (p *replayer) freshen(ctx context.Context, w *record.Request, run *scenarios.ReplayRun) *freshWrite {
	return p.freshenFor(ctx, w, run, nil)
}

// freshenFor is freshen with each prerequisite changed by swap first (a
// confirmation fetched for another object).
func (p *replayer) freshenFor(ctx context.Context, w *record.Request, run *scenarios.ReplayRun, swap func(*outgoing)) *freshWrite {
	pre := p.r.prerequisites(w)
	if len(pre) == 0 {
		return nil
	}
	body, form := bodyFields(*w)
	if body == nil {
		return nil
	}
	fw := &freshWrite{fresh: map[string]bool{}, seen: map[string]bool{}, form: form}
	for _, q := range pre {
		// A prerequisite the record cannot send again, or the app did
		// not answer, leaves the write with the person's used
		// confirmation: a refusal would then show only that it was used.
		if q.HasBody && q.Body == "" {
			run.Fault, run.Missing = fmt.Sprintf("the body of %s %s (request %d of the log), which the page sent to get this write's confirmation, is not in the record", q.Method, q.Path, q.Seq), true
			return nil
		}
		pre := p.build(q)
		if swap != nil {
			swap(pre)
		}
		sent := p.send(ctx, pre, true)
		run.Sent = append(run.Sent, sent)
		if sent.Status == 0 {
			run.Fault = fmt.Sprintf("the app did not answer %s %s, sent again for a fresh confirmation: %s", q.Method, q.Path, sent.Error)
			return nil
		}
		var answer any
		if !sent.Accepted() || json.Unmarshal(sent.Answer, &answer) != nil {
			continue
		}
		for _, name := range replaceByName(body, answer) {
			fw.fresh[name] = true
			fw.changes = append(fw.changes, fmt.Sprintf("%s from a fresh %s %s", name, q.Method, q.Path))
		}
	}
	if len(fw.changes) == 0 {
		return nil
	}
	if rv := p.r.reviewBefore(w); rv != nil {
		for _, f := range rv.Form {
			if !f.Hidden && !f.File && f.Value != "" {
				fw.seen[f.Value] = true
			}
		}
	}
	fw.body = body
	return fw
}

// bodyFields is w's body as JSON reads it, or a form's fields as an
// object of strings (form); nil when it is neither (a field given twice
// included).
func bodyFields(w record.Request) (body any, form bool) {
	if isForm(w.RequestHeaders) {
		vals, err := url.ParseQuery(w.Body)
		if err != nil {
			return nil, true
		}
		m := map[string]any{}
		for k, v := range vals {
			if len(v) != 1 {
				return nil, true
			}
			m[k] = v[0]
		}
		return m, true
	}
	if json.Unmarshal([]byte(w.Body), &body) != nil {
		return nil, false
	}
	return body, false
}

// replaceByName sets each string field of body (at any depth) that answer
// also holds, under the same name, to answer's value; it answers the
// names it set.
func replaceByName(body, answer any) []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				if s, ok := v[k].(string); ok {
					if fresh, ok := findString(answer, k); ok && fresh != s {
						v[k] = fresh
						out = append(out, k)
					}
					continue
				}
				walk(v[k])
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(body)
	return out
}

func findString(v any, name string) (string, bool) {
	switch v := v.(type) {
	case map[string]any:
		if s, ok := v[name].(string); ok {
			return s, true
		}
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if s, ok := findString(v[k], name); ok {
				return s, true
			}
		}
	case []any:
		for _, e := range v {
			if s, ok := findString(e, name); ok {
				return s, true
			}
		}
	}
	return "", false
}

// perform sends one kind of replay and reads the state after it.
func (p *replayer) perform(ctx context.Context, entry scenarios.ReplayExpect, w *record.Request, fresh *freshWrite, pt part, run *scenarios.ReplayRun) {
	req := p.build(*w)
	if fresh != nil {
		var changes []string
		req.body, changes = fresh.varied(p.nextVariation())
		run.Fresh = true
		run.Changes = append(run.Changes, fresh.changes...)
		run.Changes = append(run.Changes, changes...)
	}
	if fresh == nil && run.Kind != vocab.ReplayAgain && run.Kind != vocab.ReplayStale && run.Kind != vocab.ReplayRace &&
		len(p.r.prerequisites(w)) > 0 && carriesPrecondition(req, entry.Preconditions) {
		// The page got this write's confirmation from its writes before
		// it, and sent again they gave no new one (their answers name no
		// field of this write, or they were refused): sent with the
		// person's used one, a refusal would show only that it was used.
		run.Skipped = "no fresh confirmation could be had (the page's writes before this one, sent again, answered no value under the name of one of its fields, or were refused): sent with the person's, which was used, a refusal would show only that"
		return
	}
	switch run.Kind {
	case vocab.ReplayOtherToken, vocab.ReplayDropField, vocab.ReplayOtherObject, vocab.ReplayOtherTarget:
		if !p.tamper(ctx, run.Kind, entry, req, pt, run) {
			return
		}
	case vocab.ReplayNoSession, vocab.ReplayNoCSRF:
		if len(p.personNow()) == 0 && !hasHeader(req.headers, "Authorization") {
			run.Inapplicable = true
			run.Skipped = "the person's request carries no session (no cookie, no Authorization header): the app does not tell the person from anyone, and this replay would be their own request"
			return
		}
		if run.Kind == vocab.ReplayNoCSRF {
			changes, why := asOtherOriginsPage(req, p.r.t.BaseURL, entry.CSRF)
			if why != "" {
				run.Skipped, run.Inapplicable = why, !slices.Contains(simpleMethods, req.method)
				return
			}
			run.Changes = append(run.Changes, changes...)
			break
		}
		req.asPerson, req.cookies = false, nil
		run.Changes = append(run.Changes, "no cookies")
		if deleteHeader(req.headers, "Authorization") {
			run.Changes = append(run.Changes, "no Authorization header")
		}
	case vocab.ReplayStale:
		changes := stripNamed(req, entry.Preconditions, preconditionName, staleValue)
		if len(changes) == 0 {
			run.Inapplicable = true
			run.Skipped = "the request carries no precondition (" + preconditionNames(entry.Preconditions) + ")"
			return
		}
		run.Changes = append(run.Changes, changes...)
	case vocab.ReplayOtherSession:
		if fresh == nil && !carriesPrecondition(req, entry.Preconditions) {
			run.Inapplicable = true
			run.Skipped = "the request carries nothing the app gave the person's session but its cookies and CSRF token (no precondition, no value of an earlier write's answer): from another session it is that session's own request"
			return
		}
		if !p.otherSession(ctx, entry, req, run) {
			return
		}
	case vocab.ReplayExpired:
		if p.r.t.Observer == nil {
			run.Skipped = "the app serves no observation endpoints: it has no clock the suite can move"
			return
		}
		if fresh == nil && !carriesPrecondition(req, entry.Preconditions) {
			run.Inapplicable = true
			run.Skipped = "the request carries nothing that can expire (no precondition, no value of an earlier write's answer)"
			return
		}
		d := entry.LifetimeOrDefault() + time.Second
		if _, err := p.r.t.Observer.Advance(ctx, d); err != nil {
			if errors.Is(err, observer.ErrNoClock) {
				run.Skipped = "the app serves no clock endpoint (" + observer.ClockPath + " answered 404)"
			} else {
				run.Fault = "move the app's clock: " + err.Error()
			}
			return
		}
		run.Clock = d.String()
		// Moving the clock may change the state by itself (a hold that
		// lapses): the replay is held against the state after the move.
		run.Before = p.state(ctx)
	}
	reqs := []*outgoing{req}
	if run.Kind == vocab.ReplayRace {
		// Each copy a write of its own (new values) with the one fresh
		// confirmation: only the confirmation's single use may stop all
		// but one. Without one, the person's own request, N times.
		for range entry.CopiesOrDefault() - 1 {
			c := *req
			c.headers = maps.Clone(req.headers)
			if fresh != nil {
				c.body, _ = fresh.varied(p.nextVariation())
			}
			reqs = append(reqs, &c)
		}
	}
	run.Sent = append(run.Sent, p.sendAtOnce(ctx, reqs)...)
	if run.Sent[len(run.Sent)-1].Error != "" && slices.IndexFunc(run.Sent, func(s scenarios.ReplaySend) bool { return !s.Prerequisite && s.Status != 0 }) < 0 {
		run.Fault = "the app did not answer: " + run.Sent[len(run.Sent)-1].Error
		return
	}
	run.After = p.state(ctx)
}

// otherSession gives req a fresh session: the cookies a new visit to the
// start page gets, and that page's CSRF token in place of the person's.
func (p *replayer) otherSession(ctx context.Context, entry scenarios.ReplayExpect, req *outgoing, run *scenarios.ReplayRun) bool {
	v, err := p.newVisit(ctx)
	if err != nil {
		run.Fault = err.Error()
		return false
	}
	req.asPerson, req.cookies = false, v.cookies
	if len(req.cookies) == 0 {
		run.Inapplicable = true
		run.Skipped = "a new visit to the start page gets no cookie: there is no other session to send from"
		return false
	}
	run.Changes = append(run.Changes, "the cookies of a new visit to "+p.r.sc.Start)
	changes := stripNamed(req, entry.CSRF, csrfName, func(string, any) (any, bool) { return v.token, v.token != "" })
	if v.token != "" && len(changes) > 0 {
		run.Changes = append(run.Changes, "that session's CSRF token (<meta name=\"csrf-token\">) in place of the person's")
	}
	return true
}

// visit is what a new visitor of the start page gets: its cookies and the
// page's <meta name="csrf-token"> ("" when it has none).
type visit struct {
	cookies []*http.Cookie
	token   string
}

// newVisit opens the start page as a new visitor would: another session,
// for other_session and other_token.
func (p *replayer) newVisit(ctx context.Context) (visit, error) {
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Timeout: p.r.t.Bound, Jar: jar}
	defer client.CloseIdleConnections()
	hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, p.r.t.BaseURL+p.r.sc.Start, nil)
	if err != nil {
		return visit{}, err
	}
	res, err := client.Do(hreq)
	if err != nil {
		return visit{}, fmt.Errorf("open the start page as another session: %w", err)
	}
	defer res.Body.Close()
	u, _ := url.Parse(p.r.t.BaseURL + "/")
	return visit{cookies: jar.Cookies(u), token: csrfMeta(io.LimitReader(res.Body, 1<<20))}, nil
}
