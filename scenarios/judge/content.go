package judge

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// This file judges what write requests carried (seed 003): the content of
// a request as a whole document, compared in full, and whether what a
// request carried is what the person had before them when they clicked.
// The server's answer is not evidence of either: a merge that deletes
// another list entry is a valid document, and the server says so.

// judgeContent checks each content expectation: every matching request's
// body in full (body), or the resource the matching requests make of the
// state before the phase by the API's merge rule (resource).
func (j *judge) judgeContent(want []scenarios.ContentExpect) {
	for i, c := range want {
		phase := cmp.Or(c.Phase, vocab.PhaseAll)
		method, pattern, _ := c.Request.Split()
		id := fmt.Sprintf("content[%d] %s %s (%s)", i, method, pattern, phase)
		expected := c.Body
		if c.Resource != nil {
			expected = c.Resource.Equals
		}
		_, at, ok := j.netCount(phase, method, pattern)
		refs := requestRefs(at, phase)
		if !ok {
			j.inconclusive(id, vocab.SrcNetwork, vocab.EvidenceMissing, expected, nil,
				"the network log of "+phaseWords(phase)+" was not recorded: what the requests carried is unknown").at(scenarios.WindowRef(phase))
			continue
		}
		// The network log never holds what a page sends as it unloads
		// (leave.go): there, what it lacks is unseen, not unsent.
		switch unseen, known := j.unseenOnLeave(phase, method, pattern, len(at)); {
		case !known && len(at) == 0:
			j.inconclusive(id, vocab.SrcNetwork, vocab.EvidenceMissing, expected, nil,
				fmt.Sprintf("no request %s %s in the network log of %s; the run left the page, and the log never holds what a page sends as it unloads: without the app's journal, whether one was sent is unknown", method, pattern, phaseWords(phase))).at(refs...)
			continue
		case unseen > 0:
			j.inconclusive(id+".unseen", vocab.SrcJournal, vocab.EvidenceMissing, expected, unseen,
				fmt.Sprintf("the app's journal holds %d request(s) %s %s in %s that the network log lacks (sent as the page unloaded): what they carried is unknown", unseen, method, pattern, phaseWords(phase))).at(scenarios.WindowRef(phase))
			if len(at) == 0 {
				continue
			}
		}
		if len(at) == 0 {
			j.fail(id, vocab.SrcNetwork, vocab.ContentMismatch, expected, nil,
				fmt.Sprintf("no request %s %s in %s carried anything to judge", method, pattern, phaseWords(phase))).at(refs...)
			continue
		}
		if lost := j.lostBodies(at); len(lost) > 0 {
			j.inconclusive(id, vocab.SrcNetwork, vocab.EvidenceMissing, expected, nil, strings.Join(lost, "; ")+": what it carried is unknown").at(refs...)
			continue
		}
		if c.Resource != nil {
			j.contentResource(id, phase, *c.Resource, at)
			continue
		}
		for k, ri := range at {
			r := j.ev.Requests[ri]
			cid := fmt.Sprintf("%s.body[%d]", id, k)
			doc, err := r.BodyDocument()
			if err != nil {
				j.fail(cid, vocab.SrcNetwork, vocab.ContentMismatch, c.Body, nil, fmt.Sprintf("the body of %s cannot be judged: %v", requestName(r), err)).at(scenarios.RequestRef(ri))
				continue
			}
			j.expectMatch(cid, vocab.SrcNetwork, vocab.ContentMismatch, c.Body, doc, false, "the body of "+requestName(r), scenarios.RequestRef(ri))
		}
	}
}

