package crawl

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/agentready/agentready/internal/pagecheck/lint"
)

// Readiness is how ready a page, or a site, is for an agent, as counts that
// trace back to their findings: of the lint rules that ran, how many found
// nothing, and for each rule that found something, its severity, how many
// findings and on which pages. No weights and no score: a reader sees what
// each figure is made of.
type Readiness struct {
	Pages          int           `json:"pages"`          // pages read
	PagesWithTools int           `json:"pagesWithTools"` // of them, pages that offer a tool
	Tools          int           `json:"tools"`          // distinct tools (frame and name) offered
	RulesRun       int           `json:"rulesRun"`
	RulesClean     int           `json:"rulesClean"` // rules that found nothing anywhere
	Failing        []RuleFinding `json:"failing"`    // the rest, gravest first
	Drifting       int           `json:"drifting"`   // tools whose description, schema or annotations drift
}

// RuleFinding is one rule's findings across the pages it found them on.
type RuleFinding struct {
	Rule     string        `json:"rule"`
	Severity lint.Severity `json:"severity"`
	Findings int           `json:"findings"`
	Pages    []string      `json:"pages"`
}

// ReadinessOf sums pages (one page: that page's readiness) under the rules
// that ran (c as given to lint), and the drift among them.
func ReadinessOf(pages []Page, drift []Drift, c lint.Config) Readiness {
	r := Readiness{Failing: []RuleFinding{}}
	tools := map[string]bool{}
	byRule := map[string]*RuleFinding{}
	for _, p := range pages {
		if p.Error != "" {
			continue
		}
		r.Pages++
		if len(p.Tools) > 0 {
			r.PagesWithTools++
		}
		for _, t := range p.Tools {
			tools[identity(t)] = true
		}
		for _, f := range p.Findings {
			rf := byRule[f.Rule]
			if rf == nil {
				rf = &RuleFinding{Rule: f.Rule, Severity: f.Severity}
				byRule[f.Rule] = rf
			}
			rf.Findings++
			if !slices.Contains(rf.Pages, p.URL) {
				rf.Pages = append(rf.Pages, p.URL)
			}
		}
	}
	r.Tools = len(tools)
	if r.Pages > 0 { // no page read: no rule ran anywhere, and none is clean
		r.RulesRun = len(lint.RulesOn(c))
	}
	for _, rf := range byRule {
		r.Failing = append(r.Failing, *rf)
	}
	slices.SortFunc(r.Failing, func(a, b RuleFinding) int {
		return cmp.Or(b.Severity.Rank()-a.Severity.Rank(), strings.Compare(a.Rule, b.Rule))
	})
	r.RulesClean = max(0, r.RulesRun-len(r.Failing))
	drifting := map[string]bool{}
	for _, d := range drift {
		drifting[d.Tool] = true
	}
	r.Drifting = len(drifting)
	return r
}

// String is the readiness in one line, each figure named.
func (r Readiness) String() string {
	var failing []string
	for _, f := range r.Failing {
		failing = append(failing, fmt.Sprintf("%s %s ×%d on %d page(s)", f.Rule, f.Severity, f.Findings, len(f.Pages)))
	}
	s := fmt.Sprintf("%d of %d page(s) offer tools (%d tool(s)); %d of %d lint rules clean", r.PagesWithTools, r.Pages, r.Tools, r.RulesClean, r.RulesRun)
	if len(failing) > 0 {
		s += "; failing: " + strings.Join(failing, ", ")
	}
	return s + fmt.Sprintf("; %d drifting tool(s)", r.Drifting)
}
