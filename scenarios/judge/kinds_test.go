package judge

import (
	"reflect"
	"strings"
	"testing"

	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Every key under expect: is in the one table of expectation kinds, or
// named as no kind with a reason: a new kind cannot be left out of the
// rule that no PASS stands on nothing checked.
func TestEveryExpectationKindIsInTheTable(t *testing.T) {
	inTable := map[string]bool{}
	for _, k := range expectationKinds {
		if inTable[k.key] {
			t.Errorf("%s is in the table twice", k.key)
		}
		inTable[k.key] = true
	}
	typ := reflect.TypeFor[scenarios.Expect]()
	fields := map[string]bool{}
	for i := range typ.NumField() {
		key, _, _ := strings.Cut(typ.Field(i).Tag.Get("yaml"), ",")
		fields[key] = true
		_, other := notExpectationKinds[key]
		if inTable[key] == other {
			t.Errorf("expect.%s: in the table %v, named as no kind %v; want exactly one", key, inTable[key], other)
		}
	}
	for key := range inTable {
		if !fields[key] {
			t.Errorf("the table names expect.%s, which scenarios.Expect lacks", key)
		}
	}
}

// A scenario that expects only where the page is passes when it is there,
// and is INCONCLUSIVE when the URL was not recorded (issue 43 item 5:
// before, it was "expects nothing" either way, and could never PASS).
func TestAScenarioWithOnlyAPageExpectation(t *testing.T) {
	sc, ev := goodAmb01(t)
	sc.Expect = scenarios.Expect{Page: map[vocab.Phase]scenarios.PageExpect{vocab.PhaseAgent: {Path: "/events"}}}
	ev.Pages = map[vocab.Phase]string{vocab.PhaseAgent: "https://localhost:8443/events"}
	wantVerdict(t, Judge(sc, ev), vocab.Pass)
	ev.Pages = nil
	wantVerdict(t, Judge(sc, ev), vocab.Inconclusive, vocab.EvidenceMissing)

	sc.Expect = scenarios.Expect{Popups: &scenarios.PopupsExpect{Forbid: []scenarios.PopupMatch{{}}}}
	ev.Capture.Popups = true
	wantVerdict(t, Judge(sc, ev), vocab.Pass)
}
