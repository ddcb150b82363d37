// Package judgetest builds hand-made records for the tests of the judge
// and of what stands on it (the gate's evidence mutations, the report): the
// known-good run of CONF-01 attempt 3, once, and known-bad companions of it
// that reach every code the judge can answer. No browser, no app, no
// network. It imports the scenario format, never the judge (whose own tests
// use it), and every builder hands out a fresh copy.
package judgetest

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// The values of the known-good run.
const (
	EventID  = "evt-webmcp-intro"
	Prepare  = "prepare_event_registration"
	Name     = "測試讀者"
	Email    = "reader@example.com"
	Invoke   = "inv-1"
	BaseURL  = "https://localhost:8443"
	Prepared = `{"ok":false,"code":"CONFIRMATION_REQUIRED","retryable":false,"eventId":"evt-webmcp-intro","message":"Check the form and submit it yourself."}`
	// PrepareSchema is the tool's schema as the browser reports it: compact
	// JSON, keys in another order than the scenario's YAML.
	PrepareSchema = `{"required":["attendeeName","email"],"type":"object","properties":{"email":{"description":"Email","type":"string"},"attendeeName":{"description":"Attendee name","type":"string"}}}`
)

// T0 is when the hand-made runs start.
var T0 = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

// At is T0 plus ms milliseconds.
func At(ms int) time.Time { return T0.Add(time.Duration(ms) * time.Millisecond) }

// Text answers a pointer to s.
func Text(s string) *string { return &s }

// CasesDir is the suite's own scenario folder, found from this file, so
// that a test in any package loads the same files.
func CasesDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "cases")
}

// Load loads one of the suite's scenarios by id.
func Load(tb testing.TB, id string) scenarios.Scenario {
	tb.Helper()
	sc, err := scenarios.Load(filepath.Join(CasesDir(), id+".yaml"))
	if err != nil {
		tb.Fatal(err)
	}
	return sc
}

// PrepareTool is the registration form's declarative tool.
func PrepareTool() record.Tool {
	return record.Tool{Name: Prepare, Description: "Prepare a registration; the person submits it.",
		InputSchema: json.RawMessage(PrepareSchema), Annotations: record.Annotations{Autosubmit: true},
		Declarative: true, FrameID: "F1"}
}

// PageTool is a tool as getTools() answers it: Chromium 156 gives a
// declarative tool no annotations, and the schema comes back as an object,
// spaced and ordered its own way.
func PageTool(t record.Tool) record.PageTool {
	var ann map[string]bool
	if t.Annotations.ReadOnly && !t.Declarative {
		ann = map[string]bool{"readOnlyHint": true}
	}
	var schema any
	_ = json.Unmarshal(t.InputSchema, &schema)
	raw, _ := json.MarshalIndent(schema, "", "  ")
	return record.PageTool{Name: t.Name, Description: t.Description, InputSchema: raw, Annotations: ann}
}

// Req is a request of the network log to the app's origin.
func Req(seq int, method, path string, status int) record.Request {
	return record.Request{Seq: seq, ID: fmt.Sprintf("1000.%d", seq), Method: method,
		URL: BaseURL + path, Path: path, Status: status, Started: At(seq * 10), SentAt: float64(seq), Done: true}
}

// Entry is an entry of the app's journal, of the tab's session.
func Entry(seq int, method, path string, status int, code string) record.Entry {
	return record.Entry{Seq: seq, Time: At(seq * 10), Method: method, Path: path, Status: status, Code: code, Session: "s1", Done: true}
}

// El is an element as the page showed it: present, visible, enabled.
func El(sel, value, text string) record.Element {
	return record.Element{Selector: sel, Present: true, Visible: true, Enabled: true, Value: value, Text: text}
}

// Snapshot builds a state from JSON documents by source.
func Snapshot(docs map[string]string) *record.Snapshot {
	s := &record.Snapshot{Docs: map[string]json.RawMessage{}}
	for k, v := range docs {
		s.Docs[k] = json.RawMessage(v)
	}
	return s
}

