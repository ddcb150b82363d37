package judge

import (
	"fmt"
	"slices"
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

// netJoinedLate says why the network log may lack requests of a phase's
// window: a window the page opened in it whose first document is not in
// the log was followed late (another client ran it before the harness had
// its network on; an attached browser shared by two processes), or was not
// followed at all. Its early requests are unknown, not absent; "" when
// every window of the phase was followed from its first request.
func (j *judge) netJoinedLate(phase vocab.Phase) (string, []scenarios.Ref) {
	var why []string
	var refs []scenarios.Ref
	for i, p := range j.ev.Popups {
		if !inWindow(p.Phase, phase) {
			continue
		}
		switch {
		case p.Error != "":
			why = append(why, fmt.Sprintf("the window %s was not followed (%s)", p.Describe(), p.Error))
		case p.URL != "" && !j.hasDocumentOf(p.Target):
			why = append(why, fmt.Sprintf("the window %s was followed after its first document was asked for", p.Describe()))
		default:
			continue
		}
		refs = append(refs, scenarios.PopupRef(i))
	}
	return strings.Join(why, "; "), refs
}

// hasDocumentOf tells whether the log holds a document request of the
// window (its own, not a frame's).
func (j *judge) hasDocumentOf(window string) bool {
	return slices.ContainsFunc(j.ev.Requests, func(r record.Request) bool {
		return r.ResourceType == "Document" && r.Target != nil && r.Target.Window == window && r.Target.ID == window
	})
}
