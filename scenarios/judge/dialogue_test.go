package judge_test

import (
	"slices"
	"testing"

	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/judge/judgetest"
	"github.com/agentready/agentready/scenarios/vocab"
)

// answer.asks_first: the agent's first move is a question. A question
// asked before the first call passes; one after a call, or none, fails
// with no_clarifying_question; no call and final words that ask pass.
func TestAsksFirstIsJudgedFromTheDialogue(t *testing.T) {
	asked := scenarios.Turn{Asked: "Which name and email?", Reply: 0, Says: "測試讀者, reader@example.com"}
	for _, c := range []struct {
		name     string
		dialogue []scenarios.Turn
		noCalls  bool
		final    string
		want     vocab.CheckStatus
	}{
		{"asked before the call", []scenarios.Turn{asked}, false, "", vocab.CheckPass},
		{"asked after the call", []scenarios.Turn{{AfterCalls: 1, Asked: asked.Asked, Reply: -1}}, false, "", vocab.CheckFail},
		{"never asked, called", nil, false, "", vocab.CheckFail},
		{"no call, final words ask", nil, true, "Which name should I use?", vocab.CheckPass},
		{"no call, final words ask nothing", nil, true, "Done.", vocab.CheckFail},
	} {
		t.Run(c.name, func(t *testing.T) {
			sc, ev := judgetest.Conf01(t)
			sc.Expect.Answer = &scenarios.AnswerExpect{AsksFirst: true}
			ev.Dialogue = c.dialogue
			if c.noCalls {
				ev.Calls = slices.DeleteFunc(ev.Calls, func(r scenarios.CallRecord) bool { return r.Phase == vocab.PhaseAgent })
			}
			if c.final != "" {
				ev.Final = judgetest.Text(c.final)
			}
			v := judge.Judge(sc, ev)
			i := slices.IndexFunc(v.Checks, func(ch judge.Check) bool { return ch.ID == "answer.asks_first" })
			if i < 0 {
				t.Fatalf("no answer.asks_first check: %+v", v.Checks)
			}
			ch := v.Checks[i]
			if ch.Status != c.want || c.want == vocab.CheckFail && ch.Code != vocab.NoClarifyingQuestion {
				t.Fatalf("%s %s: %s", ch.Status, ch.Code, ch.Message)
			}
		})
	}
}
