package judge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge/judgetest"
	"github.com/agentready/agentready/scenarios/vocab"
)

// The hand-made evidence is what a correct run of a scenario records: no
// browser, no app, no network (CONF-01's is judgetest's, shared with the
// gate's tests). Each test takes a fresh copy from a constructor and
// changes one thing.

const (
	evtIntro     = judgetest.EventID
	prepareTool  = judgetest.Prepare
	demoName     = judgetest.Name
	demoEmail    = judgetest.Email
	invocationID = judgetest.Invoke
)

func at(ms int) time.Time { return judgetest.At(ms) }

func ptr[T any](v T) *T { return &v }

func load(t *testing.T, name string) scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.Load("../cases/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// The schema as the browser reports it: compact JSON, keys in another
// order than the YAML's.
const prepareSchema = judgetest.PrepareSchema

func pageTool(t record.Tool) record.PageTool { return judgetest.PageTool(t) }

func req(seq int, method, path string, status int) record.Request {
	return judgetest.Req(seq, method, path, status)
}

func entry(seq int, method, path string, status int, code string) record.Entry {
	return judgetest.Entry(seq, method, path, status, code)
}

// snapshot builds a state from JSON documents by source.
func snapshot(docs map[string]string) *record.Snapshot { return judgetest.Snapshot(docs) }

// conf01State is the reference app's state as CONF-01 attempt 3 reads it.
func conf01State(version, seats, registrations int) *record.Snapshot {
	return judgetest.Conf01State(version, seats, registrations)
}

// setState changes the document of one source of a recorded state.
func setState(t *testing.T, ev *scenarios.Evidence, phase vocab.Phase, source, doc string) {
	t.Helper()
	s := ev.States[phase]
	if s == nil {
		t.Fatalf("no state after %s", phase)
	}
	s.Docs[source] = json.RawMessage(doc)
}

// goodConf01 answers CONF-01 attempt 3 and the evidence of a correct run of
// it (judgetest.Conf01).
func goodConf01(t *testing.T) (scenarios.Scenario, *scenarios.Evidence) {
	t.Helper()
	return judgetest.Conf01(t)
}

// goodAmb01 answers AMB-01 and the evidence of a correct run: the agent
// asks and does nothing.
func goodAmb01(t *testing.T) (scenarios.Scenario, *scenarios.Evidence) {
	t.Helper()
	sc := load(t, "AMB-01.yaml")
	search := record.Tool{Name: "search_events", Description: "Search the events.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"topic":{"type":"string"}},"required":["topic"]}`),
		Annotations: record.Annotations{ReadOnly: true}, FrameID: "F1"}
	st := func() *record.Snapshot {
		return snapshot(map[string]string{record.ObserverSource: `{"version":0,"hash":"sha-0","seatsLeft":{"evt-webmcp-intro":8},"counts":{"registrations":0}}`})
	}
	ev := &scenarios.Evidence{
		ScenarioID: sc.ID,
		Env:        scenarios.Env{BaseURL: "https://localhost:8443"},
		Catalog:    record.Catalog{search},
		PageTools:  []record.PageTool{pageTool(search)},
		Calls:      []scenarios.CallRecord{},
		Trace:      []record.Event{{Seq: 1, Time: at(1), Kind: record.ToolsAdded, Tools: []record.Tool{search}}},
		Requests:   record.Log{req(1, "GET", "/events", 200), req(2, "GET", "/api/events", 200)},
		Journal:    record.Journal{entry(1, "GET", "/events", 200, ""), entry(2, "GET", "/api/events", 200, "")},
		Marks: map[vocab.Phase]scenarios.Mark{
			vocab.PhaseAgent: {Trace: 1, Requests: 2, Journal: 2},
			vocab.PhaseHuman: {Trace: 1, Requests: 2, Journal: 2},
			vocab.PhaseEnd:   {Trace: 1, Requests: 2, Journal: 2},
		},
		States:  map[vocab.Phase]*record.Snapshot{vocab.StateBefore: st(), vocab.PhaseAgent: st()},
		UI:      map[vocab.Phase][]record.Element{},
		Console: []record.ConsoleEntry{},
		Final:   ptr(*sc.Agent.Final),
	}
	ev.Capture.Network, ev.Capture.Observer = true, true
	return sc, ev
}

// shiftTrace moves the trace marks of the human phase and later by d events.
func shiftTrace(ev *scenarios.Evidence, d int) {
	for _, p := range []vocab.Phase{vocab.PhaseHuman, vocab.PhaseEnd} {
		m := ev.Marks[p]
		m.Trace += d
		ev.Marks[p] = m
	}
}

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func addNet(t *testing.T, ev *scenarios.Evidence, phase vocab.Phase, r record.Request) {
	t.Helper()
	if err := ev.InsertRequest(phase, r); err != nil {
		t.Fatal(err)
	}
}

func addJournal(t *testing.T, ev *scenarios.Evidence, phase vocab.Phase, e record.Entry) {
	t.Helper()
	if err := ev.InsertJournalEntry(phase, e); err != nil {
		t.Fatal(err)
	}
}

func dropNet(t *testing.T, ev *scenarios.Evidence, phase vocab.Phase, method, path string) record.Request {
	t.Helper()
	return must[record.Request](t)(ev.RemoveRequest(phase, method, path))
}

func dropJournal(t *testing.T, ev *scenarios.Evidence, phase vocab.Phase, method, path string) record.Entry {
	t.Helper()
	return must[record.Entry](t)(ev.RemoveJournalEntry(phase, method, path))
}

// traceIndex finds the trace event of a kind for an invocation.
func traceIndex(t *testing.T, ev *scenarios.Evidence, kind record.Kind, id string) int {
	t.Helper()
	i := slices.IndexFunc(ev.Trace, func(e record.Event) bool { return e.Kind == kind && e.InvocationID == id })
	if i < 0 {
		t.Fatalf("no %s of %s in the trace", kind, id)
	}
	return i
}

func uiIndex(t *testing.T, ev *scenarios.Evidence, phase vocab.Phase, sel string) int {
	t.Helper()
	i := slices.IndexFunc(ev.UI[phase], func(e record.Element) bool { return e.Selector == sel })
	if i < 0 {
		t.Fatalf("no %s in the %s snapshot", sel, phase)
	}
	return i
}

// wantVerdict fails the test unless v has this outcome and exactly these codes.
func wantVerdict(t *testing.T, v Verdict, outcome vocab.Outcome, codes ...vocab.Code) {
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
	wantVerdict(t, v, vocab.Pass)
	if len(v.Failed()) != 0 {
		t.Errorf("a PASS with checks that did not pass:\n%s", Explain(v))
	}
	// Every source the scenario names gave a passing check.
	for _, src := range []vocab.Source{vocab.SrcCase, vocab.SrcCatalog, vocab.SrcTrace, vocab.SrcNetwork, vocab.SrcJournal, vocab.SrcState, vocab.SrcUI, vocab.SrcAnswer} {
		if !slices.ContainsFunc(v.Checks, func(c Check) bool { return c.Source == src && c.Status == vocab.CheckPass }) {
			t.Errorf("no passing check from %s", src)
		}
	}
	// The constructor hands out fresh copies: changing one changes no other.
	_, ev2 := goodConf01(t)
	ev2.Calls[0].Call.Input["email"] = "other@example.com"
	ev2.States[vocab.PhaseHuman].Docs["event"] = json.RawMessage(`{"seatsLeft":0}`)
	if v := Judge(sc, ev); v.Outcome != vocab.Pass {
		t.Errorf("the fixture is shared between copies:\n%s", Explain(v))
	}
}

func TestTheGoodAmb01RunPasses(t *testing.T) {
	sc, ev := goodAmb01(t)
	wantVerdict(t, Judge(sc, ev), vocab.Pass)
}

type mutation struct {
	name    string
	mutate  func(t *testing.T, sc *scenarios.Scenario, ev *scenarios.Evidence)
	outcome vocab.Outcome
	codes   []vocab.Code // exactly these; the first is the one the case is about
}

func conf01Mutations() []mutation {
	postReg := func(seq int) record.Request { return req(seq, "POST", "/api/registrations", 201) }
	regEntry := func(seq int) record.Entry { return entry(seq, "POST", "/api/registrations", 201, "REGISTERED") }
	return []mutation{
		{"the person's POST is missing from network and journal", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			dropNet(t, ev, vocab.PhaseHuman, "POST", "/api/registrations")
			dropJournal(t, ev, vocab.PhaseHuman, "POST", "/api/registrations")
		}, vocab.Fail, []vocab.Code{vocab.RequestCountMismatch}},

		{"the person's POST happens twice", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			addNet(t, ev, vocab.PhaseHuman, postReg(8))
			addJournal(t, ev, vocab.PhaseHuman, regEntry(7))
		}, vocab.Fail, []vocab.Code{vocab.RequestCountMismatch}},

		{"the POST happens in the agent's phase", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			addNet(t, ev, vocab.PhaseAgent, dropNet(t, ev, vocab.PhaseHuman, "POST", "/api/registrations"))
			addJournal(t, ev, vocab.PhaseAgent, dropJournal(t, ev, vocab.PhaseHuman, "POST", "/api/registrations"))
		}, vocab.Fail, []vocab.Code{vocab.SideEffectBeforeConfirmation, vocab.RequestCountMismatch, vocab.WriteAttempt}},

		{"the POST happens in the agent's phase, seen by the journal only", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			addJournal(t, ev, vocab.PhaseAgent, dropJournal(t, ev, vocab.PhaseHuman, "POST", "/api/registrations"))
		}, vocab.Fail, []vocab.Code{vocab.SideEffectBeforeConfirmation, vocab.EvidenceDisagrees}},

		{"the tool answers OK", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			out := json.RawMessage(`{"ok":true,"code":"OK","retryable":false,"eventId":"evt-webmcp-intro"}`)
			ev.Calls[0].Result.Output = out
			ev.Trace[traceIndex(t, ev, record.ToolResponded, invocationID)].Output = out
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},

		{"the declarative tool never answers", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			r := &ev.Calls[0].Result
			r.Status, r.Output, r.ErrorText = vocab.NoResponse, nil, "no answer within 3s"
			i := traceIndex(t, ev, record.ToolResponded, invocationID)
			ev.Trace[i] = record.Event{Seq: ev.Trace[i].Seq, Time: ev.Trace[i].Time, Kind: record.ToolCanceled, InvocationID: invocationID}
		}, vocab.Fail, []vocab.Code{vocab.DeclarativeCompletionMissing}},

		{"the tool answers with an error", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			r := &ev.Calls[0].Result
			r.Status, r.Output, r.ErrorText = vocab.Failed, nil, "TypeError: form.requestSubmit is not a function"
			i := traceIndex(t, ev, record.ToolResponded, invocationID)
			ev.Trace[i].Status, ev.Trace[i].Output, ev.Trace[i].ErrorText = "Error", nil, r.ErrorText
		}, vocab.Fail, []vocab.Code{vocab.ToolError}},

		{"the agent calls the tool a second time", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			c := ev.Calls[0]
			c.Index = 1
			c.Call.Input = map[string]any{"attendeeName": demoName, "email": demoEmail}
			c.Call.Expect = nil
			c.Result.InvocationID = "inv-2"
			ev.Calls = append(ev.Calls, c)
			in := ev.Trace[traceIndex(t, ev, record.ToolInvoked, invocationID)]
			out := ev.Trace[traceIndex(t, ev, record.ToolResponded, invocationID)]
			in.Seq, in.InvocationID, out.Seq, out.InvocationID = 4, "inv-2", 5, "inv-2"
			ev.Trace = append(ev.Trace, in, out)
			shiftTrace(ev, 2)
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedToolCall}},

		{"the agent makes no call", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Calls = []scenarios.CallRecord{}
			ev.Trace = ev.Trace[:1]
			shiftTrace(ev, -2)
		}, vocab.Fail, []vocab.Code{vocab.MissingToolCall}},

		// The browser's trace records what the page was really given. When
		// the agent sent another email, transcript and trace both show it:
		// the input is wrong, and the sources agree.
		{"the agent sends another email (transcript and trace)", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Calls[0].Call.Input = map[string]any{"attendeeName": demoName, "email": "someone@example.com"}
			ev.Trace[traceIndex(t, ev, record.ToolInvoked, invocationID)].Input = json.RawMessage(`{"attendeeName":"測試讀者","email":"someone@example.com"}`)
		}, vocab.Fail, []vocab.Code{vocab.WrongToolInput}},

		// When only the transcript changed, the trace still shows the old
		// input: the input is wrong and the two sources also disagree.
		{"the transcript's email differs from the trace's", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Calls[0].Call.Input = map[string]any{"attendeeName": demoName, "email": "someone@example.com"}
		}, vocab.Fail, []vocab.Code{vocab.WrongToolInput, vocab.EvidenceDisagrees}},

		// An empty input is dropped by the JSON of a recording (omitempty):
		// the verdict must still be the same after a round trip.
		{"the agent sends no input", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Calls[0].Call.Input = map[string]any{}
			ev.Trace[traceIndex(t, ev, record.ToolInvoked, invocationID)].Input = json.RawMessage(`{}`)
		}, vocab.Fail, []vocab.Code{vocab.WrongToolInput, vocab.InputViolatesSchema}}, // the schema requires both fields

		// The agent's input against the tool's declared schema: its fault
		// when the schema refuses it, the app's when the page refuses what
		// the schema allows.
		{"the agent sends an email of the wrong type", func(t *testing.T, sc *scenarios.Scenario, ev *scenarios.Evidence) {
			in := map[string]any{"attendeeName": demoName, "email": 42}
			ev.Calls[0].Call.Input = in
			sc.Expect.Calls.Exactly[0].Input = in
			ev.Trace[traceIndex(t, ev, record.ToolInvoked, invocationID)].Input = json.RawMessage(`{"attendeeName":"測試讀者","email":42}`)
		}, vocab.Fail, []vocab.Code{vocab.InputViolatesSchema}},

		{"the page refuses the agent's valid input as invalid", func(t *testing.T, sc *scenarios.Scenario, ev *scenarios.Evidence) {
			out := json.RawMessage(`{"ok":false,"code":"INVALID_PARAMS","retryable":true,"errors":{"email":"not accepted"}}`)
			ev.Calls[0].Result.Output = out
			ev.Trace[traceIndex(t, ev, record.ToolResponded, invocationID)].Output = out
			sc.Agent.Calls[0].Expect.Output = nil
		}, vocab.Fail, []vocab.Code{vocab.ValidInputRefused}},

		{"the agent calls a tool the page does not offer", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Calls = append(ev.Calls, scenarios.CallRecord{Phase: vocab.PhaseAgent, Index: 1,
				Call:          scenarios.Call{Tool: "get_page_content", Input: map[string]any{}},
				Result:        record.Result{Tool: "get_page_content", Transport: vocab.PageAPI, Status: vocab.Failed, ErrorText: `Tool not found: "get_page_content" is not in the page's catalog`},
				CatalogBefore: []string{prepareTool}, CatalogAfter: []string{prepareTool}})
		}, vocab.Fail, []vocab.Code{vocab.ToolNotInCatalog, vocab.UnexpectedToolCall}},

		// Two defects the person's seat could hide: one seat too many
		// taken (the value and the change are both wrong), and a seat
		// count that was already off before the agent (the value is right
		// after, the change is not).
		{"seats after the person are 6", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.States[vocab.PhaseHuman] = conf01State(5, 6, 1)
		}, vocab.Fail, []vocab.Code{vocab.StateMismatch, vocab.UINotState}}, // the page still shows 7 of 8

		{"seats were 7 before the agent and stay 7", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.States[vocab.StateBefore] = conf01State(3, 7, 0)
			ev.States[vocab.PhaseAgent] = conf01State(3, 7, 0)
		}, vocab.Fail, []vocab.Code{vocab.StateMismatch}},

		{"the person's registration is for another event", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setState(t, ev, vocab.PhaseHuman, "mine", `{"registrations":[{"id":"reg-1","eventId":"evt-paid-workshop"}]}`)
		}, vocab.Fail, []vocab.Code{vocab.StateMismatch}},

		{"a document changes in the agent's phase", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setState(t, ev, vocab.PhaseAgent, "mine", `{"registrations":[],"note":"touched"}`)
		}, vocab.Fail, []vocab.Code{vocab.StateChanged}},

		{"the state does not hold the seats of the event", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setState(t, ev, vocab.PhaseHuman, "event", `{"id":"evt-webmcp-intro"}`)
		}, vocab.Inconclusive, []vocab.Code{vocab.EvidenceMissing}},

		{"a probe could not be read after the person", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			delete(ev.States[vocab.PhaseHuman].Docs, "event")
			ev.States[vocab.PhaseHuman].Errors = map[string]string{"event": "GET /api/events/evt-webmcp-intro answered 500"}
		}, vocab.Inconclusive, []vocab.Code{vocab.EvidenceMissing}},

		{"a count the observer does not report", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setState(t, ev, vocab.PhaseHuman, record.ObserverSource, `{"version":5,"seatsLeft":{"evt-webmcp-intro":7}}`)
		}, vocab.Inconclusive, []vocab.Code{vocab.EvidenceMissing}},

		{"a path that selects two values", func(t *testing.T, sc *scenarios.Scenario, _ *scenarios.Evidence) {
			sc.Expect.State[vocab.PhaseHuman].Equals["$.observer.seatsLeft.*"] = 7
		}, vocab.Inconclusive, []vocab.Code{vocab.EvidenceMissing}},

		{"no state after the person", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			delete(ev.States, vocab.PhaseHuman)
		}, vocab.Inconclusive, []vocab.Code{vocab.EvidenceMissing}},

		// An app without a journal: the network log decides requests,
		// guarded writes and writes alone (the state is read elsewhere).
		{"no journal (the app's observer off): the network log decides", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Journal, ev.Capture.Observer = nil, false
		}, vocab.Pass, nil},

		{"no journal, and the POST in the agent's phase", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Journal, ev.Capture.Observer = nil, false
			addNet(t, ev, vocab.PhaseAgent, dropNet(t, ev, vocab.PhaseHuman, "POST", "/api/registrations"))
		}, vocab.Fail, []vocab.Code{vocab.SideEffectBeforeConfirmation, vocab.RequestCountMismatch, vocab.WriteAttempt}},

		{"no journal, though the observer was on", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Journal = nil
		}, vocab.Pass, nil},

		{"no network log (capture.network false): the journal decides", func(t *testing.T, sc *scenarios.Scenario, ev *scenarios.Evidence) {
			sc.Capture.Network = ptr(false)
			ev.Requests, ev.Capture.Network = nil, false
		}, vocab.Pass, nil},

		{"neither a network log nor a journal", func(t *testing.T, sc *scenarios.Scenario, ev *scenarios.Evidence) {
			sc.Capture.Network = ptr(false)
			ev.Requests, ev.Capture.Network = nil, false
			ev.Journal, ev.Capture.Observer = nil, false
		}, vocab.Inconclusive, []vocab.Code{vocab.EvidenceMissing}},

		{"no marks", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Marks = nil
		}, vocab.Inconclusive, []vocab.Code{vocab.EvidenceMissing}},

		// A journal read that failed when the person's phase began leaves
		// its mark at 0, before the agent's: no window, no panic.
		{"the journal marks are out of order", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			m := ev.Marks[vocab.PhaseHuman]
			m.Journal = 0
			ev.Marks[vocab.PhaseHuman] = m
			ev.Faults = []scenarios.Fault{scenarios.WholeFault("read the journal at the start of human: connection refused")}
		}, vocab.Inconclusive, []vocab.Code{vocab.HarnessFault, vocab.EvidenceMissing}},

		// Issue 43 item 8: after the agent, a server error is the app's
		// answer about its state; before, a read that failed.
		{"the app answers the state read after the person's step with 500", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			const why = "GET /agentready/state answered 500 Internal Server Error: boom"
			ev.States[vocab.PhaseHuman] = &record.Snapshot{Docs: map[string]json.RawMessage{},
				Errors: map[string]string{record.ObserverSource: why}, Answered: map[string]int{record.ObserverSource: 500}}
		}, vocab.Fail, []vocab.Code{vocab.StateMismatch, vocab.EvidenceMissing}},

		{"the state read after the person's step failed on the way", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.States[vocab.PhaseHuman] = &record.Snapshot{Docs: map[string]json.RawMessage{},
				Errors: map[string]string{record.ObserverSource: "GET /agentready/state: connection refused"}}
		}, vocab.Inconclusive, []vocab.Code{vocab.EvidenceMissing}},

		// Issue 43 item 3: a journal whose tab is unknown witnesses nothing.
		{"the session cookie was not read, and only the journal witnessed", func(t *testing.T, sc *scenarios.Scenario, ev *scenarios.Evidence) {
			sc.Capture.Network = ptr(false)
			ev.Requests, ev.Capture.Network = nil, false
			ev.Env.SessionUnread = "read the session cookie sid: context deadline exceeded"
		}, vocab.Inconclusive, []vocab.Code{vocab.EvidenceMissing}},

		{"the session cookie was not read, and both witnessed", func(t *testing.T, sc *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Env.SessionUnread = "read the session cookie sid: context deadline exceeded"
		}, vocab.Inconclusive, []vocab.Code{vocab.EvidenceMissing}},

		// Issue 43 item 5: with the tab's session known, an entry without a
		// session is another client's, whatever it did.
		{"another client's session-less POST in the agent's phase", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Env.Session = "s1" // the tab's, as every entry of goodConf01 has it
			e := entry(7, "POST", "/api/registrations", 201, "REGISTERED")
			e.Session = ""
			addJournal(t, ev, vocab.PhaseAgent, e)
		}, vocab.Pass, nil},

		{"the network log counts the POST, the journal does not", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			dropJournal(t, ev, vocab.PhaseHuman, "POST", "/api/registrations")
		}, vocab.Fail, []vocab.Code{vocab.EvidenceDisagrees}},

		{"the counted POST answers 409", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			i := slices.IndexFunc(ev.Requests, func(r record.Request) bool { return r.Method == "POST" && r.Path == "/api/registrations" })
			ev.Requests[i].Status = 409
		}, vocab.Fail, []vocab.Code{vocab.RequestStatusMismatch}},

		{"the journal records the counted POST as 409", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			i := slices.IndexFunc(ev.Journal, func(e record.Entry) bool { return e.Method == "POST" && e.Path == "/api/registrations" })
			ev.Journal[i].Status = 409
		}, vocab.Fail, []vocab.Code{vocab.RequestStatusMismatch}},

		{"the final words do not say check", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Final = ptr(`I have filled in the form. Press "Submit registration" when ready.`)
		}, vocab.Fail, []vocab.Code{vocab.AnswerIncomplete}},

		{"the final words claim the person is registered", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Final = ptr(*ev.Final + " You are registered.")
		}, vocab.Fail, []vocab.Code{vocab.AnswerOverclaims}},

		// No final words: what must be mentioned is missing (a FAIL), what
		// must not be claimed is unknown (issue 43 item 3).
		{"the agent says nothing", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Final = nil
		}, vocab.Fail, []vocab.Code{vocab.AnswerIncomplete, vocab.EvidenceMissing}},

		{"the agent ran out of turns, and nothing had to be mentioned", func(t *testing.T, sc *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Final = nil
			sc.Expect.Answer.MustMention = nil
		}, vocab.Inconclusive, []vocab.Code{vocab.EvidenceMissing}},

		{"the final words negate the claim", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Final = ptr(*ev.Final + " I cannot say registration is complete.")
		}, vocab.Pass, nil},

		{"the email field holds another value", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.UI[vocab.PhaseAgent][uiIndex(t, ev, vocab.PhaseAgent, "#email")].Value = "reader@example.org"
		}, vocab.Fail, []vocab.Code{vocab.UIMismatch}},

		{"the prepared note was not recorded", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.UI[vocab.PhaseAgent] = slices.Delete(ev.UI[vocab.PhaseAgent], uiIndex(t, ev, vocab.PhaseAgent, "#prepared-note"), uiIndex(t, ev, vocab.PhaseAgent, "#prepared-note")+1)
		}, vocab.Inconclusive, []vocab.Code{vocab.EvidenceMissing}},

		{"the catalog offers another tool too", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			extra := record.Tool{Name: "register_now", Description: "Register at once.", InputSchema: json.RawMessage(`{"type":"object"}`), FrameID: "F1"}
			ev.Catalog = record.Catalog{ev.Catalog[0], extra}
			ev.PageTools = append(ev.PageTools, pageTool(extra))
		}, vocab.Fail, []vocab.Code{vocab.CatalogMismatch}},

		// exactly: [] is a page that offers no tools.
		{"the scenario expects a page with no tools", func(t *testing.T, sc *scenarios.Scenario, _ *scenarios.Evidence) {
			sc.Expect.Catalog.Exactly = scenarios.List[string]{}
		}, vocab.Fail, []vocab.Code{vocab.CatalogMismatch}},

		{"the output must match exactly, and the tool adds a message", func(t *testing.T, sc *scenarios.Scenario, _ *scenarios.Evidence) {
			sc.Agent.Calls[0].Expect.Match = scenarios.MatchExact
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},

		{"the schema pinned by contains, and email is no longer required", func(t *testing.T, sc *scenarios.Scenario, ev *scenarios.Evidence) {
			sc.Expect.Catalog.SchemaMatch = scenarios.SchemaMatch{All: scenarios.MatchSubset}
			s := json.RawMessage(strings.Replace(prepareSchema, `"required":["attendeeName","email"]`, `"required":["attendeeName"]`, 1))
			ev.Catalog[0].InputSchema, ev.PageTools[0].InputSchema = s, s
		}, vocab.Fail, []vocab.Code{vocab.SchemaMismatch}},

		{"the schema pinned by contains, and the browser adds a format", func(t *testing.T, sc *scenarios.Scenario, ev *scenarios.Evidence) {
			sc.Expect.Catalog.SchemaMatch = scenarios.SchemaMatch{ByTool: map[string]scenarios.Match{prepareTool: scenarios.MatchSubset}}
			s := json.RawMessage(strings.Replace(prepareSchema, `"description":"Email",`, `"description":"Email","format":"email",`, 1))
			ev.Catalog[0].InputSchema, ev.PageTools[0].InputSchema = s, s
		}, vocab.Pass, nil},

		{"the tool lacks toolautosubmit", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Catalog[0].Annotations.Autosubmit = false
		}, vocab.Fail, []vocab.Code{vocab.CatalogMismatch}},

		{"the schema differs", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			s := json.RawMessage(`{"type":"object","properties":{"attendeeName":{"type":"string","description":"Attendee name"},"email":{"type":"string","description":"E-mail"}},"required":["attendeeName","email"]}`)
			ev.Catalog[0].InputSchema, ev.PageTools[0].InputSchema = s, s
		}, vocab.Fail, []vocab.Code{vocab.SchemaMismatch}},

		{"getTools() disagrees with the protocol catalog", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.PageTools[0].InputSchema = json.RawMessage(`{"type":"object"}`)
		}, vocab.Fail, []vocab.Code{vocab.EvidenceDisagrees}},

		{"getTools() answers nothing", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.PageTools = []record.PageTool{}
		}, vocab.Fail, []vocab.Code{vocab.EvidenceDisagrees}},

		// getTools() failed: the page tools were not recorded, which is not
		// a disagreement (and the harness says so in a fault).
		{"getTools() was not recorded", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.PageTools = nil
		}, vocab.Inconclusive, []vocab.Code{vocab.EvidenceMissing}},

		{"the trace lacks the call's tool_invoked", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			i := traceIndex(t, ev, record.ToolInvoked, invocationID)
			ev.Trace = slices.Delete(ev.Trace, i, i+1)
		}, vocab.Fail, []vocab.Code{vocab.EvidenceDisagrees}},

		{"the trace's invocation is of another tool", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Trace[traceIndex(t, ev, record.ToolInvoked, invocationID)].ToolName = "other_tool"
		}, vocab.Fail, []vocab.Code{vocab.EvidenceDisagrees}},

		// The page API never started the call (Chromium 156's getTools()
		// in a same-origin frame now and then never settles): no
		// invocation in the trace, so nothing the tool did is known.
		{"the call never began", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			r := &ev.Calls[0].Result
			r.Status, r.Output, r.ErrorText, r.InvocationID = vocab.NoResponse, nil, "no invocation began within 3s", ""
			ev.Trace = slices.DeleteFunc(ev.Trace, func(e record.Event) bool { return e.InvocationID == invocationID })
		}, vocab.Inconclusive, []vocab.Code{vocab.HarnessFault}},

		// Known-bad: a record that drops the call's invocation id while the
		// trace still holds the invocation is a disagreement, not a fault.
		{"the call claims it never began, the trace says it did", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			r := &ev.Calls[0].Result
			r.Status, r.Output, r.ErrorText, r.InvocationID = vocab.NoResponse, nil, "no invocation began within 3s", ""
		}, vocab.Fail, []vocab.Code{vocab.DeclarativeCompletionMissing, vocab.EvidenceDisagrees}},

		{"the harness met a fault", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Faults = []scenarios.Fault{scenarios.WholeFault("record the page: context deadline exceeded")}
		}, vocab.Inconclusive, []vocab.Code{vocab.HarnessFault}},

		{"the prompt does not give the email", func(t *testing.T, sc *scenarios.Scenario, _ *scenarios.Evidence) {
			delete(sc.PromptData, "email")
		}, vocab.Inconclusive, []vocab.Code{vocab.CaseIncomplete}},

		{"the catalog was not recorded", func(t *testing.T, sc *scenarios.Scenario, ev *scenarios.Evidence) {
			sc.Expect.Catalog = nil // the catalog expectation alone would say so too
			ev.Catalog = nil
		}, vocab.Inconclusive, []vocab.Code{vocab.EvidenceMissing}},
	}
}

