package record

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func added(tools ...Tool) Event   { return Event{Kind: ToolsAdded, Tools: tools} }
func removed(tools ...Tool) Event { return Event{Kind: ToolsRemoved, Tools: tools} }
func tool(frame, name string) Tool {
	return Tool{Name: name, FrameID: frame, Description: name + " in " + frame}
}

// keys lists a catalog as name@frame, in its order.
func keys(c Catalog) []string {
	out := []string{}
	for _, t := range c {
		out = append(out, t.Name+"@"+t.FrameID)
	}
	return out
}

func TestCatalogAtFoldsAddsAndRemovesPerFrameAndName(t *testing.T) {
	events := []Event{
		added(tool("F1", "b"), tool("F1", "a")),             // 1
		{Kind: ToolInvoked, ToolName: "a"},                  // 2: not a catalog event
		added(tool("F2", "a")),                              // 3: same name, other frame
		removed(tool("F1", "a")),                            // 4: only the F1 one goes
		added(Tool{Name: "b", FrameID: "F1", Title: "new"}), // 5: re-added: replaced
		removed(tool("F9", "b")),                            // 6: unknown frame: nothing
		added(tool("F1", "c")),                              // 7
		removed(tool("F1", "c")),                            // 8
	}
	tests := []struct {
		n    int
		want []string
	}{
		{0, []string{}},
		{1, []string{"a@F1", "b@F1"}},
		{2, []string{"a@F1", "b@F1"}},
		{3, []string{"a@F1", "a@F2", "b@F1"}},
		{4, []string{"a@F2", "b@F1"}},
		{6, []string{"a@F2", "b@F1"}},
		{7, []string{"a@F2", "b@F1", "c@F1"}},
		{8, []string{"a@F2", "b@F1"}},
		{99, []string{"a@F2", "b@F1"}}, // n past the end: all events
	}
	for _, tt := range tests {
		if got := keys(CatalogAt(events, tt.n)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("CatalogAt(%d) = %v, want %v", tt.n, got, tt.want)
		}
	}
	if b, _ := CatalogAt(events, 5).Get("b"); b.Title != "new" {
		t.Errorf("a re-added tool should replace the old one, got %+v", b)
	}
}

func TestCatalogAtSortsByNameThenFrame(t *testing.T) {
	// Chromium frame ids are upper-case hex; tool names may hold '-' or '.',
	// which sort before digits. Sorting on name+frame glued together put
	// "a-b" before "a".
	events := []Event{added(tool("9F00", "a"), tool("1A00", "a-b"), tool("0B00", "a"), tool("C000", "a.b"))}
	got := CatalogAt(events, 1)
	want := []string{"a@0B00", "a@9F00", "a-b@1A00", "a.b@C000"}
	if !reflect.DeepEqual(keys(got), want) {
		t.Errorf("order %v, want %v", keys(got), want)
	}
	if names := got.Names(); !reflect.DeepEqual(names, []string{"a", "a", "a-b", "a.b"}) {
		t.Errorf("Names() = %v, want sorted names", names)
	}
}

func TestCatalogGet(t *testing.T) {
	c := CatalogAt([]Event{added(tool("F1", "add_task"), tool("F1", "list_tasks"))}, 1)
	if got, ok := c.Get("list_tasks"); !ok || got.Description != "list_tasks in F1" {
		t.Errorf("Get(list_tasks) = %+v, %v", got, ok)
	}
	if got, ok := c.Get("nope"); ok || !reflect.DeepEqual(got, Tool{}) {
		t.Errorf("Get(nope) = %+v, %v; want zero, false", got, ok)
	}
	if got, ok := Catalog(nil).Get("x"); ok || got.Name != "" {
		t.Error("Get on an empty catalog found something")
	}
	if names := Catalog(nil).Names(); len(names) != 0 {
		t.Errorf("Names of an empty catalog = %v", names)
	}
}

