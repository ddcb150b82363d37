package scenarios

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v4"
)

// SchemaFile is the JSON Schema of scenario files, generated from the Go
// types (schema_gen_test.go) and checked in beside them, so that an editor
// can check a file as it is written (# yaml-language-server: $schema=…).
// Loading checks every file against the same schema, so that an editor and
// agentready check agree on what is wrong and where.
const SchemaFile = "scenario.schema.json"

//go:embed scenario.schema.json
var schemaJSON []byte

// Schema answers the JSON Schema of scenario files.
func Schema() []byte { return slices.Clone(schemaJSON) }

var compiled = sync.OnceValues(func() (*compiledSchema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaID, doc); err != nil {
		return nil, err
	}
	full, err := c.Compile(schemaID + "#/$defs/Scenario")
	if err != nil {
		return nil, err
	}
	raw := map[string]any{}
	if err := json.Unmarshal(schemaJSON, &raw); err != nil {
		return nil, err
	}
	return &compiledSchema{full: full, raw: raw}, nil
})

const schemaID = "https://github.com/agentready/agentready/scenarios/" + SchemaFile

type compiledSchema struct {
	full *jsonschema.Schema
	raw  map[string]any // the schema as JSON, for the keys a place allows
}

// checkSchema checks a scenario's merged tree against the schema: unknown
// keys (with the nearest known one), missing keys, values of the wrong
// kind or outside their words. Required keys of a whole scenario are
// checked by Validate, which says more; the rest are the schema's.
func checkSchema(t *tree, p *problems) {
	cs, err := compiled()
	if err != nil {
		p.bad(nil, "the scenario schema does not compile: %v", err) // a defect of the suite, not of the file
		return
	}
	inst := instanceOf(t.root, nil, p)
	err = cs.full.Validate(inst)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return
	}
	for _, leaf := range leaves(ve) {
		cs.describe(leaf, t, p)
	}
}

// instanceOf is the JSON value a YAML tree writes down, as the decoder
// reads it: a timestamp is its text, an integer an int. A key given twice
// is a problem of its own.
func instanceOf(n *yaml.Node, at keyPath, p *problems) any {
	n = unalias(n)
	switch n.Kind {
	case yaml.SequenceNode:
		out := make([]any, len(n.Content))
		for i, c := range n.Content {
			out[i] = instanceOf(c, at.index(i), p)
		}
		return out
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if _, dup := out[k.Value]; dup {
				p.list = append(p.list, keyedProblem{at: at.key(k.Value), line: k.Line, column: k.Column,
					message: fmt.Sprintf("key %q is given twice in one mapping: write it once", k.Value)})
			}
			out[k.Value] = instanceOf(n.Content[i+1], at.key(k.Value), p)
		}
		return out
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return nil
		case "!!bool":
			var b bool
			if n.Decode(&b) == nil {
				return b
			}
		case "!!int":
			if i, err := strconv.ParseInt(n.Value, 0, 64); err == nil {
				return i
			}
			var f float64
			if n.Decode(&f) == nil {
				return f
			}
		case "!!float":
			var f float64
			if n.Decode(&f) == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
				return f
			}
		}
		return n.Value
	}
	return nil
}

