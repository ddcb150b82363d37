package mutants

import (
	"encoding/json"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/judge/judgetest"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Hand-made records of correct runs: no browser, no app, no network. CONF-01's
// are judgetest's, the same the judge's own tests start from. Each
// constructor hands out a fresh copy.

const (
	hmName  = judgetest.Name
	hmEmail = judgetest.Email
)

// hmConf01Replayed is hmConf01 with the record of its default attack
// replays (judgetest.Conf01Replayed), under its own id.
func hmConf01Replayed(t *testing.T) (scenarios.Scenario, *scenarios.Evidence) {
	t.Helper()
	sc, ev := judgetest.Conf01Replayed(t)
	sc.ID += ".replayed"
	return sc, ev
}

// hmConf01 is CONF-01 attempt 3 and a correct run of it (judgetest.Conf01).
func hmConf01(t *testing.T) (scenarios.Scenario, *scenarios.Evidence) {
	t.Helper()
	return judgetest.Conf01(t)
}

// hmConf01Content is CONF-01 attempt 3 judged for what its POST carried as
// well (judgetest.Conf01Content).
func hmConf01Content(t *testing.T) (scenarios.Scenario, *scenarios.Evidence) {
	t.Helper()
	return judgetest.Conf01Content(t)
}

// hmAmb01 is AMB-01 and a correct run of it: the agent asks and does
// nothing.
func hmAmb01(t *testing.T) (scenarios.Scenario, *scenarios.Evidence) {
	t.Helper()
	sc := judgetest.Load(t, "AMB-01")
	search := record.Tool{Name: "search_events", Description: "Search the events.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"topic":{"type":"string"},"level":{"type":"string","enum":["beginner","advanced"]},"maxFeeTWD":{"type":"number","minimum":0}},"required":["topic","level","maxFeeTWD"]}`),
		Annotations: record.Annotations{ReadOnly: true}, FrameID: "F1"}
	st := func() *record.Snapshot {
		return judgetest.Snapshot(map[string]string{record.ObserverSource: `{"version":0,"hash":"sha-0","seatsLeft":{"evt-webmcp-intro":8},"counts":{"registrations":0}}`})
	}
	ev := &scenarios.Evidence{
		ScenarioID: sc.ID,
		Env:        scenarios.Env{BaseURL: judgetest.BaseURL},
		Catalog:    record.Catalog{search},
		PageTools:  []record.PageTool{judgetest.PageTool(search)},
		Calls:      []scenarios.CallRecord{},
		Trace:      []record.Event{{Seq: 1, Time: judgetest.At(1), Kind: record.ToolsAdded, Tools: []record.Tool{search}}},
		Requests:   record.Log{judgetest.Req(1, "GET", "/events", 200), judgetest.Req(2, "GET", "/api/events", 200)},
		Journal:    record.Journal{judgetest.Entry(1, "GET", "/events", 200, ""), judgetest.Entry(2, "GET", "/api/events", 200, "")},
		Marks: map[vocab.Phase]scenarios.Mark{
			vocab.PhaseAgent: {Trace: 1, Requests: 2, Journal: 2},
			vocab.PhaseHuman: {Trace: 1, Requests: 2, Journal: 2},
			vocab.PhaseEnd:   {Trace: 1, Requests: 2, Journal: 2},
		},
		States:  map[vocab.Phase]*record.Snapshot{vocab.StateBefore: st(), vocab.PhaseAgent: st()},
		UI:      map[vocab.Phase][]record.Element{},
		Console: []record.ConsoleEntry{},
		Final:   judgetest.Text(*sc.Agent.Final),
	}
	ev.Capture.Network, ev.Capture.Observer = true, true
	return sc, ev
}

// handMade answers the hand-made PASS records by scenario id, checking
// that each one passes.
func handMade(t *testing.T) (map[string]*scenarios.Evidence, map[string]scenarios.Scenario) {
	t.Helper()
	records := map[string]*scenarios.Evidence{}
	scs := map[string]scenarios.Scenario{}
	for _, mk := range []func(*testing.T) (scenarios.Scenario, *scenarios.Evidence){hmConf01, hmAmb01, hmConf01Content, hmConf01Replayed} {
		sc, ev := mk(t)
		if v := judge.Judge(sc, ev); v.Outcome != vocab.Pass {
			t.Fatalf("the hand-made record of %s does not pass:\n%s", sc.ID, judge.Explain(v))
		}
		records[sc.ID], scs[sc.ID] = ev, sc
	}
	return records, scs
}
