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
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/pagecheck/toollist"
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
func Cases(t record.Tool) ([]Case, error) { return CasesFor(t, nil) }

// CasesFor is Cases for a form tool whose form's fields (by name) hold the
// constraints the browser enforces and the schema does not say (an email's
// @, minlength, maxlength, pattern): every valid case's values are made to
// meet them, a case no value can be made for is dropped, and each field's
// longest and shortest values the form takes are boundaries of their own.
// A value the browser would refuse is the generator's mistake, never the
// page's finding.
func CasesFor(t record.Tool, fields map[string]toollist.Field) ([]Case, error) {
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
		if valid && len(fields) > 0 {
			var ok bool
			if in, ok = fitAll(in, fields); !ok {
				return
			}
		}
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
		if f, ok := fields[name]; ok && textual(f) {
			if f.MaxLength > 0 {
				add(fmt.Sprintf("valid: the longest value the form takes of %s (maxlength %d)", name, f.MaxLength), true, with(base, name, strings.Repeat("a", f.MaxLength)))
			}
			if f.MinLength > 1 {
				add(fmt.Sprintf("valid: the shortest value the form takes of %s (minlength %d)", name, f.MinLength), true, with(base, name, strings.Repeat("a", f.MinLength)))
			}
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

// typedValues are values each input type takes as the browser checks it.
var typedValues = map[string]string{"email": "someone@example.com", "url": "https://example.com/", "tel": "+15551234567"}

// textual tells whether a field takes free text, whose length the suite may
// choose.
func textual(f toollist.Field) bool {
	switch f.Type {
	case "text", "search", "textarea", "password", "":
		return true
	}
	return false
}

// fitAll makes an input's values meet their fields' constraints, and says
// false when one cannot be made to (a pattern the value does not match).
func fitAll(in map[string]any, fields map[string]toollist.Field) (map[string]any, bool) {
	out := maps.Clone(in)
	for name, v := range in {
		f, ok := fields[name]
		s, isText := v.(string)
		if !ok || !isText {
			continue
		}
		if typed, ok := typedValues[f.Type]; ok && !strings.Contains(s, typed) {
			s = typed
		}
		if textual(f) && f.MinLength > 0 && utf8.RuneCountInString(s) < f.MinLength {
			s += strings.Repeat("a", f.MinLength-utf8.RuneCountInString(s))
		}
		if f.MaxLength > 0 && utf8.RuneCountInString(s) > f.MaxLength {
			return nil, false
		}
		if f.Pattern != "" {
			// The browser matches the whole value (the v flag's syntax, which
			// Go's regexp reads for the patterns a form usually holds); one
			// it cannot read is left to the browser.
			if re, err := regexp.Compile("^(?:" + f.Pattern + ")$"); err == nil && !re.MatchString(s) {
				return nil, false
			}
		}
		out[name] = s
	}
	return out, true
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
