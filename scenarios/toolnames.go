package scenarios

import (
	"fmt"
	"slices"
)

// pinnedTools are the tools the scenario says a page offers: the start
// page's (catalog.exactly, or the contract's tools) and those a call
// brings (catalog_after.present). nil when the scenario pins no catalog.
func (sc Scenario) pinnedTools() []string {
	c := sc.Expect.Catalog
	if c == nil || (c.Exactly == nil && c.Contract == nil) {
		return nil
	}
	tools := slices.Clone([]string(c.Exactly))
	if c.Contract != nil {
		for _, t := range c.Contract.Contract.Tools {
			tools = append(tools, t.Name)
		}
	}
	for _, calls := range [][]Call{sc.Agent.Calls, stepCalls(sc.Setup), stepCalls(sc.Human)} {
		for _, call := range calls {
			if call.Expect != nil && call.Expect.CatalogAfter != nil {
				tools = append(tools, call.Expect.CatalogAfter.Present...)
			}
		}
	}
	slices.Sort(tools)
	return slices.Compact(tools)
}

func stepCalls(steps []Step) []Call {
	var out []Call
	for _, s := range steps {
		if s.Call != nil {
			out = append(out, *s.Call)
		}
	}
	return out
}

// checkToolNames catches a tool name mistyped where the scenario pins the
// catalog (catalog.exactly or a contract): a name of a call, a step, a
// schema or an annotation that is not on the page but is a letter or two
// from a tool that is. A name far from every tool may be meant to be
// absent (a known-bad transcript calls one on purpose), and so may one
// whose call expects not_in_catalog.
func (sc Scenario) checkToolNames(p *problems) {
	tools := sc.pinnedTools()
	if tools == nil {
		return
	}
	check := func(at keyPath, name string, onKey bool) {
		if name == "" || slices.Contains(tools, name) {
			return
		}
		if near, ok := nearest(name, tools); ok {
			msg := fmt.Sprintf("tool %q is not on the page (%s); did you mean %s?", name, pinnedBy(sc.Expect.Catalog), near)
			if onKey {
				p.badKey(at, "%s", msg)
			} else {
				p.bad(at, "%s", msg)
			}
		}
	}
	callNames := func(at keyPath, c Call) {
		if c.Expect == nil || !c.Expect.NotInCatalog {
			check(at.key("tool"), c.Tool, false)
		}
		if c.Expect != nil && c.Expect.CatalogAfter != nil {
			for i, t := range c.Expect.CatalogAfter.Absent {
				check(at.key("expect").key("catalog_after").key("absent").index(i), t, false)
			}
		}
	}
	for i, c := range sc.Agent.Calls {
		callNames(pathOf("agent", "calls", i), c)
	}
	for key, steps := range map[string][]Step{"setup": sc.Setup, "human": sc.Human} {
		for i, s := range steps {
			if s.Call != nil {
				callNames(pathOf(key, i, "call"), *s.Call)
			}
			check(pathOf(key, i, "wait_tool"), s.WaitTool, false)
		}
	}
	if e := sc.Expect.Case; e != nil {
		check(pathOf("expect", "case", "tool"), e.Tool, false)
	}
	c := sc.Expect.Catalog
	for key, m := range map[string][]string{"schemas": keys(c.Schemas), "autosubmit": keys(c.Autosubmit), "read_only": keys(c.ReadOnly), "schema_match": keys(c.SchemaMatch.ByTool)} {
		for _, name := range m {
			check(pathOf("expect", "catalog", key, name), name, true)
		}
	}
}

func pinnedBy(c *CatalogExpect) string {
	if c.Exactly != nil {
		return "expect.catalog.exactly"
	}
	return "expect.catalog.contract"
}