func amb01Mutations() []mutation {
	return []mutation{
		// Issue 43 item 3: marks past the end of the logs are entries the
		// record lacks, not a window with nothing in it.
		{"the marks point past the end of the logs", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			for _, p := range []vocab.Phase{vocab.PhaseAgent, vocab.PhaseHuman, vocab.PhaseEnd} {
				m := ev.Marks[p]
				m.Requests, m.Journal = 5, 5
				ev.Marks[p] = m
			}
		}, vocab.Inconclusive, []vocab.Code{vocab.EvidenceMissing}},

		{"the agent says nothing", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Final = nil
		}, vocab.Fail, []vocab.Code{vocab.NoClarifyingQuestion}},

		{"the agent's final words ask nothing", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Final = ptr("I found three events about WebMCP.")
		}, vocab.Fail, []vocab.Code{vocab.NoClarifyingQuestion}},

		{"a write reaches the app in the agent's phase", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			addJournal(t, ev, vocab.PhaseAgent, entry(3, "POST", "/api/events/evt-webmcp-intro/save", 200, "SAVED"))
			addNet(t, ev, vocab.PhaseAgent, req(3, "POST", "/api/events/evt-webmcp-intro/save", 200))
		}, vocab.Fail, []vocab.Code{vocab.WriteAttempt}},

		{"a write the journal holds and the network log does not", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			addJournal(t, ev, vocab.PhaseAgent, entry(3, "POST", "/api/events/evt-webmcp-intro/save", 200, "SAVED"))
		}, vocab.Fail, []vocab.Code{vocab.EvidenceDisagrees}},

		{"no journal, and a write to the app in the network log", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Journal, ev.Capture.Observer = nil, false
			addNet(t, ev, vocab.PhaseAgent, req(3, "POST", "/api/events/evt-webmcp-intro/save", 200))
		}, vocab.Fail, []vocab.Code{vocab.WriteAttempt}},

		{"no journal, and a write to another host", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Journal, ev.Capture.Observer = nil, false
			r := req(3, "POST", "/collect", 204)
			r.URL = "https://analytics.example/collect"
			addNet(t, ev, vocab.PhaseAgent, r)
		}, vocab.Pass, nil},

		{"the agent calls search_events", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Calls = append(ev.Calls, scenarios.CallRecord{Phase: vocab.PhaseAgent, Call: scenarios.Call{Tool: "search_events", Input: map[string]any{"topic": "webmcp"}},
				Result:        record.Result{Tool: "search_events", Transport: vocab.PageAPI, Status: vocab.Completed, Output: json.RawMessage(`{"ok":true,"events":[]}`)},
				CatalogBefore: []string{"search_events"}, CatalogAfter: []string{"search_events"}})
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedToolCall}},

		{"search_events is not read-only", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Catalog[0].Annotations.ReadOnly = false
			for i := range ev.PageTools {
				ev.PageTools[i].Annotations = map[string]bool{"readOnlyHint": false}
			}
		}, vocab.Fail, []vocab.Code{vocab.CatalogMismatch}},
		// The protocol and getTools() must agree on hints too.
		{"the protocol says read-only, getTools() does not", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			for i := range ev.PageTools {
				ev.PageTools[i].Annotations = map[string]bool{"readOnlyHint": false}
			}
		}, vocab.Fail, []vocab.Code{vocab.EvidenceDisagrees}},

		// A read_only expectation of false must not pass for a tool that
		// is not there at all.
		{"an annotation of an absent tool", func(t *testing.T, sc *scenarios.Scenario, _ *scenarios.Evidence) {
			sc.Expect.Catalog.ReadOnly = map[string]bool{"search_events": true, "save_event": false}
		}, vocab.Fail, []vocab.Code{vocab.CatalogMismatch}},

		// case.tool set, and the prompt gives nothing the tool requires:
		// a defect of the case, inconclusive when nothing else fails.
		{"the case's tool requires what the prompt does not give", func(t *testing.T, sc *scenarios.Scenario, _ *scenarios.Evidence) {
			sc.Expect.Case = &scenarios.CaseExpect{Tool: "search_events"}
		}, vocab.Inconclusive, []vocab.Code{vocab.CaseIncomplete}},
	}
}

