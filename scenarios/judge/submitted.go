package judge

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// judgeSubmitted checks, for each submitted expectation, that the first
// matching request after the person's click carried only what they had
// before them at that click: every scalar value of its body shown to them,
// equal to what was shown, unless ignored. A place shown and not carried is
// no departure (a merge patch leaves out what it does not change); the
// content check judges the whole candidate.
func (j *judge) judgeSubmitted(want []scenarios.SubmittedExpect) {
	for i, s := range want {
		method, pattern, _ := s.Request.Split()
		id := fmt.Sprintf("submitted[%d] %s %s", i, method, pattern)
		human := scenarios.WindowRef(vocab.PhaseHuman)
		if !j.ev.Capture.Network || j.ev.Requests == nil {
			j.inconclusive(id, vocab.SrcNetwork, vocab.EvidenceMissing, s, nil, "the network log was not recorded: what the request carried is unknown").at(human)
			continue
		}
		lo, hi, ok := j.ev.Span(vocab.PhaseHuman, len(j.ev.Requests), scenarios.RequestsMark)
		if !ok {
			j.inconclusive(id, vocab.SrcNetwork, vocab.EvidenceMissing, s, nil, "the marks of the person's phase were not recorded: which requests followed the click is unknown").at(human)
			continue
		}
		rv, at, problem := j.reviewFor(s, method, pattern, lo, hi)
		switch {
		case rv == nil:
			j.inconclusive(id, vocab.SrcUI, vocab.EvidenceMissing, s, nil, problem).at(human)
			continue
		case at < 0:
			// The look was recorded and nothing followed it: the review and
			// the person's window, empty of such a request.
			j.fail(id, vocab.SrcNetwork, vocab.SubmittedNotReviewed, s, nil, problem).at(j.reviewRef(rv), human)
			continue
		}
		j.submittedOne(id, s, rv, at)
		// A later request of the same kind in the person's phase carries
		// what they had before them too: a page that sends the reviewed
		// values and then something else is judged on both. Each is held
		// against the last look (of the named click) before it.
		n := 0
		for k := at + 1; k < hi; k++ {
			r := j.ev.Requests[k]
			if !record.MatchRequest(r.Method, r.Path, method, pattern) || !j.counted(k) {
				continue
			}
			n++
			j.submittedOne(fmt.Sprintf("%s.then[%d]", id, n), s, j.lastReviewBefore(s, rv, k), k)
		}
	}
}

// submittedOne holds one request's body (at its position in the log)
// against one review.
func (j *judge) submittedOne(id string, s scenarios.SubmittedExpect, rv *scenarios.Review, at int) {
	r := j.ev.Requests[at]
	refs := []scenarios.Ref{j.reviewRef(rv), scenarios.RequestRef(at)}
	body, err := r.BodyDocument()
	switch {
	case errors.Is(err, record.ErrBodyLost):
		j.inconclusive(id, vocab.SrcNetwork, vocab.EvidenceMissing, s, nil, j.whyNoBody(r)+": what it carried is unknown").at(refs...)
	case err != nil:
		j.fail(id, vocab.SrcNetwork, vocab.SubmittedNotReviewed, s, nil, fmt.Sprintf("the body of %s cannot be held against what the person saw: %v", requestName(r), err)).at(refs...)
	default:
		j.compareSubmitted(id, s, rv, r, body).at(refs...)
	}
}

// reviewRef points at a review of the record by its position.
func (j *judge) reviewRef(rv *scenarios.Review) scenarios.Ref {
	for k := range j.ev.Reviews {
		if &j.ev.Reviews[k] == rv {
			return scenarios.ReviewRef(k)
		}
	}
	panic("judge: a review that is not the record's") // reviewFor and lastReviewBefore answer the record's own
}

// lastReviewBefore is the last review of the expectation's click (any
// click when none is named) placed at or before log index k; from, when
// there is none later.
func (j *judge) lastReviewBefore(s scenarios.SubmittedExpect, from *scenarios.Review, k int) *scenarios.Review {
	last := from
	for i := range j.ev.Reviews {
		rv := &j.ev.Reviews[i]
		if rv.Phase == vocab.PhaseHuman && (s.Click == "" || rv.Click == s.Click) && rv.Requests <= k && rv.Requests >= last.Requests {
			last = rv
		}
	}
	return last
}

