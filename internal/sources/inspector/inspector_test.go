package inspector

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

func readTrace(t *testing.T, name string) *Trace {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestSplitNameStripsTheFramePrefix(t *testing.T) {
	for _, tc := range []struct {
		in    string
		name  string
		frame int
	}{
		{"_0_prepare_event_registration", "prepare_event_registration", 0},
		{"_12_add_task", "add_task", 12},
		{"_0__leading", "_leading", 0}, // the name itself may start with _
		{"_3_a_b_c", "a_b_c", 3},
	} {
		name, frame, err := SplitName(tc.in)
		if err != nil || name != tc.name || frame != tc.frame {
			t.Errorf("SplitName(%q) = %q, %d, %v; want %q, %d", tc.in, name, frame, err, tc.name, tc.frame)
		}
	}
	for _, bad := range []string{"add_task", "_x_add_task", "_0_", "0_add_task", ""} {
		if _, _, err := SplitName(bad); err == nil {
			t.Errorf("SplitName(%q) accepted a name without the Inspector's prefix", bad)
		}
	}
}

// The CONF-01 attempt 3 trace: one call with its JSON result and the final
// words, the thought part left out of them.
func TestParseReadsPromptCallsAnswersAndFinalWords(t *testing.T) {
	tr := readTrace(t, "conf01-attempt-3.trace.json")
	if !strings.HasPrefix(tr.Prompt, "Prepare my registration with demo data") {
		t.Errorf("prompt %q", tr.Prompt)
	}
	if len(tr.Tools) != 1 || tr.Tools[0].Name != "prepare_event_registration" || tr.Tools[0].Frame != 0 || tr.Tools[0].Schema["type"] != "object" {
		t.Errorf("declared tools %+v", tr.Tools)
	}
	if len(tr.Calls) != 1 {
		t.Fatalf("calls %+v", tr.Calls)
	}
	c := tr.Calls[0]
	if c.Tool != "prepare_event_registration" || !reflect.DeepEqual(c.Args, map[string]any{"attendeeName": "測試讀者", "email": "reader@example.com"}) {
		t.Errorf("call %+v", c)
	}
	if c.Response == nil || c.Response.IsError || !strings.Contains(c.Response.Result.(string), "CONFIRMATION_REQUIRED") {
		t.Errorf("response %+v", c.Response)
	}
	if tr.Final == nil || !strings.HasPrefix(*tr.Final, "I have filled in") || strings.Contains(*tr.Final, "The person wants") {
		t.Errorf("final %v", tr.Final)
	}
}

// The imported scenario loads, and says what the trace says: the calls with
// their inputs and answers, the final words, the declared catalog, and the
// prompt's values as prompt_data.
func TestScenarioScaffoldsExpectationsFromTheTrace(t *testing.T) {
	tr := readTrace(t, "conf01-attempt-3.trace.json")
	y, err := tr.Scenario(Options{ID: "CONF-01.imported", Start: "http://127.0.0.1:8080/events/evt-webmcp-intro/register", Source: "conf01.json"})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenarios.Parse("x.yaml", y)
	if err != nil {
		t.Fatalf("%v\n%s", err, y)
	}
	if sc.Start != "/events/evt-webmcp-intro/register" || !strings.Contains(string(y), "--base-url http://127.0.0.1:8080") {
		t.Errorf("start %q\n%s", sc.Start, y)
	}
	if sc.Agent.Final == nil || *sc.Agent.Final != *tr.Final {
		t.Errorf("final %v", sc.Agent.Final)
	}
	if len(sc.Agent.Calls) != 1 {
		t.Fatalf("calls %+v", sc.Agent.Calls)
	}
	x := sc.Agent.Calls[0].Expect
	if x == nil || x.Status != vocab.Completed || x.Output["code"] != "CONFIRMATION_REQUIRED" || x.Output["eventId"] != "evt-webmcp-intro" {
		t.Errorf("the call's expectation %+v", x)
	}
	if got := sc.Expect.Catalog.Exactly; !reflect.DeepEqual([]string(got), []string{"prepare_event_registration"}) {
		t.Errorf("catalog.exactly %v", got)
	}
	if s := sc.Expect.Catalog.Schemas["prepare_event_registration"]; s["type"] != "object" {
		t.Errorf("schema %v", s)
	}
	if e := sc.Expect.Calls.Exactly; len(e) != 1 || e[0].Input["email"] != "reader@example.com" {
		t.Errorf("calls.exactly %+v", e)
	}
	if sc.PromptData["attendeeName"].Value != "測試讀者" || sc.PromptData["email"].Value != "reader@example.com" {
		t.Errorf("prompt_data %+v", sc.PromptData)
	}
	if sc.Expect.Case == nil || sc.Expect.Case.Tool != "prepare_event_registration" {
		t.Errorf("case %+v", sc.Expect.Case)
	}
}

// Seed 004's attempt 2: the trace stops at the function call. The call
// expects nothing (there was no answer to scaffold from), the final words
// are absent, and the header says why.
func TestScenarioOfATraceThatStopsAtTheCall(t *testing.T) {
	tr := readTrace(t, "conf01-attempt-2.trace.json")
	if tr.Final != nil || tr.Calls[0].Response != nil {
		t.Fatalf("final %v, response %+v", tr.Final, tr.Calls[0].Response)
	}
	y, err := tr.Scenario(Options{ID: "CONF-01.attempt-2-imported", Start: "/events/evt-webmcp-intro/register"})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenarios.Parse("x.yaml", y)
	if err != nil {
		t.Fatalf("%v\n%s", err, y)
	}
	if sc.Agent.Final != nil || sc.Agent.Calls[0].Expect != nil {
		t.Errorf("final %v, expect %+v", sc.Agent.Final, sc.Agent.Calls[0].Expect)
	}
	for _, want := range []string{"holds no answer to it", "final: null"} {
		if !strings.Contains(string(y), want) {
			t.Errorf("the file lacks %q:\n%s", want, y)
		}
	}
}

func TestScenarioOfOtherAnswers(t *testing.T) {
	trace := func(response string) string {
		return `[{"userPrompt":{"message":"Add a task: buy milk","config":{"tools":[{"functionDeclarations":[{"name":"_0_add_task","description":"d","parametersJsonSchema":{"type":"object"}}]}]}}},
{"response":{"candidates":[{"content":{"parts":[{"text":"Adding it."},{"functionCall":{"name":"_0_add_task","args":{"text":"buy milk"}}}]}}]}},
{"userPrompt":{"message":[{"functionResponse":{"name":"_0_add_task","response":` + response + `}}]}},
{"response":{"candidates":[{"content":{"parts":[{"text":"Done."}]}}]}}]`
	}
	for _, tc := range []struct {
		response string
		check    func(*scenarios.CallExpect) bool
	}{
		{`{"result":"Added buy milk."}`, func(x *scenarios.CallExpect) bool {
			return x.OutputText != nil && *x.OutputText == "Added buy milk." && x.Status == vocab.Completed
		}},
		{`{"result":"[1,2]"}`, func(x *scenarios.CallExpect) bool { return string(x.OutputJSON) == "[1,2]" }},
		{`{"error":"Tool was executed but the invocation failed"}`, func(x *scenarios.CallExpect) bool {
			return x.Status == vocab.Failed && len(x.ResultKeys()) == 0
		}},
	} {
		tr, err := Parse([]byte(trace(tc.response)))
		if err != nil {
			t.Fatalf("%s: %v", tc.response, err)
		}
		y, err := tr.Scenario(Options{ID: "T-1", Start: "/tasks"})
		if err != nil {
			t.Fatalf("%s: %v", tc.response, err)
		}
		sc, err := scenarios.Parse("x.yaml", y)
		if err != nil {
			t.Fatalf("%s: %v\n%s", tc.response, err, y)
		}
		if x := sc.Agent.Calls[0].Expect; x == nil || !tc.check(x) {
			t.Errorf("%s: expect %+v\n%s", tc.response, x, y)
		}
		if sc.Agent.Final == nil || *sc.Agent.Final != "Done." {
			t.Errorf("%s: final %v (the text beside a call is not the final words)", tc.response, sc.Agent.Final)
		}
	}
}

// Bad input is an error that says what is wrong, never a guess.
func TestParseRefusesWhatItCannotRead(t *testing.T) {
	prompt := `{"userPrompt":{"message":"hi","config":{}}}`
	call := `{"response":{"candidates":[{"content":{"parts":[{"functionCall":{"name":"_0_a","args":{}}}]}}]}}`
	for _, tc := range []struct{ name, data, want string }{
		{"not JSON", `{"userPrompt"`, "not a trace"},
		{"not an array", `{"userPrompt":{}}`, "not a trace"},
		{"empty", `[]`, "empty"},
		{"two keys", `[{"userPrompt":{"message":"hi"},"response":{}}]`, "exactly one key"},
		{"unknown entry", `[` + prompt + `,{"toolCall":{}}]`, `unknown entry "toolCall"`},
		{"no prompt", `[{"error":{}}]`, "no user prompt"},
		{"response first", `[` + call + `]`, "before any user prompt"},
		{"unprefixed call", `[` + prompt + `,{"response":{"candidates":[{"content":{"parts":[{"functionCall":{"name":"a","args":{}}}]}}]}}]`, "lacks the Inspector's _<frameId>_ prefix"},
		{"unprefixed declaration", `[{"userPrompt":{"message":"hi","config":{"tools":[{"functionDeclarations":[{"name":"a"}]}]}}}]`, "lacks the Inspector's _<frameId>_ prefix"},
		{"answer to nothing", `[` + prompt + `,{"userPrompt":{"message":[{"functionResponse":{"name":"_0_a","response":{"result":"x"}}}]}}]`, "did not call"},
		{"answer to another call", `[` + prompt + `,` + call + `,{"userPrompt":{"message":[{"functionResponse":{"name":"_0_b","response":{"result":"x"}}}]}}]`, "where the model called a"},
		{"result and error", `[` + prompt + `,` + call + `,{"userPrompt":{"message":[{"functionResponse":{"name":"_0_a","response":{"result":"x","error":"y"}}}]}}]`, "neither result nor error alone"},
		{"second prompt", `[` + prompt + `,` + prompt + `]`, "a second user prompt"},
		{"Gemini Live", `[{"userPrompt":{"message":{"serverContent":{}},"config":{}}}]`, "Gemini Live"},
		{"blank prompt", `[{"userPrompt":{"message":"  "}}]`, "empty"},
		{"trailing data", `[` + prompt + `] []`, "more than one JSON value"},
	} {
		_, err := Parse([]byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want it to say %q", tc.name, err, tc.want)
		}
	}
}

func TestScenarioRefusesABadStart(t *testing.T) {
	tr := readTrace(t, "conf01-attempt-3.trace.json")
	for _, start := range []string{"", "events/register", "ftp://host/x", "http://"} {
		if _, err := tr.Scenario(Options{ID: "X", Start: start}); err == nil {
			t.Errorf("start %q accepted", start)
		}
	}
	if _, err := tr.Scenario(Options{ID: "not an id", Start: "/x"}); err == nil || !strings.Contains(err.Error(), "does not load") {
		t.Errorf("a bad id: %v", err)
	}
}
