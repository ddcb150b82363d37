package results

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/agentready/agentready/scenarios/vocab"
)

// RunName is the bundle folder of run n of a scenario played k > 1 times
// (agentready run --runs k): <id>.run-<n>, beside the other scenarios'.
func RunName(id string, n int) string { return fmt.Sprintf("%s.run-%d", id, n) }

// Folder is the row's bundle folder's name in its run folder: the ID, or
// RunName of its run when it is one of several.
func (r Row) Folder() string {
	if r.Run > 0 {
		return RunName(r.ID, r.Run)
	}
	return r.ID
}

// Repeat is a scenario played k times, each on a fresh page: pass^k holds
// when every run is as meant, pass@k when one is. "As meant" is the
// verdict the scenario means to reach (judge.AsMeant): PASS for a
// scenario meant to pass, the known FAIL with its exact codes for a
// known-bad one, whose pass^k then says that the defect was caught in
// every run. A run not made (the run was interrupted) counts as not as
// meant, and so does an INCONCLUSIVE one.
type Repeat struct {
	ID      string   `json:"id"`
	K       int      `json:"k"`       // the runs asked for
	Made    int      `json:"made"`    // the runs made (rows)
	AsMeant int      `json:"asMeant"` // of them, as meant
	Spread  []Spread `json:"spread,omitempty"`
}

// Spread is how many runs a verdict's outcome or code turned up in.
type Spread struct {
	What string `json:"what"` // an outcome (PASS, FAIL, INCONCLUSIVE) or a code
	Runs int    `json:"runs"`
}

// PassHat is pass^k: every one of the k runs as meant.
func (r Repeat) PassHat() bool { return r.K > 0 && r.AsMeant == r.K }

// PassAt is pass@k: at least one of the k runs as meant.
func (r Repeat) PassAt() bool { return r.AsMeant > 0 }

// Summary words a repeat on one line: "CONF-01.attempt-3: pass^5 = 0,
// pass@5 = 1 (2 of 5 runs as meant)".
func (r Repeat) Summary() string {
	s := fmt.Sprintf("%s: pass^%d = %d, pass@%d = %d (%d of %d runs as meant)", r.ID, r.K, b2i(r.PassHat()), r.K, b2i(r.PassAt()), r.AsMeant, r.K)
	if r.Made < r.K {
		s += fmt.Sprintf("; %d run(s) not made count as not as meant", r.K-r.Made)
	}
	return s
}

// Spreads words the spread: "3 of 5 runs: side_effect_before_confirmation".
func (r Repeat) Spreads() []string {
	var out []string
	for _, s := range r.Spread {
		out = append(out, fmt.Sprintf("%d of %d runs: %s", s.Runs, r.K, s.What))
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Repeats gathers the rows of scenarios played more than once (rows with
// a Run), k runs asked for each, in ID order. Outcomes come first in the
// spread, then codes, each by how many runs, then by name.
func Repeats(rows []Row, k int) []Repeat {
	byID := map[string][]Row{}
	for _, r := range rows {
		if r.Run > 0 {
			byID[r.ID] = append(byID[r.ID], r)
		}
	}
	var out []Repeat
	for _, id := range slices.Sorted(maps.Keys(byID)) {
		runs := byID[id]
		rep := Repeat{ID: id, K: max(k, len(runs)), Made: len(runs)}
		outcomes, codes := map[string]int{}, map[string]int{}
		for _, r := range runs {
			if r.verdictAsMeant() {
				rep.AsMeant++
			}
			outcomes[string(cmp.Or(r.Outcome, vocab.Inconclusive))]++
			for _, c := range slices.Compact(slices.Sorted(slices.Values(r.Codes))) {
				codes[string(c)]++
			}
		}
		rep.Spread = append(spread(outcomes), spread(codes)...)
		out = append(out, rep)
	}
	return out
}

func spread(m map[string]int) []Spread {
	var out []Spread
	for what, n := range m {
		out = append(out, Spread{What: what, Runs: n})
	}
	slices.SortFunc(out, func(a, b Spread) int { return cmp.Or(b.Runs-a.Runs, strings.Compare(a.What, b.What)) })
	return out
}

// PrintRepeats prints each repeat's pass^k and pass@k and its spread, as
// the terminal shows a run of --runs k.
func PrintRepeats(w io.Writer, reps []Repeat) {
	for _, r := range reps {
		fmt.Fprintln(w, r.Summary())
		for _, s := range r.Spreads() {
			fmt.Fprintln(w, "  "+s)
		}
	}
}