// reviewFor picks the review that counts and the log index of the request
// it is held against: the first matching request after the first review
// (of the named click, or of any click when none is named), held against
// the last such review before it — a person who clicked Save, was stopped
// by the page, corrected a field and clicked again reviewed what they saw
// the second time. No review answers nil and why; no request, -1 and why.
func (j *judge) reviewFor(s scenarios.SubmittedExpect, method, pattern string, lo, hi int) (*scenarios.Review, int, string) {
	reviews, problem := j.humanReviews(s.Click)
	if problem != "" {
		return nil, -1, problem
	}
	if len(reviews) == 0 {
		if s.Click != "" {
			return nil, -1, fmt.Sprintf("no review was recorded at the person's click on %s: what they had before them is unknown", s.Click)
		}
		return nil, -1, "no review was recorded at any of the person's clicks: what they had before them is unknown"
	}
	for k := max(lo, reviews[0].Requests); k < hi; k++ {
		r := j.ev.Requests[k]
		if !record.MatchRequest(r.Method, r.Path, method, pattern) || !j.counted(k) {
			continue
		}
		last := reviews[0]
		for _, rv := range reviews {
			if rv.Requests <= k {
				last = rv
			}
		}
		return last, k, ""
	}
	if s.Click != "" {
		return reviews[0], -1, fmt.Sprintf("nothing was sent after the click on %s: no request %s %s followed it in the person's phase", s.Click, method, pattern)
	}
	return reviews[len(reviews)-1], -1, fmt.Sprintf("nothing was sent after the click: no request %s %s followed any of the person's clicks in their phase", method, pattern)
}

// humanReviews is the one reader of the review record, for submitted and
// reviewed is sent: the reviews of the person's clicks (of one click when
// it is named), in the order of the log. A review placed outside the log
// is a record that does not hold together: both checks say so, neither
// drops it (issue 43 item 5).
func (j *judge) humanReviews(click string) ([]*scenarios.Review, string) {
	var reviews []*scenarios.Review
	for k := range j.ev.Reviews {
		rv := &j.ev.Reviews[k]
		if rv.Phase != vocab.PhaseHuman || click != "" && rv.Click != click {
			continue
		}
		if rv.Requests < 0 || rv.Requests > len(j.ev.Requests) {
			return nil, fmt.Sprintf("the review at the click on %s is placed at request %d of a log of %d: the record does not hold together", rv.Click, rv.Requests, len(j.ev.Requests))
		}
		reviews = append(reviews, rv)
	}
	slices.SortStableFunc(reviews, func(a, b *scenarios.Review) int { return cmp.Compare(a.Requests, b.Requests) })
	return reviews, ""
}

// shownValue is what the person had before them at one place of the body.
type shownValue struct {
	value string
	by    string // the selector or the form control's name that showed it
}

