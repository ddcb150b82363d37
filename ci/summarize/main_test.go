package main

import (
	"bytes"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"
)

// spec is a scenario spec as framework.writeBundle reports it.
func spec(id string, state types.SpecState, outcome string, asMeant bool, codes, meant string) types.SpecReport {
	v := types.WrapEntryValue
	r := types.SpecReport{LeafNodeType: types.NodeTypeIt, ContainerHierarchyTexts: []string{"Scenarios"}, LeafNodeText: id, State: state,
		ReportEntries: types.ReportEntries{
			{Name: "bundle", Value: v("/ev/run/" + id)},
			{Name: "outcome", Value: v(outcome)},
			{Name: "as-meant", Value: v(asMeant)},
			{Name: "codes", Value: v(codes)},
			{Name: "meant", Value: v(meant)},
			{Name: "seconds", Value: v(0.61)},
		}}
	switch state {
	case types.SpecStateFailed:
		r.Failure = types.Failure{Message: "expected verdict " + meant}
	case types.SpecStatePanicked:
		r.Failure = types.Failure{Message: "panic", ForwardedPanic: "harness fault in " + id}
	}
	return r
}

// departs adds the entry that names the link a FAIL departs at.
func departs(r types.SpecReport, link string) types.SpecReport {
	r.ReportEntries = append(r.ReportEntries, types.ReportEntry{Name: "departs", Value: types.WrapEntryValue(link)})
	return r
}

// reports writes a Ginkgo JSON and JUnit report of one run, through
// Ginkgo's own reporters, and answers their paths.
func reports(t *testing.T) (jsonPath, junitPath string) {
	t.Helper()
	report := types.Report{SuiteDescription: "agentready e2e", SuiteSucceeded: false, SpecReports: types.SpecReports{
		spec("A-pass", types.SpecStatePassed, "PASS", true, "", "PASS"),
		departs(spec("B-known-bad", types.SpecStatePassed, "FAIL", true, "answer_incomplete", "FAIL answer_incomplete"), "answer"),
		departs(spec("C-fails", types.SpecStateFailed, "FAIL", false, "state_mismatch", "PASS"), "server"),
		spec("D-unjudged", types.SpecStateFailed, "INCONCLUSIVE", false, "evidence_missing", "PASS"),
		spec("E-fault", types.SpecStatePanicked, "INCONCLUSIVE", false, "evidence_missing", "PASS"),
		spec("F-meant-inconclusive", types.SpecStatePassed, "INCONCLUSIVE", true, "case_incomplete", "INCONCLUSIVE case_incomplete"),
		// a spec that runs a scenario to assert its FAIL itself
		departs(spec("G-spec-asserts", types.SpecStatePassed, "FAIL", false, "contract_broken", "PASS"), "page"),
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

func TestAnInconclusiveScenarioIsAJUnitErrorWithItsCodes(t *testing.T) {
	_, junitPath := reports(t)
	n, err := fixJUnit(junitPath)
	if err != nil || n != 1 {
		t.Fatalf("fixJUnit: %d rewritten, %v", n, err)
	}
	data, err := os.ReadFile(junitPath)
	if err != nil {
		t.Fatal(err)
	}
	var suites reporters.JUnitTestSuites
	if err := xml.Unmarshal(data, &suites); err != nil {
		t.Fatal(err)
	}
	s := suites.TestSuites[0]
	if s.Failures != 1 || s.Errors != 2 || suites.Failures != 1 || suites.Errors != 2 {
		t.Errorf("counts: suite %d failures %d errors, all %d failures %d errors; want 1 and 2", s.Failures, s.Errors, suites.Failures, suites.Errors)
	}
	got := map[string]string{}
	for _, tc := range s.TestCases {
		switch {
		case tc.Failure != nil:
			got[tc.Name] = "failure " + tc.Failure.Type
		case tc.Error != nil:
			got[tc.Name] = "error " + tc.Error.Type + ": " + tc.Error.Message
		default:
			got[tc.Name] = "ok"
		}
	}
	for name, want := range map[string]string{
		"[It] Scenarios A-pass":               "ok",
		"[It] Scenarios B-known-bad":          "ok",
		"[It] Scenarios C-fails":              "failure failed",
		"[It] Scenarios D-unjudged":           "error INCONCLUSIVE: INCONCLUSIVE evidence_missing: D-unjudged was not judged (meant PASS); the evidence: /ev/run/D-unjudged",
		"[It] Scenarios E-fault":              "error panicked: harness fault in E-fault",
		"[It] Scenarios F-meant-inconclusive": "ok",
		"[It] Scenarios G-spec-asserts":       "ok",
	} {
		if got[name] != want {
			t.Errorf("%s: %q, want %q", name, got[name], want)
		}
	}
	// Rewriting again changes nothing.
	if n, err := fixJUnit(junitPath); n != 0 || err != nil {
		t.Errorf("a second rewrite: %d, %v", n, err)
	}
}

// The terminal ends with the table, failures first, then the closing line;
// GitHub's job summary gets the same as Markdown.
func TestTheTableAndTheJobSummary(t *testing.T) {
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
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if last := lines[len(lines)-1]; last != "e2e: 4 passed, 3 failed, 0 skipped" {
		t.Errorf("the closing line: %q", last)
	}
	text := out.String()
	table := text[strings.Index(text, "scenario "):]
	order := []string{"C-fails", "D-unjudged", "E-fault", "A-pass", "B-known-bad", "F-meant-inconclusive", "G-spec-asserts"}
	for i := 1; i < len(order); i++ {
		if strings.Index(table, order[i-1]) > strings.Index(table, order[i]) {
			t.Errorf("%s is listed after %s: failures first, then by ID\n%s", order[i-1], order[i], table)
		}
	}
	for _, want := range []string{
		"junit: 1 INCONCLUSIVE scenario(s) written as errors in " + junitPath,
		"D-unjudged            INCONCLUSIVE ✗ meant PASS",
		"B-known-bad           FAIL, as expected",
		"G-spec-asserts        FAIL, as its spec expects",
		"scenarios: 1 PASS, 3 FAIL (2 as expected), 3 INCONCLUSIVE (1 as expected); 3 not as meant",
		// where each FAIL departs, "-" for the others
		"scenario              verdict                      time  departs  codes\n",
		"C-fails               FAIL ✗ meant PASS            0.6s  server   state_mismatch\n",
		"D-unjudged            INCONCLUSIVE ✗ meant PASS    0.6s  -        evidence_missing\n",
		"G-spec-asserts        FAIL, as its spec expects    0.6s  page     contract_broken\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the output lacks %q:\n%s", want, text)
		}
	}
	md, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"### e2e: 4 passed, 3 failed, 0 skipped",
		"**Not as meant**",
		"| D-unjudged | INCONCLUSIVE ✗ meant PASS | PASS | `evidence_missing` | 0.6 s |",
		"<details><summary>4 scenario(s) as meant</summary>",
		"| B-known-bad | FAIL, as expected | FAIL answer_incomplete | `answer_incomplete` | 0.6 s |",
		"| scenario | verdict | meant to reach | codes | time | departs at |",
		"| C-fails | FAIL ✗ meant PASS | PASS | `state_mismatch` | 0.6 s | `server` |",
		"| A-pass | PASS | PASS | — | 0.6 s | — |",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("the job summary lacks %q:\n%s", want, md)
		}
	}
}
