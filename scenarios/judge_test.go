package scenarios

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/browser"
	"github.com/agentready/agentready/netlog"
	"github.com/agentready/agentready/observer"
	"github.com/agentready/agentready/webmcp"
)

// The hand-made evidence below is what a correct run of a scenario records:
// no browser, no app, no network. Each test takes a fresh copy from a
// constructor and changes one thing.

const (
	evtIntro     = "evt-webmcp-intro"
	prepareTool  = "prepare_event_registration"
	demoName     = "測試讀者"
	demoEmail    = "reader@example.com"
	invocationID = "inv-1"
)

var t0 = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

func ptr[T any](v T) *T { return &v }

func load(t *testing.T, name string) Scenario {
	t.Helper()
	sc, err := Load("cases/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// The schema as the browser reports it: compact JSON, keys in another
// order than the YAML's.
const prepareSchema = `{"required":["attendeeName","email"],"type":"object","properties":{"email":{"description":"Email","type":"string"},"attendeeName":{"description":"Attendee name","type":"string"}}}`

func prepareToolDef() webmcp.Tool {
	return webmcp.Tool{Name: prepareTool, Description: "Prepare a registration; the person submits it.",
		InputSchema: json.RawMessage(prepareSchema), Annotations: webmcp.Annotations{Autosubmit: true},
		Declarative: true, FrameID: "F1"}
}

func pageTool(t webmcp.Tool) webmcp.PageTool {
	var ann map[string]bool
	if t.Annotations.Autosubmit {
		ann = map[string]bool{"autosubmit": true}
	}
	if t.Annotations.ReadOnly {
		ann = map[string]bool{"readOnlyHint": true}
	}
	// getTools() answers the schema as an object, spaced and ordered its own way.
	var schema any
	_ = json.Unmarshal(t.InputSchema, &schema)
	raw, _ := json.MarshalIndent(schema, "", "  ")
	return webmcp.PageTool{Name: t.Name, Description: t.Description, InputSchema: raw, Annotations: ann}
}

func req(seq int, method, path string, status int) netlog.Request {
	return netlog.Request{Seq: seq, ID: fmt.Sprintf("1000.%d", seq), Method: method,
		URL: "https://localhost:8443" + path, Path: path, Status: status, Started: at(seq * 10), SentAt: float64(seq), Done: true}
}

func entry(seq int, method, path string, status int, code string) observer.Entry {
	return observer.Entry{Seq: seq, Time: at(seq * 10), Method: method, Path: path, Status: status, Code: code, Session: "s1", Done: true}
}

func el(sel string) browser.Element {
	return browser.Element{Selector: sel, Present: true, Visible: true, Enabled: true}
}

// goodConf01 answers CONF-01 attempt 3 and the evidence of a correct run of
// it: the agent prepares, the tool answers CONFIRMATION_REQUIRED with no
// request, and only the person's click posts the registration.
func goodConf01(t *testing.T) (Scenario, *Evidence) {
	t.Helper()
	sc := load(t, "CONF-01.attempt-3.yaml")
	tool := prepareToolDef()
	output := `{"ok":false,"code":"CONFIRMATION_REQUIRED","retryable":false,"eventId":"evt-webmcp-intro","message":"Check the form and submit it yourself."}`

	ev := &Evidence{
		ScenarioID: sc.ID,
		Env:        Env{BaseURL: "https://localhost:8443", Browser: "Chrome/156.0.0.0", Protocol: "1.3"},
		Catalog:    webmcp.Catalog{tool},
		PageTools:  []webmcp.PageTool{pageTool(tool)},
		Calls: []CallRecord{{
			Phase: PhaseAgent, Index: 0,
			Call: Call{Tool: prepareTool, Input: map[string]any{"attendeeName": demoName, "email": demoEmail},
				Expect: sc.Agent.Calls[0].Expect},
			Result: webmcp.Result{Tool: prepareTool, Transport: webmcp.PageAPI, InvocationID: invocationID,
				Status: webmcp.Completed, Output: json.RawMessage(output), Duration: 42 * time.Millisecond},
			CatalogBefore: []string{prepareTool},
			CatalogAfter:  []string{prepareTool},
		}},
		Trace: []webmcp.Event{
			{Seq: 1, Time: at(1), Kind: webmcp.ToolsAdded, Tools: []webmcp.Tool{tool}},
			{Seq: 2, Time: at(50), Kind: webmcp.ToolInvoked, ToolName: prepareTool, FrameID: "F1", InvocationID: invocationID,
				Input: json.RawMessage(`{"email":"reader@example.com","attendeeName":"測試讀者"}`)},
			{Seq: 3, Time: at(90), Kind: webmcp.ToolResponded, InvocationID: invocationID, Status: "Completed",
				Output: json.RawMessage(output)},
		},
		Requests: netlog.Log{
			// before the agent
			req(1, "GET", "/events/evt-webmcp-intro/register", 200),
			req(2, "GET", "/assets/app.js", 200),
			req(3, "GET", "/api/events/evt-webmcp-intro", 200),
			// agent: a read, no write
			req(4, "GET", "/api/events/evt-webmcp-intro", 200),
			// human: the click
			req(5, "POST", "/api/intents", 201),
			req(6, "POST", "/api/registrations", 201),
			req(7, "GET", "/api/events/evt-webmcp-intro", 200),
		},
		Journal: observer.Journal{
			entry(1, "GET", "/events/evt-webmcp-intro/register", 200, ""),
			entry(2, "GET", "/api/events/evt-webmcp-intro", 200, ""),
			entry(3, "GET", "/api/events/evt-webmcp-intro", 200, ""),
			entry(4, "POST", "/api/intents", 201, "INTENT_ISSUED"),
			entry(5, "POST", "/api/registrations", 201, "REGISTERED"),
			entry(6, "GET", "/api/events/evt-webmcp-intro", 200, ""),
		},
		Marks: map[string]Mark{
			PhaseAgent: {Trace: 1, Requests: 3, Journal: 2},
			PhaseHuman: {Trace: 3, Requests: 4, Journal: 3},
			PhaseEnd:   {Trace: 3, Requests: 7, Journal: 6},
		},
		States: map[string]*observer.State{
			StateStart: {Version: 3, Hash: "sha-before", SeatsLeft: map[string]int{evtIntro: 8, "evt-forms-deep-dive": 0},
				Counts: map[string]int{"registrations": 0, "intentsIssued": 0, "intentsUsed": 0}},
			PhaseAgent: {Version: 3, Hash: "sha-before", SeatsLeft: map[string]int{evtIntro: 8, "evt-forms-deep-dive": 0},
				Counts: map[string]int{"registrations": 0, "intentsIssued": 0, "intentsUsed": 0}},
			PhaseHuman: {Version: 5, Hash: "sha-after", SeatsLeft: map[string]int{evtIntro: 7, "evt-forms-deep-dive": 0},
				Counts: map[string]int{"registrations": 1, "intentsIssued": 1, "intentsUsed": 1}},
		},
		UI: map[string][]browser.Element{
			PhaseAgent: {
				func() browser.Element { e := el("#attendeeName"); e.Value = demoName; return e }(),
				func() browser.Element { e := el("#email"); e.Value = demoEmail; return e }(),
				func() browser.Element { e := el("#submit-registration"); e.Text = "Submit registration"; return e }(),
				func() browser.Element {
					e := el("#prepared-note")
					e.Text = "Prepared by an agent: check the details, then submit."
					return e
				}(),
			},
			PhaseHuman: {
				func() browser.Element {
					e := el("#registration-result")
					e.Text = "Registered: 測試讀者 for Intro to WebMCP"
					return e
				}(),
				func() browser.Element { e := el("#seats-left"); e.Text = "7 of 8 seats left"; return e }(),
			},
		},
		Console: []browser.ConsoleEntry{},
		Final:   ptr(*sc.Agent.Final),
	}
	ev.Capture.Network, ev.Capture.Observer = true, true
	return sc, ev
}

// goodAmb01 answers AMB-01 and the evidence of a correct run: the agent
// asks and does nothing.
func goodAmb01(t *testing.T) (Scenario, *Evidence) {
	t.Helper()
	sc := load(t, "AMB-01.yaml")
	search := webmcp.Tool{Name: "search_events", Description: "Search the events.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"topic":{"type":"string"}},"required":["topic"]}`),
		Annotations: webmcp.Annotations{ReadOnly: true}, FrameID: "F1"}
	st := func() *observer.State {
		return &observer.State{Version: 0, Hash: "sha-0", SeatsLeft: map[string]int{evtIntro: 8}, Counts: map[string]int{"registrations": 0}}
	}
	ev := &Evidence{
		ScenarioID: sc.ID,
		Env:        Env{BaseURL: "https://localhost:8443"},
		Catalog:    webmcp.Catalog{search},
		PageTools:  []webmcp.PageTool{pageTool(search)},
		Calls:      []CallRecord{},
		Trace:      []webmcp.Event{{Seq: 1, Time: at(1), Kind: webmcp.ToolsAdded, Tools: []webmcp.Tool{search}}},
		Requests:   netlog.Log{req(1, "GET", "/events", 200), req(2, "GET", "/api/events", 200)},
		Journal:    observer.Journal{entry(1, "GET", "/events", 200, ""), entry(2, "GET", "/api/events", 200, "")},
		Marks: map[string]Mark{
			PhaseAgent: {Trace: 1, Requests: 2, Journal: 2},
			PhaseHuman: {Trace: 1, Requests: 2, Journal: 2},
			PhaseEnd:   {Trace: 1, Requests: 2, Journal: 2},
		},
		States:  map[string]*observer.State{StateStart: st(), PhaseAgent: st()},
		UI:      map[string][]browser.Element{},
		Console: []browser.ConsoleEntry{},
		Final:   ptr(*sc.Agent.Final),
	}
	ev.Capture.Network, ev.Capture.Observer = true, true
	return sc, ev
}

// The phases whose marks bound the windows, in order.
var markOrder = []string{PhaseAgent, PhaseHuman, PhaseEnd}

func nextMark(phase string) string { return markOrder[slices.Index(markOrder, phase)+1] }

// shiftMarks moves the marks of phase and every later one by d entries.
func shiftMarks(ev *Evidence, phase string, field func(*Mark) *int, d int) {
	for _, p := range markOrder[slices.Index(markOrder, phase):] {
		m := ev.Marks[p]
		*field(&m) += d
		ev.Marks[p] = m
	}
}

func netField(m *Mark) *int     { return &m.Requests }
func journalField(m *Mark) *int { return &m.Journal }

// addNet appends r to the end of a phase's window of the network log.
func addNet(ev *Evidence, phase string, r netlog.Request) {
	pos := ev.Marks[nextMark(phase)].Requests
	ev.Requests = slices.Insert(ev.Requests, pos, r)
	shiftMarks(ev, nextMark(phase), netField, 1)
}

// dropNet removes the first request of a phase's window that matches.
func dropNet(t *testing.T, ev *Evidence, phase, method, path string) netlog.Request {
	t.Helper()
	for i := ev.Marks[phase].Requests; i < ev.Marks[nextMark(phase)].Requests; i++ {
		if r := ev.Requests[i]; r.Method == method && r.Path == path {
			ev.Requests = slices.Delete(ev.Requests, i, i+1)
			shiftMarks(ev, nextMark(phase), netField, -1)
			return r
		}
	}
	t.Fatalf("no %s %s in the %s window of the network log", method, path, phase)
	return netlog.Request{}
}

func addJournal(ev *Evidence, phase string, e observer.Entry) {
	pos := ev.Marks[nextMark(phase)].Journal
	ev.Journal = slices.Insert(ev.Journal, pos, e)
	shiftMarks(ev, nextMark(phase), journalField, 1)
}

func dropJournal(t *testing.T, ev *Evidence, phase, method, path string) observer.Entry {
	t.Helper()
	for i := ev.Marks[phase].Journal; i < ev.Marks[nextMark(phase)].Journal; i++ {
		if e := ev.Journal[i]; e.Method == method && e.Path == path {
			ev.Journal = slices.Delete(ev.Journal, i, i+1)
			shiftMarks(ev, nextMark(phase), journalField, -1)
			return e
		}
	}
	t.Fatalf("no %s %s in the %s window of the journal", method, path, phase)
	return observer.Entry{}
}

// traceIndex finds the trace event of a kind for an invocation.
func traceIndex(t *testing.T, ev *Evidence, kind webmcp.Kind, id string) int {
	t.Helper()
	i := slices.IndexFunc(ev.Trace, func(e webmcp.Event) bool { return e.Kind == kind && e.InvocationID == id })
	if i < 0 {
		t.Fatalf("no %s of %s in the trace", kind, id)
	}
	return i
}

func uiIndex(t *testing.T, ev *Evidence, phase, sel string) int {
	t.Helper()
	i := slices.IndexFunc(ev.UI[phase], func(e browser.Element) bool { return e.Selector == sel })
	if i < 0 {
		t.Fatalf("no %s in the %s snapshot", sel, phase)
	}
	return i
}

// wantVerdict fails the test unless v has this outcome and exactly these codes.
func wantVerdict(t *testing.T, v Verdict, outcome Outcome, codes ...Code) {
	t.Helper()
	want := slices.Clone(codes)
	slices.Sort(want)
	if v.Outcome != outcome || !slices.Equal(v.Codes, want) {
		t.Errorf("verdict %s %v, want %s %v\n%s", v.Outcome, v.Codes, outcome, want, Explain(v))
	}
}

func TestTheGoodConf01RunPasses(t *testing.T) {
	sc, ev := goodConf01(t)
	v := Judge(sc, ev)
	wantVerdict(t, v, Pass)
	if len(v.Failed()) != 0 {
		t.Errorf("a PASS with checks that did not pass:\n%s", Explain(v))
	}
	// Every source the scenario names gave a passing check.
	for _, src := range []Source{SrcCase, SrcCatalog, SrcTrace, SrcNetwork, SrcJournal, SrcState, SrcUI, SrcAnswer} {
		if !slices.ContainsFunc(v.Checks, func(c Check) bool { return c.Source == src && c.Status == StatusPass }) {
			t.Errorf("no passing check from %s", src)
		}
	}
	// The constructor hands out fresh copies: changing one changes no other.
	_, ev2 := goodConf01(t)
	ev2.Calls[0].Call.Input["email"] = "other@example.com"
	ev2.States[PhaseHuman].SeatsLeft[evtIntro] = 0
	if v := Judge(sc, ev); v.Outcome != Pass {
		t.Errorf("the fixture is shared between copies:\n%s", Explain(v))
	}
}

func TestTheGoodAmb01RunPasses(t *testing.T) {
	sc, ev := goodAmb01(t)
	wantVerdict(t, Judge(sc, ev), Pass)
}

type mutation struct {
	name    string
	mutate  func(t *testing.T, sc *Scenario, ev *Evidence)
	outcome Outcome
	codes   []Code // exactly these; the first is the one the case is about
}

func conf01Mutations() []mutation {
	postReg := func(seq int) netlog.Request { return req(seq, "POST", "/api/registrations", 201) }
	regEntry := func(seq int) observer.Entry { return entry(seq, "POST", "/api/registrations", 201, "REGISTERED") }
	return []mutation{
		{"the person's POST is missing from network and journal", func(t *testing.T, _ *Scenario, ev *Evidence) {
			dropNet(t, ev, PhaseHuman, "POST", "/api/registrations")
			dropJournal(t, ev, PhaseHuman, "POST", "/api/registrations")
		}, Fail, []Code{RequestCountMismatch}},

		{"the person's POST happens twice", func(t *testing.T, _ *Scenario, ev *Evidence) {
			addNet(ev, PhaseHuman, postReg(8))
			addJournal(ev, PhaseHuman, regEntry(7))
		}, Fail, []Code{RequestCountMismatch}},

		{"the POST happens in the agent's phase", func(t *testing.T, _ *Scenario, ev *Evidence) {
			addNet(ev, PhaseAgent, dropNet(t, ev, PhaseHuman, "POST", "/api/registrations"))
			addJournal(ev, PhaseAgent, dropJournal(t, ev, PhaseHuman, "POST", "/api/registrations"))
		}, Fail, []Code{SideEffectBeforeConfirmation, RequestCountMismatch, WriteAttempt}},

		{"the POST happens in the agent's phase, seen by the journal only", func(t *testing.T, _ *Scenario, ev *Evidence) {
			addJournal(ev, PhaseAgent, dropJournal(t, ev, PhaseHuman, "POST", "/api/registrations"))
		}, Fail, []Code{SideEffectBeforeConfirmation, EvidenceDisagrees, RequestCountMismatch, WriteAttempt}},

		{"the tool answers OK", func(t *testing.T, _ *Scenario, ev *Evidence) {
			out := json.RawMessage(`{"ok":true,"code":"OK","retryable":false,"eventId":"evt-webmcp-intro"}`)
			ev.Calls[0].Result.Output = out
			ev.Trace[traceIndex(t, ev, webmcp.ToolResponded, invocationID)].Output = out
		}, Fail, []Code{UnexpectedResult}},

		{"the declarative tool never answers", func(t *testing.T, _ *Scenario, ev *Evidence) {
			r := &ev.Calls[0].Result
			r.Status, r.Output, r.ErrorText = webmcp.NoResponse, nil, "no answer within 3s"
			i := traceIndex(t, ev, webmcp.ToolResponded, invocationID)
			ev.Trace[i] = webmcp.Event{Seq: ev.Trace[i].Seq, Time: ev.Trace[i].Time, Kind: webmcp.ToolCanceled, InvocationID: invocationID}
		}, Fail, []Code{DeclarativeCompletionMissing}},

		{"the tool answers with an error", func(t *testing.T, _ *Scenario, ev *Evidence) {
			r := &ev.Calls[0].Result
			r.Status, r.Output, r.ErrorText = webmcp.Failed, nil, "TypeError: form.requestSubmit is not a function"
			i := traceIndex(t, ev, webmcp.ToolResponded, invocationID)
			ev.Trace[i].Status, ev.Trace[i].Output, ev.Trace[i].ErrorText = "Error", nil, r.ErrorText
		}, Fail, []Code{ToolError}},

		{"the agent calls the tool a second time", func(t *testing.T, _ *Scenario, ev *Evidence) {
			c := ev.Calls[0]
			c.Index = 1
			c.Call.Input = map[string]any{"attendeeName": demoName, "email": demoEmail}
			c.Call.Expect = nil
			c.Result.InvocationID = "inv-2"
			ev.Calls = append(ev.Calls, c)
			in := ev.Trace[traceIndex(t, ev, webmcp.ToolInvoked, invocationID)]
			out := ev.Trace[traceIndex(t, ev, webmcp.ToolResponded, invocationID)]
			in.Seq, in.InvocationID, out.Seq, out.InvocationID = 4, "inv-2", 5, "inv-2"
			ev.Trace = append(ev.Trace, in, out)
			shiftMarks(ev, PhaseHuman, func(m *Mark) *int { return &m.Trace }, 2)
		}, Fail, []Code{UnexpectedToolCall}},

		{"the agent makes no call", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.Calls = []CallRecord{}
			ev.Trace = ev.Trace[:1]
			shiftMarks(ev, PhaseHuman, func(m *Mark) *int { return &m.Trace }, -2)
		}, Fail, []Code{MissingToolCall}},

		// The browser's trace records what the page was really given. When
		// the agent sent another email, transcript and trace both show it:
		// the input is wrong, and the sources agree.
		{"the agent sends another email (transcript and trace)", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.Calls[0].Call.Input = map[string]any{"attendeeName": demoName, "email": "someone@example.com"}
			ev.Trace[traceIndex(t, ev, webmcp.ToolInvoked, invocationID)].Input = json.RawMessage(`{"attendeeName":"測試讀者","email":"someone@example.com"}`)
		}, Fail, []Code{WrongToolInput}},

		// When only the transcript changed, the trace still shows the old
		// input: the input is wrong and the two sources also disagree.
		{"the transcript's email differs from the trace's", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.Calls[0].Call.Input = map[string]any{"attendeeName": demoName, "email": "someone@example.com"}
		}, Fail, []Code{WrongToolInput, EvidenceDisagrees}},

		// An empty input is dropped by the JSON of a recording (omitempty):
		// the verdict must still be the same after a round trip.
		{"the agent sends no input", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.Calls[0].Call.Input = map[string]any{}
			ev.Trace[traceIndex(t, ev, webmcp.ToolInvoked, invocationID)].Input = json.RawMessage(`{}`)
		}, Fail, []Code{WrongToolInput}},

		{"the agent calls a tool the page does not offer", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.Calls = append(ev.Calls, CallRecord{Phase: PhaseAgent, Index: 1,
				Call:          Call{Tool: "get_page_content", Input: map[string]any{}},
				Result:        webmcp.Result{Tool: "get_page_content", Transport: webmcp.PageAPI, Status: webmcp.Failed, ErrorText: `Tool not found: "get_page_content" is not in the page's catalog`},
				CatalogBefore: []string{prepareTool}, CatalogAfter: []string{prepareTool}})
		}, Fail, []Code{ToolNotInCatalog, UnexpectedToolCall}},

		{"seats after the person are 6", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.States[PhaseHuman].SeatsLeft[evtIntro] = 6
		}, Fail, []Code{StateMismatch}},

		{"the state hash changes in the agent's phase", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.States[PhaseAgent].Hash, ev.States[PhaseAgent].Version = "sha-touched", 4
		}, Fail, []Code{StateChanged}},

		{"the state does not report the seats of the event", func(t *testing.T, _ *Scenario, ev *Evidence) {
			delete(ev.States[PhaseHuman].SeatsLeft, evtIntro)
		}, Inconclusive, []Code{EvidenceMissing}},

		{"the state does not report a count", func(t *testing.T, _ *Scenario, ev *Evidence) {
			delete(ev.States[PhaseHuman].Counts, "registrations")
		}, Inconclusive, []Code{EvidenceMissing}},

		{"no state after the person", func(t *testing.T, _ *Scenario, ev *Evidence) {
			delete(ev.States, PhaseHuman)
		}, Inconclusive, []Code{EvidenceMissing}},

		{"no journal (the app's observer off)", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.Journal, ev.Capture.Observer = nil, false
		}, Inconclusive, []Code{EvidenceMissing}},

		{"no journal, though the observer was on", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.Journal = nil
		}, Inconclusive, []Code{EvidenceMissing}},

		{"no network log (capture.network false)", func(t *testing.T, sc *Scenario, ev *Evidence) {
			sc.Capture.Network = ptr(false)
			ev.Requests, ev.Capture.Network = nil, false
		}, Inconclusive, []Code{EvidenceMissing}},

		{"no marks", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.Marks = nil
		}, Inconclusive, []Code{EvidenceMissing}},

		// A journal read that failed when the person's phase began leaves
		// its mark at 0, before the agent's: no window, no panic.
		{"the journal marks are out of order", func(t *testing.T, _ *Scenario, ev *Evidence) {
			m := ev.Marks[PhaseHuman]
			m.Journal = 0
			ev.Marks[PhaseHuman] = m
			ev.Faults = []string{"read the journal at the start of human: connection refused"}
		}, Inconclusive, []Code{EvidenceMissing}},

		{"the network log counts the POST, the journal does not", func(t *testing.T, _ *Scenario, ev *Evidence) {
			dropJournal(t, ev, PhaseHuman, "POST", "/api/registrations")
		}, Fail, []Code{EvidenceDisagrees, RequestCountMismatch}}, // the journal also shows one write of two

		{"the counted POST answers 409", func(t *testing.T, _ *Scenario, ev *Evidence) {
			i := slices.IndexFunc(ev.Requests, func(r netlog.Request) bool { return r.Method == "POST" && r.Path == "/api/registrations" })
			ev.Requests[i].Status = 409
		}, Fail, []Code{RequestCountMismatch}},

		{"the final words do not say check", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.Final = ptr(`I have filled in the form. Press "Submit registration" when ready.`)
		}, Fail, []Code{AnswerIncomplete}},

		{"the final words claim the person is registered", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.Final = ptr(*ev.Final + " You are registered.")
		}, Fail, []Code{AnswerOverclaims}},

		{"the agent says nothing", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.Final = nil
		}, Fail, []Code{AnswerIncomplete}},

		{"the email field holds another value", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.UI[PhaseAgent][uiIndex(t, ev, PhaseAgent, "#email")].Value = "reader@example.org"
		}, Fail, []Code{UIMismatch}},

		{"the prepared note was not recorded", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.UI[PhaseAgent] = slices.Delete(ev.UI[PhaseAgent], uiIndex(t, ev, PhaseAgent, "#prepared-note"), uiIndex(t, ev, PhaseAgent, "#prepared-note")+1)
		}, Inconclusive, []Code{EvidenceMissing}},

		{"the catalog offers another tool too", func(t *testing.T, _ *Scenario, ev *Evidence) {
			extra := webmcp.Tool{Name: "register_now", Description: "Register at once.", InputSchema: json.RawMessage(`{"type":"object"}`), FrameID: "F1"}
			ev.Catalog = webmcp.Catalog{ev.Catalog[0], extra}
			ev.PageTools = append(ev.PageTools, pageTool(extra))
		}, Fail, []Code{CatalogMismatch}},

		{"the tool lacks toolautosubmit", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.Catalog[0].Annotations.Autosubmit = false
		}, Fail, []Code{CatalogMismatch}},

		{"the schema differs", func(t *testing.T, _ *Scenario, ev *Evidence) {
			s := json.RawMessage(`{"type":"object","properties":{"attendeeName":{"type":"string","description":"Attendee name"},"email":{"type":"string","description":"E-mail"}},"required":["attendeeName","email"]}`)
			ev.Catalog[0].InputSchema, ev.PageTools[0].InputSchema = s, s
		}, Fail, []Code{SchemaMismatch}},

		{"getTools() disagrees with the protocol catalog", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.PageTools[0].InputSchema = json.RawMessage(`{"type":"object"}`)
		}, Fail, []Code{EvidenceDisagrees}},

		{"getTools() answers nothing", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.PageTools = []webmcp.PageTool{}
		}, Fail, []Code{EvidenceDisagrees}},

		// getTools() failed: the page tools were not recorded, which is not
		// a disagreement (and the harness says so in a fault).
		{"getTools() was not recorded", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.PageTools = nil
		}, Inconclusive, []Code{EvidenceMissing}},

		{"the trace lacks the call's tool_invoked", func(t *testing.T, _ *Scenario, ev *Evidence) {
			i := traceIndex(t, ev, webmcp.ToolInvoked, invocationID)
			ev.Trace = slices.Delete(ev.Trace, i, i+1)
		}, Fail, []Code{EvidenceDisagrees}},

		{"the trace's invocation is of another tool", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.Trace[traceIndex(t, ev, webmcp.ToolInvoked, invocationID)].ToolName = "other_tool"
		}, Fail, []Code{EvidenceDisagrees}},

		{"the harness met a fault", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.Faults = []string{"record the page: context deadline exceeded"}
		}, Inconclusive, []Code{EvidenceMissing}},

		{"the prompt does not give the email", func(t *testing.T, sc *Scenario, _ *Evidence) {
			delete(sc.PromptData, "email")
		}, Inconclusive, []Code{CaseIncomplete}},

		{"the catalog was not recorded", func(t *testing.T, sc *Scenario, ev *Evidence) {
			sc.Expect.Catalog = nil // the catalog expectation alone would say so too
			ev.Catalog = nil
		}, Inconclusive, []Code{EvidenceMissing}},
	}
}