// compareSubmitted holds every scalar value of the body against what was
// shown at its place, and makes one check of it.
func (j *judge) compareSubmitted(id string, s scenarios.SubmittedExpect, rv *scenarios.Review, r record.Request, body any) *Check {
	shown := map[string]shownValue{}
	hidden := map[string]string{} // place → the hidden control that held it
	var departures []string
	var diffs []record.Difference
	leaves := scalarLeaves(body)
	carried := map[string]bool{}
	for _, l := range leaves {
		carried[l.pointer] = true
	}
	if len(s.Fields) > 0 {
		for _, ptr := range keys(s.Fields) {
			sel := s.Fields[ptr]
			if slices.Contains(rv.SeenHidden, sel) {
				hidden[ptr] = sel
			} else if v, ok := rv.Seen[sel]; ok {
				shown[ptr] = shownValue{value: v, by: sel}
			} else if !carried[ptr] {
				departures = append(departures, fmt.Sprintf("nothing showed %s: no element matched %q", ptr, sel))
			}
		}
	} else {
		ct, _ := r.Header("Content-Type")
		for _, f := range formPlaces(rv.Form, record.IsFormData(ct)) {
			if f.hidden {
				hidden[f.pointer] = f.name
				continue
			}
			shown[f.pointer] = shownValue{value: f.value, by: f.name}
		}
	}
	ignored := 0
	for _, l := range leaves {
		if ignoredPlace(l.pointer, s.Ignore) {
			ignored++
			continue
		}
		v, ok := shown[l.pointer]
		switch {
		case !ok:
			why := ""
			if name, ok := hidden[l.pointer]; ok {
				why = fmt.Sprintf(" (a hidden element, %s, held it)", name)
			} else if sel, named := s.Fields[l.pointer]; named {
				why = fmt.Sprintf(" (no element matched %q)", sel)
			}
			departures = append(departures, fmt.Sprintf("not shown to the person: %s%s", l.pointer, why))
			diffs = append(diffs, record.Difference{Pointer: l.pointer, Actual: record.CompactJSON(l.value)})
		case sameText(v.value) != sameText(l.text):
			departures = append(departures, fmt.Sprintf("stale or changed: %s carried %s, the person saw %q", l.pointer, record.CompactJSON(l.value), v.value))
			diffs = append(diffs, record.Difference{Pointer: l.pointer, Expected: record.CompactJSON(v.value), Actual: record.CompactJSON(l.value)})
		}
	}
	// An emptied list or object carries no value, so no leaf above stands
	// for it; it departs when the person had values under it before them.
	for _, e := range emptyPlaces(body) {
		if ignoredPlace(e.pointer, s.Ignore) {
			continue
		}
		for _, ptr := range keys(shown) {
			if strings.HasPrefix(ptr, e.pointer+"/") {
				departures = append(departures, fmt.Sprintf("emptied: %s carried %s, the person saw %s = %q under it", e.pointer, e.text, ptr, shown[ptr].value))
				diffs = append(diffs, record.Difference{Pointer: e.pointer, Expected: record.CompactJSON(shown[ptr].value), Actual: record.CompactJSON(e.value)})
				break
			}
		}
	}
	click := "the click on " + rv.Click
	if len(departures) == 0 {
		return j.pass(id, vocab.SrcNetwork, nil, nil, fmt.Sprintf("every value %s carried (%d, %d ignored) was before the person at %s", requestName(r), len(leaves)-ignored, ignored, click))
	}
	places := "1 place"
	if len(departures) > 1 {
		places = fmt.Sprintf("%d places", len(departures))
	}
	if len(s.Fields) == 0 && rv.Form == nil {
		departures = append(departures, "the clicked element is in no form: name what showed each value with fields")
	}
	// What the person saw (Expected) and what the request carried are both
	// in the record the check points at; its differences say where they part.
	return j.add(Check{ID: id, Source: vocab.SrcNetwork, Status: vocab.CheckFail, Code: vocab.SubmittedNotReviewed, Differences: cutSides(diffs),
		Message: fmt.Sprintf("%s carried what the person did not have before them at %s, in %s: %s", requestName(r), click, places, strings.Join(departures, "; "))})
}

// leaf is one scalar value of a body and the text it is compared by.
type leaf struct {
	pointer string
	value   any
	text    string
}

// scalarLeaves lists the scalar values of a document by JSON pointer, keys
// sorted: a string as it is, a number or a boolean as its JSON text, null
// as "".
func scalarLeaves(v any) []leaf {
	var out []leaf
	var walk func(tokens []string, v any)
	walk = func(tokens []string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range keys(x) {
				walk(append(slices.Clip(tokens), k), x[k])
			}
		case []any:
			for i, e := range x {
				walk(append(slices.Clip(tokens), fmt.Sprint(i)), e)
			}
		case string:
			out = append(out, leaf{record.JoinPointer(tokens...), x, x})
		case nil:
			out = append(out, leaf{record.JoinPointer(tokens...), nil, ""})
		case json.Number:
			out = append(out, leaf{record.JoinPointer(tokens...), x, x.String()})
		default:
			out = append(out, leaf{record.JoinPointer(tokens...), x, compactJSON(x)})
		}
	}
	walk(nil, v)
	return out
}