func TestNormalizeSchema(t *testing.T) {
	tests := []struct {
		name, in string
		want     string // "" means nil
	}{
		{"object is compacted", "{\n  \"type\": \"object\",\n  \"properties\": { \"text\": {\"type\": \"string\"} }\n}", `{"type":"object","properties":{"text":{"type":"string"}}}`},
		{"string holding an object", `"{ \"type\" : \"object\" }"`, `{"type":"object"}`},
		{"string holding an object, with whitespace", "  \" {\\\"type\\\": \\\"object\\\"} \"\n", `{"type":"object"}`},
		{"whitespace around an object", " \t{\"a\": [1, 2]}\n ", `{"a":[1,2]}`},
		{"null", `null`, ""},
		{"null with whitespace", "  null\n", ""},
		{"empty", ``, ""},
		{"whitespace only", " \n\t ", ""},
		{"string holding no JSON is kept as a string", `"free text"`, `"free text"`},
		{"not JSON is kept as sent, trimmed", ` {type: object} `, `{type: object}`},
		{"key order is kept", `{"b":1, "a":2}`, `{"b":1,"a":2}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NormalizeSchema(json.RawMessage(tt.in))
			if tt.want == "" {
				if got != nil {
					t.Errorf("NormalizeSchema(%q) = %q, want nil", tt.in, got)
				}
				return
			}
			if string(got) != tt.want {
				t.Errorf("NormalizeSchema(%q) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestDisagreement(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","required":["text"]}`)
	protocol := Catalog{
		{Name: "add_task", Description: "Add a task", InputSchema: schema, FrameID: "F1"},
		{Name: "list_tasks", Description: "List tasks", FrameID: "F1"},
	}
	page := func() []PageTool {
		return []PageTool{
			{Name: "list_tasks", Description: "List tasks"},
			{Name: "add_task", Description: "Add a task", InputSchema: json.RawMessage("{ \"type\": \"object\",\n \"required\": [\"text\"] }")},
		}
	}
	tests := []struct {
		name     string
		protocol Catalog
		page     []PageTool
		wantIn   []string // nil: agree
	}{
		{name: "equal", protocol: protocol, page: page()},
		{name: "both empty", protocol: nil, page: nil},
		{
			name: "missing from getTools()", protocol: protocol, page: page()[1:],
			wantIn: []string{"list_tasks: in the protocol catalog, not in getTools()", "protocol: [add_task list_tasks]", "getTools(): [add_task]"},
		},
		{
			name: "missing from the protocol", protocol: protocol[:1], page: page(),
			wantIn: []string{"list_tasks: in getTools(), not in the protocol catalog", "protocol: [add_task]", "getTools(): [add_task list_tasks]"},
		},
		{
			name: "description differs", protocol: protocol,
			page:   func() []PageTool { p := page(); p[1].Description = "Adds a task"; return p }(),
			wantIn: []string{"add_task: description differs", "protocol: [add_task list_tasks]", "getTools(): [add_task list_tasks]"},
		},
		{
			name: "schema differs", protocol: protocol,
			page: func() []PageTool {
				p := page()
				p[1].InputSchema = json.RawMessage(`{"type":"object"}`)
				return p
			}(),
			wantIn: []string{`add_task: inputSchema differs: protocol {"type":"object","required":["text"]}, page {"type":"object"}`, "protocol: [add_task list_tasks]", "getTools(): [add_task list_tasks]"},
		},
		{
			name: "autosubmit differs", protocol: Catalog{{Name: "f", Annotations: Annotations{Autosubmit: true}}},
			page:   []PageTool{{Name: "f", Annotations: map[string]bool{"readOnlyHint": false}}},
			wantIn: []string{"f: annotations differ"},
		},
		{
			name: "debugging read with its Hint suffix", protocol: Catalog{{Name: "d"}},
			page:   []PageTool{{Name: "d", Annotations: map[string]bool{"debuggingHint": true}}},
			wantIn: []string{"d: annotations differ"},
		},
		{
			name: "debugging read under its bare name", protocol: Catalog{{Name: "d"}},
			page:   []PageTool{{Name: "d", Annotations: map[string]bool{"debugging": true}}},
			wantIn: []string{"d: annotations differ"},
		},
		{
			name: "every hint agrees", protocol: Catalog{{Name: "h", Annotations: Annotations{ReadOnly: true, Debugging: true, Autosubmit: true}}},
			page: []PageTool{{Name: "h", Annotations: map[string]bool{"readOnlyHint": true, "debuggingHint": true, "autosubmitHint": true}}},
		},
		{
			// The protocol left list_tasks' schema out: compared on what
			// both report (issue 49 item 6), not a disagreement.
			name: "a schema only getTools() reports", protocol: protocol,
			page: func() []PageTool {
				p := page()
				p[0].InputSchema = json.RawMessage(`{}`)
				return p
			}(),
		},
		{
			name: "a schema only the protocol reports", protocol: protocol,
			page: func() []PageTool {
				p := page()
				p[1].InputSchema = nil
				return p
			}(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Disagreement(tt.protocol, tt.page)
			if tt.wantIn == nil {
				if err != nil {
					t.Fatalf("want agreement, got %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("want a disagreement, got nil")
			}
			for _, s := range tt.wantIn {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error does not contain %q:\n%v", s, err)
				}
			}
		})
	}
}

func TestDisagreementIgnoresKeyOrderInSchemas(t *testing.T) {
	protocol := Catalog{{Name: "a", InputSchema: json.RawMessage(`{"type":"object","properties":{}}`)}}
	page := []PageTool{{Name: "a", InputSchema: json.RawMessage(`{"properties":{},"type":"object"}`)}}
	if err := Disagreement(protocol, page); err != nil {
		t.Fatal(err)
	}
}

func deepSchema(levels int) json.RawMessage {
	s := `{"type":"string"}`
	for range levels {
		s = `{"type":"object","properties":{"next":` + s + `}}`
	}
	return json.RawMessage(s)
}

// A schema the protocol left out (too deep for it to carry, or a form's
// it omits) is no disagreement: it is taken from getTools() and marked so.
// A schema both report and differ on still is one.
func TestASchemaTheProtocolLeftOut(t *testing.T) {
	deep := deepSchema(150)
	if !TooDeepForProtocol(deep) || TooDeepForProtocol(deepSchema(10)) || TooDeepForProtocol(json.RawMessage(`{not json`)) {
		t.Fatal("TooDeepForProtocol misjudges depth")
	}
	protocol := Catalog{{Name: "save_settings"}}
	for _, schema := range []json.RawMessage{deep, deepSchema(10)} {
		page := []PageTool{{Name: "save_settings", InputSchema: schema}}
		if err := Disagreement(protocol, page); err != nil {
			t.Fatalf("a schema the protocol left out is a disagreement: %v", err)
		}
		full := CompleteSchemas(protocol, page)
		if !JSONEqual(full[0].InputSchema, schema) || full[0].SchemaFrom != "getTools()" || len(protocol[0].InputSchema) != 0 {
			t.Fatalf("CompleteSchemas: %s from %q (protocol now %s)", full[0].InputSchema, full[0].SchemaFrom, protocol[0].InputSchema)
		}
	}
	both := Catalog{{Name: "save_settings", InputSchema: deepSchema(2)}}
	if err := Disagreement(both, []PageTool{{Name: "save_settings", InputSchema: deepSchema(3)}}); err == nil || !strings.Contains(err.Error(), "inputSchema differs") {
		t.Fatalf("two schemas that differ: %v", err)
	}
	if got := CompleteSchemas(both, nil); got[0].SchemaFrom != "" {
		t.Fatalf("a schema the protocol carried is marked %q", got[0].SchemaFrom)
	}
}
