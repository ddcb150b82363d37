package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/fixtures/plainapp"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/vocab"
)

const plainScenarios = "../../fixtures/plainapp/scenarios"

// runPlain runs `agentready run` against a fresh Little Oven (an app with no
// observation endpoints) started with variant.
func runPlain(t *testing.T, variant plainapp.Variant, args ...string) (code int, stdout, evidence string) {
	t.Helper()
	app, err := plainapp.Start(plainapp.Options{Variant: variant})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.Close() })
	evidence = t.TempDir()
	t.Setenv("AGENTREADY_BASE_URL", "")
	t.Setenv("AGENTREADY_OBSERVER_TOKEN", "")
	var out, errs bytes.Buffer
	code = runScenarios(append([]string{"--base-url", app.URL, "--scenarios", plainScenarios, "--evidence", evidence, "--run-id", "r1"}, args...), &out, &errs)
	t.Logf("stdout:\n%s\nstderr:\n%s", out.String(), errs.String())
	return code, out.String(), evidence
}

// The correct app: every scenario reaches the verdict it means to, judged
// from the network log alone, and the run ends as a user expects: verify,
// the index, the summary line, exit 0.
func TestRunAgainstAnAppWithoutObservationEndpoints(t *testing.T) {
	code, out, evidence := runPlain(t, "")
	if code != 0 {
		t.Fatalf("exit %d, want 0", code)
	}
	for _, want := range []string{"verify: 4 passed, 0 failed", "evidence: " + filepath.Join(evidence, "r1", "index.html"), "\nrun: 4 passed, 0 failed\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(evidence, "r1", "index.html")); err != nil {
		t.Errorf("no run index: %v", err)
	}
	v := readVerdict(t, filepath.Join(evidence, "r1", "ORDER-01"))
	if v.Outcome != vocab.Pass {
		t.Errorf("ORDER-01: %s %v", v.Outcome, v.Codes)
	}
	var sawNetworkCount bool
	for _, c := range v.Checks {
		if c.Source == vocab.SrcJournal {
			t.Errorf("a journal check on an app without a journal: %s", c.ID)
		}
		sawNetworkCount = sawNetworkCount || (strings.HasPrefix(c.ID, "requests[") && c.Source == vocab.SrcNetwork && c.Status == vocab.CheckPass)
	}
	if !sawNetworkCount {
		t.Error("no request count was judged from the network log")
	}
}

// An app that writes before the person confirms fails with the code for
// it, from the network log alone, and the run exits 1.
func TestRunCatchesAnEarlyWriteWithoutAJournal(t *testing.T) {
	code, out, evidence := runPlain(t, plainapp.WritesEarly, "--id", "ORDER-01")
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if !strings.Contains(out, "run: 0 passed, 2 failed") { // ORDER-01 and its family
		t.Errorf("the summary line is missing or wrong")
	}
	v := readVerdict(t, filepath.Join(evidence, "r1", "ORDER-01"))
	if v.Outcome != vocab.Fail || !slices.Contains(v.Codes, vocab.SideEffectBeforeConfirmation) || !slices.Contains(v.Codes, vocab.WriteAttempt) {
		t.Errorf("ORDER-01 on writes-early: %s %v, want FAIL with side_effect_before_confirmation and write_attempt", v.Outcome, v.Codes)
	}
}

// Bad input changes nothing: an unknown flag, a folder with a broken file,
// an app that does not answer, an ID that matches nothing (exit 2, no run).
func TestRunRefusesBadInputBeforeRunning(t *testing.T) {
	broken := t.TempDir()
	if err := os.WriteFile(filepath.Join(broken, "x.yaml"), []byte("id: X\nbogus: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	evidence := t.TempDir()
	for _, args := range [][]string{
		{"--no-such-flag"},
		{"--scenarios", broken},
		{"--scenarios", plainScenarios, "--base-url", "http://127.0.0.1:1"},
		{"--scenarios", plainScenarios, "--id", "NO-SUCH"},
	} {
		var out, errs bytes.Buffer
		if code := runScenarios(append(args, "--evidence", evidence), &out, &errs); code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s", args, code, errs.String())
		}
	}
	if entries, _ := os.ReadDir(evidence); len(entries) != 0 {
		t.Errorf("bad input wrote %d entries to the evidence folder", len(entries))
	}
}

func readVerdict(t *testing.T, dir string) judge.Verdict {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "verdict.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v judge.Verdict
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}