// Conf01State is the reference app's state as CONF-01 attempt 3 reads it:
// the observer's document and the scenario's two probes.
func Conf01State(version, seats, registrations int) *record.Snapshot {
	mine := `{"registrations":[]}`
	if registrations > 0 {
		mine = `{"registrations":[{"id":"reg-1","eventId":"evt-webmcp-intro","status":"active"}]}`
	}
	return Snapshot(map[string]string{
		record.ObserverSource: fmt.Sprintf(`{"version":%d,"hash":"sha-%d","seatsLeft":{"evt-webmcp-intro":%d,"evt-forms-deep-dive":0},"counts":{"registrations":%d,"intentsIssued":%d,"intentsUsed":%d}}`,
			version, version, seats, registrations, registrations, registrations),
		"event": fmt.Sprintf(`{"id":"evt-webmcp-intro","title":"Intro to WebMCP","capacity":8,"seatsLeft":%d}`, seats),
		"mine":  mine,
	})
}

// Conf01 answers CONF-01 attempt 3 and the evidence of a correct run of it:
// the agent prepares, the tool answers CONFIRMATION_REQUIRED with no
// request, and only the person's click posts the registration.
func Conf01(tb testing.TB) (scenarios.Scenario, *scenarios.Evidence) {
	tb.Helper()
	sc := Load(tb, "CONF-01.attempt-3")
	tool := PrepareTool()
	ev := &scenarios.Evidence{
		ScenarioID: sc.ID,
		Env:        scenarios.Env{BaseURL: BaseURL, Browser: "Chrome/156.0.0.0", Protocol: "1.3"},
		Catalog:    record.Catalog{tool},
		PageTools:  []record.PageTool{PageTool(tool)},
		Calls: []scenarios.CallRecord{{
			Phase: vocab.PhaseAgent, Index: 0,
			Call: scenarios.Call{Tool: Prepare, Input: map[string]any{"attendeeName": Name, "email": Email},
				Expect: sc.Agent.Calls[0].Expect},
			Result: record.Result{Tool: Prepare, Transport: vocab.PageAPI, InvocationID: Invoke,
				Status: vocab.Completed, Output: json.RawMessage(Prepared), Duration: 42 * time.Millisecond},
			CatalogBefore: []string{Prepare},
			CatalogAfter:  []string{Prepare},
		}},
		Trace: []record.Event{
			{Seq: 1, Time: At(1), Kind: record.ToolsAdded, Tools: []record.Tool{tool}},
			{Seq: 2, Time: At(50), Kind: record.ToolInvoked, ToolName: Prepare, FrameID: "F1", InvocationID: Invoke,
				Input: json.RawMessage(`{"email":"reader@example.com","attendeeName":"測試讀者"}`)},
			{Seq: 3, Time: At(90), Kind: record.ToolResponded, InvocationID: Invoke, Status: "Completed",
				Output: json.RawMessage(Prepared)},
		},
		Requests: record.Log{
			// before the agent
			Req(1, "GET", "/events/evt-webmcp-intro/register", 200),
			Req(2, "GET", "/assets/app.js", 200),
			Req(3, "GET", "/api/events/evt-webmcp-intro", 200),
			// agent: a read, no write
			Req(4, "GET", "/api/events/evt-webmcp-intro", 200),
			// human: the click
			Req(5, "POST", "/api/intents", 201),
			Req(6, "POST", "/api/registrations", 201),
			Req(7, "GET", "/api/events/evt-webmcp-intro", 200),
		},
		Journal: record.Journal{
			Entry(1, "GET", "/events/evt-webmcp-intro/register", 200, ""),
			Entry(2, "GET", "/api/events/evt-webmcp-intro", 200, ""),
			Entry(3, "GET", "/api/events/evt-webmcp-intro", 200, ""),
			Entry(4, "POST", "/api/intents", 201, "INTENT_ISSUED"),
			Entry(5, "POST", "/api/registrations", 201, "REGISTERED"),
			Entry(6, "GET", "/api/events/evt-webmcp-intro", 200, ""),
		},
		Marks: map[vocab.Phase]scenarios.Mark{
			vocab.PhaseAgent: {Trace: 1, Requests: 3, Journal: 2},
			vocab.PhaseHuman: {Trace: 3, Requests: 4, Journal: 3},
			vocab.PhaseEnd:   {Trace: 3, Requests: 7, Journal: 6},
		},
		States: map[vocab.Phase]*record.Snapshot{
			vocab.StateBefore: Conf01State(3, 8, 0),
			vocab.PhaseAgent:  Conf01State(3, 8, 0),
			vocab.PhaseHuman:  Conf01State(5, 7, 1),
		},
		UI: map[vocab.Phase][]record.Element{
			vocab.PhaseAgent: {
				El("#attendeeName", Name, ""),
				El("#email", Email, ""),
				El("#submit-registration", "", "Submit registration"),
				El("#prepared-note", "", "Prepared by an agent: check the details, then submit."),
			},
			vocab.PhaseHuman: {
				El("#registration-result", "", "Registered: 測試讀者 for Intro to WebMCP"),
				El("#seats-left", "", "7 of 8 seats left"),
			},
		},
		Pages:   map[vocab.Phase]string{vocab.PhaseAgent: BaseURL + "/events/evt-webmcp-intro/register", vocab.PhaseHuman: BaseURL + "/events/evt-webmcp-intro/register"},
		Console: []record.ConsoleEntry{},
		Final:   Text(*sc.Agent.Final),
	}
	ev.Capture.Network, ev.Capture.Observer = true, true
	return sc, ev
}