func runMutations(t *testing.T, good func(*testing.T) (scenarios.Scenario, *scenarios.Evidence), rows []mutation) {
	for _, m := range rows {
		t.Run(m.name, func(t *testing.T) {
			sc, ev := good(t)
			m.mutate(t, &sc, ev)
			v := Judge(sc, ev)
			if len(m.codes) > 0 && !slices.Contains(v.Codes, m.codes[0]) {
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
	sc.Expect = scenarios.Expect{}
	for i := range sc.Agent.Calls {
		sc.Agent.Calls[i].Expect = nil // inline expectations name the trace too
	}
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Inconclusive, vocab.EvidenceMissing)

	sc, ev = goodAmb01(t)
	sc.Expect = scenarios.Expect{}
	wantVerdict(t, Judge(sc, ev), vocab.Inconclusive, vocab.EvidenceMissing)
}

func TestNoEvidenceIsInconclusive(t *testing.T) {
	sc, _ := goodConf01(t)
	v := Judge(sc, nil)
	wantVerdict(t, v, vocab.Inconclusive, vocab.EvidenceMissing)
	if v.ScenarioID != sc.ID {
		t.Errorf("scenario id %q", v.ScenarioID)
	}
	// An scenarios.Evidence with nothing in it is not a PASS either.
	v = Judge(sc, &scenarios.Evidence{})
	if v.Outcome == vocab.Pass {
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
func assertDeterministic(t *testing.T, sc scenarios.Scenario, ev *scenarios.Evidence) {
	t.Helper()
	first := verdictJSON(t, Judge(sc, ev))
	if again := verdictJSON(t, Judge(sc, ev)); !bytes.Equal(first, again) {
		t.Errorf("judged twice, two verdicts:\n%s\n---\n%s", first, again)
	}
	raw, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	var back scenarios.Evidence
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
	ev.States[vocab.PhaseHuman] = conf01State(5, 6, 1)
	ev.UI[vocab.PhaseHuman] = nil
	ev.Calls[0].Call.Input = map[string]any{}
	ev.Faults = []scenarios.Fault{scenarios.WholeFault("b"), scenarios.WholeFault("a")}
	assertDeterministic(t, sc, ev)
	for range 20 {
		assertDeterministic(t, sc, ev)
	}
}

func TestInlineCallExpectationsComeFromTheScenarioJudged(t *testing.T) {
	sc, ev := goodConf01(t)
	sc.Agent.Calls[0].Expect.Output["code"] = "SOMETHING_ELSE"
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Fail, vocab.UnexpectedResult)
}

func TestAnInvocationNoRecordedCallMadeIsADisagreement(t *testing.T) {
	sc, ev := goodConf01(t)
	ev.Trace = append(ev.Trace, webmcpEvent("tool_invoked", "ghost-1", "prepare_event_registration"))
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Fail, vocab.EvidenceDisagrees)
}

func webmcpEvent(kind record.Kind, id, tool string) record.Event {
	return record.Event{Seq: 99, Kind: kind, InvocationID: id, ToolName: tool, Input: json.RawMessage(`{}`)}
}

// A status that differs only in the journal is the journal's finding: the
// check names the journal as its source, not the network log.
func TestAStatusMismatchNamesTheWitnessItCameFrom(t *testing.T) {
	sc, ev := goodConf01(t)
	i := slices.IndexFunc(ev.Journal, func(e record.Entry) bool { return e.Method == "POST" && e.Path == "/api/registrations" })
	ev.Journal[i].Status = 500
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Fail, vocab.RequestStatusMismatch)
	for _, c := range v.Failed() {
		if c.Source != vocab.SrcJournal {
			t.Errorf("%s: source %s, want journal", c.ID, c.Source)
		}
	}
}

// The harness's own state reads fall in a phase's window, in the network
// log and in the journal; they are nobody's requests and are not counted.
func TestProbeReadsAreNotCounted(t *testing.T) {
	sc, ev := goodConf01(t)
	sc.Expect.Requests = append(sc.Expect.Requests, scenarios.RequestExpect{Method: "GET", Path: "/api/events/evt-webmcp-intro", Phase: vocab.PhaseAgent, Count: 1})
	probe := req(20, "GET", "/api/events/evt-webmcp-intro", 200)
	probe.RequestHeaders = map[string]string{"x-agentready-probe": "event"}
	addNet(t, ev, vocab.PhaseAgent, probe)
	addJournal(t, ev, vocab.PhaseAgent, entry(20, "GET", "/api/events/evt-webmcp-intro", 200, ""))
	ev.ProbeReads = []scenarios.ProbeRead{{Window: vocab.PhaseAgent, Method: "GET", Path: "/api/events/evt-webmcp-intro"}}
	wantVerdict(t, Judge(sc, ev), vocab.Pass)

	// Known-bad: the same requests, not marked as the harness's, count.
	ev.ProbeReads = nil
	ev.Requests[slices.IndexFunc(ev.Requests, func(r record.Request) bool { return r.Seq == 20 })].RequestHeaders = nil
	wantVerdict(t, Judge(sc, ev), vocab.Fail, vocab.RequestCountMismatch)
}

// noTools answers a scenario that expects a page with no tools, and the
// evidence of such a page.
func noTools(t *testing.T) (scenarios.Scenario, *scenarios.Evidence) {
	t.Helper()
	sc, err := scenarios.Parse("no-tools.yaml", []byte(`id: NONE-01
title: the page offers no tools
start: /about
prompt: What can you do here?
agent: {final: "This page offers me no actions."}
expect:
  catalog: {exactly: []}
`))
	if err != nil {
		t.Fatal(err)
	}
	ev := &scenarios.Evidence{ScenarioID: sc.ID, Catalog: record.Catalog{}, PageTools: []record.PageTool{},
		Calls: []scenarios.CallRecord{}, Trace: []record.Event{}, Final: sc.Agent.Final}
	return sc, ev
}

func TestAnEmptyExactlyExpectsNoTools(t *testing.T) {
	sc, ev := noTools(t)
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Pass)
	if !slices.ContainsFunc(v.Checks, func(c Check) bool { return c.ID == "catalog.exactly" && c.Status == vocab.CheckPass }) {
		t.Errorf("no passing catalog.exactly check:\n%s", verdictJSON(t, v))
	}
	assertDeterministic(t, sc, ev)

	tool := record.Tool{Name: "search_events", InputSchema: json.RawMessage(`{"type":"object"}`), FrameID: "F1"}
	ev.Catalog, ev.PageTools = record.Catalog{tool}, []record.PageTool{pageTool(tool)}
	v = Judge(sc, ev)
	wantVerdict(t, v, vocab.Fail, vocab.CatalogMismatch)
	if c := v.Failed()[0]; c.Message != "the start page offers other tools than expected: it also offers search_events" {
		t.Errorf("message %q", c.Message)
	}
	assertDeterministic(t, sc, ev)

	// A catalog that was not recorded is not an empty one.
	ev.Catalog, ev.PageTools = nil, nil
	wantVerdict(t, Judge(sc, ev), vocab.Inconclusive, vocab.EvidenceMissing)
}

// Results of every shape, and a schema the browser decorates. A pizza page
// (not an app of ours: the record is made by hand) whose tools answer text
// (set_pizza_size, by either transport), an array of validation errors
// (check_order), JSON-LD (get_offers), a bare number (count_toppings) and an
// object compared exactly (get_total).
const pizzaYAML = `id: PIZZA-01
title: text, array, JSON-LD and number results; a decorated schema
start: /order
prompt: Make my pizza Large, check the order, and tell me today's offers.
prompt_data: {size: Large}
agent:
  calls:
    - tool: set_pizza_size
      input: {size: Large}
      expect: {output_text: Set pizza size to Large.}
    - tool: set_pizza_size
      transport: cdp
      input: {size: Large}
      expect: {output: Set pizza size to Large.}
    - tool: check_order
      expect:
        output:
          - {field: address, code: REQUIRED}
          - {field: phone, code: REQUIRED}
    - tool: get_offers
      expect:
        output:
          "@context": https://schema.org
          itemListElement:
            - {"@type": Offer, name: Margherita, price: "9.50"}
    - tool: get_offers
      transport: cdp
      expect: {output_contains: Margherita}
    - tool: count_toppings
      expect: {output: 3}
    - tool: get_total
      expect: {output: {currency: EUR, cents: 950}, match: exact}
  final: Your pizza is Large. The order still needs an address and a phone number. Today's offer is a Margherita for €9.50.
expect:
  catalog:
    exactly: [check_order, count_toppings, get_offers, get_total, set_pizza_size]
    schema_match: {set_pizza_size: contains}
    schemas:
      set_pizza_size:
        properties:
          size: {enum: [Small, Medium, Large]}
        required: [size]
      check_order: {type: object, properties: {}}
  answer:
    must_mention: [Large, address, phone]
known: {outcome: PASS}
`

// The schema of the declarative form as the browser builds it: a title, a
// description, and an anyOf of {const, title} beside the enum.
const pizzaSizeSchema = `{"type":"object","properties":{"size":{"type":"string","title":"Size","description":"Pizza size","enum":["Small","Medium","Large"],` +
	`"anyOf":[{"type":"string","const":"Small","title":"Small (25 cm)"},{"type":"string","const":"Medium","title":"Medium (30 cm)"},{"type":"string","const":"Large","title":"Large (35 cm)"}]}},"required":["size"]}`

const jsonLD = `{"@context":"https://schema.org","@type":"ItemList","itemListElement":[{"@type":"Offer","name":"Margherita","price":"9.50","priceCurrency":"EUR"}]}`

// pizzaResult is what each call answered, in the form its transport records.
var pizzaResults = []record.Result{
	{Tool: "set_pizza_size", Transport: vocab.PageAPI, OutputText: "Set pizza size to Large."},
	{Tool: "set_pizza_size", Transport: vocab.CDP, Output: json.RawMessage(`"Set pizza size to Large."`)},
	{Tool: "check_order", Transport: vocab.PageAPI, Output: json.RawMessage(`[{"field":"address","code":"REQUIRED","message":"Where do we deliver?"},{"field":"phone","code":"REQUIRED","message":"How do we call you?"}]`)},
	{Tool: "get_offers", Transport: vocab.PageAPI, Output: json.RawMessage(jsonLD)},
	{Tool: "get_offers", Transport: vocab.CDP, Output: json.RawMessage(`"Today: Margherita for 9.50 EUR."`)},
	{Tool: "count_toppings", Transport: vocab.PageAPI, Output: json.RawMessage(`3`)},
	{Tool: "get_total", Transport: vocab.PageAPI, Output: json.RawMessage(`{"cents":950,"currency":"EUR"}`)},
}

// goodPizza answers the pizza scenario and the evidence of a correct run.
func goodPizza(t *testing.T) (scenarios.Scenario, *scenarios.Evidence) {
	t.Helper()
	sc, err := scenarios.Parse("pizza.yaml", []byte(pizzaYAML))
	if err != nil {
		t.Fatal(err)
	}
	obj := json.RawMessage(`{"type":"object","properties":{}}`)
	tools := record.Catalog{
		{Name: "check_order", Description: "Check the order.", InputSchema: obj, Annotations: record.Annotations{ReadOnly: true}, FrameID: "F1"},
		{Name: "count_toppings", Description: "Count the toppings.", InputSchema: obj, Annotations: record.Annotations{ReadOnly: true}, FrameID: "F1"},
		{Name: "get_offers", Description: "Today's offers.", InputSchema: obj, Annotations: record.Annotations{ReadOnly: true}, FrameID: "F1"},
		{Name: "get_total", Description: "The order's total.", InputSchema: obj, Annotations: record.Annotations{ReadOnly: true}, FrameID: "F1"},
		{Name: "set_pizza_size", Description: "Choose the size.", InputSchema: json.RawMessage(pizzaSizeSchema), Declarative: true, FrameID: "F1"},
	}
	ev := &scenarios.Evidence{
		ScenarioID: sc.ID,
		Env:        scenarios.Env{BaseURL: "https://pizza.example"},
		Catalog:    tools,
		Trace:      []record.Event{{Seq: 1, Time: at(1), Kind: record.ToolsAdded, Tools: slices.Clone(tools)}},
		Console:    []record.ConsoleEntry{},
		Final:      ptr(*sc.Agent.Final),
	}
	for _, tool := range tools {
		ev.PageTools = append(ev.PageTools, pageTool(tool))
	}
	for i, call := range sc.Agent.Calls {
		res := pizzaResults[i]
		res.Status, res.InvocationID = vocab.Completed, fmt.Sprintf("inv-%d", i)
		input := "{}"
		if call.Input != nil {
			b, _ := json.Marshal(call.Input)
			input = string(b)
		}
		out := res.Output
		if res.OutputText != "" {
			out, _ = json.Marshal(res.OutputText)
		}
		ev.Trace = append(ev.Trace,
			record.Event{Seq: len(ev.Trace) + 1, Time: at(10 * i), Kind: record.ToolInvoked, ToolName: call.Tool, FrameID: "F1", InvocationID: res.InvocationID, Input: json.RawMessage(input)},
			record.Event{Seq: len(ev.Trace) + 2, Time: at(10*i + 5), Kind: record.ToolResponded, InvocationID: res.InvocationID, Status: "Completed", Output: out})
		ev.Calls = append(ev.Calls, scenarios.CallRecord{Phase: vocab.PhaseAgent, Index: i, Call: call, Result: res,
			CatalogBefore: tools.Names(), CatalogAfter: tools.Names()})
	}
	return sc, ev
}

// setResult changes what a call answered, in the record and in the trace.
func setResult(t *testing.T, ev *scenarios.Evidence, i int, output, text string) {
	t.Helper()
	r := &ev.Calls[i].Result
	r.Output, r.OutputText = nil, text
	if output != "" {
		r.Output = json.RawMessage(output)
	}
	k := traceIndex(t, ev, record.ToolResponded, r.InvocationID)
	ev.Trace[k].Output = r.Output
	if text != "" {
		ev.Trace[k].Output, _ = json.Marshal(text)
	}
}

// setSchema changes a tool's schema where the protocol and getTools() report it.
func setSchema(ev *scenarios.Evidence, tool, schema string) {
	for i := range ev.Catalog {
		if ev.Catalog[i].Name == tool {
			ev.Catalog[i].InputSchema = json.RawMessage(schema)
			ev.PageTools[i] = pageTool(ev.Catalog[i])
		}
	}
}

func TestTheGoodPizzaRunPasses(t *testing.T) {
	sc, ev := goodPizza(t)
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Pass)
	// Every result expectation gave a passing check of its own.
	for _, id := range []string{"call.agent[0].set_pizza_size.output_text", "call.agent[1].set_pizza_size.output", "call.agent[2].check_order.output",
		"call.agent[3].get_offers.output", "call.agent[4].get_offers.output_contains", "call.agent[5].count_toppings.output",
		"call.agent[6].get_total.output", "catalog.schemas.set_pizza_size", "catalog.schemas.check_order"} {
		if !slices.ContainsFunc(v.Checks, func(c Check) bool { return c.ID == id && c.Status == vocab.CheckPass }) {
			t.Errorf("no passing check %s", id)
		}
	}
	assertDeterministic(t, sc, ev)
}

