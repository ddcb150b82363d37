package results

import (
	"encoding/json"
	"encoding/xml"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata from this run")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./results -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from what was written (go test ./results -update rewrites it after a change on purpose):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

var (
	pass     = scenarios.Known{Outcome: vocab.Pass}
	answered = &Departure{Link: vocab.LinkAnswer, Summary: "the answer departs first: answer.must_mention[0]", Open: "not diagnosed: why the answer departs."}
)

// sample is a run of every kind of row: as meant (PASS, a known-bad FAIL,
// a meant INCONCLUSIVE), a FAIL, an INCONCLUSIVE, a harness fault, a
// bundle that could not be written, and a spec that asserts a FAIL itself.
func sample() []Row {
	failed := []Check{{ID: "state[human]", Status: vocab.CheckFail, Code: vocab.StateMismatch, Message: "the state after the person:\n  $.event.seatsLeft: expected 7, actual 8"},
		{ID: "requests[1]", Status: vocab.CheckFail, Code: vocab.RequestCountMismatch, Message: "POST /api/registrations in the human phase: expected 1, actual 0"},
		{ID: "ui[human][0]", Status: vocab.CheckFail, Code: vocab.UIMismatch, Message: "#registration-result: expected REGISTERED, actual nothing"},
		{ID: "journal[0]", Status: vocab.CheckFail, Code: vocab.RequestCountMismatch, Message: "the journal: expected 1, actual 0"}}
	return []Row{
		{ID: "A-pass", Title: "passes", Bundle: "/ev/run/A-pass", Outcome: vocab.Pass, Codes: []vocab.Code{}, Meant: pass, AsMeant: true, Seconds: 0.61, Calls: 1, Final: true, Spec: SpecPassed},
		{ID: "B-known-bad", Title: "a known-bad case", Bundle: "/ev/run/B-known-bad", Outcome: vocab.Fail, Codes: []vocab.Code{vocab.AnswerIncomplete},
			Meant: scenarios.Known{Outcome: vocab.Fail, Codes: []vocab.Code{vocab.AnswerIncomplete}}, AsMeant: true, Diagnosis: answered,
			Failed: []Check{{ID: "answer.must_mention[0]", Status: vocab.CheckFail, Code: vocab.AnswerIncomplete, Message: `the final words do not mention "done"`}}, Seconds: 0.62, Spec: SpecPassed},
		{ID: "C-fails", Title: "fails <b>bold</b>", Bundle: "/ev/run/C-fails", Outcome: vocab.Fail, Codes: []vocab.Code{vocab.RequestCountMismatch, vocab.StateMismatch, vocab.UIMismatch}, Meant: pass,
			Diagnosis: &Departure{Link: vocab.LinkRequest, Checks: []string{"requests[1]", "journal[0]"}, Summary: "the request departs first", Open: "not diagnosed"}, Failed: failed, Seconds: 1.25, Spec: "failed"},
		{ID: "D-unjudged", Bundle: "/ev/run/D-unjudged", Outcome: vocab.Inconclusive, Codes: []vocab.Code{vocab.EvidenceMissing}, Meant: pass,
			Failed: []Check{{ID: "state[agent]", Status: vocab.CheckInconclusive, Code: vocab.EvidenceMissing, Message: "no state was read"}}, Seconds: 0.6, Spec: "failed"},
		{ID: "E-fault", Bundle: "/ev/run/E-fault", Outcome: vocab.Inconclusive, Codes: []vocab.Code{vocab.EvidenceMissing}, Meant: pass,
			Faults: []string{"open the start page: net::ERR_CONNECTION_REFUSED"}, Seconds: 0.6, Spec: "panicked"},
		{ID: "F-meant-inconclusive", Bundle: "/ev/run/F-meant-inconclusive", Outcome: vocab.Inconclusive, Codes: []vocab.Code{vocab.CaseIncomplete},
			Meant: scenarios.Known{Outcome: vocab.Inconclusive, Codes: []vocab.Code{vocab.CaseIncomplete}}, AsMeant: true, Seconds: 0.6, Spec: SpecPassed},
		// a spec that runs a scenario to assert its FAIL itself
		{ID: "G-spec-asserts", Bundle: "/ev/run/G-spec-asserts", Outcome: vocab.Fail, Codes: []vocab.Code{vocab.ContractBroken}, Meant: pass,
			Diagnosis: &Departure{Link: vocab.LinkPage, Summary: "the page departs first", Open: "not diagnosed"}, Seconds: 0.6, Spec: SpecPassed},
		{ID: "H-unwritten", Bundle: "/ev/run/H-unwritten", Outcome: vocab.Inconclusive, Meant: pass, Error: "write /ev/run/H-unwritten/trace.json: no space left on device", Spec: "failed"},
	}
}

// ginkgoReport is a Ginkgo report of the sample: one spec per row, each with
// its row as the one entry, the failed ones with Ginkgo's failure.
func ginkgoReport() types.Report {
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	rep := types.Report{SuiteDescription: "agentready e2e", SuitePath: "/src/e2e", StartTime: start, EndTime: start.Add(time.Minute), RunTime: time.Minute,
		SpecReports: types.SpecReports{{LeafNodeType: types.NodeTypeSynchronizedBeforeSuite, State: types.SpecStatePassed, StartTime: start, EndTime: start}}}
	for _, r := range sample() {
		state := map[string]types.SpecState{"passed": types.SpecStatePassed, "failed": types.SpecStateFailed, "panicked": types.SpecStatePanicked}[r.Spec]
		s := types.SpecReport{LeafNodeType: types.NodeTypeIt, ContainerHierarchyTexts: []string{"Scenarios"}, LeafNodeText: r.ID, State: state, StartTime: start, EndTime: start,
			ReportEntries: types.ReportEntries{{Name: EntryName, Value: types.WrapEntryValue(unspecced(r)), Time: start}}}
		switch state {
		case types.SpecStateFailed:
			s.Failure = types.Failure{Message: "expected verdict " + r.Meant.String()}
		case types.SpecStatePanicked:
			s.Failure = types.Failure{Message: "panic", ForwardedPanic: "harness fault in " + r.ID}
		}
		rep.SpecReports = append(rep.SpecReports, s)
	}
	return rep
}

// unspecced is a row as a spec adds it: its spec's state is Ginkgo's to say.
func unspecced(r Row) Row { r.Spec = ""; return r }

func TestTheTerminalTable(t *testing.T) {
	var b strings.Builder
	PrintTable(&b, sample())
	got := b.String()
	golden(t, "table.txt", got)
	// What the golden file must hold whatever its layout: the ones not as
	// meant first, each with its first checks' messages and its bundle.
	order := []string{"C-fails", "D-unjudged", "E-fault", "H-unwritten", "A-pass", "B-known-bad", "F-meant-inconclusive", "G-spec-asserts"}
	for i := 1; i < len(order); i++ {
		if strings.Index(got, "\n"+order[i-1]+" ") > strings.Index(got, "\n"+order[i]+" ") {
			t.Errorf("%s is listed after %s", order[i-1], order[i])
		}
	}
	for _, want := range []string{
		"✗ state_mismatch state[human]: the state after the person: $.event.seatsLeft: expected 7, actual 8\n",
		// where the FAIL departs first comes first
		"C-fails               FAIL ✗ meant PASS            1.2s  request  request_count_mismatch state_mismatch ui_mismatch\n" +
			"                      ✗ request_count_mismatch requests[1]: POST /api/registrations in the human phase: expected 1, actual 0\n" +
			"                      ✗ request_count_mismatch journal[0]: the journal: expected 1, actual 0\n" +
			"                      ✗ state_mismatch state[human]:",
		"… and 1 more check(s) that did not pass\n", "evidence: /ev/run/C-fails\n",
		"harness fault: open the start page", "no bundle: write /ev/run/H-unwritten/trace.json",
		"scenarios: 1 PASS, 3 FAIL (2 as meant), 4 INCONCLUSIVE (1 as meant); 4 not as meant\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the table lacks %q", want)
		}
	}
	if strings.Contains(got, "evidence: /ev/run/A-pass") {
		t.Error("a scenario as meant needs no why")
	}
}

