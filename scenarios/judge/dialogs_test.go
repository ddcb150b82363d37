package judge

import (
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// dialogRun is a good CONF-01 run whose page confirmed the registration
// with a dialog the agent's call opened.
func dialogRun(t *testing.T) (scenarios.Scenario, *scenarios.Evidence) {
	t.Helper()
	sc, ev := goodConf01(t)
	ev.Capture.Dialogs = true
	ev.Dialogs = []record.Dialog{
		{Kind: vocab.DialogAlert, Message: "Welcome!", URL: "http://app.test/", Phase: vocab.PhaseSetup},
		{Kind: vocab.DialogConfirm, Message: "Delete notes.txt?", URL: "http://app.test/", Phase: vocab.PhaseAgent, Accepted: true},
	}
	return sc, ev
}

func TestDialogsRequiredAndForbidden(t *testing.T) {
	judgeWith := func(d scenarios.DialogsExpect, change func(ev *scenarios.Evidence)) Verdict {
		sc, ev := dialogRun(t)
		sc.Expect.Dialogs = &d
		if change != nil {
			change(ev)
		}
		return Judge(sc, ev)
	}
	confirmDelete := scenarios.DialogMatch{Kind: vocab.DialogConfirm, Message: map[string]any{"$pattern": "(?i)^delete"}, Phase: string(vocab.PhaseAgent)}

	v := judgeWith(scenarios.DialogsExpect{Require: []scenarios.DialogMatch{confirmDelete}, Forbid: []scenarios.DialogMatch{{Kind: vocab.DialogBeforeUnload}}}, nil)
	wantVerdict(t, v, vocab.Pass)

	// The required dialog did not open: its own code, placed at the page.
	v = judgeWith(scenarios.DialogsExpect{Require: []scenarios.DialogMatch{confirmDelete}}, func(ev *scenarios.Evidence) { ev.Dialogs = ev.Dialogs[:1] })
	wantVerdict(t, v, vocab.Fail, vocab.DialogMissing)
	if v.Diagnosis == nil || v.Diagnosis.Link != vocab.LinkPage {
		t.Errorf("diagnosis %+v, want the page link", v.Diagnosis)
	}
	// It opened, but in another phase, or with another message.
	v = judgeWith(scenarios.DialogsExpect{Require: []scenarios.DialogMatch{confirmDelete}}, func(ev *scenarios.Evidence) { ev.Dialogs[1].Phase = vocab.PhaseHuman })
	wantVerdict(t, v, vocab.Fail, vocab.DialogMissing)
	v = judgeWith(scenarios.DialogsExpect{Require: []scenarios.DialogMatch{confirmDelete}}, func(ev *scenarios.Evidence) { ev.Dialogs[1].Message = "Keep it?" })
	wantVerdict(t, v, vocab.Fail, vocab.DialogMissing)

	// Forbidding every dialog fails on the alert at load.
	v = judgeWith(scenarios.DialogsExpect{Forbid: []scenarios.DialogMatch{{}}}, nil)
	wantVerdict(t, v, vocab.Fail, vocab.UnexpectedDialog)
	// ... and passes on a page that opened none.
	v = judgeWith(scenarios.DialogsExpect{Forbid: []scenarios.DialogMatch{{}}}, func(ev *scenarios.Evidence) { ev.Dialogs = nil })
	wantVerdict(t, v, vocab.Pass)
	// Forbidding by kind: only that kind fails.
	v = judgeWith(scenarios.DialogsExpect{Forbid: []scenarios.DialogMatch{{Kind: vocab.DialogPrompt}}}, nil)
	wantVerdict(t, v, vocab.Pass)
	v = judgeWith(scenarios.DialogsExpect{Forbid: []scenarios.DialogMatch{{Kind: vocab.DialogAlert, Phase: string(vocab.PhaseSetup)}}}, nil)
	wantVerdict(t, v, vocab.Fail, vocab.UnexpectedDialog)

	// A run that did not listen says nothing either way: never a PASS of "none".
	v = judgeWith(scenarios.DialogsExpect{Forbid: []scenarios.DialogMatch{{}}}, func(ev *scenarios.Evidence) { ev.Capture.Dialogs = false; ev.Dialogs = nil })
	wantVerdict(t, v, vocab.Inconclusive, vocab.EvidenceMissing)

	// A harness fault fails nothing: the missing dialog is inconclusive.
	v = judgeWith(scenarios.DialogsExpect{Require: []scenarios.DialogMatch{confirmDelete}}, func(ev *scenarios.Evidence) {
		ev.Dialogs = nil
		ev.Faults = append(ev.Faults, scenarios.WholeFault("the page could not be read"))
	})
	if v.Outcome != vocab.Inconclusive {
		t.Errorf("a missing dialog with a harness fault is %s, want INCONCLUSIVE\n%s", v.Outcome, Explain(v))
	}
}

// Every check's evidence points at a dialog that is there.
func TestDialogChecksPointAtTheirDialogs(t *testing.T) {
	sc, ev := dialogRun(t)
	sc.Expect.Dialogs = &scenarios.DialogsExpect{Require: []scenarios.DialogMatch{{Kind: vocab.DialogConfirm}}, Forbid: []scenarios.DialogMatch{{Kind: vocab.DialogAlert}}}
	v := Judge(sc, ev)
	seen := 0
	for _, c := range v.Checks {
		for _, r := range c.Evidence {
			if !ev.Resolves(r) {
				t.Errorf("check %s: %s does not resolve", c.ID, r)
			}
			if r.Kind == vocab.RefDialog {
				seen++
			}
		}
	}
	if seen != 2 {
		t.Errorf("%d dialog refs, want 2\n%s", seen, Explain(v))
	}
}
