package judge

import (
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// popupRun is a good CONF-01 run whose agent's call opened a sign-in
// window that closed itself.
func popupRun(t *testing.T) (scenarios.Scenario, *scenarios.Evidence) {
	t.Helper()
	sc, ev := goodConf01(t)
	ev.Capture.Popups = true
	ev.Popups = []record.Popup{{Target: "T1", URL: "http://auth.test/signin?client=app", Opener: "T0", OpenerReach: true,
		Phase: vocab.PhaseAgent, Closed: true, ClosedBy: record.ClosedByPage}}
	return sc, ev
}

func TestPopupsRequiredAndForbidden(t *testing.T) {
	judgeWith := func(e scenarios.PopupsExpect, change func(ev *scenarios.Evidence)) Verdict {
		sc, ev := popupRun(t)
		sc.Expect.Popups = &e
		if change != nil {
			change(ev)
		}
		return Judge(sc, ev)
	}
	signin := scenarios.PopupMatch{URL: map[string]any{"$pattern": "/signin"}, Phase: string(vocab.PhaseAgent)}

	v := judgeWith(scenarios.PopupsExpect{Require: []scenarios.PopupMatch{signin}, Forbid: []scenarios.PopupMatch{{Phase: "human"}}}, nil)
	wantVerdict(t, v, vocab.Pass)
	// It did not open, or opened in another phase or at another URL.
	v = judgeWith(scenarios.PopupsExpect{Require: []scenarios.PopupMatch{signin}}, func(ev *scenarios.Evidence) { ev.Popups = nil })
	wantVerdict(t, v, vocab.Fail, vocab.PopupMissing)
	if v.Diagnosis == nil || v.Diagnosis.Link != vocab.LinkPage {
		t.Errorf("diagnosis %+v, want the page link", v.Diagnosis)
	}
	v = judgeWith(scenarios.PopupsExpect{Require: []scenarios.PopupMatch{signin}}, func(ev *scenarios.Evidence) { ev.Popups[0].Phase = vocab.PhaseHuman })
	wantVerdict(t, v, vocab.Fail, vocab.PopupMissing)
	v = judgeWith(scenarios.PopupsExpect{Require: []scenarios.PopupMatch{signin}}, func(ev *scenarios.Evidence) { ev.Popups[0].URL = "http://ads.test/offer" })
	wantVerdict(t, v, vocab.Fail, vocab.PopupMissing)

	// Forbidding every popup fails on it, and passes on a page that opened none.
	v = judgeWith(scenarios.PopupsExpect{Forbid: []scenarios.PopupMatch{{}}}, nil)
	wantVerdict(t, v, vocab.Fail, vocab.UnexpectedPopup)
	v = judgeWith(scenarios.PopupsExpect{Forbid: []scenarios.PopupMatch{{}}}, func(ev *scenarios.Evidence) { ev.Popups = nil })
	wantVerdict(t, v, vocab.Pass)

	// A run that did not follow popups says nothing either way.
	v = judgeWith(scenarios.PopupsExpect{Forbid: []scenarios.PopupMatch{{}}}, func(ev *scenarios.Evidence) { ev.Capture.Popups = false; ev.Popups = nil })
	wantVerdict(t, v, vocab.Inconclusive, vocab.EvidenceMissing)

	// A popup the harness could not attach to is its fault, never the
	// app's: the required popup is then inconclusive, not missing.
	v = judgeWith(scenarios.PopupsExpect{Require: []scenarios.PopupMatch{{URL: "http://other.test/"}}}, func(ev *scenarios.Evidence) {
		ev.Popups[0].Error = "attach to it: Target.attachToTarget: context deadline exceeded"
		ev.Faults = append(ev.Faults, scenarios.WholeFault("attach to the popup http://auth.test/signin?client=app (popup 0): attach to it: …"))
	})
	wantVerdict(t, v, vocab.Inconclusive, vocab.HarnessFault)
}

// Every check's evidence points at a popup that is there.
func TestPopupChecksPointAtTheirPopups(t *testing.T) {
	sc, ev := popupRun(t)
	sc.Expect.Popups = &scenarios.PopupsExpect{Require: []scenarios.PopupMatch{{}}, Forbid: []scenarios.PopupMatch{{Phase: "agent"}}}
	v := Judge(sc, ev)
	seen := 0
	for _, c := range v.Checks {
		for _, r := range c.Evidence {
			if !ev.Resolves(r) {
				t.Errorf("check %s: %s does not resolve", c.ID, r)
			}
			if r.Kind == vocab.RefPopup {
				seen++
			}
		}
	}
	if seen != 2 {
		t.Errorf("%d popup refs, want 2\n%s", seen, Explain(v))
	}
}