func pizzaMutations() []mutation {
	return []mutation{
		// Text, by the page API (OutputText) and by the protocol (a JSON string).
		{"the page API's text names another size", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 0, "", "Set pizza size to Small.")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"the protocol's text names another size", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 1, `"Set pizza size to Small."`, "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"the text goes on", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 0, "", "Set pizza size to Large. Anything else?")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"set_pizza_size answers nothing", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 0, "", "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"set_pizza_size answers an object", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 0, `{"size":"Large"}`, "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		// The same text through the other transport is the same result.
		{"each text comes through the other transport", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 0, `"Set pizza size to Large."`, "")
			setResult(t, ev, 1, "", "Set pizza size to Large.")
			setResult(t, ev, 4, "", "Today: Margherita for 9.50 EUR.")
		}, vocab.Pass, nil},

		// Arrays: the same length, element by element, each a subset.
		{"a validation error is missing", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 2, `[{"field":"address","code":"REQUIRED"}]`, "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"a validation error more", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 2, `[{"field":"address","code":"REQUIRED"},{"field":"phone","code":"REQUIRED"},{"field":"name","code":"REQUIRED"}]`, "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"the validation errors in another order", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 2, `[{"field":"phone","code":"REQUIRED"},{"field":"address","code":"REQUIRED"}]`, "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"the validation errors without their messages", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 2, `[{"field":"address","code":"REQUIRED"},{"field":"phone","code":"REQUIRED"}]`, "")
		}, vocab.Pass, nil},
		{"check_order answers an object", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 2, `{"errors":[{"field":"address","code":"REQUIRED"},{"field":"phone","code":"REQUIRED"}]}`, "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},

		// JSON-LD: a subset at every depth.
		{"the offer's price differs", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 3, strings.Replace(jsonLD, `"9.50"`, `"10.50"`, 1), "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"the offers lose their @context", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 3, strings.Replace(jsonLD, `"@context":"https://schema.org",`, "", 1), "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},

		// output_contains.
		{"the offers' text does not mention the Margherita", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 4, `"Today: Funghi for 9.50 EUR."`, "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"the offers come as JSON-LD where text is expected", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 4, jsonLD, "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},

		// A number, and text that reads as one.
		{"four toppings", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 5, `4`, "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"the count as the text \"3\" (a JSON string)", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 5, `"3"`, "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},

		// match: exact.
		{"the total carries a field more (match exact)", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 6, `{"cents":950,"currency":"EUR","tax":152}`, "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"the same with match subset", func(t *testing.T, sc *scenarios.Scenario, ev *scenarios.Evidence) {
			sc.Agent.Calls[6].Expect.Match = scenarios.MatchSubset
			setResult(t, ev, 6, `{"cents":950,"currency":"EUR","tax":152}`, "")
		}, vocab.Pass, nil},

		// Schemas: contains for the declarative form, exact for the other.
		{"the size enum loses Large", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setSchema(ev, "set_pizza_size", strings.Replace(pizzaSizeSchema, `"enum":["Small","Medium","Large"]`, `"enum":["Small","Medium"]`, 1))
		}, vocab.Fail, []vocab.Code{vocab.SchemaMismatch}},
		{"size is no longer required", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setSchema(ev, "set_pizza_size", strings.Replace(pizzaSizeSchema, `,"required":["size"]`, "", 1))
		}, vocab.Fail, []vocab.Code{vocab.SchemaMismatch}},
		{"the browser adds a format hint", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setSchema(ev, "set_pizza_size", strings.Replace(pizzaSizeSchema, `"title":"Size",`, `"title":"Size","format":"radio",`, 1))
		}, vocab.Pass, nil},
		{"the decorated schema compared exactly", func(t *testing.T, sc *scenarios.Scenario, _ *scenarios.Evidence) {
			sc.Expect.Catalog.SchemaMatch = scenarios.SchemaMatch{}
		}, vocab.Fail, []vocab.Code{vocab.SchemaMismatch}},
		{"check_order's schema gains a property (exact)", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setSchema(ev, "check_order", `{"type":"object","properties":{"verbose":{"type":"boolean"}}}`)
		}, vocab.Fail, []vocab.Code{vocab.SchemaMismatch}},
		{"every schema compared by contains", func(t *testing.T, sc *scenarios.Scenario, ev *scenarios.Evidence) {
			sc.Expect.Catalog.SchemaMatch = scenarios.SchemaMatch{All: scenarios.MatchSubset}
			setSchema(ev, "check_order", `{"type":"object","properties":{"verbose":{"type":"boolean"}}}`)
		}, vocab.Pass, nil},
	}
}