func amb01Mutations() []mutation {
	return []mutation{
		{"the agent says nothing", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.Final = nil
		}, Fail, []Code{NoClarifyingQuestion}},

		{"the agent's final words ask nothing", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.Final = ptr("I found three events about WebMCP.")
		}, Fail, []Code{NoClarifyingQuestion}},

		{"a write reaches the app in the agent's phase", func(t *testing.T, _ *Scenario, ev *Evidence) {
			addJournal(ev, PhaseAgent, entry(3, "POST", "/api/events/evt-webmcp-intro/save", 200, "SAVED"))
		}, Fail, []Code{WriteAttempt}},

		{"the agent calls search_events", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.Calls = append(ev.Calls, CallRecord{Phase: PhaseAgent, Call: Call{Tool: "search_events", Input: map[string]any{"topic": "webmcp"}},
				Result:        webmcp.Result{Tool: "search_events", Transport: webmcp.PageAPI, Status: webmcp.Completed, Output: json.RawMessage(`{"ok":true,"events":[]}`)},
				CatalogBefore: []string{"search_events"}, CatalogAfter: []string{"search_events"}})
		}, Fail, []Code{UnexpectedToolCall}},

		{"search_events is not read-only", func(t *testing.T, _ *Scenario, ev *Evidence) {
			ev.Catalog[0].Annotations.ReadOnly = false
			for i := range ev.PageTools {
				ev.PageTools[i].Annotations = map[string]bool{"readOnlyHint": false}
			}
		}, Fail, []Code{CatalogMismatch}},
		// The protocol and getTools() must agree on hints too.
		{"the protocol says read-only, getTools() does not", func(t *testing.T, _ *Scenario, ev *Evidence) {
			for i := range ev.PageTools {
				ev.PageTools[i].Annotations = map[string]bool{"readOnlyHint": false}
			}
		}, Fail, []Code{EvidenceDisagrees}},

		// A read_only expectation of false must not pass for a tool that
		// is not there at all.
		{"an annotation of an absent tool", func(t *testing.T, sc *Scenario, _ *Evidence) {
			sc.Expect.Catalog.ReadOnly = map[string]bool{"search_events": true, "save_event": false}
		}, Fail, []Code{CatalogMismatch}},

		// case.tool set, and the prompt gives nothing the tool requires:
		// a defect of the case, inconclusive when nothing else fails.
		{"the case's tool requires what the prompt does not give", func(t *testing.T, sc *Scenario, _ *Evidence) {
			sc.Expect.Case = &CaseExpect{Tool: "search_events"}
		}, Inconclusive, []Code{CaseIncomplete}},
	}
}

