package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

func runRow(id string, n int, o vocab.Outcome, meant scenarios.Known, asMeant bool, codes ...vocab.Code) Row {
	return Row{ID: id, Run: n, Outcome: o, Codes: codes, Meant: meant, AsMeant: asMeant, Bundle: RunName(id, n), Seconds: 1}
}

// pass^k counts runs as meant: for a scenario meant to pass, its PASSes;
// for a known-bad one, its known FAILs (the defect caught each time). An
// INCONCLUSIVE run, or a run not made, is not as meant.
func TestPassHatAndPassAtCountRunsAsMeant(t *testing.T) {
	pass := scenarios.Known{Outcome: vocab.Pass}
	bad := scenarios.Known{Outcome: vocab.Fail, Codes: []vocab.Code{vocab.DeclarativeCompletionMissing}}
	side := vocab.SideEffectBeforeConfirmation
	rows := []Row{
		runRow("A", 1, vocab.Pass, pass, true), runRow("A", 2, vocab.Fail, pass, false, side, vocab.WriteAttempt),
		runRow("A", 3, vocab.Fail, pass, false, side), runRow("A", 4, vocab.Pass, pass, true), runRow("A", 5, vocab.Fail, pass, false, side),
		runRow("B", 1, vocab.Fail, bad, true, vocab.DeclarativeCompletionMissing), runRow("B", 2, vocab.Fail, bad, true, vocab.DeclarativeCompletionMissing),
		runRow("C", 1, vocab.Pass, pass, true), runRow("C", 2, vocab.Inconclusive, pass, false, vocab.HarnessFault),
		runRow("D", 1, vocab.Pass, pass, true),
		{ID: "single", Outcome: vocab.Pass, Meant: pass, AsMeant: true},
	}
	reps := Repeats(rows, 0)
	if len(reps) != 4 {
		t.Fatalf("repeats %+v", reps)
	}
	a, b, c := reps[0], reps[1], reps[2]
	if a.PassHat() || !a.PassAt() || a.AsMeant != 2 || a.K != 5 || a.Summary() != "A: pass^5 = 0, pass@5 = 1 (2 of 5 runs as meant)" {
		t.Errorf("A: %+v %q", a, a.Summary())
	}
	if got := strings.Join(a.Spreads(), "; "); got != "3 of 5 runs: FAIL; 2 of 5 runs: PASS; 3 of 5 runs: side_effect_before_confirmation; 1 of 5 runs: write_attempt" {
		t.Errorf("A's spread: %s", got)
	}
	if !b.PassHat() || !b.PassAt() {
		t.Errorf("a known-bad scenario caught in every run: %+v", b)
	}
	if c.PassHat() || !c.PassAt() {
		t.Errorf("an INCONCLUSIVE run: %+v", c)
	}
	// D was asked 3 runs and made 1 (interrupted): not pass^3.
	if d := Repeats(rows, 3)[3]; d.PassHat() || d.K != 3 || !strings.Contains(d.Summary(), "2 run(s) not made") {
		t.Errorf("runs not made: %+v %q", d, d.Summary())
	}

	path := filepath.Join(t.TempDir(), "junit.xml")
	if err := WriteRunsJUnit(rows, 0, path); err != nil {
		t.Fatal(err)
	}
	x, _ := os.ReadFile(path)
	s := string(x)
	if n := strings.Count(s, "<testcase "); n != 5 {
		t.Errorf("%d testcases, want one per scenario (5):\n%s", n, s)
	}
	for _, want := range []string{`<property name="pass^5" value="0">`, `<property name="pass@5" value="1">`, `<property name="spread side_effect_before_confirmation" value="3 of 5">`,
		`<failure message="A: pass^5 = 0`, `<property name="pass^2" value="1">`, `tests="5" disabled="0" skipped="0" errors="0" failures="2"`} {
		if !strings.Contains(s, want) {
			t.Errorf("junit lacks %s:\n%s", want, s)
		}
	}
}

// The page gives pass^k and pass@k with the spread, and links each run's
// own bundle.
func TestThePageShowsTheRuns(t *testing.T) {
	pass := scenarios.Known{Outcome: vocab.Pass}
	rows := []Row{runRow("A", 1, vocab.Pass, pass, true), runRow("A", 2, vocab.Fail, pass, false, vocab.SideEffectBeforeConfirmation)}
	dir := t.TempDir()
	if err := (Page{RunID: "r", Rows: rows, Runs: 2}).Write(dir); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, PageFile))
	for _, want := range []string{"pass^2", "pass@2", "1 of 2 runs: side_effect_before_confirmation", `href="A.run-2/index.html"`, "1 of 2"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if err := (Page{RunID: "r", Rows: []Row{{ID: "A", Outcome: vocab.Pass, Meant: pass, AsMeant: true}}}).Write(dir); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(filepath.Join(dir, PageFile))
	if strings.Contains(string(data), "pass^") || !strings.Contains(string(data), `href="A/index.html"`) {
		t.Error("a run of one shows runs, or links elsewhere than the scenario's bundle")
	}
}