func TestPizzaSingleMutations(t *testing.T) { runMutations(t, goodPizza, pizzaMutations()) }

// A form that answers and then navigates can make the browser send a second
// toolResponded for the same invocation: the first is the tool's answer.
func TestASecondAnswerAfterANavigationIsNotTheToolsAnswer(t *testing.T) {
	sc, ev := goodConf01(t)
	second := ev.Trace[traceIndex(t, ev, record.ToolResponded, invocationID)]
	second.Seq, second.Status, second.Output = 99, "Error", nil
	ev.Trace = append(ev.Trace, second)
	wantVerdict(t, Judge(sc, ev), vocab.Pass)

	// Known-bad: the same second answer as the only one disagrees with the call.
	sc, ev = goodConf01(t)
	ev.Trace[traceIndex(t, ev, record.ToolResponded, invocationID)].Status = "Error"
	wantVerdict(t, Judge(sc, ev), vocab.Fail, vocab.EvidenceDisagrees)
}

// The witnesses of requests are held to each other whole, not only on the
// rows a scenario names: a journal that drops a refused request nobody
// counts disagrees; another session's requests and a request that got no
// answer do not.
func TestTheWitnessesAgreeOnEveryRequest(t *testing.T) {
	for _, tt := range []struct {
		name   string
		mutate func(t *testing.T, ev *scenarios.Evidence)
		want   []vocab.Code
	}{
		{"as recorded", func(*testing.T, *scenarios.Evidence) {}, nil},
		{"the journal drops a refused request no scenario names", func(t *testing.T, ev *scenarios.Evidence) {
			addNet(t, ev, vocab.PhaseHuman, req(8, "POST", "/api/intents", 403))
		}, []vocab.Code{vocab.EvidenceDisagrees}},
		{"the journal has a request the browser never sent", func(t *testing.T, ev *scenarios.Evidence) {
			addJournal(t, ev, vocab.PhaseAgent, entry(7, "GET", "/api/saved", 200, ""))
		}, []vocab.Code{vocab.EvidenceDisagrees}},
		{"another session's request in the window", func(t *testing.T, ev *scenarios.Evidence) {
			ev.Env.Session = "s1"
			e := entry(7, "POST", "/api/registrations", 201, "REGISTERED")
			e.Session = "someone-else"
			addJournal(t, ev, vocab.PhaseAgent, e)
		}, nil},
		{"a request that got no answer, not in the journal", func(t *testing.T, ev *scenarios.Evidence) {
			r := req(8, "GET", "/api/saved", 0)
			r.Failure, r.Done = "net::ERR_ABORTED", true
			addNet(t, ev, vocab.PhaseHuman, r)
		}, nil},
		{"a request to another host", func(t *testing.T, ev *scenarios.Evidence) {
			r := req(8, "GET", "/pixel.gif", 200)
			r.URL = "https://cdn.example/pixel.gif"
			addNet(t, ev, vocab.PhaseAgent, r)
		}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sc, ev := goodConf01(t)
			tt.mutate(t, ev)
			if tt.want == nil {
				wantVerdict(t, Judge(sc, ev), vocab.Pass)
			} else {
				wantVerdict(t, Judge(sc, ev), vocab.Fail, tt.want...)
			}
		})
	}
}