func TestTheJobSummary(t *testing.T) {
	md := Markdown("e2e: 4 passed, 4 failed, 0 skipped", sample())
	golden(t, "summary.md", md)
	if !strings.Contains(md, "| C-fails | FAIL ✗ meant PASS | PASS | `request_count_mismatch` `state_mismatch` `ui_mismatch` | 1.2 s | `request` | ✗ request_count_mismatch requests[1]") {
		t.Errorf("the row not as meant lacks its why:\n%s", md)
	}
	if !strings.Contains(md, "<details><summary>4 scenario(s) as meant</summary>") {
		t.Errorf("the ones as meant are not folded away:\n%s", md)
	}
}

func TestTheRunPage(t *testing.T) {
	dir := t.TempDir()
	if err := (Page{RunID: "r", Rows: sample(), Specs: &Specs{Passed: 4, Failed: 4}}).Write(dir); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, PageFile))
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	golden(t, "index.html", page)
	text := regexp.MustCompile(`\s+`).ReplaceAllString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(page, " "), " ")
	for _, want := range []string{
		"1 PASS · 3 FAIL (2 as meant) · 4 INCONCLUSIVE (1 as meant) — specs: 4 passed, 4 failed",
		"4 of 8 scenarios are not as meant",
		"FAIL, as meant FAIL answer_incomplete answer_incomplete 0.62 s passed",
		"FAIL, as its spec means PASS contract_broken 0.60 s passed",
		"departs at: request — the request departs first",
		"no bundle: write /ev/run/H-unwritten/trace.json",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the page lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(page, "<b>bold</b>") || strings.Contains(page, "<script") {
		t.Error("a title is shown as text, and the page runs no script")
	}
	c, a := strings.Index(page, `href="C-fails/index.html"`), strings.Index(page, `href="A-pass/index.html"`)
	if c < 0 || c > a {
		t.Errorf("the failure comes first: C at %d, A at %d", c, a)
	}
}

