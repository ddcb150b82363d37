package judge

import (
	"maps"
	"slices"
	"testing"

	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge/judgetest"
	"github.com/agentready/agentready/scenarios/vocab"
)

// verdictLevel are the checks about the verdict as a whole, which no piece
// of the record stands for: no evidence at all, and a scenario that expects
// nothing.
var verdictLevel = []string{"evidence", "expectations"}

// requireEvidence fails the test for a check that names no evidence, or
// evidence the record does not hold.
func requireEvidence(t *testing.T, ev *scenarios.Evidence, v Verdict) {
	t.Helper()
	for _, c := range v.Checks {
		if len(c.Evidence) == 0 {
			if !slices.Contains(verdictLevel, c.ID) {
				t.Errorf("%s (%s %s) names no evidence", c.ID, c.Status, c.Code)
			}
			continue
		}
		for _, r := range c.Evidence {
			if !ev.Resolves(r) {
				t.Errorf("%s (%s %s) names %s, which the record does not hold", c.ID, c.Status, c.Code, r)
			}
		}
	}
}

// TestEveryCodeIsReachedWithItsEvidence: the known-bad records between them
// reach every code the judge can answer, each with its own outcome, and
// every check of every verdict (of the known-good runs too) names evidence
// the record holds. A check kind added without evidence fails here.
func TestEveryCodeIsReachedWithItsEvidence(t *testing.T) {
	reached := map[vocab.Code]bool{}
	for _, good := range []func(testing.TB) (scenarios.Scenario, *scenarios.Evidence){judgetest.Conf01, judgetest.Conf01Content, judgetest.Conf01Replayed} {
		sc, ev := good(t)
		v := Judge(sc, ev)
		wantVerdict(t, v, vocab.Pass)
		requireEvidence(t, ev, v)
	}
	for _, c := range judgetest.KnownBad() {
		t.Run(c.Name, func(t *testing.T) {
			sc, ev := c.Make(t)
			v := Judge(sc, ev)
			if v.Outcome != c.Outcome || !slices.Contains(v.Codes, c.Code) {
				t.Errorf("verdict %s %v, want %s with %s\n%s", v.Outcome, v.Codes, c.Outcome, c.Code, Explain(v))
			}
			if c.Outcome == vocab.Inconclusive && slices.ContainsFunc(v.Checks, func(k Check) bool { return k.Status == vocab.CheckFail }) {
				t.Errorf("an inconclusive known-bad record has a failed check:\n%s", Explain(v))
			}
			requireEvidence(t, ev, v)
			for _, k := range v.Checks {
				if k.Code != "" {
					reached[k.Code] = true
				}
			}
		})
	}
	for _, code := range slices.Sorted(maps.Keys(vocab.Codes)) {
		if !reached[code] {
			t.Errorf("no known-bad record reaches %s", code)
		}
	}
}
