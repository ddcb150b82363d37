package record

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
)

// Contract pins every tool of a page: its name, description, input schema,
// annotations and kind. Any change — a tool added or gone, a reworded
// description, a parameter's type — is a difference, found and named by
// JSON pointer (/tools/<name>/...). Written by `agentready catalog URL
// --update-contract FILE` from the real page, on purpose, as golden files
// are; compared by scenarios (catalog.contract) and by the suite.
type Contract struct {
	Page  string         `json:"page,omitempty"` // where it was read, for people
	Tools []ContractTool `json:"tools"`
}

// ContractTool is one tool as a contract pins it.
type ContractTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Declarative bool            `json:"declarative"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
	Annotations Annotations     `json:"annotations"`
}

// ContractOf pins a catalog, tools in name order.
func ContractOf(page string, c Catalog) Contract {
	out := Contract{Page: page, Tools: []ContractTool{}}
	for _, t := range c {
		out.Tools = append(out.Tools, ContractTool{Name: t.Name, Description: t.Description, Declarative: t.Declarative,
			InputSchema: NormalizeSchema(t.InputSchema), Annotations: t.Annotations})
	}
	slices.SortFunc(out.Tools, func(a, b ContractTool) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// Differences lists every way the catalog breaks the contract, by JSON
// pointer into {"tools": {<name>: <tool>}}: nothing when it keeps it.
func (c Contract) Differences(got Catalog) []Difference {
	return Diff(byName(c.Tools), byName(ContractOf("", got).Tools), false)
}

// byName lays tools out by name, so that a pointer names the tool
// (/tools/add_task/inputSchema/properties/text/type) rather than a position.
func byName(tools []ContractTool) map[string]any {
	m := map[string]any{}
	for _, t := range tools {
		b, _ := json.Marshal(t)
		var v map[string]any
		_ = json.Unmarshal(b, &v)
		delete(v, "name")
		m[t.Name] = v
	}
	return map[string]any{"tools": m}
}

// Names lists the contract's tools.
func (c Contract) Names() []string {
	out := make([]string, len(c.Tools))
	for i, t := range c.Tools {
		out[i] = t.Name
	}
	return out
}

// Summary renders differences one a line.
func Summary(ds []Difference) string {
	lines := make([]string, len(ds))
	for i, d := range ds {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}