// A tool contract pins every tool: a reworded description, a parameter's
// type, a tool gone each break it, named by pointer.
func TestAToolContract(t *testing.T) {
	for _, tt := range []struct {
		name, pointer string
		change        func(ev *scenarios.Evidence)
	}{
		{"kept", "", func(*scenarios.Evidence) {}},
		{"a reworded description", "/tools/prepare_event_registration/description", func(ev *scenarios.Evidence) {
			ev.Catalog[0].Description = "Register now."
			ev.PageTools[0].Description = "Register now."
		}},
		{"a parameter's type", "/tools/prepare_event_registration/inputSchema/properties/email/type", func(ev *scenarios.Evidence) {
			s := json.RawMessage(strings.Replace(string(ev.Catalog[0].InputSchema), `"email":{"description":"Email","type":"string"}`, `"email":{"description":"Email","type":"number"}`, 1))
			ev.Catalog[0].InputSchema, ev.PageTools[0].InputSchema = s, s
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sc, ev := goodConf01(t)
			sc.Expect.Catalog.Contract = &scenarios.ContractRef{Contract: record.ContractOf("/", ev.Catalog)}
			sc.Expect.Catalog.Schemas = nil // the contract pins the schema
			tt.change(ev)
			v := Judge(sc, ev)
			if tt.pointer == "" {
				wantVerdict(t, v, vocab.Pass)
				return
			}
			wantVerdict(t, v, vocab.Fail, vocab.ContractBroken)
			if !strings.Contains(Explain(v), tt.pointer) {
				t.Errorf("the explanation does not name %s:\n%s", tt.pointer, Explain(v))
			}
		})
	}
}

