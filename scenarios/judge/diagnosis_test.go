package judge

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// wantDiagnosis fails the test unless v is a FAIL whose diagnosis is want,
// field by field.
func wantDiagnosis(t *testing.T, v Verdict, want Diagnosis) {
	t.Helper()
	if v.Outcome != vocab.Fail || v.Diagnosis == nil {
		t.Fatalf("want a FAIL with a diagnosis, got %s %v\n%s", v.Outcome, v.Diagnosis, Explain(v))
	}
	if !reflect.DeepEqual(*v.Diagnosis, want) {
		got, _ := json.MarshalIndent(v.Diagnosis, "", "  ")
		exp, _ := json.MarshalIndent(want, "", "  ")
		t.Errorf("diagnosis\n%s\nwant\n%s", got, exp)
	}
}

const configTool = "submit_config"

// A tool whose schema wants body an object (or null), as in seed 003's
// config-plan run.
const configSchema = `{"type":"object","properties":{"body":{"type":["object","null"]}},"required":["body"]}`

// bodyAsString is seed 003's record: the call the browser received already
// held body as a string where the schema wants an object; the page sent it
// on and the server answered 400.
func bodyAsString(t *testing.T) (scenarios.Scenario, *scenarios.Evidence) {
	t.Helper()
	input := map[string]any{"body": `{"yaml":"name: demo\n"}`}
	sc := scenarios.Scenario{ID: "CFG-01", Title: "submit a config", Start: "/config", Prompt: "Check my config.",
		Agent: scenarios.Agent{Calls: []scenarios.Call{{Tool: configTool, Input: input, Expect: &scenarios.CallExpect{Status: vocab.Completed}}}},
		Expect: scenarios.Expect{
			Calls:    &scenarios.CallsExpect{Required: []scenarios.CallNode{{Tool: configTool}}},
			Requests: []scenarios.RequestExpect{{Method: "POST", Path: "/api/config/check", Phase: vocab.PhaseAgent, Count: 1, Status: 200}},
		}}
	tool := record.Tool{Name: configTool, Description: "Check a config.", InputSchema: json.RawMessage(configSchema), FrameID: "F1"}
	rawInput, _ := json.Marshal(input)
	ev := &scenarios.Evidence{
		ScenarioID: sc.ID,
		Env:        scenarios.Env{BaseURL: "https://localhost:8443"},
		Catalog:    record.Catalog{tool},
		PageTools:  []record.PageTool{pageTool(tool)},
		Calls: []scenarios.CallRecord{{
			Phase: vocab.PhaseAgent, Index: 0, Call: sc.Agent.Calls[0],
			Result: record.Result{Tool: configTool, Transport: vocab.PageAPI, InvocationID: invocationID,
				Status: vocab.Failed, ErrorText: "HTTP 400", Duration: 30 * time.Millisecond},
			CatalogBefore: []string{configTool}, CatalogAfter: []string{configTool},
		}},
		Trace: []record.Event{
			{Seq: 1, Time: at(1), Kind: record.ToolsAdded, Tools: []record.Tool{tool}},
			{Seq: 2, Time: at(50), Kind: record.ToolInvoked, ToolName: configTool, FrameID: "F1", InvocationID: invocationID, Input: rawInput},
			{Seq: 3, Time: at(90), Kind: record.ToolResponded, InvocationID: invocationID, Status: "Error", ErrorText: "HTTP 400"},
		},
		Requests: record.Log{req(1, "GET", "/config", 200), req(2, "POST", "/api/config/check", 400)},
		Marks: map[vocab.Phase]scenarios.Mark{
			vocab.PhaseAgent: {Trace: 1, Requests: 1},
			vocab.PhaseHuman: {Trace: 3, Requests: 2},
			vocab.PhaseEnd:   {Trace: 3, Requests: 2},
		},
		Console: []record.ConsoleEntry{},
		Final:   ptr("The serializer broke the body."),
	}
	ev.Capture.Network = true
	return sc, ev
}

