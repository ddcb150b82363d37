package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/reporters/results"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

// spec is a scenario spec as the e2e framework reports it: its row as the
// one entry.
func spec(state types.SpecState, r results.Row) types.SpecReport {
	s := types.SpecReport{LeafNodeType: types.NodeTypeIt, ContainerHierarchyTexts: []string{"Scenarios"}, LeafNodeText: r.ID, State: state,
		ReportEntries: types.ReportEntries{{Name: results.EntryName, Value: types.WrapEntryValue(r)}}}
	if state == types.SpecStateFailed {
		s.Failure = types.Failure{Message: "expected verdict " + r.Meant.String()}
	}
	return s
}

// reports writes a Ginkgo JSON and JUnit report of one run, through
// Ginkgo's own reporters, and answers their paths.
func reports(t *testing.T) (jsonPath, junitPath string) {
	t.Helper()
	pass := scenarios.Known{Outcome: vocab.Pass}
	report := types.Report{SuiteDescription: "agentready e2e", SpecReports: types.SpecReports{
		{LeafNodeType: types.NodeTypeBeforeSuite, State: types.SpecStatePassed},
		spec(types.SpecStatePassed, results.Row{ID: "A-pass", Bundle: "/ev/run/A-pass", Outcome: vocab.Pass, Meant: pass, AsMeant: true, Seconds: 0.61}),
		spec(types.SpecStateFailed, results.Row{ID: "C-fails", Bundle: "/ev/run/C-fails", Outcome: vocab.Fail, Codes: []vocab.Code{vocab.StateMismatch}, Meant: pass, Seconds: 0.6,
			Diagnosis: &results.Departure{Link: vocab.LinkServer}, Failed: []results.Check{{ID: "state[human]", Status: vocab.CheckFail, Code: vocab.StateMismatch, Message: "seats: expected 7, actual 8"}}}),
		spec(types.SpecStateFailed, results.Row{ID: "D-unjudged", Bundle: "/ev/run/D-unjudged", Outcome: vocab.Inconclusive, Codes: []vocab.Code{vocab.EvidenceMissing}, Meant: pass, Seconds: 0.6}),
		{LeafNodeType: types.NodeTypeIt, ContainerHierarchyTexts: []string{"Catalog"}, LeafNodeText: "lists the tools", State: types.SpecStateSkipped},
	}}
	dir := t.TempDir()
	jsonPath, junitPath = filepath.Join(dir, "e2e.json"), filepath.Join(dir, "e2e.junit.xml")
	if err := reporters.GenerateJSONReport(report, jsonPath); err != nil {
		t.Fatal(err)
	}
	if err := reporters.GenerateJUnitReport(report, junitPath); err != nil {
		t.Fatal(err)
	}
	return jsonPath, junitPath
}

// The terminal ends with the table and the closing line, the job summary
// gets the run as Markdown, the JUnit report its INCONCLUSIVE error: each
// exactly what package results makes of the report's rows.
func TestEveryReportIsAFunctionOfTheRows(t *testing.T) {
	jsonPath, junitPath := reports(t)
	dir := t.TempDir()
	bin, summary := filepath.Join(dir, "summarize"), filepath.Join(dir, "summary.md")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "--label", "e2e", "--scenarios", "--junit", junitPath, jsonPath)
	cmd.Env = append(os.Environ(), "GITHUB_STEP_SUMMARY="+summary)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err == nil {
		t.Fatalf("a run with failed specs must exit non-zero:\n%s", out.String())
	}
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	_, rows := ginkgo(data, &tally{})
	var table strings.Builder
	results.PrintTable(&table, rows)
	const closing = "e2e: 1 passed, 2 failed, 1 skipped"
	want := "junit: 1 INCONCLUSIVE scenario(s) written as errors in " + junitPath + "\n" +
		"FAILED: Scenarios C-fails (failed)\nFAILED: Scenarios D-unjudged (failed)\n" + table.String() + closing + "\n"
	if out.String() != want {
		t.Errorf("the output:\n%s\nwant:\n%s", out.String(), want)
	}
	if !strings.Contains(table.String(), "✗ state_mismatch state[human]: seats: expected 7, actual 8") {
		t.Errorf("the table does not say why C-fails is not as meant:\n%s", table.String())
	}
	md, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	if string(md) != results.Markdown(closing, rows) {
		t.Errorf("the job summary:\n%s\nwant:\n%s", md, results.Markdown(closing, rows))
	}
	junit, err := os.ReadFile(junitPath)
	if err != nil || !strings.Contains(string(junit), `<error message="INCONCLUSIVE evidence_missing: D-unjudged was not judged (meant PASS); the evidence: /ev/run/D-unjudged" type="INCONCLUSIVE">`) {
		t.Errorf("the JUnit report: %v\n%s", err, junit)
	}
}