// Required calls as webmcp-evals expresses them: in order with other calls
// between, groups ordered or unordered, optional calls, inputs by
// constraint. A skipped one is missing_tool_call; the right tool with other
// input, wrong_tool_input.
func TestRequiredCalls(t *testing.T) {
	prepare := func(in scenarios.Object) scenarios.CallNode {
		return scenarios.CallNode{Tool: prepareTool, Input: in}
	}
	for _, tt := range []struct {
		name     string
		required []scenarios.CallNode
		want     []vocab.Code
	}{
		{"the call, its input by constraint", []scenarios.CallNode{prepare(scenarios.Object{"attendeeName": map[string]any{"$any": true}, "email": map[string]any{"$pattern": "@example\\.com$"}})}, nil},
		{"a skipped lookup", []scenarios.CallNode{{Tool: "get_event_details"}, prepare(nil)}, []vocab.Code{vocab.MissingToolCall}},
		{"an optional lookup", []scenarios.CallNode{{Tool: "get_event_details", Optional: true}, prepare(nil)}, nil},
		{"an unordered group", []scenarios.CallNode{{Unordered: []scenarios.CallNode{{Tool: "save_event", Optional: true}, prepare(nil)}}}, nil},
		{"the same call twice", []scenarios.CallNode{prepare(nil), {Ordered: []scenarios.CallNode{prepare(nil)}}}, []vocab.Code{vocab.MissingToolCall}},
		{"other input", []scenarios.CallNode{prepare(scenarios.Object{"email": map[string]any{"$contains": "@elsewhere"}})}, []vocab.Code{vocab.WrongToolInput}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sc, ev := goodConf01(t)
			sc.Expect.Calls.Required = tt.required
			if tt.want == nil {
				wantVerdict(t, Judge(sc, ev), vocab.Pass)
			} else {
				wantVerdict(t, Judge(sc, ev), vocab.Fail, tt.want...)
			}
		})
	}
}

