package judgetest

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Confirm is a small confirmation run written out by hand, the shape
// of CONF-01 attempt 3: the page loads, the agent prepares (no request),
// the person clicks and one POST registers; the state reads at each mark
// are the harness's own requests. Times are on one clock except the
// requests', which are on a page clock running 40 s behind and jumping 3 s
// over the review window, as a virtual clock does.
func Confirm(tb testing.TB) (scenarios.Scenario, *scenarios.Evidence) {
	tb.Helper()
	sc, err := scenarios.Parse("confirm.yaml", []byte(`id: CONFIRM-01
title: prepare; the person confirms
start: /register
probes: {event: GET /api/event}
prompt: Register Ada, ada@example.org, and let me confirm.
agent:
  calls:
    - tool: prepare
      input: {name: Ada}
      expect: {status: completed, output: {code: CONFIRMATION_REQUIRED}}
  final: Please check and press Submit.
human:
  - click: "#submit"
  - wait_request: POST /api/registrations
expect:
  requests:
    - {request: POST /api/registrations, phase: agent, count: 0}
    - {request: POST /api/registrations, phase: human, count: 1, status: 201}
  guarded: [POST /api/registrations]
  state:
    agent: {unchanged: true}
    human: {equals: {$.event.seats: 7}}
  ui:
    agent:
      - {selector: "#submit", visible: true}
  answer: {must_mention: [submit]}
`))
	if err != nil {
		tb.Fatal(err)
	}
	t0 := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	page := func(ms int) time.Time { return at(ms).Add(-40 * time.Second) }
	probe := map[string]string{record.ProbeHeader: "event"}
	final := "Please check and press Submit."
	doc := func(seats int) *record.Snapshot {
		return &record.Snapshot{Docs: map[string]json.RawMessage{"event": json.RawMessage(fmt.Sprintf(`{"seats":%d}`, seats))}}
	}
	ev := &scenarios.Evidence{
		ScenarioID: "CONFIRM-01",
		Env:        scenarios.Env{BaseURL: "http://app.test"},
		Catalog:    record.Catalog{{Name: "prepare", Description: "Prepare.", InputSchema: json.RawMessage(`{"type":"object"}`)}},
		PageTools:  []record.PageTool{{Name: "prepare", Description: "Prepare.", InputSchema: json.RawMessage(`{"type":"object"}`)}},
		Trace: []record.Event{
			{Seq: 1, Time: at(20), Kind: record.ToolsAdded, Tools: []record.Tool{{Name: "prepare"}}},
			{Seq: 2, Time: at(60), Kind: record.ToolInvoked, ToolName: "prepare", InvocationID: "i1", Input: json.RawMessage(`{"name":"Ada"}`)},
			{Seq: 3, Time: at(70), Kind: record.ToolResponded, ToolName: "prepare", InvocationID: "i1", Status: "Completed", Output: json.RawMessage(`{"code":"CONFIRMATION_REQUIRED"}`)},
		},
		Requests: record.Log{
			{Seq: 1, Method: "GET", URL: "http://app.test/register", Path: "/register", Status: 200, Started: at(1)},
			{Seq: 2, Method: "GET", URL: "http://app.test/api/event", Path: "/api/event", Status: 200, Started: page(40), RequestHeaders: probe},
			{Seq: 3, Method: "GET", URL: "http://app.test/api/event", Path: "/api/event", Status: 200, Started: page(3100), RequestHeaders: probe},
			{Seq: 4, Method: "POST", URL: "http://app.test/api/registrations", Path: "/api/registrations", Status: 201, Started: page(3150)},
			{Seq: 5, Method: "GET", URL: "http://app.test/api/event", Path: "/api/event", Status: 200, Started: page(4300), RequestHeaders: probe},
		},
		Journal: record.Journal{
			{Seq: 1, Time: at(2), Method: "GET", Path: "/register", Status: 200},
			{Seq: 2, Time: at(41), Method: "GET", Path: "/api/event", Status: 200},
			{Seq: 3, Time: at(101), Method: "GET", Path: "/api/event", Status: 200},
			{Seq: 4, Time: at(151), Method: "POST", Path: "/api/registrations", Status: 201, Code: "REGISTERED"},
			{Seq: 5, Time: at(301), Method: "GET", Path: "/api/event", Status: 200},
		},
		States: map[vocab.Phase]*record.Snapshot{vocab.StateBefore: doc(8), vocab.PhaseAgent: doc(8), vocab.PhaseHuman: doc(7)},
		ProbeReads: []scenarios.ProbeRead{
			{Window: vocab.PhaseAgent, Method: "GET", Path: "/api/event"},
			{Window: vocab.PhaseHuman, Method: "GET", Path: "/api/event"},
			{Window: vocab.PhaseEnd, Method: "GET", Path: "/api/event"},
		},
		UI: map[vocab.Phase][]record.Element{vocab.PhaseAgent: {{Selector: "#submit", Present: true, Visible: true, Enabled: true}}},
		Marks: map[vocab.Phase]scenarios.Mark{
			vocab.PhaseAgent: {Trace: 1, Requests: 1, Journal: 1},
			vocab.PhaseHuman: {Trace: 3, Requests: 2, Journal: 2},
			vocab.PhaseEnd:   {Trace: 3, Requests: 4, Journal: 4},
		},
		Calls: []scenarios.CallRecord{{Phase: vocab.PhaseAgent, Index: 0, Call: sc.Agent.Calls[0], CatalogBefore: []string{"prepare"}, CatalogAfter: []string{"prepare"},
			Result: record.Result{Tool: "prepare", InvocationID: "i1", Status: vocab.Completed, Output: json.RawMessage(`{"code":"CONFIRMATION_REQUIRED"}`), Duration: 10 * time.Millisecond}}},
		Windows: []scenarios.Window{{After: vocab.PhaseAgent, PageTime: 3 * time.Second, RealTime: 20 * time.Millisecond}},
		Console: []record.ConsoleEntry{},
		Final:   &final,
	}
	ev.Capture.Network, ev.Capture.Observer = true, true
	return sc, ev
}