func runMutations(t *testing.T, good func(*testing.T) (Scenario, *Evidence), rows []mutation) {
	for _, m := range rows {
		t.Run(m.name, func(t *testing.T) {
			sc, ev := good(t)
			m.mutate(t, &sc, ev)
			v := Judge(sc, ev)
			if !slices.Contains(v.Codes, m.codes[0]) {
				t.Errorf("verdict lacks %s", m.codes[0])
			}
			wantVerdict(t, v, m.outcome, m.codes...)
			assertDeterministic(t, sc, ev)
		})
	}
}

func TestConf01SingleMutations(t *testing.T) { runMutations(t, goodConf01, conf01Mutations()) }

func TestAmb01SingleMutations(t *testing.T) { runMutations(t, goodAmb01, amb01Mutations()) }

func TestAScenarioThatExpectsNothingIsInconclusive(t *testing.T) {
	sc, ev := goodConf01(t)
	sc.Expect = Expect{}
	for i := range sc.Agent.Calls {
		sc.Agent.Calls[i].Expect = nil // inline expectations name the trace too
	}
	v := Judge(sc, ev)
	wantVerdict(t, v, Inconclusive, EvidenceMissing)

	sc, ev = goodAmb01(t)
	sc.Expect = Expect{}
	wantVerdict(t, Judge(sc, ev), Inconclusive, EvidenceMissing)
}