func TestAllAsMeantSaysSo(t *testing.T) {
	dir := t.TempDir()
	rows := sample()[:2]
	if err := (Page{RunID: "r", Rows: rows}).Write(dir); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, PageFile))
	if !strings.Contains(string(data), "All 2 scenarios are as meant; for 1 of them the verdict meant is a FAIL or INCONCLUSIVE") {
		t.Errorf("the banner:\n%s", data)
	}
}

// The one entry is read back alike from the process that added it, from
// Ginkgo's JSON report, and from its JUnit report.
func TestRowsComeBackFromEveryReport(t *testing.T) {
	rep := ginkgoReport()
	want := sample()
	if got := FromReport(rep); !equalRows(got, want) {
		t.Errorf("in process:\n got %+v\nwant %+v", got, want)
	}
	dir := t.TempDir()
	jsonPath := filepath.Join(dir, "e2e.json")
	if err := reporters.GenerateJSONReport(rep, jsonPath); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	var back []types.Report
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if got := FromReport(back[0]); !equalRows(got, want) {
		t.Errorf("from the JSON report:\n got %+v\nwant %+v", got, want)
	}
	if got := Tally(back[0]); got != (Specs{Passed: 4, Failed: 4}) {
		t.Errorf("tally %+v", got)
	}
	moved := MoveBundles(back[0].SpecReports[1].ReportEntries, "/merged")
	if r, ok := FromEntry(moved[0]); !ok || r.Bundle != "/merged/A-pass" {
		t.Errorf("moved: %+v", r)
	}
	if r, _ := FromEntry(back[0].SpecReports[1].ReportEntries[0]); r.Bundle != "/ev/run/A-pass" {
		t.Errorf("MoveBundles changed the entries it was given: %s", r.Bundle)
	}
	bad := types.ReportEntry{Name: EntryName, Value: types.ReportEntryValue{AsJSON: `"not a row"`}}
	if r, _ := FromEntry(bad); r.Outcome != vocab.Inconclusive || !strings.Contains(r.Error, "not a row") {
		t.Errorf("an entry that is not a row: %+v", r)
	}
}

