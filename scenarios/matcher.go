package scenarios

import (
	"fmt"
	"slices"
	"strings"

	"github.com/onsi/gomega/types"
)

// HaveVerdict matches a Verdict with this outcome and exactly these codes.
// Its failure message lists the checks that did not pass, readably.
func HaveVerdict(outcome Outcome, codes ...string) types.GomegaMatcher {
	want := slices.Clone(codes)
	slices.Sort(want)
	return &verdictMatcher{outcome: outcome, codes: want}
}

type verdictMatcher struct {
	outcome Outcome
	codes   []string
}

func (m *verdictMatcher) Match(actual any) (bool, error) {
	v, ok := actual.(Verdict)
	if !ok {
		return false, fmt.Errorf("HaveVerdict expects a scenarios.Verdict, got %T", actual)
	}
	got := make([]string, len(v.Codes))
	for i, c := range v.Codes {
		got[i] = string(c)
	}
	return v.Outcome == m.outcome && slices.Equal(got, m.codes), nil
}

func (m *verdictMatcher) FailureMessage(actual any) string {
	return fmt.Sprintf("expected verdict %s %v\n%s", m.outcome, m.codes, Explain(actual.(Verdict)))
}

func (m *verdictMatcher) NegatedFailureMessage(actual any) string {
	return fmt.Sprintf("expected a verdict other than %s %v\n%s", m.outcome, m.codes, Explain(actual.(Verdict)))
}

// Explain renders a verdict for people: the outcome, then every check that
// did not pass with its source, code, expectation and what was seen.
func Explain(v Verdict) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s %v (%d checks, %d not passed)\n", v.ScenarioID, v.Outcome, v.Codes, len(v.Checks), len(v.Failed()))
	for _, c := range v.Failed() {
		fmt.Fprintf(&b, "  ✗ [%s] %s %s: %s\n", c.Source, strings.ToUpper(c.Status), c.ID, c.Code)
		if c.Message != "" {
			fmt.Fprintf(&b, "      %s\n", c.Message)
		}
		if c.Expected != nil {
			fmt.Fprintf(&b, "      expected: %s\n", short(c.Expected))
		}
		if c.Actual != nil {
			fmt.Fprintf(&b, "      actual:   %s\n", short(c.Actual))
		}
	}
	return b.String()
}

func short(v any) string {
	s := fmt.Sprintf("%v", normalize(v))
	if len(s) > 300 {
		s = s[:300] + fmt.Sprintf("… (%d characters)", len(s))
	}
	return s
}
