package judge

import (
	"strings"
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
	addNet(t, ev, vocab.PhaseAgent, popupDocument("T1", "http://auth.test/signin?client=app"))
	return sc, ev
}

// popupDocument is a window's first document request, as its session
// reports it once the harness follows it from the start.
func popupDocument(window, url string) record.Request {
	return record.Request{Method: "GET", URL: url, Path: "/signin", ResourceType: "Document", Status: 200, Done: true,
		Target: &record.Target{Type: "page", ID: window, Window: window}}
}

// A window followed after its first document was asked for (an attached
// browser that another client's connection let run first) leaves the
// counts of its phase unknown: a count the log meets or falls short of is
// INCONCLUSIVE with that cause, one the log exceeds still FAILs, the
// journal decides alone when there is one, and other phases are untouched.
func TestAWindowFollowedLateLeavesItsPhasesCountsUnknown(t *testing.T) {
	late := func(t *testing.T, journal bool) (scenarios.Scenario, *scenarios.Evidence) {
		sc, ev := popupRun(t)
		dropNet(t, ev, vocab.PhaseAgent, "GET", "/signin")
		if !journal {
			ev.Capture.Observer, ev.Journal = false, nil
		}
		return sc, ev
	}
	lateCheck := func(t *testing.T, v Verdict, id string, status vocab.CheckStatus, code vocab.Code) {
		t.Helper()
		for _, c := range v.Checks {
			if c.ID == id {
				if c.Status != status || c.Code != code {
					t.Errorf("%s: %s %s, want %s %s: %s", id, c.Status, c.Code, status, code, c.Message)
				}
				if status == vocab.CheckInconclusive && !strings.Contains(c.Message, "its early requests are unknown") {
					t.Errorf("%s does not say its cause: %s", id, c.Message)
				}
				return
			}
		}
		t.Errorf("no check %s in\n%s", id, Explain(v))
	}

	// With the journal, it counts alone: the run passes.
	sc, ev := late(t, true)
	wantVerdict(t, Judge(sc, ev), vocab.Pass)

	// Without it, the agent phase's counts are unknown; the human phase's stand.
	sc, ev = late(t, false)
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Inconclusive, vocab.EvidenceMissing)
	lateCheck(t, v, "requests[0] POST /api/registrations (agent).network", vocab.CheckInconclusive, vocab.EvidenceMissing)
	lateCheck(t, v, "guarded[0] POST /api/registrations", vocab.CheckInconclusive, vocab.EvidenceMissing)
	lateCheck(t, v, "writes.agent", vocab.CheckInconclusive, vocab.EvidenceMissing)
	lateCheck(t, v, "requests[1] POST /api/registrations (human).network", vocab.CheckPass, "")

	// A write the log did record before the confirmation is a defect all the same.
	sc, ev = late(t, false)
	addNet(t, ev, vocab.PhaseAgent, req(90, "POST", "/api/registrations", 201))
	v = Judge(sc, ev)
	wantVerdict(t, v, vocab.Fail, vocab.SideEffectBeforeConfirmation, vocab.RequestCountMismatch, vocab.WriteAttempt)
	lateCheck(t, v, "requests[0] POST /api/registrations (agent).network", vocab.CheckFail, vocab.RequestCountMismatch)

	// A window that was never followed is as unknown; one followed from
	// its first request leaves every count as it was.
	sc, ev = popupRun(t)
	ev.Capture.Observer, ev.Journal = false, nil
	ev.Popups[0].Error = "set it up: Network.enable: the target's session is gone"
	lateCheck(t, Judge(sc, ev), "writes.agent", vocab.CheckInconclusive, vocab.EvidenceMissing)
	sc, ev = popupRun(t)
	ev.Capture.Observer, ev.Journal = false, nil
	wantVerdict(t, Judge(sc, ev), vocab.Pass)
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
