package results

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentready/agentready/scenarios/judge"
)

// CoverageFile is the run's coverage of the agent surface, in its folder.
const CoverageFile = "coverage.json"

// Coverage is a run's coverage of the agent surface (issue 44): the union
// of its scenarios' surfaces (judge.Surface), a thing's way covered when
// any run of any scenario covered it. A function of rows, as the page is.
type Coverage struct {
	Measures []MeasureCoverage `json:"measures"`
	// Items are every thing and way, uncovered first, each with the
	// scenarios that covered it or, when none did, the one that came
	// closest (touched it without covering it) and why.
	Items []CoverageItem `json:"items"`
}

// MeasureCoverage is how much of one measure the run covered.
type MeasureCoverage struct {
	Measure judge.Measure `json:"measure"`
	Covered int           `json:"covered"`
	Total   int           `json:"total"`
}

// Percent is the share covered, 100 when there was nothing to cover.
func (m MeasureCoverage) Percent() float64 {
	if m.Total == 0 {
		return 100
	}
	return 100 * float64(m.Covered) / float64(m.Total)
}

// CoverageItem is one thing and way, over the run.
type CoverageItem struct {
	Measure judge.Measure `json:"measure"`
	Subject string        `json:"subject"`
	Aspect  string        `json:"aspect"`
	Covered bool          `json:"covered"`
	By      []string      `json:"by,omitempty"`      // the scenarios that covered it
	Closest string        `json:"closest,omitempty"` // when none did: the scenario that touched it
	Why     string        `json:"why,omitempty"`     // what that scenario did instead
	// Inapplicable: no scenario found anything this way exercises (a
	// write with no precondition for stale); not counted.
	Inapplicable bool `json:"inapplicable,omitempty"`
}

// CoverageOf is the coverage of rows.
func CoverageOf(rows []Row) Coverage {
	type key struct {
		m               judge.Measure
		subject, aspect string
	}
	byKey := map[key]*CoverageItem{}
	var order []key
	for _, r := range Sorted(rows) {
		for _, it := range r.Surface {
			k := key{it.Measure, it.Subject, it.Aspect}
			c := byKey[k]
			if c == nil {
				c = &CoverageItem{Measure: it.Measure, Subject: it.Subject, Aspect: it.Aspect}
				byKey[k] = c
				order = append(order, k)
			}
			switch {
			case it.Inapplicable:
				// What the thing has nothing for, one run that looked
				// found (a write with no precondition): no run can
				// exercise it, whatever another left unlooked.
				if !c.Covered {
					c.Inapplicable, c.Closest, c.Why = true, "", it.Why
				}
				continue
			case it.Covered:
				c.Inapplicable = false
				c.Covered, c.Closest, c.Why = true, "", ""
				if !slices.Contains(c.By, r.ID) {
					c.By = append(c.By, r.ID)
				}
			case !c.Covered && !c.Inapplicable && c.Closest == "":
				c.Closest, c.Why = r.ID, it.Why
			}
		}
	}
	var out Coverage
	for _, m := range judge.Measures {
		mc := MeasureCoverage{Measure: m}
		for _, k := range order {
			if k.m == m && !byKey[k].Inapplicable {
				mc.Total++
				if byKey[k].Covered {
					mc.Covered++
				}
			}
		}
		out.Measures = append(out.Measures, mc)
	}
	for _, k := range order {
		out.Items = append(out.Items, *byKey[k])
	}
	rank := func(m judge.Measure) int { return slices.Index(judge.Measures, m) }
	slices.SortStableFunc(out.Items, func(a, b CoverageItem) int {
		return cmp.Or(cmp.Compare(boolRank(a.Covered), boolRank(b.Covered)), cmp.Compare(rank(a.Measure), rank(b.Measure)),
			strings.Compare(a.Subject, b.Subject))
	})
	return out
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Uncovered are the items no scenario covered (and that apply).
func (c Coverage) Uncovered() []CoverageItem {
	return slices.DeleteFunc(slices.Clone(c.Items), func(it CoverageItem) bool { return it.Covered || it.Inapplicable })
}

// Line is the coverage in one line: each measure covered of its total.
func (c Coverage) Line() string {
	var parts []string
	for _, m := range c.Measures {
		parts = append(parts, fmt.Sprintf("%s %d/%d", m.Measure, m.Covered, m.Total))
	}
	return "coverage of the agent surface: " + strings.Join(parts, " · ")
}

// Below names each measure under floor percent ("" when none is).
func (c Coverage) Below(floor float64) string {
	var low []string
	for _, m := range c.Measures {
		if p := m.Percent(); p < floor {
			low = append(low, fmt.Sprintf("%s %.0f%% (%d of %d)", m.Measure, math.Floor(p), m.Covered, m.Total))
		}
	}
	return strings.Join(low, ", ")
}

// Write writes coverage.json into dir.
func (c Coverage) Write(dir string) error {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, CoverageFile), append(data, '\n'), 0o644)
}

// GapLine is how an item is written in a list of known gaps: "measure |
// subject | aspect".
func (it CoverageItem) GapLine() string {
	return string(it.Measure) + " | " + it.Subject + " | " + it.Aspect
}

// ReadGaps reads a list of known gaps: a gap's line each, blank lines and
// lines starting with # left out.
func ReadGaps(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out, nil
}

// WriteGaps writes c's gaps as a list of known gaps, under a header.
func (c Coverage) WriteGaps(path, header string) error {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(header), "\n") {
		b.WriteString("# " + line + "\n")
	}
	for _, it := range c.Uncovered() {
		b.WriteString(it.GapLine() + "\n")
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// Ratchet holds c to a list of known gaps: gaps not in the list are
// coverage lost (a scenario removed, a look untied), and listed gaps now
// covered must leave the list, so that it only shrinks toward none.
func (c Coverage) Ratchet(known []string) (lost []CoverageItem, closed []string) {
	open := map[string]bool{}
	for _, it := range c.Uncovered() {
		open[it.GapLine()] = true
		if !slices.Contains(known, it.GapLine()) {
			lost = append(lost, it)
		}
	}
	for _, k := range known {
		if !open[k] {
			closed = append(closed, k)
		}
	}
	return lost, closed
}
