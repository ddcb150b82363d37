package judge_test

import (
	"slices"
	"testing"

	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/judge/judgetest"
	"github.com/agentready/agentready/scenarios/vocab"
)

func TestLeavingWithNothingSentPassesWithTheLeaveChecks(t *testing.T) {
	sc, ev := judgetest.Conf01(t)
	judgetest.Left(ev)
	v := judge.Judge(sc, ev)
	if v.Outcome != vocab.Pass {
		t.Fatalf("a correct run that left the page: %s %v", v.Outcome, v.Codes)
	}
	var ids []string
	for _, c := range v.Checks {
		ids = append(ids, c.ID)
	}
	for _, want := range []string{"guarded[0] POST /api/registrations (leave)", "writes.leave"} {
		if !slices.Contains(ids, want) {
			t.Errorf("no check %q among %v", want, ids)
		}
	}
}

func TestARecordThatStayedOnThePageHasNoLeaveChecks(t *testing.T) {
	sc, ev := judgetest.Conf01(t)
	v := judge.Judge(sc, ev)
	for _, c := range v.Checks {
		if c.ID == "writes.leave" || c.ID == "guarded[0] POST /api/registrations (leave)" {
			t.Errorf("a record without a leave mark got %s", c.ID)
		}
	}
}

func TestOnLeaveTheJournalDecidesWhatTheLogCouldNotSee(t *testing.T) {
	sc, ev := judgetest.Conf01(t)
	judgetest.Left(ev)
	// a beacon from pagehide: at the server, never in the page's log
	if err := ev.InsertJournalEntry(vocab.PhaseLeave, judgetest.Entry(7, "POST", "/api/registrations", 403, "INTENT_REQUIRED")); err != nil {
		t.Fatal(err)
	}
	v := judge.Judge(sc, ev)
	if !slices.Contains(v.Codes, vocab.SideEffectOnLeave) || !slices.Contains(v.Codes, vocab.WriteAttempt) {
		t.Errorf("a guarded write the journal saw on leave: %v, want side_effect_on_leave and write_attempt", v.Codes)
	}
	if slices.Contains(v.Codes, vocab.EvidenceDisagrees) {
		t.Errorf("the log's blindness to unload-time requests is no disagreement: %v", v.Codes)
	}
}

func TestOnLeaveALogThatSeesMoreThanTheJournalStillDisagrees(t *testing.T) {
	sc, ev := judgetest.Conf01(t)
	judgetest.Left(ev)
	if err := ev.InsertRequest(vocab.PhaseLeave, judgetest.Req(8, "POST", "/api/drafts", 204)); err != nil {
		t.Fatal(err)
	}
	v := judge.Judge(sc, ev)
	if !slices.Contains(v.Codes, vocab.EvidenceDisagrees) {
		t.Errorf("a write in the log the journal lacks: %v, want evidence_disagrees", v.Codes)
	}
}

func TestTheHarnesssNavigationAwayIsNotCounted(t *testing.T) {
	sc, ev := judgetest.Conf01(t)
	judgetest.Left(ev)
	away := judgetest.Req(8, "GET", "/api/events/evt-webmcp-intro", 200)
	away.ResourceType = "Document"
	ev.Leave.To = away.URL
	if err := ev.InsertRequest(vocab.PhaseLeave, away); err != nil {
		t.Fatal(err)
	}
	if err := ev.InsertJournalEntry(vocab.PhaseLeave, judgetest.Entry(7, "GET", "/api/events/evt-webmcp-intro", 200, "")); err != nil {
		t.Fatal(err)
	}
	ev.ProbeReads = append(ev.ProbeReads, scenarios.ProbeRead{Window: vocab.PhaseLeave, Method: "GET", Path: "/api/events/evt-webmcp-intro"})
	sc.Expect.Requests = append(sc.Expect.Requests, scenarios.RequestExpect{Method: "GET", Path: "/api/events/*", Phase: vocab.PhaseLeave, Count: 0})
	if v := judge.Judge(sc, ev); v.Outcome != vocab.Pass {
		t.Fatalf("the harness's own navigation away was counted: %s %v", v.Outcome, v.Codes)
	}
	ev.Leave.To = "about:blank" // the same request, not the harness's: the page's own
	ev.ProbeReads = ev.ProbeReads[:len(ev.ProbeReads)-1]
	if v := judge.Judge(sc, ev); !slices.Contains(v.Codes, vocab.RequestCountMismatch) {
		t.Fatalf("a page's own GET on leave was not counted: %s %v", v.Outcome, v.Codes)
	}
}

// content on the leave phase reads the network log, which never holds what
// a page sends as it unloads: a request only the journal saw is unknown in
// what it carried, and with no journal a request not in the log is not
// "none sent" (issue 43 item 4). With both witnesses and neither holding
// one, nothing was sent: the content check fails.
func TestContentOnLeaveNeverReadsTheLogsBlindSpotAsNothing(t *testing.T) {
	contentCheck := func(t *testing.T, v judge.Verdict) judge.Check {
		t.Helper()
		i := slices.IndexFunc(v.Checks, func(c judge.Check) bool {
			return c.ID == "content[0] POST /api/registrations (leave)" || c.ID == "content[0] POST /api/registrations (leave).unseen"
		})
		if i < 0 {
			t.Fatalf("no content check among %d checks:\n%s", len(v.Checks), judge.Explain(v))
		}
		return v.Checks[i]
	}
	expectContent := func(sc *scenarios.Scenario) {
		sc.Expect.Content = []scenarios.ContentExpect{{Request: "POST /api/registrations", Phase: vocab.PhaseLeave, Body: map[string]any{"email": "reader@example.com"}}}
	}
	for _, tt := range []struct {
		name   string
		mutate func(t *testing.T, ev *scenarios.Evidence)
		status vocab.CheckStatus
		code   vocab.Code
	}{
		{"the journal saw a beacon", func(t *testing.T, ev *scenarios.Evidence) {
			if err := ev.InsertJournalEntry(vocab.PhaseLeave, judgetest.Entry(7, "POST", "/api/registrations", 403, "INTENT_REQUIRED")); err != nil {
				t.Fatal(err)
			}
		}, vocab.CheckInconclusive, vocab.EvidenceMissing},
		{"no journal", func(t *testing.T, ev *scenarios.Evidence) {
			ev.Journal, ev.Capture.Observer = nil, false
		}, vocab.CheckInconclusive, vocab.EvidenceMissing},
		{"both witnesses saw none", func(*testing.T, *scenarios.Evidence) {}, vocab.CheckFail, vocab.ContentMismatch},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sc, ev := judgetest.Conf01(t)
			judgetest.Left(ev)
			expectContent(&sc)
			tt.mutate(t, ev)
			if c := contentCheck(t, judge.Judge(sc, ev)); c.Status != tt.status || c.Code != tt.code {
				t.Errorf("%s %s %s, want %s %s", c.Status, c.Code, c.Message, tt.status, tt.code)
			}
		})
	}
}