// emptyPlaces are the empty lists and objects of a document, which
// scalarLeaves does not answer.
func emptyPlaces(v any) []leaf {
	var out []leaf
	var walk func(tokens []string, v any)
	walk = func(tokens []string, v any) {
		switch x := v.(type) {
		case map[string]any:
			if len(x) == 0 && len(tokens) > 0 {
				out = append(out, leaf{record.JoinPointer(tokens...), x, "{}"})
			}
			for _, k := range keys(x) {
				walk(append(slices.Clip(tokens), k), x[k])
			}
		case []any:
			if len(x) == 0 && len(tokens) > 0 {
				out = append(out, leaf{record.JoinPointer(tokens...), x, "[]"})
			}
			for i, e := range x {
				walk(append(slices.Clip(tokens), fmt.Sprint(i)), e)
			}
		}
	}
	walk(nil, v)
	return out
}

// ignoredPlace tells whether a pattern of ignore covers ptr: the pattern's
// tokens match ptr's first tokens, each as a path.Match pattern.
func ignoredPlace(ptr string, ignore []string) bool {
	tokens, _ := record.SplitPointer(ptr)
	for _, pat := range ignore {
		pt, err := record.SplitPointer(pat)
		if err != nil || len(pt) == 0 || len(pt) > len(tokens) {
			continue
		}
		all := true
		for i, p := range pt {
			if ok, err := path.Match(p, tokens[i]); err != nil || !ok {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// formPlace is a form control's entry at its place in a body.
type formPlace struct {
	pointer, name, value string
	hidden               bool
}

// formPlaces turns a form's entries into places of a body: a name that is
// a JSON pointer as it is; a[0][b] and a.0.b as /a/0/b; any other name as
// one key. A[] takes the next index of a; a place named more than once
// becomes a list, each entry at its index in document order.
//
// literal reads each name as one key, as a form body holds it (a form post
// of user[email] carries the key "user[email]"): for a body of form data.
func formPlaces(form []scenarios.FormField, literal bool) []formPlace {
	tokens := make([][]string, len(form))
	next := map[string]int{} // a[] → the next index
	for i, f := range form {
		t := nameTokens(f.Name)
		if literal {
			t = []string{f.Name}
		}
		for k, tok := range t {
			if tok == "[]" {
				prefix := record.JoinPointer(t[:k]...)
				t[k] = fmt.Sprint(next[prefix])
				next[prefix]++
			}
		}
		tokens[i] = t
	}
	count := map[string]int{}
	for _, t := range tokens {
		count[record.JoinPointer(t...)]++
	}
	index := map[string]int{}
	out := make([]formPlace, len(form))
	for i, f := range form {
		ptr := record.JoinPointer(tokens[i]...)
		if count[ptr] > 1 {
			k := index[ptr]
			index[ptr]++
			ptr = record.JoinPointer(append(tokens[i], fmt.Sprint(k))...)
		}
		if f.File {
			// A file travels as a part whose place holds {filename: …}
			// (record.ParseBody); the person saw the file's name.
			ptr += "/filename"
		}
		out[i] = formPlace{pointer: ptr, name: f.Name, value: f.Value, hidden: f.Hidden}
	}
	return out
}

// sameText is a value as compared: a form's submission sends a textarea's
// line breaks as CRLF where the control (and so the review) holds LF.
func sameText(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

// nameTokens reads a form control's name as the tokens of a place; an
// empty bracket pair is the token "[]".
func nameTokens(name string) []string {
	if strings.HasPrefix(name, "/") {
		if t, err := record.SplitPointer(name); err == nil {
			return t
		}
	}
	if head, rest, ok := strings.Cut(name, "["); ok && head != "" && strings.HasSuffix(rest, "]") {
		t := []string{head}
		for _, part := range strings.Split(strings.TrimSuffix(rest, "]"), "][") {
			if strings.ContainsAny(part, "[]") {
				return []string{name} // not a[b][c]: one key
			}
			if part == "" {
				part = "[]"
			}
			t = append(t, part)
		}
		return t
	}
	if strings.Contains(name, ".") && !strings.HasPrefix(name, ".") && !strings.HasSuffix(name, ".") && !strings.Contains(name, "..") {
		return strings.Split(name, ".")
	}
	return []string{name}
}