// leaves are the errors that say what is wrong, not where a group of
// alternatives failed: of oneOf and anyOf, the alternative that fits the
// value's kind (a string for "METHOD /path", a mapping for the sugar).
func leaves(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	switch ve.ErrorKind.(type) {
	case *kind.OneOf, *kind.AnyOf:
		if alt := bestAlternative(ve); alt != nil {
			return leaves(alt)
		}
		return []*jsonschema.ValidationError{ve}
	}
	if len(ve.Causes) == 0 {
		return []*jsonschema.ValidationError{ve}
	}
	var out []*jsonschema.ValidationError
	for _, c := range ve.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

// allLeaves are every error under ve, alternatives and all.
func allLeaves(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(ve.Causes) == 0 {
		return []*jsonschema.ValidationError{ve}
	}
	var out []*jsonschema.ValidationError
	for _, c := range ve.Causes {
		out = append(out, allLeaves(c)...)
	}
	return out
}

// bestAlternative is the failed alternative that says most about the
// value: not one that is merely of the wrong kind at the value itself,
// then the one whose errors reach deepest into it, then the one with the
// fewest errors. nil when every alternative is of the wrong kind.
func bestAlternative(ve *jsonschema.ValidationError) *jsonschema.ValidationError {
	var best *jsonschema.ValidationError
	bestDepth, bestCount := -1, 0
	for _, c := range ve.Causes {
		if wrongKindHere(c, len(ve.InstanceLocation)) {
			continue
		}
		ls := leaves(c)
		depth := 0
		for _, l := range ls {
			depth = max(depth, len(l.InstanceLocation))
		}
		if best == nil || depth > bestDepth || depth == bestDepth && len(ls) < bestCount {
			best, bestDepth, bestCount = c, depth, len(ls)
		}
	}
	return best
}

func wrongKindHere(ve *jsonschema.ValidationError, depth int) bool {
	if len(ve.InstanceLocation) > depth {
		return false
	}
	switch ve.ErrorKind.(type) {
	case *kind.Type, *kind.Const:
		return true
	case *kind.Group, *kind.Schema, *kind.AllOf, *kind.Reference:
		for _, c := range ve.Causes {
			if !wrongKindHere(c, depth) {
				return false
			}
		}
		return len(ve.Causes) > 0
	}
	return false
}

// describe words one schema error as a problem at its place.
func (cs *compiledSchema) describe(ve *jsonschema.ValidationError, t *tree, p *problems) {
	at := make(keyPath, 0, len(ve.InstanceLocation))
	node := t.root
	for _, s := range ve.InstanceLocation {
		var seg any = s
		if n := unalias(node); n != nil && n.Kind == yaml.SequenceNode {
			if i, err := strconv.Atoi(s); err == nil {
				seg = i
			}
		}
		at = append(at, seg)
		node, _ = child(node, seg)
	}
	switch k := ve.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		known := cs.keysAt(ve.SchemaURL)
		for _, name := range k.Properties {
			if _, near := nearest(name, known); near {
				p.badKey(at.key(name), "unknown key%s", suggestion(name, known, hint(at, name)))
			} else {
				p.badKey(at.key(name), "unknown key%s; the keys here are %s", hint(at, name), strings.Join(known, ", "))
			}
		}
	case *kind.Required:
		for _, name := range k.Missing {
			if len(at) == 0 && slices.Contains(requiredAtTop, name) {
				continue // Validate says it, by name
			}
			desc := cs.descriptionOf(ve.SchemaURL, name)
			p.bad(at.key(name), "missing%s", desc)
		}
	case *kind.Type:
		p.bad(at, "expected %s, found %s", wordsOfKinds(k.Want), foundWord(node, k.Got))
	case *kind.Enum:
		var want []string
		for _, w := range k.Want {
			want = append(want, fmt.Sprint(w))
		}
		got := fmt.Sprint(k.Got)
		p.bad(at, "%q is not %s%s", got, orList(want), suggestion(got, want, ""))
	case *kind.Const:
		p.bad(at, "expected %v, found %s", k.Want, foundWord(node, ""))
	case *kind.Pattern:
		p.bad(at, "%q is not %s", k.Got, cs.patternWords(ve.SchemaURL))
	case *kind.PropertyNames:
		phases := []string{"agent", "human"}
		if len(at) > 0 && at[len(at)-1] == any("writes") {
			phases = append(phases, "leave")
		}
		p.badKey(at.key(k.Property), "%q is not a phase here: %s%s", k.Property, orList(phases), suggestion(k.Property, phases, ""))
	case *kind.MinProperties, *kind.MaxProperties:
		p.bad(at, "a step does exactly one of %s (has %s)", strings.Join(stepKinds, ", "), keysOfNode(node))
	case *kind.Minimum, *kind.Maximum:
		p.bad(at, "%s", strings.TrimPrefix(ve.Error(), "jsonschema validation failed with "))
	case *kind.OneOf, *kind.AnyOf:
		var want []string
		for _, l := range allLeaves(ve) {
			switch k := l.ErrorKind.(type) {
			case *kind.Type:
				for _, w := range k.Want {
					want = append(want, kindWord(w))
				}
			case *kind.Const:
				want = append(want, fmt.Sprint(k.Want))
			}
		}
		slices.Sort(want)
		p.bad(at, "expected %s, found %s", orList(asText(slices.Compact(want))), foundWord(node, ""))
	default:
		var msg string
		if e, ok := ve.ErrorKind.(interface{ String() string }); ok {
			msg = e.String()
		} else {
			msg = fmt.Sprintf("%v", ve.ErrorKind)
		}
		p.bad(at, "%s", msg)
	}
}