// Seed 003: the body was a string when the browser received the call. The
// failure is located at the agent's input; what came before it was not
// observed, so the cause stays open.
func TestABodySentAsAStringDepartsAtTheInput(t *testing.T) {
	sc, ev := bodyAsString(t)
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Fail, vocab.InputViolatesSchema, vocab.ToolError, vocab.RequestStatusMismatch)
	wantDiagnosis(t, v, Diagnosis{
		Link:    vocab.LinkInput,
		Checks:  []string{"call.agent[0].submit_config.input"},
		Summary: "the input departs first: call.agent[0].submit_config.input — the agent's input breaks submit_config's declared schema: jsonschema validation failed with 'urn:agentready:input-schema#' - at '/body': got string, want null or object",
		Held:    []vocab.Link{},
		Unseen:  []vocab.Link{vocab.LinkCase},
		Later:   []vocab.Link{vocab.LinkPage, vocab.LinkRequest},
		Open: "not diagnosed: why the agent sent this input. The record holds the call as the browser received it; " +
			"the model's generation and whatever carried its call to the browser were not observed, so the record cannot say where before the browser it went wrong." +
			" Nothing conclusive was checked at case: the cause may lie there too." +
			" The later departures (page, request) may follow from this one or be faults of their own: the record does not tell them apart.",
	})
	// The agent's own account ("the serializer") is no evidence of a cause.
	if strings.Contains(v.Diagnosis.Summary+v.Diagnosis.Open, "serializer") {
		t.Error("the diagnosis repeats the agent's explanation")
	}
}

// The same run with the body an object: the input holds, and the first
// departure is the page's error.
func TestAnInputThatFitsIsHeldAndThePageDepartsFirst(t *testing.T) {
	sc, ev := bodyAsString(t)
	in := map[string]any{"body": map[string]any{"yaml": "name: demo\n"}}
	ev.Calls[0].Call.Input = in
	ev.Trace[1].Input, _ = json.Marshal(in)
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Fail, vocab.ToolError, vocab.RequestStatusMismatch)
	if d := v.Diagnosis; d == nil || d.Link != vocab.LinkPage ||
		!reflect.DeepEqual(d.Held, []vocab.Link{vocab.LinkInput, vocab.LinkTrace}) || !reflect.DeepEqual(d.Later, []vocab.Link{vocab.LinkRequest}) {
		t.Errorf("diagnosis %+v, want page first, input and trace held, request later", d)
	}
}

// CONF-01 with one field of the prepared form wrong: only the page departs.
func TestAUIMismatchAloneDepartsAtThePage(t *testing.T) {
	sc, ev := goodConf01(t)
	ev.UI[vocab.PhaseAgent][uiIndex(t, ev, vocab.PhaseAgent, "#email")].Value = "someone@example.com"
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Fail, vocab.UIMismatch)
	wantDiagnosis(t, v, Diagnosis{
		Link:    vocab.LinkPage,
		Checks:  []string{"ui.agent[1] #email"},
		Summary: `the page departs first: ui.agent[1] #email — value is "someone@example.com"`,
		Held:    []vocab.Link{vocab.LinkCase, vocab.LinkInput, vocab.LinkTrace},
		Unseen:  []vocab.Link{},
		Later:   []vocab.Link{},
		Open:    "not diagnosed: why the page departs. The record shows where the evidence first departs, not what caused it.",
	})
}

// CONF-01 whose state changed while the agent only prepared: the requests
// held (no write went over the network), the server's state departs.
func TestAStateChangedAloneDepartsAtTheServer(t *testing.T) {
	sc, ev := goodConf01(t)
	setState(t, ev, vocab.PhaseAgent, "mine", `{"registrations":[{"id":"reg-9","eventId":"evt-other","status":"active"}]}`)
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Fail, vocab.StateChanged)
	wantDiagnosis(t, v, Diagnosis{
		Link:    vocab.LinkServer,
		Checks:  []string{"state.agent.unchanged"},
		Summary: "the server departs first: state.agent.unchanged — the state changed: mine",
		Held:    []vocab.Link{vocab.LinkCase, vocab.LinkInput, vocab.LinkTrace, vocab.LinkPage, vocab.LinkRequest},
		Unseen:  []vocab.Link{},
		Later:   []vocab.Link{},
		Open:    "not diagnosed: why the server departs. The record shows where the evidence first departs, not what caused it.",
	})
}

// The same with network capture off: nothing was seen on the network, so
// the request is unseen, not held: the cause may lie there.
func TestWithoutTheNetworkLogTheRequestIsUnseen(t *testing.T) {
	sc, ev := goodConf01(t)
	setState(t, ev, vocab.PhaseAgent, "mine", `{"registrations":[{"id":"reg-9","eventId":"evt-other","status":"active"}]}`)
	ev.Capture.Network, ev.Requests = false, nil
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Fail, vocab.StateChanged)
	wantDiagnosis(t, v, Diagnosis{
		Link:    vocab.LinkServer,
		Checks:  []string{"state.agent.unchanged"},
		Summary: "the server departs first: state.agent.unchanged — the state changed: mine",
		Held:    []vocab.Link{vocab.LinkCase, vocab.LinkInput, vocab.LinkTrace, vocab.LinkPage},
		Unseen:  []vocab.Link{vocab.LinkRequest},
		Later:   []vocab.Link{},
		Open: "not diagnosed: why the server departs. The record shows where the evidence first departs, not what caused it." +
			" Nothing conclusive was checked at request: the cause may lie there too.",
	})
}

