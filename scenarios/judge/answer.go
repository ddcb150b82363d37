package judge

import (
	"fmt"
	"strings"

	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
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
		case !scenarios.IsQuestion(final):
			j.fail("answer.asks", vocab.SrcAnswer, vocab.NoClarifyingQuestion, "a question", nil, "the agent's final words ask nothing").at(scenarios.FinalRef())
		default:
			j.pass("answer.asks", vocab.SrcAnswer, "a question", nil, "the agent asks the person").at(scenarios.FinalRef())
		}
	}
	if a.AsksFirst {
		j.judgeAsksFirst()
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
		switch claimed, negated := claims(final, m); {
		case j.ev.Final == nil:
			// A model that ran out of turns, or a run cut short, leaves no
			// final words: the claim it would have made is unknown.
			j.inconclusive(id, vocab.SrcAnswer, vocab.EvidenceMissing, "not "+m, nil, "the record holds no final words of the agent: whether it claims "+fmt.Sprintf("%q", m)+" is unknown").at(scenarios.FinalRef())
		case claimed:
			j.fail(id, vocab.SrcAnswer, vocab.AnswerOverclaims, "not "+m, nil, fmt.Sprintf("the final words claim %q", m)).at(scenarios.FinalRef())
		case negated > 0:
			j.pass(id, vocab.SrcAnswer, "not "+m, nil, fmt.Sprintf("the final words say %q only negated (%d time(s))", m, negated)).at(scenarios.FinalRef())
		default:
			j.pass(id, vocab.SrcAnswer, "not "+m, nil, "no such claim").at(scenarios.FinalRef())
		}
	}
}

// judgeAsksFirst: the agent's first move is a question to the person. The
// recorded dialogue's first turn must come before any of the agent's
// calls; without a dialogue, the agent must have made no call and asked in
// its final words.
func (j *judge) judgeAsksFirst() {
	var first *scenarios.CallRecord
	for i, c := range j.ev.Calls {
		if c.Phase == vocab.PhaseAgent {
			first = &j.ev.Calls[i]
			break
		}
	}
	const id = "answer.asks_first"
	switch d := j.ev.Dialogue; {
	case len(d) > 0 && d[0].AfterCalls == 0:
		msg := "the agent asked the person first: " + cut(oneLine(d[0].Asked))
		if d[0].Answered() {
			msg += "; the person answered: " + cut(oneLine(d[0].Says))
		}
		j.pass(id, vocab.SrcAnswer, "a question before any call", nil, msg).at(scenarios.FinalRef())
	case first != nil:
		j.fail(id, vocab.SrcAnswer, vocab.NoClarifyingQuestion, "a question before any call", first.Call.Tool,
			"the agent called "+first.Call.Tool+" before it asked the person anything").at(callRef(*first))
	case j.ev.Final != nil && scenarios.IsQuestion(*j.ev.Final):
		j.pass(id, vocab.SrcAnswer, "a question before any call", nil, "the agent made no call and asked the person").at(scenarios.FinalRef())
	default:
		j.fail(id, vocab.SrcAnswer, vocab.NoClarifyingQuestion, "a question before any call", nil, "the agent never asked the person").at(scenarios.FinalRef())
	}
}

// cut keeps words to 120 characters.
func cut(s string) string {
	if r := []rune(s); len(r) > 120 {
		return string(r[:119]) + "…"
	}
	return s
}
