package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/reporters/shard"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Two families of the suite's own scenarios against the embedded app, run
// whole and as two shards: each scenario runs in exactly one shard, the
// merged run verifies, and it reaches the same verdict per scenario as the
// whole run. Not the whole suite: that ran three times over here (71 s of
// CI's longest package), and that every spec lands in exactly one shard is
// shard's own test, over all of them.
func TestTwoShardsMergedReachTheVerdictsOfOneRun(t *testing.T) {
	t.Parallel() // its browser waits overlap another test's
	evidence := t.TempDir()
	dir := "../../" + scenarios.DefaultDir
	families := idList{"SAVE-01", "TASKS-02"} // four scenarios, two shards: PASS, FAIL and INCONCLUSIVE, in a fraction of AMB-01 and CONF-01's fourteen
	run := func(args ...string) string {
		t.Helper()
		var out, errs bytes.Buffer
		code := runScenarios(append([]string{"--scenarios", dir, "--evidence", evidence, "--id", families[0], "--id", families[1]}, args...), &out, &errs)
		if code != 0 {
			t.Fatalf("agentready run %v: exit %d\n%s%s", args, code, out.String(), errs.String())
		}
		return out.String()
	}
	run("--run-id", "whole")
	run("--run-id", "r", "--shard", "1/2")
	run("--run-id", "r", "--shard", "2/2")

	var out, errs bytes.Buffer
	if code := mergeCmd([]string{"--evidence", evidence, filepath.Join(evidence, "r.1-of-2"), filepath.Join(evidence, "r.2-of-2")}, &out, &errs); code != 0 {
		t.Fatalf("merge: exit %d\n%s%s", code, out.String(), errs.String())
	}
	whole, merged := verdicts(t, filepath.Join(evidence, "whole")), verdicts(t, filepath.Join(evidence, "r"))
	loaded, err := scenarios.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	all := families.pick(loaded)
	if len(all) < 4 {
		t.Fatalf("the families %v pick %d scenarios: too few to show two shards", families, len(all))
	}
	if len(whole) != len(all) {
		t.Fatalf("the whole run has %d bundles for %d scenarios", len(whole), len(all))
	}
	for id, v := range whole {
		if merged[id] != v {
			t.Errorf("%s: %s in the whole run, %q in the merged shards", id, v, merged[id])
		}
	}
	if len(merged) != len(whole) {
		t.Errorf("the merged run has %d bundles, the whole run %d", len(merged), len(whole))
	}
	one, two := verdicts(t, filepath.Join(evidence, "r.1-of-2")), verdicts(t, filepath.Join(evidence, "r.2-of-2"))
	if len(one) == 0 || len(two) == 0 {
		t.Errorf("a shard ran nothing: %d and %d scenarios", len(one), len(two))
	}
	for id := range one {
		if _, dup := two[id]; dup {
			t.Errorf("%s ran in both shards", id)
		}
	}
	n := len(all)
	for _, want := range []string{"merged 2 shards", fmt.Sprintf("\nverify: %d passed, 0 failed\n", n), fmt.Sprintf("\nmerge: %d passed, 0 failed\n", n), "evidence: " + filepath.Join(evidence, "r", "index.html")} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("merge output lacks %q:\n%s", want, out.String())
		}
	}
}

// verdicts reads the outcome of every bundle of a run folder.
func verdicts(t *testing.T, runDir string) map[string]vocab.Outcome {
	t.Helper()
	entries, err := os.ReadDir(runDir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]vocab.Outcome{}
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(runDir, e.Name(), "verdict.json")); e.IsDir() && err == nil {
			out[e.Name()] = readVerdict(t, filepath.Join(runDir, e.Name())).Outcome
		}
	}
	return out
}

// Bad input: no folder, a folder that is no shard, one shard of two, a bad
// --shard for run: exit 2, and nothing is written.
func TestMergeRefusesBadInput(t *testing.T) {
	evidence := t.TempDir()
	notShard := t.TempDir()
	half := filepath.Join(t.TempDir(), "r.1-of-2")
	if err := shard.WriteRecord(half, shard.Shard{K: 1, N: 2}, shard.KindRun, "", nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "usage"},
		{[]string{notShard}, "is not a shard's run folder"},
		{[]string{half}, "shard 2/2 of the run is missing"},
		{[]string{"--no-such-flag", half}, "not defined"},
	} {
		var out, errs bytes.Buffer
		if code := mergeCmd(append([]string{"--evidence", evidence}, c.args...), &out, &errs); code != 2 || !strings.Contains(errs.String(), c.want) {
			t.Errorf("merge %v: exit %d, %q; want 2 and %q", c.args, code, errs.String(), c.want)
		}
	}
	for _, bad := range []string{"3/2", "1", "x/y"} {
		var out, errs bytes.Buffer
		if code := runScenarios([]string{"--shard", bad, "--evidence", evidence}, &out, &errs); code != 2 || !strings.Contains(errs.String(), bad) {
			t.Errorf("run --shard %s: exit %d, %q", bad, code, errs.String())
		}
	}
	if entries, _ := os.ReadDir(evidence); len(entries) != 0 {
		t.Errorf("bad input wrote %d entries to the evidence folder", len(entries))
	}
}
