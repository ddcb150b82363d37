package matchers

import (
	"fmt"
	"slices"

	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/vocab"
	"github.com/onsi/gomega/types"
)

// HaveVerdict matches a judge.Verdict with this outcome and exactly these codes.
// Its failure message lists the checks that did not pass, readably.
func HaveVerdict(outcome vocab.Outcome, codes ...vocab.Code) types.GomegaMatcher {
	want := slices.Clone(codes)
	slices.Sort(want)
	return &verdictMatcher{outcome: outcome, codes: want}
}

type verdictMatcher struct {
	outcome vocab.Outcome
	codes   []vocab.Code
}

func (m *verdictMatcher) Match(actual any) (bool, error) {
	v, ok := actual.(judge.Verdict)
	if !ok {
		return false, fmt.Errorf("HaveVerdict expects a judge.Verdict, got %T", actual)
	}
	return v.Outcome == m.outcome && slices.Equal(v.Codes, m.codes), nil
}

func (m *verdictMatcher) FailureMessage(actual any) string {
	return fmt.Sprintf("expected verdict %s %v\n%s", m.outcome, m.codes, judge.Explain(actual.(judge.Verdict)))
}

func (m *verdictMatcher) NegatedFailureMessage(actual any) string {
	return fmt.Sprintf("expected a verdict other than %s %v\n%s", m.outcome, m.codes, judge.Explain(actual.(judge.Verdict)))
}