func equalRows(a, b []Row) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// An INCONCLUSIVE scenario not meant to be (a bundle that could not be
// written is one) is a JUnit <error> that names its codes; a meant one
// passes; a harness fault stays Ginkgo's panic; a FAIL stays a failure.
func TestTheJUnitReport(t *testing.T) {
	path := filepath.Join(t.TempDir(), "e2e.junit.xml")
	if err := WriteJUnit(ginkgoReport(), path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "e2e.junit.xml", string(data))
	var suites reporters.JUnitTestSuites
	if err := xml.Unmarshal(data, &suites); err != nil {
		t.Fatal(err)
	}
	s := suites.TestSuites[0]
	if s.Failures != 1 || s.Errors != 3 || suites.Failures != 1 || suites.Errors != 3 {
		t.Errorf("counts: suite %d failures %d errors, all %d failures %d errors; want 1 and 3", s.Failures, s.Errors, suites.Failures, suites.Errors)
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
		"[It] Scenarios H-unwritten":          "error INCONCLUSIVE: INCONCLUSIVE -: H-unwritten was not judged (meant PASS); the evidence: /ev/run/H-unwritten",
	} {
		if got[name] != want {
			t.Errorf("%s: %q, want %q", name, got[name], want)
		}
	}
	if n, err := FixJUnit(path); n != 0 || err != nil {
		t.Errorf("a second rewrite: %d, %v", n, err)
	}
}

// A failed spec prints its row: the verdict against the one meant, why,
// and where the bundle is.
func TestARowSaysWhyWhenPrinted(t *testing.T) {
	var lines []string
	for _, r := range sample() {
		lines = append(lines, r.String())
	}
	golden(t, "rows.txt", strings.Join(lines, "\n")+"\n")
}

// A row of a bundle as sealed: its verdict, the one meant, the checks that
// did not pass, where it departs, the agent's calls and words.
func TestTheRowOfASealedBundle(t *testing.T) {
	for _, tc := range []struct {
		name    string
		final   string
		known   *scenarios.Known
		outcome vocab.Outcome
		asMeant bool
	}{
		{"passes", "done", nil, vocab.Pass, true},
		{"fails", "nothing", nil, vocab.Fail, false},
		{"fails as meant", "nothing", &scenarios.Known{Outcome: vocab.Fail, Codes: []vocab.Code{vocab.AnswerIncomplete}}, vocab.Fail, true},
		{"passes, meant to fail", "done", &scenarios.Known{Outcome: vocab.Fail, Codes: []vocab.Code{vocab.AnswerIncomplete}}, vocab.Pass, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := scenarios.Scenario{ID: "X", Title: "the final words", Start: "/", Prompt: "p", Known: tc.known,
				Expect: scenarios.Expect{Answer: &scenarios.AnswerExpect{MustMention: []string{"done"}}}}
			final := tc.final
			ev := &scenarios.Evidence{ScenarioID: "X", Final: &final, Calls: []scenarios.CallRecord{}}
			b, err := bundle.Seal(bundle.Meta{RunID: "r"}, sc, ev)
			if err != nil {
				t.Fatal(err)
			}
			r := Of("/run/X", sc, b, 1500*time.Millisecond)
			if r.Outcome != tc.outcome || r.AsMeant != tc.asMeant || r.NotAsMeant() == tc.asMeant || r.Meant.String() != sc.Meant().String() {
				t.Errorf("row %+v", r)
			}
			if r.ID != "X" || r.Bundle != "/run/X" || r.Seconds != 1.5 || r.Calls != 0 || !r.Final || r.Title != "the final words" {
				t.Errorf("row %+v", r)
			}
			if fails := tc.outcome == vocab.Fail; fails != (len(r.Failed) == 1 && r.Departs() == vocab.LinkAnswer) {
				t.Errorf("failed %+v, departs %q", r.Failed, r.Departs())
			}
		})
	}
}