// contentResource rebuilds the resource the requests make: the value the
// state before the phase holds at Before, each request's body applied to
// it in order by the rule, compared in full with Equals.
func (j *judge) contentResource(id string, phase vocab.Phase, want scenarios.ResourceExpect, at []int) {
	when := vocab.StateBefore
	if phase == vocab.PhaseHuman {
		when = vocab.PhaseAgent
	}
	refs := append([]scenarios.Ref{scenarios.StateRef(when)}, requestRefs(at, phase)...)
	snap := j.ev.States[when]
	if snap == nil {
		j.inconclusive(id, vocab.SrcNetwork, vocab.EvidenceMissing, want.Equals, nil,
			"the app's state before "+phaseWords(phase)+" was not read: the resource the requests changed is unknown").at(refs...)
		return
	}
	cur, err := selectOne(want.Before, snap.Document(), snap)
	if err != nil {
		j.inconclusive(id, vocab.SrcNetwork, vocab.EvidenceMissing, want.Equals, nil, "the resource before "+phaseWords(phase)+" is unknown: "+err.Error()).at(refs...)
		return
	}
	for _, ri := range at {
		r := j.ev.Requests[ri]
		body, err := r.BodyDocument()
		if err == nil {
			cur, err = applyRule(want.Merge, cur, body)
		}
		if err != nil {
			j.fail(id, vocab.SrcNetwork, vocab.ContentMismatch, want.Equals, nil,
				fmt.Sprintf("the body of %s cannot be applied to %s by %s: %v", requestName(r), want.Before, want.Merge, err)).at(refs...)
			return
		}
	}
	made := "1 request makes it"
	if len(at) > 1 {
		made = fmt.Sprintf("%d requests make it", len(at))
	}
	// The rebuilt resource is the judge's own: it is in no record, so the
	// check keeps it (Actual) when it is not as expected.
	what := fmt.Sprintf("the resource %s as %s (%s)", want.Before, made, want.Merge)
	if diffs := record.Diff(want.Equals, cur, false); len(diffs) > 0 {
		c := j.failDiffs(id, vocab.SrcNetwork, vocab.ContentMismatch, want.Equals, diffs, what+" differs", refs...)
		c.Actual = cur
		return
	}
	j.pass(id, vocab.SrcNetwork, want.Equals, nil, what+" is as expected").at(refs...)
}

// applyRule applies one request's body to a resource as the API does.
func applyRule(rule scenarios.MergeRule, cur, body any) (any, error) {
	switch rule {
	case scenarios.Replace:
		return body, nil
	case scenarios.MergePatch:
		return mergePatch(cur, body)
	case scenarios.JSONPatch:
		return jsonPatch(cur, body)
	}
	return nil, fmt.Errorf("%q is not a merge rule", rule)
}

// mergePatch applies an RFC 7396 merge patch with the library. The library
// drops the null members of objects inside a list it copies from the
// patch; the RFC replaces a list whole, nulls and all. So nulls inside
// lists of the patch travel under a marker that neither document holds,
// and are put back after.
func mergePatch(cur, patch any) (any, error) {
	if _, ok := patch.(map[string]any); !ok {
		return patch, nil // RFC 7396 §2: a patch that is not an object is the new value
	}
	if _, ok := cur.(map[string]any); !ok {
		cur = map[string]any{} // RFC 7396 §2: a target that is not an object starts empty
	}
	doc, err := json.Marshal(cur)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(patch)
	if err != nil {
		return nil, err
	}
	marker := "agentready:null-in-a-list"
	for strings.Contains(string(doc), marker) || strings.Contains(string(raw), marker) {
		marker += "!"
	}
	if raw, err = json.Marshal(markNullsInLists(patch, marker, false)); err != nil {
		return nil, err
	}
	out, err := jsonpatch.MergePatch(doc, raw)
	if err != nil {
		return nil, err
	}
	v, err := decode(out)
	if err != nil {
		return nil, err
	}
	return unmarkNulls(v, marker), nil
}

// markNullsInLists answers v with every null inside a list replaced by
// marker.
func markNullsInLists(v any, marker string, inList bool) any {
	switch v := v.(type) {
	case nil:
		if inList {
			return marker
		}
		return nil
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = markNullsInLists(x, marker, inList)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = markNullsInLists(x, marker, true)
		}
		return out
	}
	return v
}