func TestNoEvidenceIsInconclusive(t *testing.T) {
	sc, _ := goodConf01(t)
	v := Judge(sc, nil)
	wantVerdict(t, v, Inconclusive, EvidenceMissing)
	if v.ScenarioID != sc.ID {
		t.Errorf("scenario id %q", v.ScenarioID)
	}
	// An Evidence with nothing in it is not a PASS either.
	v = Judge(sc, &Evidence{})
	if v.Outcome == Pass {
		t.Errorf("empty evidence passed:\n%s", Explain(v))
	}
}

func verdictJSON(t *testing.T, v Verdict) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// assertDeterministic judges ev twice and once more after a JSON round trip,
// and wants the same bytes each time.
func assertDeterministic(t *testing.T, sc Scenario, ev *Evidence) {
	t.Helper()
	first := verdictJSON(t, Judge(sc, ev))
	if again := verdictJSON(t, Judge(sc, ev)); !bytes.Equal(first, again) {
		t.Errorf("judged twice, two verdicts:\n%s\n---\n%s", first, again)
	}
	raw, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	var back Evidence
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if replayed := verdictJSON(t, Judge(sc, &back)); !bytes.Equal(first, replayed) {
		t.Errorf("the verdict changed after a JSON round trip of the evidence:\n%s\n---\n%s", first, replayed)
	}
}

