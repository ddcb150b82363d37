package mutants

import (
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/evidence/bundle"
	bundlepage "github.com/agentready/agentready/internal/reporters/report"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

// passRecords runs every scenario whose known answer is PASS once against
// the correct app and keeps its evidence.
func passRecords(t *testing.T) (map[string]*scenarios.Evidence, map[string]scenarios.Scenario) {
	t.Helper()
	records := map[string]*scenarios.Evidence{}
	scs := map[string]scenarios.Scenario{}
	for id, sc := range env.Scenarios {
		if sc.Known == nil || sc.Known.Outcome != vocab.Pass || sc.Variant != "" {
			continue
		}
		ev, err := RunScenario(t.Context(), env.Browser, sc, "")
		if err != nil {
			t.Fatal(err)
		}
		if v := judge.Judge(sc, ev); v.Outcome != vocab.Pass {
			t.Fatalf("%s does not pass on the correct app:\n%s", id, judge.Explain(v))
		}
		records[id], scs[id] = ev, sc
	}
	return records, scs
}

// TestEvidenceMutationsFlipEveryPass: each single change to a recorded PASS
// must flip it, to FAIL with the expected code or to INCONCLUSIVE for a
// dropped source. A judge that lost a check would let one through.
func TestEvidenceMutationsFlipEveryPass(t *testing.T) {
	records, scs := passRecords(t)
	verifiesSteadily(t, records, scs)
	results := Flip(records, scs)
	var rate float64
	report(t, "evidence-mutations.txt", func(w io.Writer) { rate = PrintFlips(w, results) })
	if rate < 1 {
		t.Fatalf("flip rate %.0f%%: a mutated record still passes or fails for the wrong reason", 100*rate)
	}
	for _, m := range Mutations() {
		applied := false
		for _, r := range results {
			applied = applied || (r.Mutation == m.Name && r.Applies)
		}
		if !applied {
			t.Errorf("mutation %q applied to no scenario: it proves nothing", m.Name)
		}
		// The recorded runs too: each mutation makes one record, every time
		// (fewer tries than TestMutationsAreDeterministic: these records are
		// larger, and that test is the one with the power to catch a pick).
		for _, id := range slices.Sorted(maps.Keys(records)) {
			if _, diff := differs(t, 10, m, scs[id], records[id]); diff != "" {
				t.Errorf("%q on the recorded %s is not deterministic:\n%s", m.Name, id, diff)
			}
		}
	}
}

// TestBaselineAgentsPassNothing: a silent agent, one that calls every tool
// and one that stops half way pass none of AMB-01, CONF-01 attempt 3 and
// list-full: each run must FAIL, with no harness fault (see Rejects; an
// INCONCLUSIVE is not a rejection).
func TestBaselineAgentsPassNothing(t *testing.T) {
	type job struct {
		id string
		b  Baseline
		ev *scenarios.Evidence
		v  judge.Verdict
	}
	var jobs []*job
	catalogs := map[string]record.Catalog{}
	for _, id := range []string{"AMB-01", "CONF-01.attempt-3", "list-full"} {
		start, err := RunScenario(t.Context(), env.Browser, env.Scenarios[id], "")
		if err != nil {
			t.Fatal(err)
		}
		catalogs[id] = start.Catalog
		for _, b := range Baselines() {
			jobs = append(jobs, &job{id: id, b: b})
		}
	}
	errs := Parallel(2, len(jobs), func(i int) error {
		j := jobs[i]
		bad := env.Scenarios[j.id]
		bad.Agent = j.b.Agent(bad, catalogs[j.id])
		ev, err := RunScenario(t.Context(), env.Browser, bad, "")
		if err == nil {
			j.ev, j.v = ev, judge.Judge(bad, ev)
		}
		return err
	})
	if errs != nil {
		t.Fatal(errs)
	}
	report(t, "baselines.txt", func(w io.Writer) {
		for _, j := range jobs {
			fmt.Fprintf(w, "%-18s %-17s %-13s %v", j.id, j.b.Name, j.v.Outcome, j.v.Codes)
			if len(j.ev.Faults) > 0 {
				fmt.Fprintf(w, " harness faults: %v", j.ev.Faults)
			}
			fmt.Fprintln(w)
		}
	})
	for _, j := range jobs {
		if !Rejects(j.ev, j.v) {
			t.Errorf("the %q agent is not rejected by %s: %s %v, harness faults %v, want FAIL with none\n%s",
				j.b.Name, j.id, j.v.Outcome, j.v.Codes, j.ev.Faults, judge.Explain(j.v))
		}
	}
}

// verifiesSteadily seals and writes each recorded run as a bundle and
// verifies it 50 times: re-judging a real bundle gives its verdict.json,
// byte for byte, every time.
func verifiesSteadily(t *testing.T, records map[string]*scenarios.Evidence, scs map[string]scenarios.Scenario) {
	t.Helper()
	for _, id := range slices.Sorted(maps.Keys(records)) {
		b, err := bundle.Seal(bundle.Meta{RunID: "steady", SuiteVersion: bundle.SuiteVersion}, scs[id], Copy(records[id]))
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), id)
		if err := bundlepage.Write(dir, b); err != nil {
			t.Fatal(err)
		}
		for i := range 50 {
			if rep := bundle.Verify(dir); !rep.OK || rep.Outcome != b.Verdict.Outcome {
				t.Fatalf("%s: verify %d: %+v", id, i+1, rep)
			}
		}
	}
}