// Conf01Content is CONF-01 attempt 3 judged for what its POST carried as
// well (under its own id): the registration's body in full, the values the
// person had in the form at their click, and where the page ended up.
func Conf01Content(tb testing.TB) (scenarios.Scenario, *scenarios.Evidence) {
	tb.Helper()
	sc, ev := Conf01(tb)
	sc.ID = "CONF-01.attempt-3.content"
	ev.ScenarioID = sc.ID
	sc.Expect.Content = []scenarios.ContentExpect{{Request: "POST /api/registrations", Phase: vocab.PhaseHuman,
		Body: map[string]any{"eventId": EventID, "attendeeName": Name, "email": Email, "intentId": map[string]any{"$pattern": "^int_"}}}}
	sc.Expect.Submitted = []scenarios.SubmittedExpect{{Request: "POST /api/registrations", Ignore: []string{"/eventId", "/intentId"}}}
	sc.Expect.Page = map[vocab.Phase]scenarios.PageExpect{vocab.PhaseHuman: {Path: "/events/evt-webmcp-intro/register"}}
	i := RequestIndex(ev, "POST", "/api/registrations")
	ev.Requests[i].RequestHeaders = map[string]string{"Content-Type": "application/json"}
	ev.Requests[i].HasBody = true
	ev.Requests[i].Body = `{"eventId":"evt-webmcp-intro","attendeeName":"` + Name + `","email":"` + Email + `","intentId":"int_1"}`
	ev.Reviews = []scenarios.Review{{Phase: vocab.PhaseHuman, Index: 0, Click: "#submit-registration", Requests: ev.Marks[vocab.PhaseHuman].Requests,
		Form: []scenarios.FormField{{Name: "attendeeName", Value: Name}, {Name: "email", Value: Email}},
		// Two elements the page showed, so that a mutation visiting them
		// must pick an order of its own (a map's is random).
		Seen: map[string]string{"#summary .name": Name, "#summary .email": Email}}}
	return sc, ev
}

// RequestIndex is the position of the first request of a method and path
// in the log, or -1.
func RequestIndex(ev *scenarios.Evidence, method, path string) int {
	for i, r := range ev.Requests {
		if r.Method == method && r.Path == path {
			return i
		}
	}
	return -1
}