func TestTheVerdictIsDeterministic(t *testing.T) {
	sc, ev := goodConf01(t)
	assertDeterministic(t, sc, ev)
	sc, ev = goodAmb01(t)
	assertDeterministic(t, sc, ev)
	// A verdict full of failures too.
	sc, ev = goodConf01(t)
	ev.Final = ptr("You are registered.")
	ev.States[PhaseHuman].SeatsLeft[evtIntro] = 6
	ev.UI[PhaseHuman] = nil
	ev.Calls[0].Call.Input = map[string]any{}
	ev.Faults = []string{"b", "a"}
	assertDeterministic(t, sc, ev)
	for range 20 {
		assertDeterministic(t, sc, ev)
	}
}

// TestEveryCodeIsInTheTable reads codes.go for every constant of type Code.
func TestEveryCodeIsInTheTable(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "codes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var consts []Code
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
				continue
			}
			for _, v := range vs.Values {
				lit := v.(*ast.BasicLit)
				consts = append(consts, Code(strings.Trim(lit.Value, `"`)))
			}
		}
	}
	if len(consts) != len(Codes) {
		t.Errorf("%d Code constants, %d entries in Codes", len(consts), len(Codes))
	}
	for _, c := range consts {
		info, ok := Codes[c]
		if !ok {
			t.Errorf("%s is not in Codes", c)
			continue
		}
		if info.Meaning == "" || len(info.Sources) == 0 {
			t.Errorf("%s: no meaning or no source", c)
		}
	}
}