// Hand-made checks: a request that carried the wrong content and a state
// changed after it. The request departs first; the server's departure is
// later, and not told apart from a consequence.
func TestAContentMismatchWithALaterStateChange(t *testing.T) {
	diff := []record.Difference{{Pointer: "/sessions/0", Expected: json.RawMessage(`{"id":"other"}`)}, {Pointer: "/version", Expected: json.RawMessage(`2`), Actual: json.RawMessage(`3`)}}
	checks := []Check{
		{ID: "calls.required[0]", Source: vocab.SrcTrace, Status: vocab.CheckPass},
		{ID: "call.agent[0].save_config.input", Source: vocab.SrcTrace, Status: vocab.CheckPass},
		{ID: "trace.agreement", Source: vocab.SrcTrace, Status: vocab.CheckPass},
		{ID: "call.agent[0].save_config.status", Source: vocab.SrcTrace, Status: vocab.CheckPass},
		{ID: "content[0]", Source: vocab.SrcNetwork, Status: vocab.CheckFail, Code: vocab.ContentMismatch, Differences: diff,
			Message: "what PUT /api/config carried differs in 2 places: " + record.DiffText(diff, 20)},
		{ID: "requests[0] PUT /api/config (agent).network", Source: vocab.SrcNetwork, Status: vocab.CheckPass},
		{ID: "state.human.unchanged", Source: vocab.SrcState, Status: vocab.CheckFail, Code: vocab.StateChanged, Message: "the state changed: config"},
		{ID: "answer.must_mention[0]", Source: vocab.SrcAnswer, Status: vocab.CheckPass},
	}
	want := &Diagnosis{
		Link:    vocab.LinkRequest,
		Checks:  []string{"content[0]"},
		Summary: `the request departs first: content[0] — /sessions/0: expected {"id":"other"}, actual nothing; and 1 more`,
		Held:    []vocab.Link{vocab.LinkInput, vocab.LinkTrace, vocab.LinkPage},
		Unseen:  []vocab.Link{vocab.LinkCase},
		Later:   []vocab.Link{vocab.LinkServer},
		Open: "not diagnosed: why the request departs. The record shows where the evidence first departs, not what caused it." +
			" Nothing conclusive was checked at case: the cause may lie there too." +
			" The later departures (server) may follow from this one or be faults of their own: the record does not tell them apart.",
	}
	if got := diagnose(checks); !reflect.DeepEqual(got, want) {
		t.Errorf("diagnosis %+v\nwant %+v", got, want)
	}
}

// Two failing checks at the first link: both are listed, the summary
// names the first and counts the other; an inconclusive check before them
// leaves its link unseen.
func TestSeveralFailingChecksAtTheFirstLink(t *testing.T) {
	checks := []Check{
		{ID: "harness[0]", Source: vocab.SrcTrace, Status: vocab.CheckInconclusive, Code: vocab.EvidenceMissing, Message: "the harness could not record everything"},
		{ID: "answer.asks", Source: vocab.SrcAnswer, Status: vocab.CheckFail, Code: vocab.NoClarifyingQuestion, Message: "the agent's final words ask nothing"},
		{ID: "catalog.exactly", Source: vocab.SrcCatalog, Status: vocab.CheckPass},
		{ID: "answer.must_mention[0]", Source: vocab.SrcAnswer, Status: vocab.CheckFail, Code: vocab.AnswerIncomplete, Message: `the final words do not mention "check"`},
	}
	d := diagnose(checks)
	if d == nil || d.Link != vocab.LinkAnswer || !reflect.DeepEqual(d.Checks, []string{"answer.asks", "answer.must_mention[0]"}) ||
		d.Summary != "the answer departs first: answer.asks — the agent's final words ask nothing (and 1 more failing check(s) there)" ||
		!reflect.DeepEqual(d.Held, []vocab.Link{vocab.LinkPage}) ||
		!reflect.DeepEqual(d.Unseen, []vocab.Link{vocab.LinkCase, vocab.LinkInput, vocab.LinkTrace, vocab.LinkRequest, vocab.LinkServer}) {
		t.Errorf("diagnosis %+v", d)
	}
}

