package report

import (
	"fmt"
	"strings"

	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// replayRows list the attack replays the suite sent after the run's
// records, each with what it sent, how the app answered and what the state
// read after it changed: they come after everything the run recorded.
func (t *timeline) replayRows() {
	rp := t.ev.Replays
	if rp == nil {
		return
	}
	for _, c := range rp.Controls {
		t.add(Row{Phase: vocab.PhaseEnd, Kind: RowReplay, Who: "harness", What: fmt.Sprintf("control of %s, as the person: %s", c.Request, sentWords(c.Sent)),
			Detail: strings.Join(c.Changes, "; "), File: bundle.RunFile})
	}
	for i, run := range rp.Runs {
		what := fmt.Sprintf("replay %s of %s", run.Kind, run.Request)
		var detail []string
		bad := run.Fault != ""
		switch {
		case run.Fault != "":
			what += ": not performed"
			detail = append(detail, run.Fault)
		case run.Skipped != "":
			what += ": skipped"
			detail = append(detail, run.Skipped)
		default:
			what += ": " + sentWords(run.Sent)
			detail = append(detail, run.Changes...)
			if run.Clock != "" {
				detail = append(detail, "the app's clock moved on "+run.Clock)
			}
		}
		t.add(Row{Phase: vocab.PhaseEnd, Kind: RowReplay, Who: "harness", What: what, Detail: strings.Join(detail, "; "), Bad: bad,
			File: bundle.RunFile, refs: []scenarios.Ref{scenarios.ReplayRef(i)}})
	}
}

// sentWords says what a replay sent and how each was answered.
func sentWords(sent []scenarios.ReplaySend) string {
	var answers []string
	for _, s := range sent {
		a := fmt.Sprintf("%s %s → %d", s.Method, s.Path, s.Status)
		if c := s.AnswerCode(); c != "" {
			a += " " + c
		}
		if s.Error != "" {
			a += " (" + s.Error + ")"
		}
		if s.Prerequisite {
			a = "first " + a
		}
		answers = append(answers, a)
	}
	return strings.Join(answers, "; ")
}
