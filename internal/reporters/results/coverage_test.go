package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentready/agentready/scenarios/judge"
)

func surfaceRow(id string, items ...judge.SurfaceItem) Row {
	return Row{ID: id, Outcome: "PASS", Surface: items}
}

// A thing's way is covered when any scenario covered it; one none covered
// names the scenario that came closest and why. Known bad: the one
// scenario that covered it removed, the item is uncovered and counted so.
func TestCoverageIsTheUnionOfTheScenariosSurfaces(t *testing.T) {
	write := func(kind string, covered bool, why string) judge.SurfaceItem {
		return judge.SurfaceItem{Measure: judge.MeasureWrites, Subject: "POST /api/tips", Aspect: kind, Covered: covered, Why: why}
	}
	look := judge.SurfaceItem{Measure: judge.MeasureLooks, Subject: "human · #seats", Aspect: judge.AspectTied, Why: "no text_contains_state"}
	rows := []Row{
		surfaceRow("B", write("no_session", false, "replays were off"), look),
		surfaceRow("A", write("no_session", true, ""), write("race", false, "skipped: no state")),
	}
	c := CoverageOf(rows)
	want := map[judge.Measure][2]int{judge.MeasureWrites: {1, 2}, judge.MeasureLooks: {0, 1}, judge.MeasureTools: {0, 0}}
	for _, m := range c.Measures {
		if w, ok := want[m.Measure]; ok && (m.Covered != w[0] || m.Total != w[1]) {
			t.Errorf("%s: %d of %d, want %d of %d", m.Measure, m.Covered, m.Total, w[0], w[1])
		}
	}
	un := c.Uncovered()
	if len(un) != 2 || un[0].Measure != judge.MeasureWrites || un[0].Closest != "A" || un[0].Why != "skipped: no state" || un[1].Closest != "B" {
		t.Errorf("uncovered %+v", un)
	}
	if got := c.Line(); got != "coverage of the agent surface: tools 0/0 · writes 1/2 · forms 0/0 · looks 0/1 · cancels 0/0" {
		t.Errorf("line %q", got)
	}
	if got := c.Below(50); got != "looks 0% (0 of 1)" {
		t.Errorf("below 50: %q", got)
	}
	if got := c.Below(100); !strings.Contains(got, "writes 50%") {
		t.Errorf("below 100: %q", got)
	}
	// Known bad: without A, no_session is not covered.
	c = CoverageOf(rows[:1])
	if c.Measures[1].Covered != 0 || c.Uncovered()[0].Closest != "B" {
		t.Errorf("without A: %+v", c)
	}
	dir := t.TempDir()
	p := Page{RunID: "r", Rows: rows}
	if err := p.Write(dir); err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(filepath.Join(dir, PageFile))
	if !strings.Contains(string(html), "Coverage of the agent surface") || !strings.Contains(string(html), "2 not covered") {
		t.Errorf("the page leaves the coverage out")
	}
	if err := p.Coverage().Write(dir); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(dir, CoverageFile)); err != nil || !strings.Contains(string(data), `"closest": "A"`) {
		t.Errorf("coverage.json: %s %v", data, err)
	}
}

// An item inapplicable in every scenario is not counted; covered in one,
// it counts as covered.
func TestAnInapplicableItemIsNotCounted(t *testing.T) {
	na := judge.SurfaceItem{Measure: judge.MeasureWrites, Subject: "POST /api/x", Aspect: "stale", Inapplicable: true, Why: "no precondition"}
	c := CoverageOf([]Row{surfaceRow("A", na)})
	if m := c.Measures[1]; m.Total != 0 || len(c.Uncovered()) != 0 {
		t.Errorf("inapplicable counted: %+v %+v", m, c.Uncovered())
	}
	// Found inapplicable by one run, left unlooked by another: still
	// nothing to exercise.
	gap := na
	gap.Inapplicable, gap.Why = false, "not replayed"
	if c := CoverageOf([]Row{surfaceRow("A", gap), surfaceRow("B", na)}); c.Measures[1].Total != 0 {
		t.Errorf("inapplicable in one run, a gap in another: %+v", c.Measures[1])
	}
	covered := na
	covered.Inapplicable, covered.Covered = false, true
	c = CoverageOf([]Row{surfaceRow("A", na), surfaceRow("B", covered)})
	if m := c.Measures[1]; m.Total != 1 || m.Covered != 1 {
		t.Errorf("covered elsewhere: %+v", m)
	}
}

// The gate on our own app: a gap not in the list fails it (a scenario
// removed loses what only it covered), and a listed gap now covered must
// leave the list.
func TestTheRatchetFailsOnLostCoverageAndOnAListThatDoesNotShrink(t *testing.T) {
	look := judge.SurfaceItem{Measure: judge.MeasureLooks, Subject: "human · #seats", Aspect: judge.AspectTied}
	tied := look
	tied.Covered = true
	all := []Row{surfaceRow("A", look), surfaceRow("B", tied)}
	if lost, closed := CoverageOf(all).Ratchet(nil); len(lost)+len(closed) != 0 {
		t.Errorf("full coverage, no list: lost %v closed %v", lost, closed)
	}
	// Known bad: B, the one scenario that tied the look, removed.
	lost, _ := CoverageOf(all[:1]).Ratchet(nil)
	if len(lost) != 1 || lost[0].Closest != "A" {
		t.Errorf("B removed: lost %+v", lost)
	}
	known := []string{"looks | human · #seats | tied to a state read"}
	if lost, closed := CoverageOf(all[:1]).Ratchet(known); len(lost)+len(closed) != 0 {
		t.Errorf("a known gap: lost %v closed %v", lost, closed)
	}
	if _, closed := CoverageOf(all).Ratchet(known); len(closed) != 1 {
		t.Errorf("a known gap covered: closed %v", closed)
	}
	path := filepath.Join(t.TempDir(), "gaps.txt")
	if err := CoverageOf(all[:1]).WriteGaps(path, "the gaps\nof our app"); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadGaps(path); err != nil || len(got) != 1 || got[0] != known[0] {
		t.Errorf("read back %q %v", got, err)
	}
}
