package matchers

import (
	"testing"

	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

func TestHaveMeantVerdictHoldsTheDeparture(t *testing.T) {
	v := judge.Verdict{Outcome: vocab.Fail, Codes: []vocab.Code{vocab.ContentMismatch},
		Diagnosis: &judge.Diagnosis{Link: vocab.LinkRequest}}
	known := func(departs vocab.Link) scenarios.Scenario {
		return scenarios.Scenario{Known: &scenarios.Known{Outcome: vocab.Fail, Codes: []vocab.Code{vocab.ContentMismatch}, Departs: departs}}
	}
	for _, tc := range []struct {
		sc   scenarios.Scenario
		v    judge.Verdict
		want bool
	}{
		{known(""), v, true},
		{known(vocab.LinkRequest), v, true},
		{known(vocab.LinkServer), v, false}, // departs elsewhere
		{known(vocab.LinkRequest), judge.Verdict{Outcome: v.Outcome, Codes: v.Codes}, false}, // no diagnosis at all
		{scenarios.Scenario{}, v, false}, // no known answer: PASS
		{scenarios.Scenario{}, judge.Verdict{Outcome: vocab.Pass, Codes: []vocab.Code{}}, true},
	} {
		got, err := HaveMeantVerdict(tc.sc).Match(tc.v)
		if err != nil || got != tc.want {
			t.Errorf("known %+v, verdict %s %v %+v: matched %v (%v), want %v", tc.sc.Known, tc.v.Outcome, tc.v.Codes, tc.v.Diagnosis, got, err, tc.want)
		}
	}
}