// requiredAtTop are the keys of a whole scenario whose absence Validate
// names (it says what each is for).
var requiredAtTop = []string{"id", "title", "start", "prompt"}

var stepKinds = []string{"call", "click", "close_popup", "fill", "in_popup", "navigate", "send", "wait_for", "wait_request", "wait_tool"}

// schemaAt answers the part of the raw schema a keyword location names
// (…#/$defs/Expect/additionalProperties), less its last n tokens.
func (cs *compiledSchema) schemaAt(url string, drop int) map[string]any {
	_, frag, _ := strings.Cut(url, "#")
	tokens := strings.Split(strings.TrimPrefix(frag, "/"), "/")
	tokens = tokens[:max(0, len(tokens)-drop)]
	var cur any = cs.raw
	for _, tok := range tokens {
		if tok == "" {
			continue
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case map[string]any:
			cur = c[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i >= len(c) {
				return nil
			}
			cur = c[i]
		default:
			return nil
		}
	}
	m, _ := cur.(map[string]any)
	if ref, ok := m["$ref"].(string); ok && len(m) <= 3 {
		return cs.schemaAt(ref, 0)
	}
	return m
}

// keysAt answers the keys a mapping allows, by the location of its
// additionalProperties.
func (cs *compiledSchema) keysAt(url string) []string {
	s := cs.schemaAt(url, 0)
	props, _ := s["properties"].(map[string]any)
	var out []string
	for k := range props {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// descriptionOf answers ": " and the first sentence of a key's
// description (of the schema itself, for ""), or "".
func (cs *compiledSchema) descriptionOf(url, key string) string {
	s := cs.schemaAt(url, 0)
	if key != "" {
		props, _ := s["properties"].(map[string]any)
		s, _ = props[key].(map[string]any)
		if ref, ok := s["$ref"].(string); ok && s["description"] == nil {
			s = cs.schemaAt(ref, 0)
		}
	}
	d, _ := s["description"].(string)
	d = strings.Join(strings.Fields(d), " ")
	if d == "" {
		return ""
	}
	if i := strings.Index(d, ". "); i > 0 {
		d = d[:i+1]
	}
	return ": " + d
}

func (cs *compiledSchema) patternWords(url string) string {
	s := cs.schemaAt(url, 0)
	if d, _ := s["description"].(string); d != "" {
		return d
	}
	return fmt.Sprintf("of the form %v", s["pattern"])
}

// hint says what an old or mistaken key is written as now.
func hint(at keyPath, name string) string {
	switch {
	case (name == "method" || name == "path") && len(at) > 0 && at[len(at)-1] != "request":
		return `; a request is written as one line, request: "METHOD /path"`
	case name == "request" && len(at) > 0:
		if _, isStep := at[len(at)-1].(int); isStep {
			return "; a request sent straight to the server is the step send: {request: …, expect: …}"
		}
	}
	return ""
}

func wordsOfKinds(kinds []string) string {
	var out []string
	for _, k := range kinds {
		out = append(out, kindWord(k))
	}
	return orList(asText(out))
}

// asText leaves out a number and true or false where text is wanted: a
// text key takes them as its text, and "expected text" says what to write.
func asText(words []string) []string {
	if !slices.Contains(words, kindWord("string")) {
		return words
	}
	return slices.DeleteFunc(words, func(w string) bool { return w == kindWord("number") || w == kindWord("boolean") })
}

func kindWord(k string) string {
	switch k {
	case "object":
		return "a mapping"
	case "array":
		return "a list"
	case "string":
		return "text"
	case "integer":
		return "a whole number"
	case "number":
		return "a number"
	case "boolean":
		return "true or false"
	case "null":
		return "nothing (null)"
	}
	return k
}

func foundWord(n *yaml.Node, got string) string {
	if n != nil {
		if n.Kind == yaml.ScalarNode && !isNull(n) {
			return fmt.Sprintf("%s %q", kindWord(got), n.Value)
		}
		return kindName(n)
	}
	return kindWord(got)
}

func keysOfNode(n *yaml.Node) string {
	var keys []string
	if n = unalias(n); n != nil && n.Kind == yaml.MappingNode {
		for i := 0; i < len(n.Content); i += 2 {
			keys = append(keys, n.Content[i].Value)
		}
	}
	if len(keys) == 0 {
		return "none"
	}
	return strings.Join(keys, ", ")
}

func orList(words []string) string {
	switch len(words) {
	case 0:
		return "nothing"
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
