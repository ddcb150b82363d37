package scenarios

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios/vocab"
)

func answered(ph vocab.Phase, i int, tool string, output string) CallRecord {
	return CallRecord{Phase: ph, Index: i, Call: Call{Tool: tool}, Result: record.Result{Tool: tool, Status: vocab.Completed, Output: json.RawMessage(output)}}
}

// A carried value is taken by its path from the earlier call's result, or
// from the JSON an MCP-shaped result carries in its text; a path that
// picks nothing or several values, or a call not made or not completed,
// is an error that says which value and why.
func TestACarriedValueIsTakenFromTheEarlierResult(t *testing.T) {
	calls := []CallRecord{
		answered(vocab.PhaseAgent, 0, "list_tasks", `{"tasks":[{"id":"t-1","text":"water"},{"id":"t-2","text":"bread"}]}`),
		answered(vocab.PhaseAgent, 1, "find", `{"content":[{"type":"text","text":"{\"productId\":\"p-9\"}"}]}`),
		{Phase: vocab.PhaseAgent, Index: 2, Call: Call{Tool: "broken"}, Result: record.Result{Status: vocab.Failed, ErrorText: "boom"}},
	}
	in := map[string]any{
		"id":    map[string]any{"$from": "call/agent/0", "path": "$.tasks[?@.text=='bread'].id"},
		"items": []any{map[string]any{"product": map[string]any{"$from": "call/agent/1", "path": "$.productId"}, "qty": 2}},
		"note":  "kept as written",
	}
	out, carried, err := ResolveCarried(in, calls)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"id": "t-2", "items": []any{map[string]any{"product": "p-9", "qty": 2}}, "note": "kept as written"}
	if !record.JSONEqual(out, want) {
		t.Errorf("resolved %v, want %v", out, want)
	}
	if len(carried) != 2 || carried[0].At != "/id" || string(carried[0].Value) != `"t-2"` || carried[1].At != "/items/0/product" {
		t.Errorf("carried %+v", carried)
	}
	if _, ok := in["id"].(map[string]any); !ok {
		t.Error("the scenario's own input was changed")
	}
	for _, tt := range []struct{ from, path, want string }{
		{"call/agent/0", "$.tasks[*].id", "picks 2 values"},
		{"call/agent/0", "$.tasks[?@.text=='dog'].id", "picks nothing"},
		{"call/agent/5", "$.id", "was not made"},
		{"call/agent/2", "$.id", "did not complete"},
		{"call/0", "$.id", "names no call"},
	} {
		_, _, err := ResolveCarried(map[string]any{"id": map[string]any{"$from": tt.from, "path": tt.path}}, calls)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "/id") {
			t.Errorf("%s %s: %v, want an error naming /id that says %q", tt.from, tt.path, err, tt.want)
		}
	}
}

// At load, a carried value that no page could satisfy is refused with its
// line: a call that comes later, a path that is no JSONPath, a bad
// spelling. One from an earlier phase's call loads.
func TestCarriedValuesAreCheckedAtLoad(t *testing.T) {
	data, err := os.ReadFile("cases/TASKS-02.yaml")
	if err != nil {
		t.Fatal(err)
	}
	good := string(data)
	if _, err := Parse("TASKS-02.yaml", data); err != nil {
		t.Fatalf("TASKS-02 as written: %v", err)
	}
	for _, tt := range []struct{ name, from, to, want string }{
		{"a later call", "{$from: call/agent/0,", "{$from: call/agent/2,", `agent.calls[1].input.id["$from"]: call/agent/2 is not a call made before this one`},
		{"the call itself", "{$from: call/agent/1,", "{$from: call/agent/2,", `agent.calls[2].input.id["$from"]: call/agent/2 is not a call made before this one`},
		{"no JSONPath", "path: $.task.id}", "path: task.id}", "agent.calls[2].input.id.path"},
		{"a phase of no calls", "{$from: call/agent/0,", "{$from: call/leave/0,", "names no call"},
		{"another key", "path: $.task.id}", "path: $.task.id, default: x}", `"default" is neither`},
	} {
		src := strings.Replace(good, tt.from, tt.to, 1)
		if src == good {
			t.Fatalf("%s: the edit did not apply", tt.name)
		}
		_, err := Parse("TASKS-02.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "TASKS-02.yaml:") {
			t.Errorf("%s: %v, want a located error with %q", tt.name, err, tt.want)
		}
	}
	src := strings.Replace(good, "{$from: call/agent/0,", "{$from: call/setup/1,", 1)
	if _, err := Parse("TASKS-02.yaml", []byte(src)); err != nil {
		t.Errorf("a value from a setup call: %v", err)
	}
}
