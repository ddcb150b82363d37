package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/fixtures/plainapp"
	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/runs/play"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
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
	for _, want := range []string{"verify: 5 passed, 0 failed", "evidence: " + filepath.Join(evidence, "r1", "index.html"), "\nrun: 5 passed, 0 failed\n"} {
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

// run says each deprecated spelling of the folder before it runs, at its
// file and line, as check does.
func TestRunWarnsOfDeprecatedSpellings(t *testing.T) {
	dir := t.TempDir()
	old := "id: OLD-01\ntitle: old\nstart: /\nprompt: hi\nexpect:\n  requests: [{method: POST, path: /api/x, phase: agent, count: 0}]\n"
	if err := os.WriteFile(filepath.Join(dir, "OLD-01.yaml"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := runScenarios([]string{"--scenarios", dir, "--id", "NO-SUCH", "--evidence", t.TempDir()}, &out, &errs); code != 2 {
		t.Fatalf("exit %d\n%s", code, errs.String())
	}
	want := "agentready run: warning: " + filepath.Join(dir, "OLD-01.yaml") + ":6:15: expect.requests[0]: deprecated (request-keys"
	if !strings.Contains(errs.String(), want) {
		t.Errorf("run says\n%s\nwant %q", errs.String(), want)
	}
}

func readVerdict(t *testing.T, dir string) judge.Verdict {
	t.Helper()
	s, err := bundle.ReadSummary(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s.Verdict
}

// A page that names today's date: on the scenario's fixed clock it reads
// 2027-06-01, and the bundle records that clock; the same scenario without
// the clock sees the real date and fails on the page.
func TestAFixedClockMakesADatedPageRepeatable(t *testing.T) {
	code, _, evidence := runPlain(t, "", "--id", "MENU-03.clock")
	if code != 0 {
		t.Fatalf("exit %d with the clock", code)
	}
	run, err := os.ReadFile(filepath.Join(evidence, "r1", "MENU-03.clock", "run.json"))
	if err != nil || !strings.Contains(string(run), `"clock": "2027-06-01T09:00:00Z"`) {
		t.Errorf("run.json does not record the fixed clock: %v\n%s", err, run)
	}

	noClock := t.TempDir()
	data, err := os.ReadFile(filepath.Join(plainScenarios, "MENU-03.clock.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(data), "clock: 2027-06-01T09:00:00Z\n", "", 1)
	if src == string(data) {
		t.Fatal("the scenario has no clock line to take out")
	}
	if err := os.WriteFile(filepath.Join(noClock, "MENU-03.yaml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	app, err := plainapp.Start(plainapp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := runScenarios([]string{"--base-url", app.URL, "--scenarios", noClock, "--evidence", out, "--run-id", "r2"}, &stdout, &stderr); code != 1 {
		t.Fatalf("without the clock: exit %d, want 1\n%s%s", code, stdout.String(), stderr.String())
	}
	if v := readVerdict(t, filepath.Join(out, "r2", "MENU-03.clock")); !slices.Contains(v.Codes, vocab.UIMismatch) {
		t.Errorf("without the clock: %s %v, want ui_mismatch", v.Outcome, v.Codes)
	}
}

// The acceptance of issue 25.5: two runs given one run id at once. The
// second is refused (exit 2) naming the first, whose folder it leaves
// alone; once the first has let go, the id is free again.
func TestASecondRunOfOneRunIDIsRefused(t *testing.T) {
	app, err := plainapp.Start(plainapp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	evidence := t.TempDir()
	first, err := play.LockRun(filepath.Join(evidence, "r1"), "the first run")
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--base-url", app.URL, "--scenarios", plainScenarios, "--id", "ORDER-01", "--evidence", evidence, "--run-id", "r1"}
	var out, errs bytes.Buffer
	if code := runScenarios(args, &out, &errs); code != 2 || !strings.Contains(errs.String(), "another run is writing this run folder") ||
		!strings.Contains(errs.String(), fmt.Sprintf("the first run, pid %d", os.Getpid())) {
		t.Fatalf("exit %d, want 2 naming the first run:\n%s%s", code, out.String(), errs.String())
	}
	if entries, _ := os.ReadDir(filepath.Join(evidence, "r1")); len(entries) != 1 || entries[0].Name() != play.LockFile {
		t.Errorf("the refused run wrote into the first's folder: %v", entries)
	}
	if err := first.Release(); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := runScenarios(args, &out, &errs); code != 0 {
		t.Fatalf("after the first let go: exit %d\n%s%s", code, out.String(), errs.String())
	}
	if _, err := os.Stat(filepath.Join(evidence, "r1", play.LockFile)); !os.IsNotExist(err) {
		t.Errorf("the run left its lock behind: %v", err)
	}
}

// The attack replays send real writes to the app; --replays off sends
// none, and each bundle says so in its one skip (and verifies). A value
// other than on or off is refused, naming the flag, before anything runs.
func TestReplaysOffSendsNoReplay(t *testing.T) {
	var out, errs bytes.Buffer
	evidence := t.TempDir()
	code := runScenarios([]string{"--scenarios", "../../scenarios/cases", "--id", "TIP-01", "--evidence", evidence, "--run-id", "r", "--replays", "off"}, &out, &errs)
	dir := filepath.Join(evidence, "r", "TIP-01")
	v := readVerdict(t, dir)
	if code != 0 || v.Outcome != vocab.Pass || len(v.Skipped) != 1 || v.Skipped[0].ID != "replays" || !strings.Contains(v.Skipped[0].Reason, "--replays off") {
		t.Fatalf("exit %d, %s, skipped %v\n%s", code, v.Outcome, v.Skipped, errs.String())
	}
	if slices.ContainsFunc(v.Checks, func(c judge.Check) bool { return strings.HasPrefix(c.ID, "replays[") }) {
		t.Error("a replay was judged")
	}
	if rep := bundle.Verify(dir); !rep.OK {
		t.Errorf("verify: %+v", rep)
	}
	for _, bad := range []string{"maybe", "OFF"} {
		evidence := t.TempDir()
		errs.Reset()
		code := runScenarios([]string{"--scenarios", "../../scenarios/cases", "--id", "TIP-01", "--evidence", evidence, "--replays", bad}, &out, &errs)
		if entries, _ := os.ReadDir(evidence); code != 2 || !strings.Contains(errs.String(), "--replays "+bad) || len(entries) != 0 {
			t.Errorf("--replays %s: exit %d, stderr %q, %d written", bad, code, errs.String(), len(entries))
		}
	}
}

// A run never tests an app the user did not name: scenarios of the user's
// folder, with no base URL and no folder app, are refused before anything
// starts, naming the settings; the suite's own folder is no user's.
func TestRunRefusesScenariosWithoutAnApp(t *testing.T) {
	t.Setenv(play.EnvBaseURL, "")
	dir := t.TempDir()
	mine := "id: MINE-01\ntitle: mine\nstart: /orders\nprompt: hi\n"
	if err := os.WriteFile(filepath.Join(dir, "MINE-01.yaml"), []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	evidence := t.TempDir()
	var out, errs bytes.Buffer
	code := runScenarios([]string{"--scenarios", dir, "--evidence", evidence}, &out, &errs)
	for _, want := range []string{"no app to test for 1 scenario(s)", "MINE-01", "--base-url URL", play.EnvBaseURL, "app: in an agentready.yaml", "--embedded", "Nothing was run"} {
		if !strings.Contains(errs.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs.String())
		}
	}
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if entries, _ := os.ReadDir(evidence); len(entries) != 0 {
		t.Errorf("a refused run wrote %v", entries)
	}
	if !suiteOwn("../../scenarios/cases") || !suiteOwn("../../scenarios/cases/loans") || suiteOwn(dir) || suiteOwn("../../fixtures/plainapp/scenarios") {
		t.Error("suiteOwn does not tell the suite's own folder from a user's")
	}
}