// Without --scenarios, only the closing line: a go test -json stream too.
func TestAGoTestStreamIsCounted(t *testing.T) {
	stream := `{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"skip","Package":"p","Test":"TestB"}
{"Action":"output","Package":"q","Output":"build failed\n"}
{"Action":"fail","Package":"q"}
`
	var tl tally
	failed := goTest([]byte(stream), &tl)
	if tl != (tally{passed: 1, failed: 1, skipped: 1}) || len(failed) != 1 || !strings.Contains(failed[0], "q (outside any test):\nbuild failed") {
		t.Errorf("tally %+v, failed %q", tl, failed)
	}
}

// writeReport writes a Ginkgo JSON report of the specs given and answers
// its path.
func writeReport(t *testing.T, specs ...types.SpecReport) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "e2e.json")
	if err := reporters.GenerateJSONReport(types.Report{SuiteDescription: "agentready e2e", SpecReports: specs}, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// summarizeBin builds the command once per test and runs it.
func summarizeBin(t *testing.T) func(args ...string) (int, string) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "summarize")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return func(args ...string) (int, string) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "GITHUB_STEP_SUMMARY=")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		code := 0
		if exit, ok := err.(*exec.ExitError); ok {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, out.String()
	}
}

// make scenario ID=smoke-calls runs specs and no scenario: its run folder
// holds no bundle, which is said and passes. The known bad: a report with
// a scenario's row and a folder with no bundle fails; with the bundle
// there it passes.
func TestARunOfSpecsAloneNeedsNoBundleAndAScenarioRunDoes(t *testing.T) {
	run := summarizeBin(t)
	empty := filepath.Join(t.TempDir(), "run")
	specsOnly := writeReport(t, types.SpecReport{LeafNodeType: types.NodeTypeIt, ContainerHierarchyTexts: []string{"smoke"}, LeafNodeText: "calls", State: types.SpecStatePassed})
	if code, out := run("--bundles", empty, "--label", "scenario", specsOnly); code != 0 || !strings.Contains(out, "bundles: no scenario ran (only specs)") || !strings.Contains(out, "scenario: 1 passed, 0 failed, 0 skipped") {
		t.Errorf("specs alone: exit %d\n%s", code, out)
	}

	pass := scenarios.Known{Outcome: vocab.Pass}
	withScenario := writeReport(t, spec(types.SpecStatePassed, results.Row{ID: "A-pass", Bundle: filepath.Join(empty, "A-pass"), Outcome: vocab.Pass, Meant: pass, AsMeant: true}))
	if code, out := run("--bundles", empty, "--label", "scenario", withScenario); code != 1 || !strings.Contains(out, "bundles: 1 scenario(s) ran and "+empty+" holds no bundle") {
		t.Errorf("a scenario ran and no bundle: exit %d\n%s", code, out)
	}

	if err := os.MkdirAll(filepath.Join(empty, "A-pass"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(empty, "A-pass", bundle.ManifestFile), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out := run("--bundles", empty, "--label", "scenario", withScenario); code != 0 || !strings.Contains(out, "bundles: 1 in "+empty) {
		t.Errorf("a scenario and its bundle: exit %d\n%s", code, out)
	}
}

// The gate counts our own app's scenario files only, and fails on a gap
// the list does not hold. Known bad: the row of another folder, with a gap
// of its own, is not what fails it.
func TestTheCoverageGateHoldsOurAppsRowsToTheList(t *testing.T) {
	gap := judge.SurfaceItem{Measure: judge.MeasureLooks, Subject: "human · #seats", Aspect: judge.AspectTied, Why: "not tied"}
	ours := results.Row{ID: "A", File: "/repo/scenarios/cases/A.yaml", Surface: []judge.SurfaceItem{gap}}
	theirs := results.Row{ID: "B", File: "/repo/fixtures/realpages/scenarios/B.yaml", Surface: []judge.SurfaceItem{{Measure: judge.MeasureTools, Subject: "x", Aspect: judge.AspectValidInput}}}
	if got := rowsOf([]results.Row{ours, theirs}, "scenarios/cases/"); len(got) != 1 || got[0].ID != "A" {
		t.Fatalf("rows of our app: %+v", got)
	}
	path := filepath.Join(t.TempDir(), "gaps.txt")
	if !coverageGate([]results.Row{ours}, path, true) {
		t.Fatal("writing the list failed")
	}
	if !coverageGate(rowsOf([]results.Row{ours, theirs}, "scenarios/cases/"), path, false) {
		t.Error("the run that wrote the list fails it")
	}
	if err := os.WriteFile(path, []byte("# none\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if coverageGate([]results.Row{ours}, path, false) {
		t.Error("a gap the list does not hold passed the gate")
	}
}
