package judge

import (
	"fmt"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// judgePopups checks the windows the page opened against expect.popups:
// each required one must have opened, no forbidden one may have. A run that
// did not follow popups says nothing about them.
func (j *judge) judgePopups(e *scenarios.PopupsExpect) {
	if e == nil {
		return
	}
	if !j.ev.Capture.Popups {
		j.inconclusive("popups", vocab.SrcUI, vocab.EvidenceMissing, nil, nil, "the run did not follow the windows the page opened: which ones opened is not recorded").
			at(scenarios.WindowRef(vocab.PhaseAll))
		return
	}
	for i, m := range e.Require {
		id := fmt.Sprintf("popups.require[%d]", i)
		if hits := j.matchingPopups(m); len(hits) > 0 {
			j.pass(id, vocab.SrcUI, m, nil, fmt.Sprintf("the page opened %s", j.ev.Popups[hits[0]].Describe())).at(popupRefs(hits)...)
			continue
		}
		j.fail(id, vocab.SrcUI, vocab.PopupMissing, m, nil,
			fmt.Sprintf("no window %s opened (%d popups in all)", describePopupMatch(m), len(j.ev.Popups))).at(j.allPopups()...)
	}
	for i, m := range e.Forbid {
		id := fmt.Sprintf("popups.forbid[%d]", i)
		hits := j.matchingPopups(m)
		if len(hits) == 0 {
			j.pass(id, vocab.SrcUI, m, nil, fmt.Sprintf("no window %s opened", describePopupMatch(m))).at(j.allPopups()...)
			continue
		}
		j.fail(id, vocab.SrcUI, vocab.UnexpectedPopup, m, nil,
			fmt.Sprintf("the page opened %s", j.ev.Popups[hits[0]].Describe())).at(popupRefs(hits)...)
	}
}

// matchingPopups answers the positions of the popups m matches.
func (j *judge) matchingPopups(m scenarios.PopupMatch) []int {
	var out []int
	for i, p := range j.ev.Popups {
		if m.Phase != "" && vocab.Phase(m.Phase) != p.Phase {
			continue
		}
		if m.URL != nil && len(record.Diff(m.URL, p.URL, false)) > 0 {
			continue
		}
		out = append(out, i)
	}
	return out
}

// allPopups points at every popup, or at the whole run when there was none.
func (j *judge) allPopups() []scenarios.Ref {
	if len(j.ev.Popups) == 0 {
		return []scenarios.Ref{scenarios.WindowRef(vocab.PhaseAll)}
	}
	return popupRefs(indexes(len(j.ev.Popups)))
}

func indexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func popupRefs(hits []int) []scenarios.Ref {
	out := make([]scenarios.Ref, len(hits))
	for i, h := range hits {
		out[i] = scenarios.PopupRef(h)
	}
	return out
}

func describePopupMatch(m scenarios.PopupMatch) string {
	var parts []string
	if m.URL != nil {
		parts = append(parts, fmt.Sprintf("with URL %v", m.URL))
	}
	if m.Phase != "" {
		parts = append(parts, "in the "+m.Phase+" phase")
	}
	if len(parts) == 0 {
		return "at all"
	}
	return strings.Join(parts, " ")
}