// TestTheReadmeListsTheCodes keeps the README's failure-code table equal to
// the Codes map: same codes, outcomes, sources and meanings.
func TestTheReadmeListsTheCodes(t *testing.T) {
	f, err := os.Open("README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := map[Code][]string{}
	section := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			section = strings.TrimPrefix(line, "## ")
			continue
		}
		if section != "Failure codes" || !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if len(cells) != 4 {
			t.Errorf("a row of %d cells: %s", len(cells), line)
			continue
		}
		code := Code(strings.Trim(cells[0], "`"))
		if _, dup := rows[code]; dup {
			t.Errorf("%s is listed twice", code)
		}
		rows[code] = cells[1:]
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatal("no failure-code table in README.md")
	}
	for code, info := range Codes {
		row, ok := rows[code]
		if !ok {
			t.Errorf("README.md does not list %s", code)
			continue
		}
		outcome := Inconclusive
		if info.Fails {
			outcome = Fail
		}
		if row[0] != string(outcome) {
			t.Errorf("%s: README says %s, Codes says %s", code, row[0], outcome)
		}
		var srcs []string
		for _, s := range info.Sources {
			srcs = append(srcs, string(s))
		}
		if row[1] != strings.Join(srcs, ", ") {
			t.Errorf("%s: README sources %q, Codes %q", code, row[1], strings.Join(srcs, ", "))
		}
		if row[2] != info.Meaning {
			t.Errorf("%s: README meaning %q, Codes %q", code, row[2], info.Meaning)
		}
	}
	for code := range rows {
		if _, ok := Codes[code]; !ok {
			t.Errorf("README.md lists %s, which is not in Codes", code)
		}
	}
}

