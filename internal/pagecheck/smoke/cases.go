// Package smoke derives inputs from each tool's input schema — valid ones,
// boundaries included, and invalid ones — calls the tool with each on a
// fresh page, and reports where the page and its schema disagree: a valid
// input refused, an invalid one accepted (the browser does not validate an
// imperative tool's input; the page must), a call that never answers, and
// a write made by a tool annotated read-only.
package smoke

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentready/agentready/internal/data/record"
)

// Case is one input for one tool.
type Case struct {
	Tool  string         `json:"tool"`
	Name  string         `json:"name"`  // what the input tries, e.g. "valid: the maximum of quantity"
	Valid bool           `json:"valid"` // per the schema, as a JSON Schema validator says
	Input map[string]any `json:"input"`
}

// Cases derives the inputs for a tool from its input schema. Every case is
// checked with a JSON Schema validator: a "valid" case the schema refuses,
// or an "invalid" one it accepts, is dropped, so the report never blames a
// page for the generator's guess. A schema that does not compile is an
// error (the lint rule schema-shape says why).
func Cases(t record.Tool) ([]Case, error) {
	raw := t.InputSchema
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage(`{"type":"object","properties":{}}`)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%s: the input schema is not JSON: %w", t.Name, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("tool.json", doc); err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	sch, err := c.Compile("tool.json")
	if err != nil {
		return nil, fmt.Errorf("%s: the input schema does not compile: %w", t.Name, err)
	}
	var schema map[string]any
	if err := json.Unmarshal(raw, &schema); err != nil {
		return nil, fmt.Errorf("%s: the input schema is not an object: %w", t.Name, err)
	}
	var out []Case
	add := func(name string, valid bool, in map[string]any) {
		// The validator sees the input as it travels: through JSON.
		b, _ := json.Marshal(in)
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			return
		}
		if (sch.Validate(v) == nil) == valid {
			out = append(out, Case{Tool: t.Name, Name: name, Valid: valid, Input: in})
		}
	}
	props, _ := schema["properties"].(map[string]any)
	required := stringsOf(schema["required"])
	base := map[string]any{}
	for _, name := range slices.Sorted(maps.Keys(props)) {
		if p, ok := props[name].(map[string]any); ok && slices.Contains(required, name) {
			if v, ok := example(p); ok {
				base[name] = v
			}
		}
	}
	add("valid: the required parameters", true, base)
	for _, name := range slices.Sorted(maps.Keys(props)) {
		p, ok := props[name].(map[string]any)
		if !ok {
			continue
		}
		for _, b := range boundaries(p) {
			add(fmt.Sprintf("valid: %s of %s", b.what, name), true, with(base, name, b.value))
		}
		if slices.Contains(required, name) {
			in := maps.Clone(base)
			delete(in, name)
			add("invalid: "+name+" missing (required)", false, in)
		}
		// A declarative form's text field takes a number as its text: the
		// browser coerces it before the page sees it (Chromium 156,
		// webmcp-in-chromium.md), so no page can refuse it and it is no
		// finding of the page's.
		if v, ok := wrongType(p); ok && !(t.Declarative && typeOf(p) == "string") {
			add("invalid: "+name+" of the wrong type", false, with(base, name, v))
		}
		if enum, ok := p["enum"].([]any); ok && len(enum) > 0 {
			add("invalid: "+name+" outside its enum", false, with(base, name, "__not_an_option__"))
		}
	}
	add("invalid: an unknown parameter", false, with(base, "__unknown_parameter__", "x"))
	return out, nil
}

func with(base map[string]any, k string, v any) map[string]any {
	in := maps.Clone(base)
	in[k] = v
	return in
}

func stringsOf(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// example answers a value a property's schema allows, when one is easy to
// make: the first of an enum or a const, the minimum of a number, a string
// of the least allowed length.
func example(p map[string]any) (any, bool) {
	if c, ok := p["const"]; ok {
		return c, true
	}
	if enum, ok := p["enum"].([]any); ok && len(enum) > 0 {
		return enum[0], true
	}
	if alts, ok := p["anyOf"].([]any); ok && len(alts) > 0 {
		if first, ok := alts[0].(map[string]any); ok {
			return example(first)
		}
	}
	switch typeOf(p) {
	case "string":
		n := max(1, intOf(p["minLength"], 1))
		if m, ok := p["maxLength"]; ok {
			n = min(n, intOf(m, n))
		}
		if f, _ := p["format"].(string); f != "" {
			if v, ok := formatted(f); ok {
				return v, true
			}
		}
		return strings.Repeat("a", n), true
	case "integer", "number":
		if m, ok := p["minimum"].(float64); ok {
			return m, true
		}
		if m, ok := p["maximum"].(float64); ok {
			return m, true
		}
		return 1.0, true
	case "boolean":
		return true, true
	case "array":
		return []any{}, true
	case "object":
		return map[string]any{}, true
	}
	return nil, false
}

func formatted(f string) (string, bool) {
	switch f {
	case "date":
		return "2027-06-01", true
	case "date-time":
		return "2027-06-01T09:00:00Z", true
	case "time":
		return "09:00:00", true
	case "email":
		return "someone@example.com", true
	case "uri", "url":
		return "https://example.com/", true
	}
	return "", false
}

type boundary struct {
	what  string
	value any
}

// boundaries answers the edges a property allows: the longest string, the
// least and greatest number, every enum value.
func boundaries(p map[string]any) []boundary {
	var out []boundary
	switch typeOf(p) {
	case "string":
		if m, ok := p["maxLength"]; ok {
			out = append(out, boundary{"the longest value", strings.Repeat("a", intOf(m, 1))})
		}
		if m, ok := p["minLength"]; ok && intOf(m, 0) > 0 {
			out = append(out, boundary{"the shortest value", strings.Repeat("a", intOf(m, 1))})
		}
	case "integer", "number":
		if m, ok := p["minimum"].(float64); ok {
			out = append(out, boundary{"the minimum", m})
		}
		if m, ok := p["maximum"].(float64); ok {
			out = append(out, boundary{"the maximum", m})
		}
	}
	if enum, ok := p["enum"].([]any); ok {
		for _, e := range enum {
			out = append(out, boundary{fmt.Sprintf("the option %v", e), e})
		}
	}
	return out
}

// wrongType answers a value of another JSON type than the property's.
func wrongType(p map[string]any) (any, bool) {
	switch typeOf(p) {
	case "string":
		return 12345.0, true
	case "integer", "number", "boolean":
		return "not-a-" + typeOf(p), true
	case "array", "object":
		return "not-an-" + typeOf(p), true
	}
	return nil, false
}

func typeOf(p map[string]any) string {
	switch t := p["type"].(type) {
	case string:
		return t
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok && s != "null" {
				return s
			}
		}
	}
	return ""
}

func intOf(v any, dflt int) int {
	if f, ok := v.(float64); ok {
		return int(f)
	}
	return dflt
}
