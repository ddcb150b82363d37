package judge

import (
	"fmt"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Explain renders a verdict for people: the outcome, then every check that
// did not pass with its source, code, expectation and what was seen.
func Explain(v Verdict) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s %v (%d checks, %d not passed)\n", v.ScenarioID, v.Outcome, v.Codes, len(v.Checks), len(v.Failed()))
	if d := v.Diagnosis; d != nil {
		fmt.Fprintf(&b, "  departs at: %s (held: %s; unseen: %s; later: %s)\n      %s\n      open: %s\n",
			d.Link, orNone(d.Held), orNone(d.Unseen), orNone(d.Later), d.Summary, d.Open)
	}
	for _, c := range v.Checks {
		if c.ID == attackCheckID && c.Status == vocab.CheckPass {
			fmt.Fprintf(&b, "  under attack: %s\n", c.Message) // what followed the planted text, whatever the verdict
		}
	}
	for _, c := range v.Failed() {
		fmt.Fprintf(&b, "  ✗ [%s] %s %s: %s\n", c.Source, strings.ToUpper(string(c.Status)), c.ID, c.Code)
		if c.Message != "" && len(c.Differences) > 0 {
			// The differences are the message's substance: one a line, all of them.
			fmt.Fprintf(&b, "      %s:\n", strings.TrimSuffix(c.Message, ": "+record.DiffText(c.Differences, diffLimit)))
			for _, d := range c.Differences {
				fmt.Fprintf(&b, "        %s\n", d)
			}
			continue
		}
		if c.Message != "" {
			fmt.Fprintf(&b, "      %s\n", c.Message)
		}
		if c.Expected != nil {
			fmt.Fprintf(&b, "      expected: %s\n", short(c.Expected))
		}
		if c.Actual != nil {
			fmt.Fprintf(&b, "      actual:   %s\n", short(c.Actual))
		}
	}
	for _, s := range v.Skipped {
		fmt.Fprintf(&b, "  – SKIPPED %s: %s\n", s.ID, s.Reason)
	}
	return b.String()
}

func short(v any) string {
	s := compactJSON(record.Normalize(v))
	if r := []rune(s); len(r) > 300 {
		s = string(r[:300]) + fmt.Sprintf("… (%d characters)", len(r))
	}
	return s
}
