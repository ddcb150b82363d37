package judge

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// carriedRecord is a record of two calls, the second sending an id the
// first answered, as the runner records it.
func carriedRecord() *scenarios.Evidence {
	list := scenarios.CallRecord{Phase: vocab.PhaseAgent, Index: 0, Call: scenarios.Call{Tool: "list_tasks", Input: map[string]any{}},
		Result: record.Result{Tool: "list_tasks", Status: vocab.Completed, Output: json.RawMessage(`{"tasks":[{"id":"t-1","text":"water"},{"id":"t-2","text":"bread"}]}`)}}
	toggle := scenarios.CallRecord{Phase: vocab.PhaseAgent, Index: 1, Call: scenarios.Call{Tool: "toggle_task", Input: map[string]any{"id": "t-2"}},
		Result:  record.Result{Tool: "toggle_task", Status: vocab.Completed, Output: json.RawMessage(`{"ok":true}`)},
		Carried: []scenarios.Carried{{At: "/id", From: "call/agent/0", Path: "$.tasks[?@.text=='bread'].id", Value: json.RawMessage(`"t-2"`)}}}
	return &scenarios.Evidence{Calls: []scenarios.CallRecord{list, toggle}}
}

// Each carried value is taken again from the record: it passes when the
// earlier result still gives it and the call sent it; a bundle whose
// earlier result, recorded value or sent input was changed afterwards
// disagrees with itself, each with its own words.
func TestACarriedValueIsTakenAgainFromTheRecord(t *testing.T) {
	const id = "call.agent[1].toggle_task.carried/id"
	judged := func(ev *scenarios.Evidence) Check {
		t.Helper()
		j := &judge{ev: ev}
		j.judgeCarried()
		if len(j.checks) != 1 || j.checks[0].ID != id {
			t.Fatalf("checks %+v, want one %s", j.checks, id)
		}
		c := j.checks[0]
		if len(c.Evidence) != 2 || c.Evidence[1] != scenarios.CallRef(vocab.PhaseAgent, 0) {
			t.Errorf("%s points at %v, want the call and the call it took from", id, c.Evidence)
		}
		return c
	}
	if c := judged(carriedRecord()); c.Status != vocab.CheckPass {
		t.Errorf("as recorded: %s %s", c.Status, c.Message)
	}
	for _, tt := range []struct {
		name   string
		mutate func(ev *scenarios.Evidence)
		words  string
	}{
		{"the earlier result lost the task", func(ev *scenarios.Evidence) {
			ev.Calls[0].Result.Output = json.RawMessage(`{"tasks":[{"id":"t-1","text":"water"}]}`)
		}, "gives no such value"},
		{"the earlier result gives another id", func(ev *scenarios.Evidence) {
			ev.Calls[0].Result.Output = json.RawMessage(`{"tasks":[{"id":"t-9","text":"bread"}]}`)
		}, "but the record says /id took"},
		{"the call sent another id", func(ev *scenarios.Evidence) { ev.Calls[1].Call.Input["id"] = "t-1" }, "the call sent"},
		{"the call sent no id", func(ev *scenarios.Evidence) { delete(ev.Calls[1].Call.Input, "id") }, "the call sent"},
	} {
		ev := carriedRecord()
		tt.mutate(ev)
		c := judged(ev)
		if c.Status != vocab.CheckFail || c.Code != vocab.EvidenceDisagrees || !strings.Contains(c.Message, tt.words) {
			t.Errorf("%s: %s %s %q, want a fail with %s saying %q", tt.name, c.Status, c.Code, c.Message, vocab.EvidenceDisagrees, tt.words)
		}
	}
}

// An MCP-shaped answer whose text is JSON is matched as that JSON, unless
// the expectation spells the envelope.
func TestAnMCPAnswersJSONTextIsMatchedAsJSON(t *testing.T) {
	res := record.Result{Tool: "find", Status: vocab.Completed,
		Output: json.RawMessage(`{"content":[{"type":"text","text":"{\"ok\":true,\"code\":\"FOUND\",\"count\":2}"}]}`)}
	c := scenarios.CallRecord{Phase: vocab.PhaseAgent, Call: scenarios.Call{Tool: "find"}, Result: res}
	for _, tt := range []struct {
		name string
		want map[string]any
		pass bool
	}{
		{"the JSON it wrote", map[string]any{"code": "FOUND", "count": 2}, true},
		{"another value", map[string]any{"code": "NONE"}, false},
		{"the envelope, spelled", map[string]any{"content": []any{map[string]any{"type": "text"}}}, true},
		{"the JSON's field under the envelope's name", map[string]any{"isError": true}, false},
	} {
		j := &judge{ev: &scenarios.Evidence{}}
		j.judgeOutput("call", c, &scenarios.CallExpect{Status: vocab.Completed, Output: tt.want})
		if len(j.checks) != 1 || (j.checks[0].Status == vocab.CheckPass) != tt.pass {
			t.Errorf("%s: %+v, want pass %v", tt.name, j.checks, tt.pass)
		}
	}
}