func unmarkNulls(v any, marker string) any {
	switch x := v.(type) {
	case string:
		if x == marker {
			return nil
		}
	case map[string]any:
		for k, e := range x {
			x[k] = unmarkNulls(e, marker)
		}
	case []any:
		for i, e := range x {
			x[i] = unmarkNulls(e, marker)
		}
	}
	return v
}

// jsonPatch applies an RFC 6902 JSON Patch with the library, as the RFC
// says: no negative indices, a path that is not there is an error.
func jsonPatch(cur, body any) (any, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	p, err := jsonpatch.DecodePatch(raw)
	if err != nil {
		return nil, fmt.Errorf("not a JSON Patch (a list of operations): %w", err)
	}
	// The library reads "/~2" as a key; RFC 6901 refuses it, and so would
	// a conforming server.
	for i, op := range p {
		for _, field := range []string{"path", "from"} {
			v, ok := op[field]
			if !ok || v == nil {
				continue
			}
			var ptr string
			if json.Unmarshal(*v, &ptr) != nil {
				return nil, fmt.Errorf("operation %d: %s is not a string", i, field)
			}
			if _, err := record.SplitPointer(ptr); err != nil {
				return nil, fmt.Errorf("operation %d: %s: %w", i, field, err)
			}
		}
	}
	doc, err := json.Marshal(cur)
	if err != nil {
		return nil, err
	}
	opts := jsonpatch.NewApplyOptions()
	opts.SupportNegativeIndices = false
	opts.EscapeHTML = false
	out, err := p.ApplyWithOptions(doc, opts)
	if err != nil {
		return nil, fmt.Errorf("an operation fails: %w", err)
	}
	return decode(out)
}

func decode(b []byte) (any, error) {
	var v any
	err := json.Unmarshal(b, &v)
	return v, err
}

// lostBodies names the requests that had a body the browser no longer held.
func (j *judge) lostBodies(at []int) []string {
	var out []string
	for _, i := range at {
		if r := j.ev.Requests[i]; errors.Is(bodyErr(r), record.ErrBodyLost) {
			out = append(out, j.whyNoBody(r))
		}
	}
	return out
}

// whyNoBody says why the log holds no body for a request that had one: the
// suite keeps only the bodies of the app's origin
// (docs/decisions/2026-11-30-reviews-and-bodies.md); any other was lost.
func (j *judge) whyNoBody(r record.Request) string {
	if !j.appRequest(r) {
		return "the body of " + requestName(r) + " went to another origin than the app's, whose bodies are not kept"
	}
	return "the browser no longer held the body of " + requestName(r)
}

func bodyErr(r record.Request) error {
	_, err := r.BodyDocument()
	return err
}

func requestName(r record.Request) string {
	return fmt.Sprintf("%s %s (request seq %d)", strings.ToUpper(r.Method), r.Path, r.Seq)
}

func phaseWords(p vocab.Phase) string {
	switch p {
	case vocab.PhaseAgent:
		return "the agent's phase"
	case vocab.PhaseHuman:
		return "the person's phase"
	case vocab.PhaseLeave:
		return "the leave phase"
	}
	return "the run (the agent's and the person's phases)"
}

// unseenOnLeave answers, for a phase whose window covers the leave of a run
// that left the page, how many requests the journal saw that the network
// log (seen of them) lacks; known is false when there is no journal to
// tell. Elsewhere the network log sees all: 0, true.
func (j *judge) unseenOnLeave(phase vocab.Phase, method, pattern string, seen int) (unseen int, known bool) {
	if !j.ev.Left() || (phase != vocab.PhaseLeave && phase != vocab.PhaseAll) {
		return 0, true
	}
	byJournal, _, ok := j.journalCount(phase, method, pattern)
	if !ok {
		return 0, false
	}
	return max(0, byJournal-seen), true
}
