package scenarios

import "github.com/agentready/agentready/internal/data/record"

// ReachExpect is which tools the top document's own script can reach: a
// tool of the top document or of a same-origin frame always (getTools()
// lists it); a cross-origin frame's only when the frame registered it with
// exposedTo naming the top origin, in an iframe that allows "tools"
// (measured on Chromium 156: docs/decisions/2026-12-07-reachability.md). A
// browser-side agent (WebMCP over the protocol) reaches every registered
// tool; this is about the page's own.
type ReachExpect struct {
	// Each must be offered to the top document, else tool_not_offered.
	Offered []ToolRef `yaml:"offered,omitempty" json:"offered,omitempty" examples:"[[{tool: get_order}]]"`
	// None may be offered to the top document, nor run at all, else
	// tool_offered.
	NotOffered []ToolRef `yaml:"not_offered,omitempty" json:"not_offered,omitempty" examples:"[[{tool: prepare_payment, frame: /pay/widget}]]"`
}

// ToolRef names a tool as the record does: its name, and the frame that
// registered it when it matters.
type ToolRef struct {
	// The tool's name, as the page registers it.
	Tool string `yaml:"tool" json:"tool" jsonschema:"required" examples:"[prepare_payment]"`
	// The frame whose tool it is, by the start of its document's URL
	// (http://…) or path (/…); without it, a tool of that name in any
	// frame. (Not a CSS selector: the judge reads the record, where each
	// tool keeps its document's URL.)
	Frame string `yaml:"frame,omitempty" json:"frame,omitempty" examples:"[/pay/widget]"`
}

// Tools answers the catalog's tools the reference names.
func (r ToolRef) Tools(c record.Catalog) record.Catalog {
	var out record.Catalog
	for _, t := range c {
		if t.Name == r.Tool && (r.Frame == "" || record.FrameURLMatches(r.Frame, t.Frame)) {
			out = append(out, t)
		}
	}
	return out
}

// validateReach refuses a reach expectation that says nothing or names a
// frame the judge cannot read.
func (sc Scenario) validateReach(p *problems) {
	e := sc.Expect.Reach
	if e == nil {
		return
	}
	if len(e.Offered) == 0 && len(e.NotOffered) == 0 {
		p.bad(pathOf("expect", "reach"), "says nothing: give offered or not_offered")
	}
	for name, list := range map[string][]ToolRef{"offered": e.Offered, "not_offered": e.NotOffered} {
		for i, r := range list {
			key := pathOf("expect", "reach", name, i)
			if r.Tool == "" {
				p.bad(key.key("tool"), "missing")
			}
			if r.Frame == "" {
				continue
			}
			switch kind, err := record.ParseFrame(r.Frame); {
			case err != nil:
				p.bad(key.key("frame"), "%v", err)
			case kind == record.FrameSelector:
				p.bad(key.key("frame"), "%q is a CSS selector; here a frame is the start of its document's URL (http://…) or path (/…), which the record keeps for each tool", r.Frame)
			}
		}
	}
}
