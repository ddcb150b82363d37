package evals

import (
	"strings"
	"testing"

	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

func TestLoadReadsCasesNodesAndConstraints(t *testing.T) {
	cases, err := Load("testdata/tasks.evals.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 3 {
		t.Fatalf("%d cases", len(cases))
	}
	first := cases[0]
	if first.Title() != "Add a task, then list the tasks" || len(first.Expected) != 1 || len(first.Expected[0].Ordered) != 2 {
		t.Errorf("first case %+v", first)
	}
	add := first.Expected[0].Ordered[0].Call
	if add.FunctionName != "add_task" || add.Arguments["text"] != "Buy milk" || !add.HasResult {
		t.Errorf("add_task %+v", add)
	}
	if cases[1].Messages[0].Type != "message" {
		t.Errorf("a message without type is a message: %+v", cases[1].Messages[0])
	}
	if !cases[2].NoCall || cases[2].Expected != nil {
		t.Errorf("expectedCall null: %+v", cases[2])
	}
}

// Smoke mode replays the required calls in the order written: groups
// flattened, optional calls left out.
func TestStepsFlattenGroupsAndLeaveOutOptionalCalls(t *testing.T) {
	cases, err := Load("testdata/tasks.evals.json")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	steps, err := cases[1].Steps()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range steps {
		text, _ := s.Arguments["text"].(string)
		names = append(names, s.FunctionName+"("+text+")")
	}
	if strings.Join(names, " ") != "add_task(Call Ada) add_task(Water plants) list_tasks()" {
		t.Fatalf("steps %v", names)
	}
}

func TestNamesOfCases(t *testing.T) {
	cases, err := Parse("x.json", []byte(`[{"messages":[{"role":"user","content":"  Hi there "}],"expectedCall":null},{"messages":[],"expectedCall":null}]`))
	if err != nil {
		t.Fatal(err)
	}
	if cases[0].Title() != "Hi there" || cases[1].Title() != "Test 2" {
		t.Errorf("%q %q", cases[0].Title(), cases[1].Title())
	}
}

// A case becomes a scenario that loads: the calls as the transcript, each
// to complete, its result matched by constraints; skipped cases say why.
func TestSmokePlansScenariosAndSkips(t *testing.T) {
	cases, err := Load("testdata/tasks.evals.json")
	if err != nil {
		t.Fatal(err)
	}
	plans, err := Smoke("testdata/tasks.evals.json", cases, "http://127.0.0.1:9/tasks?x=1")
	if err != nil {
		t.Fatal(err)
	}
	if len(plans) != 3 || plans[2].Skip == "" || plans[0].Skip != "" {
		t.Fatalf("plans %+v", plans)
	}
	sc := plans[0].Scenario
	if sc.ID != "tasks-evals.01" || sc.Family != "tasks-evals" || sc.Start != "/tasks?x=1" || !strings.HasPrefix(sc.Prompt, "Add 'Buy milk'") {
		t.Errorf("scenario %s %s %s %q", sc.ID, sc.Family, sc.Start, sc.Prompt)
	}
	x := sc.Agent.Calls[0].Expect
	if x.Status != vocab.Completed || x.Match != scenarios.MatchConstraints || x.Output["ok"] != true {
		t.Errorf("expect %+v", x)
	}
	if len(sc.Expect.Calls.Exactly) != 2 {
		t.Errorf("calls.exactly %+v", sc.Expect.Calls.Exactly)
	}
	if x := plans[1].Scenario.Agent.Calls[0].Expect; x.Match != "" || len(x.ResultKeys()) != 0 {
		t.Errorf("a call without result expects completion only: %+v", x)
	}
	if err := sc.Validate(); err != nil {
		t.Error(err)
	}
	if _, err := Smoke("x.json", cases, "tasks"); err == nil {
		t.Error("a URL that is no URL")
	}
}

// What does not load names the case and the node; what smoke mode cannot
// replay is refused before anything runs.
func TestBadFilesAreErrors(t *testing.T) {
	wrap := func(node string) string {
		return `[{"name":"c","messages":[{"role":"user","content":"x"}],"expectedCall":[` + node + `]}]`
	}
	for _, tc := range []struct{ name, data, want string }{
		{"not JSON", `[{`, "not an eval file"},
		{"no cases", `[]`, "no eval case"},
		{"unknown operator in a result", wrap(`{"functionName":"a","arguments":{},"result":{"code":{"$regex":"x"}}}`), `case 0 ("c"): expectedCall[0].result: /code: unknown operator $regex`},
		{"unknown operator in arguments", wrap(`{"ordered":[{"functionName":"a","arguments":{"q":{"$contain":"x"}}}]}`), "expectedCall[0].ordered[0].arguments: /q: unknown operator $contain"},
		{"a typo in a key", wrap(`{"functionName":"a","argument":{}}`), "unknown key argument"},
		{"call and group", wrap(`{"functionName":"a","ordered":[]}`), "not several"},
		{"neither", wrap(`{"optional":true}`), "a node is a call"},
		{"arguments not an object", wrap(`{"functionName":"a","arguments":[1]}`), "an object"},
		{"empty name", wrap(`{"functionName":" "}`), "a tool's name"},
		{"optional not a boolean", wrap(`{"functionName":"a","optional":"yes"}`), "true or false"},
		{"no expectedCall", `[{"messages":[]}]`, "expectedCall: missing"},
		{"no messages", `[{"expectedCall":null}]`, "messages: missing"},
		{"bad role", `[{"messages":[{"role":"system","content":"x"}],"expectedCall":null}]`, `role "system"`},
		{"functioncall without a name", `[{"messages":[{"role":"model","type":"functioncall"}],"expectedCall":null}]`, "names its function"},
	} {
		_, err := Parse("f.json", []byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	for _, tc := range []struct{ name, node, want string }{
		{"no arguments", `{"functionName":"a"}`, "there are none"},
		{"null arguments", `{"functionName":"a","arguments":null}`, "there are none"},
		{"a constraint to send", `{"unordered":[{"functionName":"a","arguments":{"n":{"$gt":1}}}]}`, "expectedCall[0].unordered[0] (a).arguments: smoke mode sends concrete values: /n: $gt is a constraint"},
	} {
		cases, err := Parse("f.json", []byte(wrap(tc.node)))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		_, err = Smoke("f.json", cases, "http://h/p")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// An optional call needs no arguments: it is not replayed. A case of
	// optional calls only is skipped, not refused.
	cases, err := Parse("f.json", []byte(wrap(`{"functionName":"a","optional":true}`)))
	if err != nil {
		t.Fatal(err)
	}
	plans, err := Smoke("f.json", cases, "http://h/p")
	if err != nil || !strings.Contains(plans[0].Skip, "optional") {
		t.Errorf("%v %+v", err, plans)
	}
}
