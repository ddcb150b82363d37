package judge

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// judgeReviewedIsSent is reviewed-equals-sent by default: every write to
// the app that follows a person's click in their phase (up to their next
// click) is held against the clicked element's form as the review read it.
// Each visible control's value the body carries at the control's place
// must be what the control showed. Places no visible control showed (ids,
// tokens, a hidden field) are the page's own and not judged here; a
// submitted expectation says more where it is written. A write a
// submitted expectation names is left to it, and a click in no form shows
// nothing to hold a write against. {off: reason} turns it off.
func (j *judge) judgeReviewedIsSent(e scenarios.Expect) {
	if e.ReviewedIsSent != nil || !j.ev.Capture.Network || j.ev.Requests == nil || len(j.ev.Reviews) == 0 {
		return
	}
	lo, hi, ok := j.ev.Span(vocab.PhaseHuman, len(j.ev.Requests), scenarios.RequestsMark)
	if !ok {
		return // the submitted expectations and the windows say what is missing
	}
	reviews, problem := j.humanReviews("")
	if problem != "" {
		j.inconclusive("reviewed_is_sent", vocab.SrcUI, vocab.EvidenceMissing, nil, nil, problem).at(scenarios.WindowRef(vocab.PhaseHuman))
		return
	}
	n := 0
	for i, rv := range reviews {
		end := hi
		for _, next := range reviews[i+1:] {
			if next.Requests >= rv.Requests {
				end = min(end, next.Requests)
				break
			}
		}
		if rv.Form == nil {
			continue
		}
		for k := max(lo, rv.Requests); k < end; k++ {
			r := j.ev.Requests[k]
			if !record.IsWrite(r.Method) || !j.counted(k) || !j.appRequest(r) || j.namedBySubmitted(e.Submitted, r) {
				continue
			}
			if j.reviewedOne(fmt.Sprintf("reviewed_is_sent[%d] %s %s", n, r.Method, r.Path), rv, k) {
				n++
			}
		}
	}
}

// namedBySubmitted tells whether a submitted expectation judges r.
func (j *judge) namedBySubmitted(want []scenarios.SubmittedExpect, r record.Request) bool {
	for _, s := range want {
		if method, pattern, ok := s.Request.Split(); ok && record.MatchRequest(r.Method, r.Path, method, pattern) {
			return true
		}
	}
	return false
}

// reviewedOne holds one write against the form of one review: a check
// only when the body carries at least one place a visible control showed
// (or its body is lost); it answers whether it made one.
func (j *judge) reviewedOne(id string, rv *scenarios.Review, at int) bool {
	r := j.ev.Requests[at]
	refs := []scenarios.Ref{j.reviewRef(rv), scenarios.RequestRef(at)}
	body, err := r.BodyDocument()
	switch {
	case errors.Is(err, record.ErrNoBody):
		return false // nothing carried, nothing to hold
	case errors.Is(err, record.ErrBodyLost):
		j.inconclusive(id, vocab.SrcNetwork, vocab.EvidenceMissing, nil, nil, j.whyNoBody(r)+": whether it carried what the person saw is unknown").at(refs...)
		return true
	case err != nil:
		return false // not a document: the form's places are not in it
	}
	ct, _ := r.Header("Content-Type")
	shown := map[string]formPlace{}
	for _, f := range formPlaces(rv.Form, record.IsFormData(ct)) {
		if !f.hidden {
			shown[f.pointer] = f
		}
	}
	var departures []string
	var diffs []record.Difference
	compared := 0
	for _, l := range scalarLeaves(body) {
		f, ok := shown[l.pointer]
		if !ok {
			continue
		}
		compared++
		if sameText(f.value) != sameText(l.text) {
			departures = append(departures, fmt.Sprintf("%s carried %s, the person saw %q in %s", l.pointer, record.CompactJSON(l.value), f.value, f.name))
			diffs = append(diffs, record.Difference{Pointer: l.pointer, Expected: record.CompactJSON(f.value), Actual: record.CompactJSON(l.value)})
		}
	}
	click := "the click on " + rv.Click
	switch {
	case compared == 0:
		return false // the write carries none of the form's places
	case len(departures) == 0:
		j.pass(id, vocab.SrcNetwork, nil, nil, fmt.Sprintf("each of the %d value(s) of the form %s carried was what the person saw at %s", compared, requestName(r), click)).at(refs...)
	default:
		j.add(Check{ID: id, Source: vocab.SrcNetwork, Status: vocab.CheckFail, Code: vocab.SubmittedNotReviewed, Differences: cutSides(diffs),
			Message: fmt.Sprintf("%s carried other than the form showed the person at %s: %s (reviewed is sent by default; expect.reviewed_is_sent: {off: reason} turns it off)", requestName(r), click, strings.Join(departures, "; "))}).at(refs...)
	}
	return true
}