// Only a FAIL is located: a PASS and an INCONCLUSIVE have no diagnosis,
// and verdict.json has no key for one.
func TestOnlyAFailHasADiagnosis(t *testing.T) {
	sc, ev := goodConf01(t)
	pass := Judge(sc, ev)
	sc, ev = goodConf01(t)
	ev.States[vocab.PhaseHuman] = nil
	inconclusive := Judge(sc, ev)
	wantVerdict(t, inconclusive, vocab.Inconclusive, vocab.EvidenceMissing)
	for _, v := range []Verdict{pass, inconclusive} {
		if v.Outcome == vocab.Fail {
			t.Fatalf("%s: a FAIL here:\n%s", v.ScenarioID, Explain(v))
		}
		if v.Diagnosis != nil || strings.Contains(string(verdictJSON(t, v)), `"diagnosis"`) || strings.Contains(Explain(v), "departs at") {
			t.Errorf("a %s verdict has a diagnosis: %+v", v.Outcome, v.Diagnosis)
		}
	}
	if pass.Outcome != vocab.Pass {
		t.Errorf("the good CONF-01 run: %s\n%s", pass.Outcome, Explain(pass))
	}
}

// The diagnosis is part of the verdict's bytes: judged again, and after a
// JSON round trip of the evidence, it is the same; Explain shows it.
func TestTheDiagnosisIsDeterministicAndExplained(t *testing.T) {
	sc, ev := bodyAsString(t)
	assertDeterministic(t, sc, ev)
	v := Judge(sc, ev)
	if !strings.Contains(string(verdictJSON(t, v)), `"diagnosis": {`+"\n"+`    "link": "input",`) {
		t.Errorf("verdict.json lacks the diagnosis:\n%s", verdictJSON(t, v))
	}
	text := Explain(v)
	for _, want := range []string{
		"  departs at: input (held: none; unseen: case; later: page, request)\n",
		"      the input departs first: call.agent[0].submit_config.input — ",
		"      open: not diagnosed: why the agent sent this input.",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("Explain lacks %q:\n%s", want, text)
		}
	}
}

// A passing check of the trace is placed by what it is about.
func TestAPassingTraceCheckIsPlacedByWhatItChecks(t *testing.T) {
	for id, want := range map[string]vocab.Link{
		"calls.exactly[0]":                 vocab.LinkInput,
		"calls.none":                       vocab.LinkInput,
		"call.agent[0].save.input":         vocab.LinkInput,
		"call.agent[0].save.status":        vocab.LinkPage,
		"call.human[1].save.output":        vocab.LinkPage,
		"call.agent[0].save.error":         vocab.LinkPage,
		"call.agent[0].save.output_text":   vocab.LinkPage,
		"trace.agreement":                  vocab.LinkTrace,
		"call.agent[0].save.catalog_after": vocab.LinkPage,
	} {
		src := vocab.SrcTrace
		if strings.HasSuffix(id, "catalog_after") {
			src = vocab.SrcCatalog
		}
		if got := CheckLink(Check{ID: id, Source: src, Status: vocab.CheckPass}); got != want {
			t.Errorf("%s: %s, want %s", id, got, want)
		}
	}
	// A failing one is placed by its code, whatever its ID says.
	if got := CheckLink(Check{ID: "call.agent[0].save.status", Source: vocab.SrcTrace, Status: vocab.CheckFail, Code: vocab.DeclarativeCompletionMissing}); got != vocab.LinkTrace {
		t.Errorf("a declarative tool that never answered: %s, want trace", got)
	}
}

func TestAKnownDepartureIsPartOfTheExpectedVerdict(t *testing.T) {
	sc, ev := bodyAsString(t)
	v := Judge(sc, ev)
	if v.Outcome != vocab.Fail || v.Diagnosis == nil {
		t.Fatalf("the seed's string body must FAIL with a diagnosis:\n%s", Explain(v))
	}
	sc.Known = &scenarios.Known{Outcome: v.Outcome, Codes: v.Codes}
	if !AsMeant(sc, v) {
		t.Fatalf("the same outcome and codes with no departure named must be as meant")
	}
	sc.Known.Departs = vocab.LinkInput
	if !AsMeant(sc, v) {
		t.Errorf("departs: input is where this verdict departs, yet not as meant")
	}
	sc.Known.Departs = vocab.LinkRequest
	if AsMeant(sc, v) {
		t.Errorf("departs: request is not where this verdict departs (%s), yet as meant", v.Diagnosis.Link)
	}
}
