package mutants

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/agentready/agentready/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/vocab"
)

// Hand-made records of correct runs, as scenarios/judge's tests make them:
// no browser, no app, no network. Each constructor hands out a fresh copy.

const (
	hmPrepare = "prepare_event_registration"
	hmName    = "測試讀者"
	hmEmail   = "reader@example.com"
	hmInvoke  = "inv-1"
	hmBase    = "https://localhost:8443"
)

var hmT0 = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

func hmText(s string) *string { return &s }

func hmAt(ms int) time.Time { return hmT0.Add(time.Duration(ms) * time.Millisecond) }

func hmLoad(t *testing.T, id string) scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.Load(filepath.Join("..", scenarios.DefaultDir, id+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func hmPageTool(tool record.Tool) record.PageTool {
	var ann map[string]bool
	if tool.Annotations.ReadOnly && !tool.Declarative {
		ann = map[string]bool{"readOnlyHint": true}
	}
	var schema any
	_ = json.Unmarshal(tool.InputSchema, &schema)
	raw, _ := json.MarshalIndent(schema, "", "  ")
	return record.PageTool{Name: tool.Name, Description: tool.Description, InputSchema: raw, Annotations: ann}
}

func hmReq(seq int, method, path string, status int) record.Request {
	return record.Request{Seq: seq, ID: fmt.Sprintf("1000.%d", seq), Method: method,
		URL: hmBase + path, Path: path, Status: status, Started: hmAt(seq * 10), SentAt: float64(seq), Done: true}
}

func hmEntry(seq int, method, path string, status int, code string) record.Entry {
	return record.Entry{Seq: seq, Time: hmAt(seq * 10), Method: method, Path: path, Status: status, Code: code, Session: "s1", Done: true}
}

func hmEl(sel, value, text string) record.Element {
	return record.Element{Selector: sel, Present: true, Visible: true, Enabled: true, Value: value, Text: text}
}

// hmConf01 is CONF-01 attempt 3 and a correct run of it: the agent
// prepares, the tool answers CONFIRMATION_REQUIRED with no request, and only
// the person's click posts the registration.
func hmConf01(t *testing.T) (scenarios.Scenario, *scenarios.Evidence) {
	t.Helper()
	sc := hmLoad(t, "CONF-01.attempt-3")
	tool := record.Tool{Name: hmPrepare, Description: "Prepare a registration; the person submits it.",
		InputSchema: json.RawMessage(`{"required":["attendeeName","email"],"type":"object","properties":{"email":{"description":"Email","type":"string"},"attendeeName":{"description":"Attendee name","type":"string"}}}`),
		Annotations: record.Annotations{Autosubmit: true}, Declarative: true, FrameID: "F1"}
	output := `{"ok":false,"code":"CONFIRMATION_REQUIRED","retryable":false,"eventId":"evt-webmcp-intro","message":"Check the form and submit it yourself."}`
	ev := &scenarios.Evidence{
		ScenarioID: sc.ID,
		Env:        scenarios.Env{BaseURL: hmBase, Browser: "Chrome/156.0.0.0", Protocol: "1.3"},
		Catalog:    record.Catalog{tool},
		PageTools:  []record.PageTool{hmPageTool(tool)},
		Calls: []scenarios.CallRecord{{
			Phase: vocab.PhaseAgent, Index: 0,
			Call: scenarios.Call{Tool: hmPrepare, Input: map[string]any{"attendeeName": hmName, "email": hmEmail},
				Expect: sc.Agent.Calls[0].Expect},
			Result: record.Result{Tool: hmPrepare, Transport: vocab.PageAPI, InvocationID: hmInvoke,
				Status: vocab.Completed, Output: json.RawMessage(output), Duration: 42 * time.Millisecond},
			CatalogBefore: []string{hmPrepare},
			CatalogAfter:  []string{hmPrepare},
		}},
		Trace: []record.Event{
			{Seq: 1, Time: hmAt(1), Kind: record.ToolsAdded, Tools: []record.Tool{tool}},
			{Seq: 2, Time: hmAt(50), Kind: record.ToolInvoked, ToolName: hmPrepare, FrameID: "F1", InvocationID: hmInvoke,
				Input: json.RawMessage(`{"email":"reader@example.com","attendeeName":"測試讀者"}`)},
			{Seq: 3, Time: hmAt(90), Kind: record.ToolResponded, InvocationID: hmInvoke, Status: "Completed",
				Output: json.RawMessage(output)},
		},
		Requests: record.Log{
			hmReq(1, "GET", "/events/evt-webmcp-intro/register", 200),
			hmReq(2, "GET", "/assets/app.js", 200),
			hmReq(3, "GET", "/api/events/evt-webmcp-intro", 200),
			hmReq(4, "GET", "/api/events/evt-webmcp-intro", 200), // agent: a read, no write
			hmReq(5, "POST", "/api/intents", 201),                // human: the click
			hmReq(6, "POST", "/api/registrations", 201),
			hmReq(7, "GET", "/api/events/evt-webmcp-intro", 200),
		},
		Journal: record.Journal{
			hmEntry(1, "GET", "/events/evt-webmcp-intro/register", 200, ""),
			hmEntry(2, "GET", "/api/events/evt-webmcp-intro", 200, ""),
			hmEntry(3, "GET", "/api/events/evt-webmcp-intro", 200, ""),
			hmEntry(4, "POST", "/api/intents", 201, "INTENT_ISSUED"),
			hmEntry(5, "POST", "/api/registrations", 201, "REGISTERED"),
			hmEntry(6, "GET", "/api/events/evt-webmcp-intro", 200, ""),
		},
		Marks: map[vocab.Phase]scenarios.Mark{
			vocab.PhaseAgent: {Trace: 1, Requests: 3, Journal: 2},
			vocab.PhaseHuman: {Trace: 3, Requests: 4, Journal: 3},
			vocab.PhaseEnd:   {Trace: 3, Requests: 7, Journal: 6},
		},
		States: map[vocab.Phase]*record.Snapshot{
			vocab.StateBefore: hmState(3, 8, 0),
			vocab.PhaseAgent:  hmState(3, 8, 0),
			vocab.PhaseHuman:  hmState(5, 7, 1),
		},
		UI: map[vocab.Phase][]record.Element{
			vocab.PhaseAgent: {
				hmEl("#attendeeName", hmName, ""),
				hmEl("#email", hmEmail, ""),
				hmEl("#submit-registration", "", "Submit registration"),
				hmEl("#prepared-note", "", "Prepared by an agent: check the details, then submit."),
			},
			vocab.PhaseHuman: {
				hmEl("#registration-result", "", "Registered: 測試讀者 for Intro to WebMCP"),
				hmEl("#seats-left", "", "7 of 8 seats left"),
			},
		},
		Console: []record.ConsoleEntry{},
		Final:   hmText(*sc.Agent.Final),
	}
	ev.Capture.Network, ev.Capture.Observer = true, true
	return sc, ev
}

// hmConf01Content is CONF-01 attempt 3 judged for what its POST carried
// as well (under its own id): the registration's body in full, and the
// values the person had in the form at their click.
func hmConf01Content(t *testing.T) (scenarios.Scenario, *scenarios.Evidence) {
	t.Helper()
	sc, ev := hmConf01(t)
	sc.ID = "CONF-01.attempt-3.content"
	ev.ScenarioID = sc.ID
	sc.Expect.Content = []scenarios.ContentExpect{{Request: "POST /api/registrations", Phase: vocab.PhaseHuman,
		Body: map[string]any{"eventId": "evt-webmcp-intro", "attendeeName": hmName, "email": hmEmail, "intentId": map[string]any{"$pattern": "^int_"}}}}
	sc.Expect.Submitted = []scenarios.SubmittedExpect{{Request: "POST /api/registrations", Ignore: []string{"/eventId", "/intentId"}}}
	i := slices.IndexFunc(ev.Requests, func(r record.Request) bool { return r.Method == "POST" && r.Path == "/api/registrations" })
	ev.Requests[i].RequestHeaders = map[string]string{"Content-Type": "application/json"}
	ev.Requests[i].HasBody = true
	ev.Requests[i].Body = `{"eventId":"evt-webmcp-intro","attendeeName":"` + hmName + `","email":"` + hmEmail + `","intentId":"int_1"}`
	ev.Reviews = []scenarios.Review{{Phase: vocab.PhaseHuman, Index: 0, Click: "#submit-registration", Requests: ev.Marks[vocab.PhaseHuman].Requests,
		Form: []scenarios.FormField{{Name: "attendeeName", Value: hmName}, {Name: "email", Value: hmEmail}},
		// Two elements the page showed, so that a mutation visiting them
		// must pick an order of its own (a map's is random).
		Seen: map[string]string{"#summary .name": hmName, "#summary .email": hmEmail}}}
	return sc, ev
}

// hmAmb01 is AMB-01 and a correct run of it: the agent asks and does
// nothing.
func hmAmb01(t *testing.T) (scenarios.Scenario, *scenarios.Evidence) {
	t.Helper()
	sc := hmLoad(t, "AMB-01")
	search := record.Tool{Name: "search_events", Description: "Search the events.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"topic":{"type":"string"},"level":{"type":"string","enum":["beginner","advanced"]},"maxFeeTWD":{"type":"number","minimum":0}},"required":["topic","level","maxFeeTWD"]}`),
		Annotations: record.Annotations{ReadOnly: true}, FrameID: "F1"}
	st := func() *record.Snapshot {
		return &record.Snapshot{Docs: map[string]json.RawMessage{record.ObserverSource: json.RawMessage(
			`{"version":0,"hash":"sha-0","seatsLeft":{"evt-webmcp-intro":8},"counts":{"registrations":0}}`)}}
	}
	ev := &scenarios.Evidence{
		ScenarioID: sc.ID,
		Env:        scenarios.Env{BaseURL: hmBase},
		Catalog:    record.Catalog{search},
		PageTools:  []record.PageTool{hmPageTool(search)},
		Calls:      []scenarios.CallRecord{},
		Trace:      []record.Event{{Seq: 1, Time: hmAt(1), Kind: record.ToolsAdded, Tools: []record.Tool{search}}},
		Requests:   record.Log{hmReq(1, "GET", "/events", 200), hmReq(2, "GET", "/api/events", 200)},
		Journal:    record.Journal{hmEntry(1, "GET", "/events", 200, ""), hmEntry(2, "GET", "/api/events", 200, "")},
		Marks: map[vocab.Phase]scenarios.Mark{
			vocab.PhaseAgent: {Trace: 1, Requests: 2, Journal: 2},
			vocab.PhaseHuman: {Trace: 1, Requests: 2, Journal: 2},
			vocab.PhaseEnd:   {Trace: 1, Requests: 2, Journal: 2},
		},
		States:  map[vocab.Phase]*record.Snapshot{vocab.StateBefore: st(), vocab.PhaseAgent: st()},
		UI:      map[vocab.Phase][]record.Element{},
		Console: []record.ConsoleEntry{},
		Final:   hmText(*sc.Agent.Final),
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
	for _, mk := range []func(*testing.T) (scenarios.Scenario, *scenarios.Evidence){hmConf01, hmAmb01, hmConf01Content} {
		sc, ev := mk(t)
		if v := judge.Judge(sc, ev); v.Outcome != vocab.Pass {
			t.Fatalf("the hand-made record of %s does not pass:\n%s", sc.ID, judge.Explain(v))
		}
		records[sc.ID], scs[sc.ID] = ev, sc
	}
	return records, scs
}

// hmState is the reference app's state as CONF-01 attempt 3 reads it: the
// observer's document and the scenario's two probes.
func hmState(version, seatsLeft, registrations int) *record.Snapshot {
	mine := `{"registrations":[]}`
	if registrations > 0 {
		mine = `{"registrations":[{"id":"reg-1","eventId":"evt-webmcp-intro"}]}`
	}
	return &record.Snapshot{Docs: map[string]json.RawMessage{
		record.ObserverSource: json.RawMessage(fmt.Sprintf(`{"version":%d,"hash":"sha-%d","seatsLeft":{"evt-webmcp-intro":%d,"evt-forms-deep-dive":0},"counts":{"registrations":%d,"intentsIssued":%d,"intentsUsed":%d}}`,
			version, version, seatsLeft, registrations, registrations, registrations)),
		"event": json.RawMessage(fmt.Sprintf(`{"id":"evt-webmcp-intro","seatsLeft":%d}`, seatsLeft)),
		"mine":  json.RawMessage(mine),
	}}
}
