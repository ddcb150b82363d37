package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// link ties every check to the rows that show the evidence it names
// (judge.Check.Evidence), and every row to its checks. Nothing here reads a
// check's ID: the judge said what each check used where it decided.
func (t *timeline) link() {
	byRef := map[scenarios.Ref][]int{}
	for i, r := range t.rows {
		for _, ref := range r.refs {
			byRef[ref] = append(byRef[ref], i)
		}
	}
	t.checks = make([][]int, len(t.b.Verdict.Checks))
	for ci, c := range t.b.Verdict.Checks {
		seen := map[int]bool{}
		for _, ref := range c.Evidence {
			for _, i := range byRef[ref] {
				if !seen[i] {
					seen[i] = true
					t.checks[ci] = append(t.checks[ci], t.rows[i].N)
					t.rows[i].Checks = append(t.rows[i].Checks, ci)
				}
			}
		}
		slices.Sort(t.checks[ci])
	}
}

// pageRead is the page as the harness read it after a phase: the elements
// the expectations name, and where the page was.
func (t *timeline) pageRead(p vocab.Phase) []untimed {
	var out []untimed
	if row, ok := t.uiRow(p); ok {
		out = append(out, untimed{rows: []Row{row}})
	}
	if url, ok := t.ev.Pages[p]; ok {
		r := Row{Kind: RowPage, Who: "harness", What: "the page " + phaseWords[p] + " is at " + url, File: bundle.RunFile,
			refs: []scenarios.Ref{scenarios.PageRef(p)}}
		if url == "" {
			r.What, r.Bad = "the page's URL "+phaseWords[p]+" could not be read", true
		}
		out = append(out, untimed{rows: []Row{r}})
	}
	return out
}

// dialogRows list the JavaScript dialogs the page opened, each with its
// phase and how the harness answered it.
func (t *timeline) dialogRows() {
	for i, d := range t.ev.Dialogs {
		answer := "dismissed"
		if d.Accepted {
			answer = "accepted"
		}
		t.add(Row{Phase: vocab.PhaseEnd, Kind: RowDialog, Who: "page", What: fmt.Sprintf("%s dialog in the %s phase, %s", d.Kind, d.Phase, answer),
			Detail: d.Message, Bad: d.Error != "", File: bundle.RunFile, refs: []scenarios.Ref{scenarios.DialogRef(i)}})
	}
}

// popupRows list the windows the page opened: where, in which phase, from
// which window, and how each ended.
func (t *timeline) popupRows() {
	for i, p := range t.ev.Popups {
		what := "a window opened: " + p.Describe()
		if !p.OpenerReach {
			what += ", without a way back to its opener"
		}
		t.add(Row{Phase: vocab.PhaseEnd, Kind: RowPopup, Who: "page", What: what, Detail: strings.Join(p.Tools.Names(), ", "),
			Bad: p.Error != "", File: bundle.RunFile, refs: []scenarios.Ref{scenarios.PopupRef(i)}})
	}
}

// faultRows close the timeline with the harness's own failures: the run
// cut short, then each fault. They have no time of their own; the rows
// they left out say where.
func (t *timeline) faultRows() {
	if c := t.ev.Cut; c != "" {
		t.add(Row{Phase: vocab.PhaseEnd, Kind: RowFault, Who: "harness", What: "the run was cut short: " + string(c), Bad: true,
			Detail: vocab.Codes[c].Meaning, File: bundle.RunFile, refs: []scenarios.Ref{scenarios.CutRef()}})
	}
	for i, f := range t.ev.Faults {
		// A fault with a place shows in its phase's rows.
		t.add(Row{Phase: cmp.Or(f.From, vocab.PhaseEnd), Kind: RowFault, Who: "harness", What: fmt.Sprintf("harness fault %d", i+1), Detail: f.Text, Bad: true,
			File: bundle.RunFile, refs: []scenarios.Ref{scenarios.FaultRef(i)}})
	}
}

// raw is a recorded value as text, whole: a string as it is, anything else
// as JSON. The page shows a bounded excerpt of it (Show).
func raw(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case json.RawMessage:
		return string(v)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
