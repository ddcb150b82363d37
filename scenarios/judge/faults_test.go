package judge

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Issue 43 item 1: a fault covers the checks whose evidence it may have
// cut, not the whole record. The known-bad case: CONF-01 whose agent
// registered (its POST in the agent's window), and whose person's click
// then timed out, exactly because the agent had already submitted.
func TestAFaultIsScopedToTheChecksItTouched(t *testing.T) {
	agentPosts := func(t *testing.T, ev *scenarios.Evidence) {
		addNet(t, ev, vocab.PhaseAgent, dropNet(t, ev, vocab.PhaseHuman, "POST", "/api/registrations"))
		addJournal(t, ev, vocab.PhaseAgent, dropJournal(t, ev, vocab.PhaseHuman, "POST", "/api/registrations"))
	}
	const click = "human step 0 (click): context deadline exceeded"
	for _, tt := range []struct {
		name    string
		fault   scenarios.Fault
		posts   bool
		outcome vocab.Outcome
		codes   []vocab.Code
	}{
		{"the agent posted, then the person's click timed out", scenarios.FaultFrom(vocab.PhaseHuman, click), true,
			vocab.Fail, []vocab.Code{vocab.SideEffectBeforeConfirmation, vocab.WriteAttempt}},
		{"the same fault without a place (a bundle before issue 43)", scenarios.WholeFault(click), true,
			vocab.Inconclusive, []vocab.Code{vocab.HarnessFault}},
		{"a fault from the agent's phase covers the agent's window", scenarios.FaultFrom(vocab.PhaseAgent, "agent call 0 (prepare_event_registration): no such frame"), true,
			vocab.Inconclusive, []vocab.Code{vocab.HarnessFault}},
		{"a correct run with the person's click timed out", scenarios.FaultFrom(vocab.PhaseHuman, click), false,
			vocab.Inconclusive, []vocab.Code{vocab.HarnessFault}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sc, ev := goodConf01(t)
			if tt.posts {
				agentPosts(t, ev)
			}
			ev.Faults = []scenarios.Fault{tt.fault}
			v := Judge(sc, ev)
			if v.Outcome != tt.outcome {
				t.Fatalf("verdict %s %v, want %s\n%s", v.Outcome, v.Codes, tt.outcome, Explain(v))
			}
			for _, c := range tt.codes {
				if !slices.Contains(v.Codes, c) {
					t.Errorf("verdict %v lacks %s\n%s", v.Codes, c, Explain(v))
				}
			}
			// The fault is listed, whatever the outcome.
			if !slices.ContainsFunc(v.Checks, func(c Check) bool { return c.ID == "harness[0]" && c.Status == vocab.CheckInconclusive }) {
				t.Errorf("the fault is not among the checks:\n%s", Explain(v))
			}
			// Every check the fault touches that would fail is inconclusive.
			for _, c := range v.Checks {
				if c.Status == vocab.CheckFail && slices.ContainsFunc(c.Evidence, func(r scenarios.Ref) bool { return ev.Touches(tt.fault, r) }) {
					t.Errorf("%s fails on evidence the fault touches (%v)", c.ID, c.Evidence)
				}
			}
			assertDeterministic(t, sc, ev)
		})
	}
}

// RefPhase places what a check points at in the run's order; what it
// cannot place (marks out of order, a dialog) a placed fault touches.
func TestAReferenceIsPlacedInItsPhase(t *testing.T) {
	_, ev := goodConf01(t)
	agent, human := ev.Marks[vocab.PhaseAgent], ev.Marks[vocab.PhaseHuman]
	for _, tt := range []struct {
		ref  scenarios.Ref
		want vocab.Phase
		ok   bool
	}{
		{scenarios.CatalogRef(), vocab.PhaseSetup, true},
		{scenarios.RequestRef(agent.Requests - 1), vocab.PhaseSetup, true},
		{scenarios.RequestRef(agent.Requests), vocab.PhaseAgent, true},
		{scenarios.RequestRef(human.Requests), vocab.PhaseHuman, true},
		{scenarios.JournalRef(human.Journal), vocab.PhaseHuman, true},
		{scenarios.TraceRef(human.Trace - 1), vocab.PhaseAgent, true},
		{scenarios.StateRef(vocab.StateBefore), vocab.StateBefore, true},
		{scenarios.StateRef(vocab.PhaseAgent), vocab.PhaseAgent, true},
		{scenarios.WindowRef(vocab.PhaseAll), vocab.PhaseAll, true},
		{scenarios.FinalRef(), vocab.PhaseAgent, true},
		{scenarios.DialogRef(0), "", false},
	} {
		got, ok := ev.RefPhase(tt.ref)
		if got != tt.want || ok != tt.ok {
			t.Errorf("RefPhase(%s) = %q, %v; want %q, %v", tt.ref, got, ok, tt.want, tt.ok)
		}
	}
	human.Journal = 0 // a read that failed
	ev.Marks[vocab.PhaseHuman] = human
	if _, ok := ev.RefPhase(scenarios.JournalRef(0)); ok {
		t.Error("a journal entry placed by marks out of order")
	}
	if !ev.Touches(scenarios.FaultFrom(vocab.PhaseEnd, "x"), scenarios.DialogRef(0)) {
		t.Error("a placed fault does not touch what cannot be placed")
	}
	if ev.Touches(scenarios.FaultFrom(vocab.PhaseHuman, "x"), scenarios.StateRef(vocab.StateBefore)) {
		t.Error("a fault from the person's phase touches the state before the agent")
	}
}

