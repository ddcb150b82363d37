package judge

import (
	"fmt"
	"strings"

	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/vocab"
)

func (j *judge) judgeAnswer(a *scenarios.AnswerExpect) {
	if a == nil {
		return
	}
	final := ""
	if j.ev.Final != nil {
		final = *j.ev.Final
	}
	lower := strings.ToLower(final)
	if a.Asks {
		switch {
		case strings.TrimSpace(final) == "":
			j.fail("answer.asks", vocab.SrcAnswer, vocab.NoClarifyingQuestion, "a question", nil, "the agent said nothing").at(scenarios.FinalRef())
		case !strings.ContainsAny(final, "?？"):
			j.fail("answer.asks", vocab.SrcAnswer, vocab.NoClarifyingQuestion, "a question", nil, "the agent's final words ask nothing").at(scenarios.FinalRef())
		default:
			j.pass("answer.asks", vocab.SrcAnswer, "a question", nil, "the agent asks the person").at(scenarios.FinalRef())
		}
	}
	for i, m := range a.MustMention {
		id := fmt.Sprintf("answer.must_mention[%d]", i)
		if strings.Contains(lower, strings.ToLower(m)) {
			j.pass(id, vocab.SrcAnswer, m, nil, "the final words mention it").at(scenarios.FinalRef())
		} else {
			j.fail(id, vocab.SrcAnswer, vocab.AnswerIncomplete, m, nil, "the final words do not mention "+fmt.Sprintf("%q", m)).at(scenarios.FinalRef())
		}
	}
	for i, m := range a.MustNotClaim {
		id := fmt.Sprintf("answer.must_not_claim[%d]", i)
		if strings.Contains(lower, strings.ToLower(m)) {
			j.fail(id, vocab.SrcAnswer, vocab.AnswerOverclaims, "not "+m, nil, fmt.Sprintf("the final words claim %q", m)).at(scenarios.FinalRef())
		} else {
			j.pass(id, vocab.SrcAnswer, "not "+m, nil, "no such claim").at(scenarios.FinalRef())
		}
	}
}
