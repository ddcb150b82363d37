package judge

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

func (j *judge) judgeCase(c *scenarios.CaseExpect) {
	if c == nil {
		return
	}
	cat := scenarios.CatalogRef()
	if j.ev.Catalog == nil {
		j.inconclusive("case.tool", vocab.SrcCase, vocab.EvidenceMissing, c.Tool, nil, "the start page's catalog was not recorded").at(cat)
		return
	}
	tool, ok := j.ev.Catalog.Get(c.Tool)
	if !ok {
		j.inconclusive("case.tool", vocab.SrcCase, vocab.CaseIncomplete, c.Tool, sortedNames(j.ev.Catalog), "the tool the case is about is not in the start page's catalog").at(cat)
		return
	}
	var schema struct {
		Required []string `json:"required"`
	}
	_ = json.Unmarshal(tool.InputSchema, &schema)
	var missing []string
	for _, p := range schema.Required {
		if _, ok := j.sc.PromptData[p]; !ok {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		j.inconclusive("case.prompt", vocab.SrcCase, vocab.CaseIncomplete, schema.Required, keys(j.sc.PromptData),
			fmt.Sprintf("the prompt does not give %s, which %s requires: no agent can do this case right without asking", strings.Join(missing, ", "), c.Tool)).at(cat)
		return
	}
	j.pass("case.prompt", vocab.SrcCase, schema.Required, keys(j.sc.PromptData), "the prompt gives every parameter the tool requires").at(cat)
}

func (j *judge) judgeCatalog(c *scenarios.CatalogExpect) {
	if c == nil {
		return
	}
	cat := scenarios.CatalogRef()
	if j.ev.Catalog == nil {
		j.inconclusive("catalog", vocab.SrcCatalog, vocab.EvidenceMissing, nil, nil, "the start page's catalog was not recorded").at(cat)
		return
	}
	if c.Contract != nil {
		j.judgeContract(c.Contract)
	}
	j.judgeCatalogAgreement(cat)
	if c.Exactly != nil {
		j.judgeExactly(c.Exactly)
	}
	for _, name := range keys(c.Schemas) {
		tool, ok := j.ev.Catalog.Get(name)
		if !ok {
			j.fail("catalog.schemas."+name, vocab.SrcCatalog, vocab.SchemaMismatch, c.Schemas[name], nil, name+" is not in the catalog").at(cat)
			continue
		}
		var got any
		_ = json.Unmarshal(tool.InputSchema, &got)
		mode := c.SchemaMatch.For(name)
		j.expectMatch("catalog.schemas."+name, vocab.SrcCatalog, vocab.SchemaMismatch, c.Schemas[name], got, mode == scenarios.MatchSubset,
			fmt.Sprintf("the input schema of %s (%s)", name, mode), cat)
	}
	j.judgeHint("autosubmit", c.Autosubmit, func(a record.Annotations) bool { return a.Autosubmit })
	j.judgeHint("read_only", c.ReadOnly, func(a record.Annotations) bool { return a.ReadOnly })
}

// judgeExactly checks the start page's tools against the list; an empty
// list expects a page that offers none.
func (j *judge) judgeExactly(exactly []string) {
	want := append([]string{}, exactly...) // never nil: [] is "no tools"
	slices.Sort(want)
	got := sortedNames(j.ev.Catalog) // the order tools registered in is no part of "exactly"
	var missing, extra []string
	// Both sorted: a binary search keeps a page of 2000 tools linear-log
	// (slices.Contains made it n², make bench-scale's tools/judge).
	has := func(names []string, t string) bool { _, ok := slices.BinarySearch(names, t); return ok }
	for _, t := range want {
		if !has(got, t) {
			missing = append(missing, t)
		}
	}
	for _, t := range got {
		if !has(want, t) {
			extra = append(extra, t)
		}
	}
	if slices.Equal(want, got) {
		j.pass("catalog.exactly", vocab.SrcCatalog, want, got, "the start page offers exactly these tools").at(scenarios.CatalogRef())
		return
	}
	why := []string{}
	if len(missing) > 0 {
		why = append(why, "it does not offer "+strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		why = append(why, "it also offers "+strings.Join(extra, ", "))
	}
	if len(why) == 0 {
		why = append(why, "it offers a tool more or fewer times") // the same names, in other numbers (one per frame)
	}
	j.fail("catalog.exactly", vocab.SrcCatalog, vocab.CatalogMismatch, want, got, "the start page offers other tools than expected: "+strings.Join(why, "; ")).at(scenarios.CatalogRef())
}

// judgeHint checks one annotation of each named tool; a tool that is not in
// the catalog fails, whatever value was expected.
func (j *judge) judgeHint(hint string, want map[string]bool, got func(record.Annotations) bool) {
	for _, name := range keys(want) {
		id := "catalog." + hint + "." + name
		tool, ok := j.ev.Catalog.Get(name)
		if !ok {
			j.fail(id, vocab.SrcCatalog, vocab.CatalogMismatch, want[name], nil, name+" is not in the catalog").at(scenarios.CatalogRef())
			continue
		}
		j.expectEqual(id, vocab.SrcCatalog, vocab.CatalogMismatch, want[name], got(tool.Annotations), "the "+hint+" annotation of "+name, scenarios.CatalogRef())
	}
}

// judgeContract holds the start page's catalog to its contract: every
// tool's name, description, schema, annotations and kind.
func (j *judge) judgeContract(ref *scenarios.ContractRef) {
	diffs := ref.Contract.Differences(j.ev.Catalog)
	what := "the tool contract"
	if ref.File != "" {
		what += " " + ref.File
	}
	if len(diffs) == 0 {
		j.pass("catalog.contract", vocab.SrcCatalog, ref.Contract.Names(), sortedNames(j.ev.Catalog), "every tool keeps "+what).at(scenarios.CatalogRef())
		return
	}
	places := "1 place"
	if len(diffs) > 1 {
		places = fmt.Sprintf("%d places", len(diffs))
	}
	diffs = cutSides(diffs)
	j.add(Check{ID: "catalog.contract", Source: vocab.SrcCatalog, Status: vocab.CheckFail, Code: vocab.ContractBroken,
		Expected: ref.Contract.Names(), Actual: sortedNames(j.ev.Catalog), Differences: diffs,
		Message: fmt.Sprintf("the page breaks %s in %s: %s (agentready catalog URL --update-contract FILE rewrites it, on purpose)", what, places, record.DiffText(diffs, diffLimit))}).at(scenarios.CatalogRef())
}

// sortedNames are a catalog's tool names in order: the order tools
// registered in is no part of what the judge holds them to.
func sortedNames(c record.Catalog) []string {
	names := c.Names()
	slices.Sort(names)
	return names
}

// judgeCatalogAgreement holds the protocol's catalog to getTools(). The
// tools of a frame whose own getTools() never settled are left out of the
// comparison (the browser's hang, not the page's: issue 43 item 2); what
// is left must agree, and when nothing else differs the check is
// INCONCLUSIVE, naming the frames.
func (j *judge) judgeCatalogAgreement(cat scenarios.Ref) {
	if j.ev.PageTools == nil {
		j.inconclusive("catalog.agreement", vocab.SrcCatalog, vocab.EvidenceMissing, nil, nil, "what getTools() answered was not recorded").at(cat)
		return
	}
	hung := j.ev.PageToolsHung
	rest := slices.DeleteFunc(slices.Clone(j.ev.Catalog), func(t record.Tool) bool { return slices.Contains(hung, t.FrameID) })
	switch err := record.Disagreement(rest, j.ev.PageTools); {
	case err != nil:
		j.fail("catalog.agreement", vocab.SrcCatalog, vocab.EvidenceDisagrees, nil, nil, err.Error()).at(cat)
	case len(rest) < len(j.ev.Catalog):
		j.inconclusive("catalog.agreement", vocab.SrcCatalog, vocab.HarnessFault, nil, hung,
			fmt.Sprintf("getTools() in %d same-origin frame(s) never settled when asked (a Chromium hang), and the top document's left their tools out: whether the page API lists %s is unknown; the other tools agree",
				len(hung), strings.Join(toolNames(j.ev.Catalog, hung), ", "))).at(cat)
	default:
		j.pass("catalog.agreement", vocab.SrcCatalog, nil, nil, "the protocol and getTools() report the same tools").at(cat)
	}
}

// toolNames are the names of the tools of the frames, in catalog order.
func toolNames(c record.Catalog, frames []string) []string {
	var out []string
	for _, t := range c {
		if slices.Contains(frames, t.FrameID) {
			out = append(out, t.Name)
		}
	}
	return out
}
