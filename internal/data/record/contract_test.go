package record

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestAContractSeesEveryChange(t *testing.T) {
	cat := Catalog{
		{Name: "add_task", Description: "Add a task.", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)},
		{Name: "list_tasks", Description: "List tasks.", Annotations: Annotations{ReadOnly: true}},
	}
	c := ContractOf("/tasks", cat)
	if ds := c.Differences(cat); len(ds) != 0 {
		t.Fatalf("a catalog breaks its own contract: %v", ds)
	}
	for _, tt := range []struct {
		name, pointer string
		change        func(Catalog) Catalog
	}{
		{"a reworded description", "/tools/add_task/description", func(c Catalog) Catalog { c[0].Description = "Add one task."; return c }},
		{"a parameter's type", "/tools/add_task/inputSchema/properties/text/type", func(c Catalog) Catalog {
			c[0].InputSchema = json.RawMessage(`{"type":"object","properties":{"text":{"type":"integer"}},"required":["text"]}`)
			return c
		}},
		{"an annotation", "/tools/list_tasks/annotations/readOnly", func(c Catalog) Catalog { c[1].Annotations.ReadOnly = false; return c }},
		{"a tool gone", "/tools/list_tasks", func(c Catalog) Catalog { return c[:1] }},
		{"a tool added", "/tools/remove_task", func(c Catalog) Catalog { return append(c, Tool{Name: "remove_task", Description: "x"}) }},
	} {
		got := tt.change(append(Catalog(nil), cat...))
		ds := c.Differences(got)
		if len(ds) == 0 || !strings.Contains(Summary(ds), tt.pointer) {
			t.Errorf("%s: differences %v, want one at %s", tt.name, ds, tt.pointer)
		}
	}
}
