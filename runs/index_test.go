package runs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/bundle"
	"github.com/agentready/agentready/report"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/vocab"
)

// writeTiny writes a bundle of a scenario that only checks the final words.
func writeTiny(t *testing.T, dir, id, final string, known *scenarios.Known) {
	t.Helper()
	sc := scenarios.Scenario{ID: id, Title: "the final words of " + id, Start: "/", Prompt: "p", Known: known,
		Expect: scenarios.Expect{Answer: &scenarios.AnswerExpect{MustMention: []string{"done"}}}}
	ev := &scenarios.Evidence{ScenarioID: id, Final: &final, Calls: []scenarios.CallRecord{}}
	start := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	b, err := bundle.Seal(bundle.Meta{RunID: "r", Start: start, End: start.Add(620 * time.Millisecond)}, sc, ev)
	if err != nil {
		t.Fatal(err)
	}
	if err := report.Write(filepath.Join(dir, id), b); err != nil {
		t.Fatal(err)
	}
}

func TestTheRunPageSaysTotalsThenFailuresFirst(t *testing.T) {
	dir := t.TempDir()
	writeTiny(t, dir, "A-pass", "done", nil)
	writeTiny(t, dir, "B-known-bad", "nothing", &scenarios.Known{Outcome: vocab.Fail, Codes: []vocab.Code{vocab.AnswerIncomplete}})
	writeTiny(t, dir, "C-broken", "nothing", nil)
	writeTiny(t, dir, "D-spec-asserts", "nothing", nil)
	rows := []Row{
		{ID: "A-pass", Outcome: vocab.Pass, Expected: true, Spec: "passed"},
		{ID: "B-known-bad", Outcome: vocab.Fail, Expected: true, Spec: "passed"},
		{ID: "C-broken", Outcome: vocab.Fail, Expected: false, Spec: "failed"},
		// a spec that runs a scenario to assert its FAIL itself
		{ID: "D-spec-asserts", Outcome: vocab.Fail, Expected: false, Spec: "passed"},
	}
	if err := (Index{RunID: "r", Rows: rows, Specs: &Specs{Passed: 3, Failed: 1}}).Write(dir); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	text := regexp.MustCompile(`\s+`).ReplaceAllString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(page, " "), " ")
	for _, want := range []string{
		"1 PASS · 3 FAIL (2 as expected) · 0 INCONCLUSIVE — specs: 3 passed, 1 failed",
		"1 of 4 scenarios did not reach the verdict expected of them",
		"FAIL, as its spec expects PASS answer_incomplete 0.62 s passed",
		"FAIL, as expected FAIL answer_incomplete answer_incomplete 0.62 s passed",
		"1 check(s) did not pass answer_incomplete answer.must_mention[0]: the final words do not mention",
		// each FAIL says where it departs, and what stays open
		"0.62 s failed evidence departs at: answer — the answer departs first: answer.must_mention[0] — the final words do not mention &#34;done&#34; " +
			"open: not diagnosed: why the answer departs. The record shows where the evidence first departs, not what caused it. " +
			"Nothing conclusive was checked at case, input, trace, page, request, server: the cause may lie there too. 1 check(s) did not pass",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the page lacks %q:\n%s", want, text)
		}
	}
	c, b, a, d := strings.Index(page, `href="C-broken/index.html"`), strings.Index(page, `href="B-known-bad/index.html"`), strings.Index(page, `href="A-pass/index.html"`), strings.Index(page, `href="D-spec-asserts/index.html"`)
	if c < 0 || !(c < a && a < b && b < d) {
		t.Errorf("the failure comes first, then the others by ID: C at %d, A at %d, B at %d, D at %d", c, a, b, d)
	}
	if n := strings.Count(text, "departs at: answer"); n != 3 {
		t.Errorf("%d scenarios say where they depart, want the 3 FAILs", n)
	}
	if strings.Contains(page, "<script") || !strings.Contains(page, `content="default-src 'none'; style-src 'unsafe-inline'"`) {
		t.Error("the run page must run no script, under its CSP")
	}
	if !regexp.MustCompile(`<td class="meant"><strong>FAIL, as expected</strong>`).MatchString(page) {
		t.Error("a known-bad case that reached its FAIL is not shown as a failure")
	}
	if !regexp.MustCompile(`<tr class="bad"><td><a href="C-broken/index.html">`).MatchString(page) {
		t.Error("the scenario that missed its verdict is marked")
	}
}

func TestARowWithoutItsBundleSaysSo(t *testing.T) {
	x := Index{RunID: "r", Rows: []Row{{ID: "gone", Outcome: vocab.Inconclusive}}}.Fill(t.TempDir())
	if !strings.HasPrefix(x.Rows[0].Missing, "no bundle: ") {
		t.Errorf("missing: %q", x.Rows[0].Missing)
	}
}

// The terminal's lines name the link each FAIL departs at, read from its bundle.
func TestPrintVerdictsSaysWhereAFailDeparts(t *testing.T) {
	dir := t.TempDir()
	writeTiny(t, dir, "A-pass", "done", nil)
	writeTiny(t, dir, "C-broken", "nothing", nil)
	var out strings.Builder
	PrintVerdicts(&out, dir, []Row{{ID: "A-pass", Outcome: vocab.Pass, Expected: true}, {ID: "C-broken", Outcome: vocab.Fail}})
	lines := strings.Split(out.String(), "\n")
	if len(lines) < 4 || !strings.HasSuffix(lines[2], "C-broken                     NOT as meant  departs at answer") ||
		!strings.HasSuffix(lines[3], "A-pass                       as meant") {
		t.Errorf("the lines:\n%s", out.String())
	}
}