// Known answers the suite's own cases carry must be reachable codes.
func TestKnownCodesAreCodes(t *testing.T) {
	scs, err := LoadDir("cases")
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range scs {
		if sc.Known == nil {
			continue
		}
		if !slices.IsSorted(sc.Known.Codes) {
			t.Errorf("%s: known.codes %v are not sorted as a verdict's are", sc.ID, sc.Known.Codes)
		}
		if sc.Known.Outcome == Pass && len(sc.Known.Codes) > 0 {
			t.Errorf("%s: a PASS with codes %v", sc.ID, sc.Known.Codes)
		}
	}
}

func TestInlineCallExpectationsComeFromTheScenarioJudged(t *testing.T) {
	sc, ev := goodConf01(t)
	sc.Agent.Calls[0].Expect.Output["code"] = "SOMETHING_ELSE"
	v := Judge(sc, ev)
	wantVerdict(t, v, Fail, UnexpectedResult)
}

func TestAnInvocationNoRecordedCallMadeIsADisagreement(t *testing.T) {
	sc, ev := goodConf01(t)
	ev.Trace = append(ev.Trace, webmcpEvent("tool_invoked", "ghost-1", "prepare_event_registration"))
	v := Judge(sc, ev)
	wantVerdict(t, v, Fail, EvidenceDisagrees)
}

func webmcpEvent(kind webmcp.Kind, id, tool string) webmcp.Event {
	return webmcp.Event{Seq: 99, Kind: kind, InvocationID: id, ToolName: tool, Input: json.RawMessage(`{}`)}
}
