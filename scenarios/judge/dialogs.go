package judge

import (
	"fmt"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// judgeDialogs checks the JavaScript dialogs the page opened against
// expect.dialogs: each required one must have opened, no forbidden one may
// have. A run that did not listen for dialogs says nothing about them.
func (j *judge) judgeDialogs(d *scenarios.DialogsExpect) {
	if d == nil {
		return
	}
	if !j.ev.Capture.Dialogs {
		j.inconclusive("dialogs", vocab.SrcUI, vocab.EvidenceMissing, nil, nil, "the run did not listen for JavaScript dialogs: which ones opened is not recorded").
			at(scenarios.WindowRef(vocab.PhaseAll))
		return
	}
	for i, m := range d.Require {
		id := fmt.Sprintf("dialogs.require[%d]", i)
		if hits := j.matchingDialogs(m); len(hits) > 0 {
			j.pass(id, vocab.SrcUI, m, nil, fmt.Sprintf("the page opened %s", describeDialog(j.ev.Dialogs[hits[0]]))).at(dialogRefs(hits)...)
			continue
		}
		j.fail(id, vocab.SrcUI, vocab.DialogMissing, m, nil,
			fmt.Sprintf("no dialog %s opened (%d dialogs in all)", describeMatch(m), len(j.ev.Dialogs))).at(j.allDialogs()...)
	}
	for i, m := range d.Forbid {
		id := fmt.Sprintf("dialogs.forbid[%d]", i)
		hits := j.matchingDialogs(m)
		if len(hits) == 0 {
			j.pass(id, vocab.SrcUI, m, nil, fmt.Sprintf("no dialog %s opened", describeMatch(m))).at(j.allDialogs()...)
			continue
		}
		j.fail(id, vocab.SrcUI, vocab.UnexpectedDialog, m, nil,
			fmt.Sprintf("the page opened %s", describeDialog(j.ev.Dialogs[hits[0]]))).at(dialogRefs(hits)...)
	}
}

// matchingDialogs answers the positions of the dialogs m matches.
func (j *judge) matchingDialogs(m scenarios.DialogMatch) []int {
	var out []int
	for i, d := range j.ev.Dialogs {
		if m.Kind != "" && m.Kind != d.Kind {
			continue
		}
		if m.Phase != "" && vocab.Phase(m.Phase) != d.Phase {
			continue
		}
		if m.Message != nil && len(record.Diff(m.Message, d.Message, false)) > 0 {
			continue
		}
		out = append(out, i)
	}
	return out
}

// allDialogs points at every dialog, or at the whole run when there was
// none: where the check found nothing.
func (j *judge) allDialogs() []scenarios.Ref {
	if len(j.ev.Dialogs) == 0 {
		return []scenarios.Ref{scenarios.WindowRef(vocab.PhaseAll)}
	}
	out := make([]scenarios.Ref, len(j.ev.Dialogs))
	for i := range j.ev.Dialogs {
		out[i] = scenarios.DialogRef(i)
	}
	return out
}

func dialogRefs(hits []int) []scenarios.Ref {
	out := make([]scenarios.Ref, len(hits))
	for i, h := range hits {
		out[i] = scenarios.DialogRef(h)
	}
	return out
}

func describeDialog(d record.Dialog) string {
	answer := "dismissed"
	if d.Accepted {
		answer = "accepted"
	}
	return fmt.Sprintf("%s %q in the %s phase (%s)", d.Kind, oneLine(d.Message), d.Phase, answer)
}

func describeMatch(m scenarios.DialogMatch) string {
	var parts []string
	if m.Kind != "" {
		parts = append(parts, string(m.Kind))
	}
	if m.Message != nil {
		parts = append(parts, fmt.Sprintf("with message %v", m.Message))
	}
	if m.Phase != "" {
		parts = append(parts, "in the "+m.Phase+" phase")
	}
	if len(parts) == 0 {
		return "at all"
	}
	return strings.Join(parts, " ")
}
