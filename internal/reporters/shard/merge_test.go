package shard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/agentready/agentready/internal/reporters/results"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// fakeShard writes a shard's run folder: a folder per bundle with a
// manifest, the record, and the Ginkgo report when given.
func fakeShard(t *testing.T, root, run string, s Shard, kind string, bundles []string, report *types.Report) string {
	t.Helper()
	dir := filepath.Join(root, RunID(run, s))
	var rows []results.Row
	for _, b := range bundles {
		if err := os.MkdirAll(filepath.Join(dir, b), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, b, "manifest.json"), []byte(`{"scenarioId":"`+b+`"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row(filepath.Join(dir, b), vocab.Pass))
	}
	if err := WriteRecord(dir, s, kind, "", rows); err != nil {
		t.Fatal(err)
	}
	if report != nil {
		if err := reporters.GenerateJSONReport(*report, filepath.Join(dir, JSONReport)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// row is the row of a bundle at dir that reached outcome, meaning PASS.
func row(dir string, outcome vocab.Outcome) results.Row {
	return results.Row{ID: filepath.Base(dir), Bundle: dir, Outcome: outcome, Meant: scenarios.Known{Outcome: vocab.Pass}, AsMeant: outcome == vocab.Pass}
}

// it is a spec of a Ginkgo report; with a bundle, its row reached outcome.
func it(text string, state types.SpecState, bundle string, outcome ...vocab.Outcome) types.SpecReport {
	s := types.SpecReport{ContainerHierarchyTexts: []string{"Scenarios"}, LeafNodeType: types.NodeTypeIt, LeafNodeText: text, State: state}
	if bundle != "" {
		o := vocab.Pass
		if len(outcome) > 0 {
			o = outcome[0]
		}
		s.ReportEntries = types.ReportEntries{{Name: results.EntryName, Value: types.WrapEntryValue(row(bundle, o))}}
	}
	return s
}

func suiteReport(start time.Time, ok bool, specs ...types.SpecReport) *types.Report {
	specs = append([]types.SpecReport{{LeafNodeType: types.NodeTypeSynchronizedBeforeSuite, State: types.SpecStatePassed}}, specs...)
	return &types.Report{SuiteDescription: "agentready e2e", SuiteSucceeded: ok, StartTime: start, EndTime: start.Add(time.Minute),
		PreRunStats: types.PreRunStats{TotalSpecs: len(specs), SpecsThatWillRun: 2}, SpecReports: specs}
}

// Two shards become one run: each spec once, from the shard that ran it;
// a spec no shard ran stays skipped; the bundles move with their entries;
// the suite nodes of each shard keep their shard's name; a failure in one
// shard fails the merged suite; the merged JUnit report is make e2e's (an
// INCONCLUSIVE scenario is an error).
func TestMergeJoinsTheShardsOfARun(t *testing.T) {
	root := t.TempDir()
	t0 := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	one := fakeShard(t, root, "r", Shard{1, 2}, KindGinkgo, []string{"A"}, suiteReport(t0, true,
		it("A: a", types.SpecStatePassed, "/elsewhere/r.1-of-2/A"), it("B: b", types.SpecStateSkipped, ""), it("C: c", types.SpecStateSkipped, "")))
	two := fakeShard(t, root, "r", Shard{2, 2}, KindGinkgo, []string{"B", "D", "E"}, suiteReport(t0.Add(time.Second), false,
		it("A: a", types.SpecStateSkipped, ""), it("B: b", types.SpecStatePassed, "/elsewhere/r.2-of-2/B"), it("C: c", types.SpecStateSkipped, ""),
		it("D: d", types.SpecStateFailed, "/elsewhere/r.2-of-2/D", vocab.Fail), it("E: e", types.SpecStateFailed, "/elsewhere/r.2-of-2/E", vocab.Inconclusive)))
	out := filepath.Join(root, "r")
	res, err := Merge([]string{two, one}, out, "")
	if err != nil {
		t.Fatal(err)
	}
	if res.RunID != "r" || res.Shards != 2 || !res.Reports || res.SuiteSucceeded {
		t.Errorf("result %+v", res)
	}
	if res.Specs != (results.Specs{Passed: 2, Failed: 2, Skipped: 1}) {
		t.Errorf("specs %+v, want 2 passed (A, B), 2 failed (D, E), 1 skipped (C)", res.Specs)
	}
	for _, r := range res.Rows {
		if r.Bundle != filepath.Join(res.Dir, r.ID) {
			t.Errorf("the row of %s names its bundle at %s, not in the merged run", r.ID, r.Bundle)
		}
	}
	for _, b := range []string{"A", "B", "D", "E"} {
		if data, err := os.ReadFile(filepath.Join(out, b, "manifest.json")); err != nil || !strings.Contains(string(data), b) {
			t.Errorf("bundle %s not copied: %v", b, err)
		}
	}
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil || !strings.Contains(string(index), `href="A/index.html"`) || !strings.Contains(string(index), `href="D/index.html"`) {
		t.Errorf("the run page does not link every bundle: %v", err)
	}

	var merged []types.Report
	data, err := os.ReadFile(filepath.Join(out, JSONReport))
	if err != nil || json.Unmarshal(data, &merged) != nil || len(merged) != 1 {
		t.Fatalf("merged JSON: %v", err)
	}
	seen := map[string]int{}
	var suiteNodes []string
	for _, s := range merged[0].SpecReports {
		if s.LeafNodeType != types.NodeTypeIt {
			suiteNodes = append(suiteNodes, s.LeafNodeText)
			continue
		}
		seen[s.FullText()+" "+s.State.String()]++
		for _, r := range results.FromSpec(s) {
			if filepath.Dir(r.Bundle) != res.Dir {
				t.Errorf("%s names its bundle at %s, not in the merged run", s.FullText(), r.Bundle)
			}
		}
	}
	want := map[string]int{"Scenarios A: a passed": 1, "Scenarios B: b passed": 1, "Scenarios C: c skipped": 1, "Scenarios D: d failed": 1, "Scenarios E: e failed": 1}
	if len(seen) != len(want) {
		t.Errorf("merged specs %v, want %v", seen, want)
	}
	for k, n := range want {
		if seen[k] != n {
			t.Errorf("merged specs %v, want %v", seen, want)
		}
	}
	if strings.Join(suiteNodes, "|") != "(shard 1/2)|(shard 2/2)" {
		t.Errorf("suite nodes %q", suiteNodes)
	}
	if !merged[0].StartTime.Equal(t0) || merged[0].RunTime != time.Minute+time.Second {
		t.Errorf("merged time %v + %v", merged[0].StartTime, merged[0].RunTime)
	}
	junit, err := os.ReadFile(filepath.Join(out, JUnitReport))
	if err != nil || !strings.Contains(string(junit), `errors="1" failures="1"`) || strings.Count(string(junit), "<testcase ") != 7 ||
		!strings.Contains(string(junit), `type="INCONCLUSIVE"`) {
		t.Errorf("merged JUnit (want 5 specs, 2 suite nodes, 1 failure, 1 INCONCLUSIVE error): %v\n%s", err, junit)
	}
}

// Folders that are not the N shards of one run are refused before anything
// is written, with a message that says what is wrong.
func TestMergeRefusesWhatIsNotOneRun(t *testing.T) {
	t0 := time.Now()
	for _, c := range []struct {
		name string
		make func(t *testing.T, root string) []string
		want string
	}{
		{"a missing shard", func(t *testing.T, root string) []string {
			return []string{fakeShard(t, root, "r", Shard{1, 3}, KindRun, []string{"A"}, nil), fakeShard(t, root, "r", Shard{3, 3}, KindRun, nil, nil)}
		}, "shard 2/3 of the run is missing"},
		{"a shard twice", func(t *testing.T, root string) []string {
			return []string{fakeShard(t, root, "r", Shard{1, 2}, KindRun, nil, nil), fakeShard(t, root, "q", Shard{1, 2}, KindRun, nil, nil)}
		}, "shard 1/2 is given twice"},
		{"different N", func(t *testing.T, root string) []string {
			return []string{fakeShard(t, root, "r", Shard{1, 2}, KindRun, nil, nil), fakeShard(t, root, "r", Shard{2, 3}, KindRun, nil, nil)}
		}, "share N"},
		{"different kinds", func(t *testing.T, root string) []string {
			return []string{fakeShard(t, root, "r", Shard{1, 2}, KindRun, nil, nil), fakeShard(t, root, "r", Shard{2, 2}, KindGinkgo, nil, nil)}
		}, "run different specs"},
		{"a bundle in two shards", func(t *testing.T, root string) []string {
			return []string{fakeShard(t, root, "r", Shard{1, 2}, KindRun, []string{"A"}, nil), fakeShard(t, root, "r", Shard{2, 2}, KindRun, []string{"A"}, nil)}
		}, "the bundle A is in two shards"},
		{"a bundle the record does not name", func(t *testing.T, root string) []string {
			d := fakeShard(t, root, "r", Shard{1, 1}, KindRun, []string{"A"}, nil)
			if err := os.MkdirAll(filepath.Join(d, "B"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(d, "B", "manifest.json"), []byte("{}"), 0o644); err != nil {
				t.Fatal(err)
			}
			return []string{d}
		}, "names the bundles [A], the folder holds [A B]"},
		{"a folder that is no shard", func(t *testing.T, root string) []string {
			return []string{root}
		}, "is not a shard's run folder"},
		{"reports from one shard only", func(t *testing.T, root string) []string {
			return []string{fakeShard(t, root, "r", Shard{1, 2}, KindGinkgo, nil, suiteReport(t0, true)), fakeShard(t, root, "r", Shard{2, 2}, KindGinkgo, nil, nil)}
		}, "a shard's reports are lost"},
		{"a spec that ran in two shards", func(t *testing.T, root string) []string {
			return []string{fakeShard(t, root, "r", Shard{1, 2}, KindGinkgo, nil, suiteReport(t0, true, it("A: a", types.SpecStatePassed, ""))),
				fakeShard(t, root, "r", Shard{2, 2}, KindGinkgo, nil, suiteReport(t0, true, it("A: a", types.SpecStateFailed, "")))}
		}, `the spec "Scenarios A: a" ran in shard 1/2 and in shard 2/2`},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			dirs := c.make(t, root)
			out := filepath.Join(t.TempDir(), "merged")
			_, err := Merge(dirs, out, "")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("a refused merge wrote %s", out)
			}
		})
	}
}

// A merge never writes over a folder that holds something, nor over a shard.
func TestMergeWritesOnlyIntoANewFolder(t *testing.T) {
	root := t.TempDir()
	one := fakeShard(t, root, "r", Shard{1, 1}, KindRun, []string{"A"}, nil)
	if _, err := Merge([]string{one}, one, ""); err == nil || !strings.Contains(err.Error(), "overwrite the shard") {
		t.Errorf("merging into the shard itself: %v", err)
	}
	busy := filepath.Join(root, "busy")
	if err := os.MkdirAll(filepath.Join(busy, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge([]string{one}, busy, ""); err == nil || !strings.Contains(err.Error(), "already holds files") {
		t.Errorf("merging into a full folder: %v", err)
	}
	if _, err := Merge(nil, filepath.Join(root, "new"), ""); err == nil {
		t.Error("merging nothing succeeded")
	}
}

// Shards of a run of --runs k: a scenario's runs are bundles <id>.run-N,
// named so by the record's rows, and merge into one run whose page gives
// pass^k.
func TestMergeJoinsShardsOfRepeatedRuns(t *testing.T) {
	root := t.TempDir()
	shard := func(s Shard, id string, outcomes ...vocab.Outcome) string {
		dir := filepath.Join(root, RunID("r", s))
		var rows []results.Row
		for i, o := range outcomes {
			r := row(filepath.Join(dir, results.RunName(id, i+1)), o)
			r.ID, r.Run = id, i+1
			if err := os.MkdirAll(r.Bundle, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(r.Bundle, "manifest.json"), []byte(`{"scenarioId":"`+id+`"}`), 0o644); err != nil {
				t.Fatal(err)
			}
			rows = append(rows, r)
		}
		if err := WriteRecord(dir, s, KindRun, "", rows); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	one := shard(Shard{1, 2}, "A", vocab.Pass, vocab.Fail)
	two := shard(Shard{2, 2}, "B", vocab.Pass, vocab.Pass)
	out := filepath.Join(root, "r")
	res, err := Merge([]string{two, one}, out, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 4 || res.Rows[0].Run != 1 || res.Rows[1].Run != 2 || res.Rows[1].Bundle != filepath.Join(out, "A.run-2") {
		t.Fatalf("rows %+v", res.Rows)
	}
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil || !strings.Contains(string(index), "pass^2 = 0") || !strings.Contains(string(index), "pass^2 = 1") || !strings.Contains(string(index), `href="A.run-2/index.html"`) {
		t.Errorf("the merged page lacks the runs (%v)", err)
	}
}
