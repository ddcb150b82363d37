package judge_test

import (
	"encoding/json"
	"testing"

	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/judge/judgetest"
	"github.com/agentready/agentready/scenarios/vocab"
)

// A send's expected code is read where code_at says ($.code by default):
// the right code there passes, another fails server_rule_broken, and the
// same code in another field than the one named is not taken for it.
func TestTheCodeIsReadWhereCodeAtSays(t *testing.T) {
	for _, tt := range []struct {
		name, at, body string
		want           vocab.CheckStatus
	}{
		{"at $.error", "$.error", `{"error":"CSRF_MISSING"}`, vocab.CheckPass},
		{"nested", "$.errors[0].code", `{"errors":[{"code":"CSRF_MISSING"}]}`, vocab.CheckPass},
		{"the default field", "", `{"code":"CSRF_MISSING"}`, vocab.CheckPass},
		{"another code", "$.error", `{"error":"FORBIDDEN"}`, vocab.CheckFail},
		{"in code, not where named", "$.error", `{"code":"CSRF_MISSING"}`, vocab.CheckFail},
		{"not JSON", "$.error", ``, vocab.CheckFail},
	} {
		sc, ev := judgetest.Confirm(t)
		sc.Human = append(sc.Human, scenarios.Step{Request: &scenarios.DirectRequest{Method: "POST", Path: "/api/notes",
			Expect: scenarios.RequestOutcome{Status: 403, Code: "CSRF_MISSING", CodeAt: tt.at}}})
		ev.Direct = []scenarios.DirectRecord{{Phase: vocab.PhaseHuman, Index: len(sc.Human) - 1, Method: "POST", Path: "/api/notes", Status: 403, Body: json.RawMessage(tt.body)}}
		v := judge.Judge(sc, ev)
		c, ok := check(v, "direct.human[2] POST /api/notes")
		if !ok || c.Status != tt.want || (tt.want == vocab.CheckFail && c.Code != vocab.ServerRuleBroken) {
			t.Errorf("%s: %+v", tt.name, c)
		}
	}
}