// A fault without a place is written as the string every earlier bundle
// held (the same bytes); a placed one as an object; both read back, and
// anything else is refused.
func TestAFaultIsWrittenAsEarlierBundlesHeldIt(t *testing.T) {
	for _, tt := range []struct {
		f    scenarios.Fault
		json string
	}{
		{scenarios.WholeFault("open the start page: refused"), `"open the start page: refused"`},
		{scenarios.FaultFrom(vocab.PhaseHuman, "human step 0 (click): timeout"), `{"fault":"human step 0 (click): timeout","from":"human"}`},
	} {
		b, err := json.Marshal(tt.f)
		if err != nil || string(b) != tt.json {
			t.Errorf("Marshal(%+v) = %s, %v; want %s", tt.f, b, err, tt.json)
		}
		var back scenarios.Fault
		if err := json.Unmarshal(b, &back); err != nil || back != tt.f {
			t.Errorf("Unmarshal(%s) = %+v, %v", b, back, err)
		}
	}
	for _, bad := range []string{`{"from":"human"}`, `3`, `["x"]`} {
		var f scenarios.Fault
		if err := json.Unmarshal([]byte(bad), &f); err == nil {
			t.Errorf("Unmarshal(%s) = %+v, want an error", bad, f)
		}
	}
}

// Issue 43 item 2: a same-origin frame whose getTools() never settled
// leaves its tools out of the top document's getTools(): the agreement is
// unknown for them, not a disagreement; the other tools are still held to
// each other.
func TestAFrameWhoseGetToolsHungIsNoDisagreement(t *testing.T) {
	framed := func(t *testing.T) (scenarios.Scenario, *scenarios.Evidence) {
		sc, ev := goodConf01(t)
		tool := ev.Catalog[0]
		tool.Name, tool.FrameID, tool.Frame = "demo_search", "F-DEMO", "https://localhost:8443/demo/frame"
		ev.Catalog = append(ev.Catalog, tool) // the protocol saw it; getTools() did not list it
		return sc, ev
	}
	agreement := func(t *testing.T, v Verdict) Check {
		t.Helper()
		for _, c := range v.Checks {
			if c.ID == "catalog.agreement" {
				return c
			}
		}
		t.Fatalf("no catalog.agreement:\n%s", Explain(v))
		return Check{}
	}
	sc, ev := framed(t)
	if c := agreement(t, Judge(sc, ev)); c.Status != vocab.CheckFail || c.Code != vocab.EvidenceDisagrees {
		t.Errorf("a frame's tool getTools() left out, no hang recorded: %s %s", c.Status, c.Code)
	}
	ev.PageToolsHung = []string{"F-DEMO"}
	if c := agreement(t, Judge(sc, ev)); c.Status != vocab.CheckInconclusive || c.Code != vocab.HarnessFault || !strings.Contains(c.Message, "demo_search") {
		t.Errorf("the same with the frame's getTools() hung: %s %s %s", c.Status, c.Code, c.Message)
	}
	ev.PageTools[0].Description = "Register now."
	if c := agreement(t, Judge(sc, ev)); c.Status != vocab.CheckFail || c.Code != vocab.EvidenceDisagrees {
		t.Errorf("a hung frame does not excuse the top document's own difference: %s %s", c.Status, c.Code)
	}
}

// Issue 43 item 7: a request the browser had sent when the end mark was
// taken, which the app had not yet seen arrive, lies before the mark in
// the network log and after it in the journal. Recorded as in flight at
// the mark, it is placed by its start in both witnesses: no disagreement.
func TestARequestInFlightAtAMarkIsPlacedByItsStart(t *testing.T) {
	late := func(t *testing.T, inFlight bool) (scenarios.Scenario, *scenarios.Evidence) {
		sc, ev := goodConf01(t)
		e := dropJournal(t, ev, vocab.PhaseHuman, "POST", "/api/registrations")
		ev.Journal = append(ev.Journal, e) // it arrived after the end mark's read
		if inFlight {
			end := ev.Marks[vocab.PhaseEnd]
			end.InFlight = []int{slices.IndexFunc(ev.Requests, func(r record.Request) bool { return r.Method == "POST" && r.Path == "/api/registrations" })}
			ev.Marks[vocab.PhaseEnd] = end
		}
		return sc, ev
	}
	sc, ev := late(t, false)
	wantVerdict(t, Judge(sc, ev), vocab.Fail, vocab.EvidenceDisagrees)
	sc, ev = late(t, true)
	wantVerdict(t, Judge(sc, ev), vocab.Pass)
}

// The second read's cases: an in-flight request that failed without an
// answer may never have reached the app, and the human phase's own request
// of the same kind is not its entry; nor is an entry two windows later.
func TestAnInFlightRequestTakesNoOtherRequestsEntry(t *testing.T) {
	sc, ev := goodConf01(t)
	slow := req(8, "GET", "/api/slow", 0)
	slow.Failure = "net::ERR_ABORTED"
	addNet(t, ev, vocab.PhaseAgent, slow)
	human := ev.Marks[vocab.PhaseHuman]
	human.InFlight = []int{human.Requests - 1}
	ev.Marks[vocab.PhaseHuman] = human
	addNet(t, ev, vocab.PhaseHuman, req(9, "GET", "/api/slow", 200))
	addJournal(t, ev, vocab.PhaseHuman, entry(8, "GET", "/api/slow", 200, ""))
	wantVerdict(t, Judge(sc, ev), vocab.Pass)
}
