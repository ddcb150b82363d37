package judge

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// match: constraints judges an output as webmcp-evals judges a result: a
// pass, and a failure that names the place, for the same expectation.
func TestAnOutputMatchedByConstraints(t *testing.T) {
	want := map[string]any{
		"code":  map[string]any{"$pattern": "^TASK_"},
		"task":  map[string]any{"text": map[string]any{"$contains": "milk"}},
		"total": map[string]any{"$gte": 1, "$lt": 9},
	}
	x := &scenarios.CallExpect{Output: want, Match: scenarios.MatchConstraints}
	judgeOne := func(out string) Check {
		j := &judge{sc: scenarios.Scenario{}, ev: &scenarios.Evidence{}}
		j.judgeOutput("c", scenarios.CallRecord{Call: scenarios.Call{Tool: "add_task"}, Result: record.Result{Status: vocab.Completed, Output: json.RawMessage(out)}}, x)
		if len(j.checks) != 1 {
			t.Fatalf("%s: %+v", out, j.checks)
		}
		return j.checks[0]
	}
	if c := judgeOne(`{"ok":true,"code":"TASK_ADDED","task":{"id":"t1","text":"buy milk"},"total":1}`); c.Status != vocab.CheckPass {
		t.Errorf("a matching output: %+v", c)
	}
	// An MCP-shaped answer is read as its first text, as webmcp-evals reads it.
	if c := judgeOne(`{"content":[{"type":"text","text":"{\"code\":\"TASK_ADDED\",\"task\":{\"text\":\"milk\"},\"total\":2}"}]}`); c.Status == vocab.CheckPass {
		t.Errorf("the unwrapped text is a string, not the object: %+v", c)
	}
	c := judgeOne(`{"ok":true,"code":"TASK_ADDED","task":{"id":"t1","text":"buy bread"},"total":1}`)
	if c.Status != vocab.CheckFail || c.Code != vocab.UnexpectedResult || !strings.Contains(c.Message, `/task/text: "buy bread" does not contain "milk"`) {
		t.Errorf("a mismatch: %+v", c)
	}
	if len(c.Differences) != 1 || c.Differences[0].Pointer != "/task/text" {
		t.Errorf("differences %+v", c.Differences)
	}
	if c := judgeOne(`{"code":"TASK_ADDED","task":{"text":"milk"}}`); c.Status != vocab.CheckFail || !strings.Contains(c.Message, "/total: expected") || c.Differences[0].Actual != nil {
		t.Errorf("a missing key: %+v", c)
	}
}

func TestEvalsResultUnwrapsMCPContent(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want any
	}{
		{map[string]any{"content": []any{map[string]any{"type": "text", "text": "hi"}}}, "hi"},
		{map[string]any{"isError": true, "content": []any{map[string]any{"text": "no"}}}, "keep"},
		{map[string]any{"content": []any{}}, "keep"},
		{"plain", "plain"},
	} {
		got := evalsResult(tc.in)
		if tc.want == "keep" {
			if !record.JSONEqual(got, tc.in) {
				t.Errorf("%v became %v", tc.in, got)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("%v: %v, want %v", tc.in, got, tc.want)
		}
	}
}
