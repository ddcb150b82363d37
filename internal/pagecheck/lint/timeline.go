package lint

import (
	"fmt"
)

// The registration timeline's rules read the order in which the top
// document's tools came and went and its load event fired
// (toollist.Timeline): which came first, and how often a tool left, neither
// of which a busy machine changes. playwright-webmcp's third timeline rule,
// tools-register-late (the first tool later than 3 s after navigation), is
// not checked: it is a duration, and the listing watches in real time, so
// a slow machine would make it (docs/decisions/2026-12-07-the-anchors-rules.md).

// toolsAfterLoad finds the tools whose first registration came after the
// load event had ended.
func toolsAfterLoad(p *page) []Finding {
	tl := p.timeline
	if tl == nil || !tl.Loaded {
		return nil
	}
	var out []Finding
	seen := map[string]bool{}
	for _, g := range tl.Registrations {
		if g.Removed || seen[g.Tool] {
			continue
		}
		seen[g.Tool] = true
		if g.AfterLoad {
			out = append(out, Finding{Tool: g.Tool,
				Message: "it was registered only after the page's load event: an agent that reads the page once it has loaded does not see it"})
		}
	}
	return out
}

// toolChurn finds the tools the top document unregistered ChurnCount times
// or more.
func toolChurn(p *page) []Finding {
	if p.timeline == nil {
		return nil
	}
	removals := map[string]int{}
	var order []string
	for _, g := range p.timeline.Registrations {
		if !g.Removed {
			continue
		}
		if removals[g.Tool] == 0 {
			order = append(order, g.Tool)
		}
		removals[g.Tool]++
	}
	var out []Finding
	for _, name := range order {
		if n := removals[name]; n >= ChurnCount {
			out = append(out, Finding{Tool: name,
				Message: fmt.Sprintf("it was unregistered %d times while the page was read (%d or more is churn): every removal fires toolchange, and an agent mid-task finds its tool gone", n, ChurnCount)})
		}
	}
	return out
}
