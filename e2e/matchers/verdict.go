package matchers

import (
	"fmt"
	"slices"

	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
	"github.com/onsi/gomega/types"
)

// HaveVerdict matches a judge.Verdict with this outcome and exactly these codes.
// Its failure message lists the checks that did not pass, readably.
func HaveVerdict(outcome vocab.Outcome, codes ...vocab.Code) types.GomegaMatcher {
	want := slices.Clone(codes)
	slices.Sort(want)
	return &verdictMatcher{outcome: outcome, codes: want}
}

// HaveMeantVerdict matches the verdict a scenario means to reach
// (scenarios.Scenario.Meant): its known outcome, exactly its codes and,
// when it names one, the link where its evidence first departs; PASS when
// it states no known answer.
func HaveMeantVerdict(sc scenarios.Scenario) types.GomegaMatcher {
	meant := sc.Meant()
	m := HaveVerdict(meant.Outcome, meant.Codes...).(*verdictMatcher)
	m.departs = meant.Departs
	return m
}

type verdictMatcher struct {
	outcome vocab.Outcome
	codes   []vocab.Code
	departs vocab.Link // "": not asserted
}

func (m *verdictMatcher) Match(actual any) (bool, error) {
	v, ok := actual.(judge.Verdict)
	if !ok {
		return false, fmt.Errorf("HaveVerdict expects a judge.Verdict, got %T", actual)
	}
	if m.departs != "" && (v.Diagnosis == nil || v.Diagnosis.Link != m.departs) {
		return false, nil
	}
	return v.Outcome == m.outcome && slices.Equal(v.Codes, m.codes), nil
}

func (m *verdictMatcher) want() string {
	if m.departs == "" {
		return fmt.Sprintf("%s %v", m.outcome, m.codes)
	}
	return fmt.Sprintf("%s %v, departing at %s", m.outcome, m.codes, m.departs)
}

func (m *verdictMatcher) FailureMessage(actual any) string {
	return fmt.Sprintf("expected verdict %s\n%s", m.want(), judge.Explain(actual.(judge.Verdict)))
}

func (m *verdictMatcher) NegatedFailureMessage(actual any) string {
	return fmt.Sprintf("expected a verdict other than %s\n%s", m.want(), judge.Explain(actual.(judge.Verdict)))
}