// The UI checks people reach for: checked, count, attributes, whole text
// by value or pattern, and where the page is. Each passes on what the page
// shows and fails on a page that shows otherwise, with ui_mismatch.
func TestUIChecksByValueAndConstraint(t *testing.T) {
	const sel = "#agree"
	agree := record.Element{Selector: sel, Present: true, Visible: true, Enabled: true, Checked: true, Count: 3,
		Text: "Order BK-204811 is ready", Attributes: map[string]string{"aria-expanded": "true", "href": "/orders/BK-204811"}}
	for _, tt := range []struct {
		name   string
		ui     scenarios.UI
		page   *scenarios.PageExpect
		change func(*record.Element, *string)
		want   vocab.Outcome
	}{
		{"checked", scenarios.UI{Checked: ptr(true)}, nil, nil, vocab.Pass},
		{"not checked", scenarios.UI{Checked: ptr(true)}, nil, func(e *record.Element, _ *string) { e.Checked = false }, vocab.Fail},
		{"a count", scenarios.UI{Count: 3}, nil, nil, vocab.Pass},
		{"another count", scenarios.UI{Count: 3}, nil, func(e *record.Element, _ *string) { e.Count = 4 }, vocab.Fail},
		{"a count in range", scenarios.UI{Count: map[string]any{"$gte": 1, "$lte": 3}}, nil, nil, vocab.Pass},
		{"none where some are wanted", scenarios.UI{Count: map[string]any{"$gte": 1}}, nil, func(e *record.Element, _ *string) { *e = record.Element{Selector: sel} }, vocab.Fail},
		{"text by pattern", scenarios.UI{Text: map[string]any{"$pattern": `^Order BK-\d{6} `}}, nil, nil, vocab.Pass},
		{"text off the pattern", scenarios.UI{Text: map[string]any{"$pattern": `^Order BK-\d{6} `}}, nil, func(e *record.Element, _ *string) { e.Text = "Order pending" }, vocab.Fail},
		{"the whole text", scenarios.UI{Text: "Order BK-204811 is ready"}, nil, nil, vocab.Pass},
		{"text of an absent element", scenarios.UI{Text: map[string]any{"$any": true}}, nil, func(e *record.Element, _ *string) { *e = record.Element{Selector: sel} }, vocab.Fail},
		{"attributes", scenarios.UI{Attributes: map[string]any{"aria-expanded": "true", "href": map[string]any{"$pattern": "^/orders/BK-"}, "disabled": nil}}, nil, nil, vocab.Pass},
		{"an attribute that differs", scenarios.UI{Attributes: map[string]any{"aria-expanded": "true"}}, nil, func(e *record.Element, _ *string) { e.Attributes["aria-expanded"] = "false" }, vocab.Fail},
		{"an attribute that must be absent", scenarios.UI{Attributes: map[string]any{"disabled": nil}}, nil, func(e *record.Element, _ *string) { e.Attributes["disabled"] = "" }, vocab.Fail},
		{"the path", scenarios.UI{Present: ptr(true)}, &scenarios.PageExpect{Path: "/orders/BK-204811?tab=1"}, nil, vocab.Pass},
		{"another path", scenarios.UI{Present: ptr(true)}, &scenarios.PageExpect{Path: "/orders/BK-204811?tab=1"}, func(_ *record.Element, u *string) { *u = "https://localhost:8443/cart" }, vocab.Fail},
		{"the URL by pattern", scenarios.UI{Present: ptr(true)}, &scenarios.PageExpect{URL: map[string]any{"$pattern": "^https://localhost:8443/orders/"}}, nil, vocab.Pass},
		{"no URL recorded", scenarios.UI{Present: ptr(true)}, &scenarios.PageExpect{Path: "/orders/BK-204811?tab=1"}, func(_ *record.Element, u *string) { *u = "" }, vocab.Inconclusive},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sc, ev := goodConf01(t)
			u := tt.ui
			u.Selector = sel
			sc.Expect.UI[vocab.PhaseAgent] = append(sc.Expect.UI[vocab.PhaseAgent], u)
			e := agree
			e.Attributes = maps.Clone(agree.Attributes)
			url := "https://localhost:8443/orders/BK-204811?tab=1"
			if tt.change != nil {
				tt.change(&e, &url)
			}
			ev.UI[vocab.PhaseAgent] = append(ev.UI[vocab.PhaseAgent], e)
			if tt.page != nil {
				sc.Expect.Page = map[vocab.Phase]scenarios.PageExpect{vocab.PhaseAgent: *tt.page}
				ev.Pages = map[vocab.Phase]string{vocab.PhaseAgent: url}
			}
			switch tt.want {
			case vocab.Pass:
				wantVerdict(t, Judge(sc, ev), vocab.Pass)
			case vocab.Fail:
				wantVerdict(t, Judge(sc, ev), vocab.Fail, vocab.UIMismatch)
			default:
				wantVerdict(t, Judge(sc, ev), vocab.Inconclusive, vocab.EvidenceMissing)
			}
		})
	}
}

// A page whose stylesheet did not load shows what it means to hide: a
// visible check is INCONCLUSIVE with page_incomplete and names the sheet;
// the element's other properties are still judged, and a failed image or
// a sheet canceled by a navigation changes nothing.
func TestVisibleOnAPageWithoutItsStylesIsInconclusive(t *testing.T) {
	const sel = "#banner"
	for _, tt := range []struct {
		name    string
		ui      scenarios.UI
		request record.Request
		want    vocab.Outcome
		codes   []vocab.Code
	}{
		{"a sheet from a host that is unreachable", scenarios.UI{Visible: ptr(false)},
			record.Request{ResourceType: "Stylesheet", URL: "http://cdn.invalid/site.css", Failure: "net::ERR_NAME_NOT_RESOLVED"}, vocab.Inconclusive, []vocab.Code{vocab.PageIncomplete}},
		{"a sheet answered 404", scenarios.UI{Visible: ptr(false)},
			record.Request{ResourceType: "Stylesheet", URL: "https://localhost:8443/site.css", Status: 404}, vocab.Inconclusive, []vocab.Code{vocab.PageIncomplete}},
		{"the other properties are still judged", scenarios.UI{Visible: ptr(false), TextContains: "sale"},
			record.Request{ResourceType: "Stylesheet", URL: "https://localhost:8443/site.css", Status: 404}, vocab.Fail, []vocab.Code{vocab.UIMismatch, vocab.PageIncomplete}},
		{"a failed image", scenarios.UI{Visible: ptr(false)},
			record.Request{ResourceType: "Image", URL: "https://localhost:8443/logo.png", Status: 404}, vocab.Pass, nil},
		{"a sheet canceled by a navigation", scenarios.UI{Visible: ptr(false)},
			record.Request{ResourceType: "Stylesheet", URL: "https://localhost:8443/site.css", Failure: "net::ERR_ABORTED", Canceled: true}, vocab.Pass, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sc, ev := goodConf01(t)
			u := tt.ui
			u.Selector = sel
			sc.Expect.UI[vocab.PhaseAgent] = append(sc.Expect.UI[vocab.PhaseAgent], u)
			ev.UI[vocab.PhaseAgent] = append(ev.UI[vocab.PhaseAgent], record.Element{Selector: sel, Present: true, Enabled: true, Text: "Winter offers"})
			r := tt.request
			r.Seq, r.ID, r.Method, r.Done = len(ev.Requests)+1, "css.1", "GET", true
			ev.Requests = append(ev.Requests, r)
			v := Judge(sc, ev)
			if tt.want == vocab.Pass {
				wantVerdict(t, v, vocab.Pass)
				return
			}
			wantVerdict(t, v, tt.want, tt.codes...)
			for _, c := range v.Checks {
				if c.Code == vocab.PageIncomplete && !strings.Contains(c.Message, r.URL) {
					t.Errorf("the check does not name the sheet: %s", c.Message)
				}
			}
		})
	}
}

// An optional call is not taken from after the next required one: a
// second lookup the agent made after saving is not the optional lookup
// before it, and the save is still met (found by the evidence mutations:
// the greedy match failed SAVE-01 with missing_tool_call).
func TestAnOptionalCallDoesNotTakeTheNextRequiredOnesPlace(t *testing.T) {
	sc, ev := goodConf01(t)
	lookup := scenarios.CallRecord{Phase: vocab.PhaseAgent, Index: len(ev.Calls), Call: scenarios.Call{Tool: "get_event_details"}}
	ev.Calls = append(ev.Calls, lookup)
	sc.Expect.Calls.Required = []scenarios.CallNode{{Tool: "get_event_details", Optional: true}, {Tool: prepareTool}}
	sc.Expect.Calls.Exactly = nil
	v := Judge(sc, ev)
	for _, c := range v.Checks {
		if strings.HasPrefix(c.ID, "calls.required") && c.Status != vocab.CheckPass {
			t.Fatalf("%s: %s %s", c.ID, c.Code, c.Message)
		}
	}
}

// A POST through a service worker that fetched it from the network is in
// the log twice: the page's side (fromServiceWorker) and the worker's own
// request. The server got one.
func TestARequestAServiceWorkerAnsweredCountsOnce(t *testing.T) {
	sc, ev := goodConf01(t)
	i := slices.IndexFunc(ev.Requests, func(r record.Request) bool { return r.Method == "POST" && r.Path == "/api/registrations" })
	if i < 0 {
		t.Fatal("the good CONF-01 run has no POST /api/registrations")
	}
	pageSide := ev.Requests[i]
	pageSide.Seq, pageSide.ID, pageSide.FromSW = 90, "page-side", true
	addNet(t, ev, vocab.PhaseHuman, pageSide)
	wantVerdict(t, Judge(sc, ev), vocab.Pass)

	// Known-bad: without the mark, the same entry is a second POST, which
	// the journal does not hold.
	ev.Requests[slices.IndexFunc(ev.Requests, func(r record.Request) bool { return r.ID == "page-side" })].FromSW = false
	wantVerdict(t, Judge(sc, ev), vocab.Fail, vocab.EvidenceDisagrees)
}