// The agent's calls are those of its phase: a person's steps are not the agent's.
func TestARowCountsTheAgentsCalls(t *testing.T) {
	ev := &scenarios.Evidence{Calls: []scenarios.CallRecord{{Phase: vocab.PhaseAgent}, {Phase: vocab.PhaseHuman}, {Phase: vocab.PhaseAgent}}}
	if r := Of("/x", scenarios.Scenario{ID: "X"}, bundle.Bundle{Evidence: ev}, 0); r.Calls != 2 || r.Final {
		t.Errorf("calls %d, final %v", r.Calls, r.Final)
	}
}

// A message says what was expected and found when it does not already.
func TestAMessageSaysWhatWasExpected(t *testing.T) {
	for _, tc := range []struct {
		c    judge.Check
		want string
	}{
		{judge.Check{Message: "requests counted in the network log", Expected: 0, Actual: 1}, "requests counted in the network log: expected 0, actual 1"},
		{judge.Check{Message: "the value at $.orders", Expected: []any{}, Actual: nil}, "the value at $.orders: expected [], actual nothing"},
		{judge.Check{Message: "seats: expected 7, actual 8", Expected: 7, Actual: 8}, "seats: expected 7, actual 8"},
		{judge.Check{Message: "no state was read"}, "no state was read"},
	} {
		if got := message(tc.c); got != tc.want {
			t.Errorf("%q, want %q", got, tc.want)
		}
	}
}

func TestALongMessageIsCut(t *testing.T) {
	long := strings.Repeat("ab ", 1000)
	r := Row{ID: "X", Bundle: "/x", Failed: []Check{{ID: "c", Status: vocab.CheckFail, Code: vocab.UIMismatch, Message: OneLine(long, MessageLimit)}}}
	if n := len([]rune(r.Failed[0].Message)); n != MessageLimit {
		t.Errorf("kept %d characters", n)
	}
	why := r.Why()
	if len(why) != 2 || len([]rune(why[0])) != WhyWidth || !strings.HasSuffix(why[0], "…") || why[1] != "evidence: /x" {
		t.Errorf("why %q", why)
	}
	var ids []string
	for _, r := range Sorted([]Row{{ID: "b", AsMeant: true}, {ID: "a", AsMeant: true}, {ID: "c"}}) {
		ids = append(ids, r.ID)
	}
	if !slices.Equal(ids, []string{"c", "a", "b"}) {
		t.Error("sorted: not as meant first, then by ID")
	}
}

// An INCONCLUSIVE says why in one line: no bundle, a harness fault, or
// its first check that could not be judged; other outcomes say nothing.
func TestAnInconclusiveSaysWhyInOneLine(t *testing.T) {
	byID := map[string]Row{}
	for _, r := range sample() {
		byID[r.ID] = r
	}
	for id, want := range map[string]string{
		"D-unjudged":  "evidence_missing state[agent]: no state was read",
		"E-fault":     "harness fault: open the start page: net::ERR_CONNECTION_REFUSED",
		"H-unwritten": "no bundle: write /ev/run/H-unwritten/trace.json: no space left on device",
	} {
		if got := byID[id].Cause(); got != want {
			t.Errorf("%s: %q, want %q", id, got, want)
		}
	}
	for _, r := range sample() {
		if r.Outcome != vocab.Inconclusive && r.Error == "" && r.Cause() != "" {
			t.Errorf("%s (%s) gives a cause: %q", r.ID, r.Outcome, r.Cause())
		}
	}
}
