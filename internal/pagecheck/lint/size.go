package lint

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"
)

// Thresholds of the ecosystem's defaults (swissspidy/playwright-webmcp), as
// docs/decisions/2026-12-03-injection-lint.md says.
const (
	// MinDescription and MaxDescription bound a tool description, in characters.
	MinDescription, MaxDescription = 20, 600
	// MaxParamDescription is the longest parameter description, in characters.
	MaxParamDescription = 150
	// MaxSchemaDepth is how deep objects may nest in an input schema: the
	// tool's own parameters are depth 1.
	MaxSchemaDepth = 3
)

func descriptionLength(p *page) []Finding {
	var out []Finding
	for _, t := range p.tools {
		if blank(t.Description) {
			continue // description-missing
		}
		n := utf8.RuneCountInString(t.Description)
		var msg string
		switch {
		case n < MinDescription:
			msg = fmt.Sprintf("its description is %d characters, fewer than %d: say what it does and when to use it", n, MinDescription)
		case n > MaxDescription:
			msg = fmt.Sprintf("its description is %d characters, more than %d: an agent reads every tool's description for every choice", n, MaxDescription)
		default:
			continue
		}
		out = append(out, Finding{Tool: t.Name, Frame: t.FrameURL, Message: msg})
	}
	return out
}

func paramDescriptionLength(p *page) []Finding {
	var out []Finding
	for _, t := range p.tools {
		params := paramDescriptions(t.InputSchema)
		var long []string
		for _, at := range sortedKeys(params) {
			if n := utf8.RuneCountInString(params[at]); n > MaxParamDescription {
				long = append(long, fmt.Sprintf("%s (%d)", at, n))
			}
		}
		if len(long) > 0 {
			out = append(out, Finding{Tool: t.Name, Frame: t.FrameURL,
				Message: fmt.Sprintf("the description(s) at %s are longer than %d characters: say what the value is; put the rest in the tool's description", quoteList(long), MaxParamDescription)})
		}
	}
	return out
}

// objectDepth is how deep objects with properties nest in a schema (the
// schema's own properties are depth 1), through properties, items and the
// combinators.
func objectDepth(v any, limit int) int {
	m, ok := v.(map[string]any)
	if !ok || limit < 0 {
		return 0
	}
	deepest := 0
	consider := func(c any, add int) {
		if d := objectDepth(c, limit-1) + add; d > deepest {
			deepest = d
		}
	}
	if props, ok := m["properties"].(map[string]any); ok {
		deepest = 1
		for _, c := range props {
			consider(c, 1)
		}
	}
	consider(m["items"], 0)
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		if cs, ok := m[k].([]any); ok {
			for _, c := range cs {
				consider(c, 0)
			}
		}
	}
	return deepest
}

func schemaDepth(p *page) []Finding {
	var out []Finding
	for _, t := range p.tools {
		var v any
		if len(t.InputSchema) == 0 || json.Unmarshal(t.InputSchema, &v) != nil {
			continue
		}
		if d := objectDepth(v, 64); d > MaxSchemaDepth {
			out = append(out, Finding{Tool: t.Name, Frame: t.FrameURL,
				Message: fmt.Sprintf("its input schema nests objects %d deep, more than %d: agents fill deep objects badly; flatten it", d, MaxSchemaDepth)})
		}
	}
	return out
}

// nullLiterals answers the JSON pointers inside a schema that hold or name
// null: a null literal anywhere (a const, a default, an enum's or examples'
// member: model APIs refuse the literal at any depth), and a "type" of
// "null", alone or in a list.
func nullLiterals(v any, at string, limit int, out *[]string) {
	if limit < 0 {
		return
	}
	switch x := v.(type) {
	case nil:
		*out = append(*out, cmp.Or(at, "/"))
	case map[string]any:
		switch ty := x["type"].(type) {
		case string:
			if ty == "null" {
				*out = append(*out, at+"/type")
			}
		case []any:
			if slices.Contains(ty, any("null")) {
				*out = append(*out, at+"/type")
			}
		}
		for _, k := range sortedKeys(x) {
			nullLiterals(x[k], at+"/"+k, limit-1, out)
		}
	case []any:
		for i, c := range x {
			nullLiterals(c, fmt.Sprintf("%s/%d", at, i), limit-1, out)
		}
	}
}

func schemaNoNullLiterals(p *page) []Finding {
	var out []Finding
	for _, t := range p.tools {
		var v any
		if len(t.InputSchema) == 0 || json.Unmarshal(t.InputSchema, &v) != nil {
			continue
		}
		var at []string
		nullLiterals(v, "", 64, &at)
		if len(at) > 0 {
			out = append(out, Finding{Tool: t.Name, Frame: t.FrameURL,
				Message: fmt.Sprintf("its input schema holds null at %s: agents send null for 'unknown' and the page must then tell null from absent, and model APIs refuse a null literal; leave the property out of required instead", quoteList(at))})
		}
	}
	return out
}
