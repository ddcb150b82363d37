package judge

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

func (j *judge) judgeUI(want map[vocab.Phase][]scenarios.UI) {
	// Without its styles a page shows what it means to hide: visible
	// cannot be judged, either way. The other properties still can.
	var unstyled []string
	var unloadedRefs []scenarios.Ref
	for _, r := range j.ev.Requests.UnloadedStyles() {
		unstyled = append(unstyled, fmt.Sprintf("%s (%s)", r.URL, cmp.Or(r.Failure, r.Blocked, fmt.Sprint(r.Status))))
		if i := slices.IndexFunc(j.ev.Requests, func(q record.Request) bool { return q.Seq == r.Seq && q.ID == r.ID }); i >= 0 {
			unloadedRefs = append(unloadedRefs, scenarios.RequestRef(i))
		}
	}
	for _, phase := range keys(want) {
		snap, ok := j.ev.UI[phase]
		for i, u := range want[phase] {
			id := fmt.Sprintf("ui.%s[%d] %s", phase, i, u.Selector)
			if !ok {
				j.inconclusive(id, vocab.SrcUI, vocab.EvidenceMissing, u, nil, "the page was not recorded after "+string(phase)).at(scenarios.WindowRef(phase))
				continue
			}
			k := elementOf(snap, u)
			// The element as read, else the whole read it is missing from.
			var refs []scenarios.Ref
			if k >= 0 {
				refs = []scenarios.Ref{scenarios.UIRef(phase, k)}
			} else {
				for e := range snap {
					refs = append(refs, scenarios.UIRef(phase, e))
				}
				if len(refs) == 0 {
					refs = []scenarios.Ref{scenarios.WindowRef(phase)}
				}
			}
			if u.Visible != nil && len(unstyled) > 0 {
				j.inconclusive(id+" visible", vocab.SrcUI, vocab.PageIncomplete, *u.Visible, unstyled,
					"the page's styles did not all load, so whether it is visible cannot be judged: "+strings.Join(unstyled, ", ")).at(append(slices.Clone(refs), unloadedRefs...)...)
				u.Visible = nil
				if !u.SaysSomething() {
					continue
				}
			}
			if k < 0 {
				j.inconclusive(id, vocab.SrcUI, vocab.EvidenceMissing, u, nil, "this element was not recorded").at(refs...)
				continue
			}
			el := snap[k]
			var wrong []string
			cmpBool := func(name string, want *bool, got bool) {
				if want != nil && *want != got {
					wrong = append(wrong, fmt.Sprintf("%s is %v", name, got))
				}
			}
			cmpBool("present", u.Present, el.Present)
			cmpBool("visible", u.Visible, el.Visible)
			cmpBool("enabled", u.Enabled, el.Enabled)
			cmpBool(":tool-form-active", u.ToolFormActive, el.ToolFormActive)
			cmpBool(":tool-submit-active", u.ToolSubmitActive, el.ToolSubmitActive)
			if u.Value != nil && *u.Value != el.Value {
				wrong = append(wrong, fmt.Sprintf("value is %q", el.Value))
			}
			if u.TextContains != "" && !strings.Contains(el.Text, u.TextContains) {
				wrong = append(wrong, fmt.Sprintf("text lacks %q", u.TextContains))
			}
			if u.TextContainsState != "" {
				// Judged apart, with its own code: the page may be right
				// in every other way and still show what the server no
				// longer holds.
				j.judgeTextState(id+" text_contains_state", phase, u.TextContainsState, el, refs)
				u.TextContainsState = ""
				if !u.SaysSomething() {
					continue
				}
			}
			cmpBool("checked", u.Checked, el.Checked)
			if u.Count != nil && len(record.Diff(u.Count, el.Count, false)) > 0 {
				wrong = append(wrong, fmt.Sprintf("count is %d, not %s", el.Count, record.CompactJSON(u.Count)))
			}
			if u.Text != nil && (!el.Present || len(record.Diff(u.Text, el.Text, false)) > 0) {
				wrong = append(wrong, fmt.Sprintf("text is %q, not %s", el.Text, record.CompactJSON(u.Text)))
			}
			for _, name := range slices.Sorted(maps.Keys(u.Attributes)) {
				var got any // null: the element has no such attribute
				if v, ok := el.Attributes[name]; ok {
					got = v
				}
				if len(record.Diff(u.Attributes[name], got, false)) > 0 {
					wrong = append(wrong, fmt.Sprintf("attribute %s is %s, not %s", name, record.CompactJSON(got), record.CompactJSON(u.Attributes[name])))
				}
			}
			if len(wrong) > 0 {
				j.fail(id, vocab.SrcUI, vocab.UIMismatch, u, nil, strings.Join(wrong, "; ")).at(refs...)
			} else {
				j.pass(id, vocab.SrcUI, u, nil, "the element is as expected").at(refs...)
			}
		}
	}
}

// judgeTextState checks that the element shows the value the state read
// after the same phase holds at q. No read, or a path that selects no one
// value, is INCONCLUSIVE: the harness does not know what should show.
func (j *judge) judgeTextState(id string, phase vocab.Phase, q string, el record.Element, refs []scenarios.Ref) {
	refs = append(slices.Clone(refs), scenarios.StateRef(phase))
	got := j.ev.States[phase]
	if got == nil {
		j.inconclusive(id, vocab.SrcState, vocab.EvidenceMissing, q, nil, "the app's state after "+string(phase)+" was not read, so what the page should show is unknown").at(refs...)
		return
	}
	v, err := selectOne(q, got.Document(), got)
	if err != nil {
		j.inconclusive(id, vocab.SrcState, vocab.EvidenceMissing, q, nil, err.Error()).at(refs...)
		return
	}
	want, ok := v.(string)
	if !ok {
		want = string(record.CompactJSON(v))
	}
	switch {
	case !el.Present:
		j.fail(id, vocab.SrcUI, vocab.UINotState, want, nil, fmt.Sprintf("the element is absent; the state holds %q at %s", want, q)).at(refs...)
	case !showsValue(el.Text, want, isNumber(v)):
		j.fail(id, vocab.SrcUI, vocab.UINotState, want, el.Text, fmt.Sprintf("text %q lacks %q, which the state holds at %s", el.Text, want, q)).at(refs...)
	default:
		j.pass(id, vocab.SrcUI, want, el.Text, fmt.Sprintf("the element shows %q, as the state holds at %s", want, q)).at(refs...)
	}
}

// elementOf is the index of the element a ui expectation names in a
// phase's read: its frame and its selector (one identity, for the checks
// and the coverage's looks), -1 when the read does not hold it.
func elementOf(snap []record.Element, u scenarios.UI) int {
	return slices.IndexFunc(snap, func(e record.Element) bool { return e.Selector == u.Selector && e.Frame == u.Frame })
}
