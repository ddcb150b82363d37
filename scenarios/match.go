package scenarios

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"go.yaml.in/yaml/v4"

	"github.com/agentready/agentready/internal/data/record"
)

// Match says how an expected JSON value is compared with the actual one.
type Match string

// The match modes. Subset (record.Diff with subset true): the actual value
// holds at least what the expected one says, at every depth, arrays element
// by element at the same positions and of the same length. It is one word
// for a call's output (its default) and a tool's schema alike.
const (
	MatchExact  Match = "exact"
	MatchSubset Match = "subset"
	// MatchContains is the earlier spelling of subset for schemas, still
	// read in schema_match (and read as subset); it is never written.
	MatchContains Match = "contains"
	// MatchConstraints compares a call's output as webmcp-evals compares a
	// result (package match): subset objects, arrays by position, and
	// constraint objects ({"$pattern": …}, $contains, $gt, $type, …).
	MatchConstraints Match = "constraints"
)

// SchemaMatch says how catalog.schemas are compared: one mode for every
// tool (`schema_match: subset`), or a mode by tool (`schema_match:
// {prepare_order: subset}`, the tools not named exact). Without it, every
// schema must be equal, as before schema_match existed.
type SchemaMatch struct {
	All    Match            // written as one word
	ByTool map[string]Match // written as tool → mode
}

// For answers the mode of one tool's schema.
func (m SchemaMatch) For(tool string) Match {
	if mode, ok := m.ByTool[tool]; ok {
		return mode
	}
	if m.All != "" {
		return m.All
	}
	return MatchExact
}

// IsZero tells whether no schema_match was given.
func (m SchemaMatch) IsZero() bool { return m.All == "" && m.ByTool == nil }

// UnmarshalYAML reads one word or a mapping of tool → word.
func (m *SchemaMatch) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		m.All, m.ByTool = schemaWord(Match(n.Value)), nil
		return nil
	case yaml.MappingNode:
		m.All = ""
		if err := n.Decode(&m.ByTool); err != nil {
			return err
		}
		m.normalize()
		return nil
	}
	return fmt.Errorf("line %d: schema_match is exact, subset, or a mapping of tool → exact or subset", n.Line)
}

// schemaWord reads the earlier spelling contains as subset: one word for
// one relation.
func schemaWord(m Match) Match {
	if m == MatchContains {
		return MatchSubset
	}
	return m
}

func (m *SchemaMatch) normalize() {
	m.All = schemaWord(m.All)
	for tool, mode := range m.ByTool {
		m.ByTool[tool] = schemaWord(mode)
	}
}

// MarshalYAML writes what UnmarshalYAML reads.
func (m SchemaMatch) MarshalYAML() (any, error) {
	if m.ByTool != nil {
		return m.ByTool, nil
	}
	return string(m.All), nil
}

// MarshalJSON writes one word or an object of tool → word.
func (m SchemaMatch) MarshalJSON() ([]byte, error) {
	if m.ByTool != nil {
		return json.Marshal(m.ByTool)
	}
	return json.Marshal(string(m.All))
}

// UnmarshalJSON reads what MarshalJSON writes.
func (m *SchemaMatch) UnmarshalJSON(b []byte) error {
	*m = SchemaMatch{}
	var err error
	if b = bytes.TrimSpace(b); len(b) > 0 && b[0] == '{' {
		err = json.Unmarshal(b, &m.ByTool)
	} else {
		err = json.Unmarshal(b, &m.All)
	}
	m.normalize()
	return err
}

// WantOutput answers the expected output, whichever field holds it, and
// whether there is one (an expected null is one).
func (x *CallExpect) WantOutput() (any, bool) {
	switch {
	case x == nil:
		return nil, false
	case x.Output != nil:
		return x.Output, true
	case x.OutputJSON != nil:
		return record.Normalize(x.OutputJSON), true
	}
	return nil, false
}

// ResultKeys names the keys that assert the call's result, as written.
func (x *CallExpect) ResultKeys() []string {
	var keys []string
	if _, ok := x.WantOutput(); ok {
		keys = append(keys, "output")
	}
	if x.OutputText != nil {
		keys = append(keys, "output_text")
	}
	if x.OutputContains != nil {
		keys = append(keys, "output_contains")
	}
	return keys
}

// callExpectFile is CallExpect as a file writes it: one output key.
type callExpectFile CallExpect

// UnmarshalYAML reads output as any JSON value. It is the older form of the
// interface on purpose: its unmarshal keeps the decoder's strictness, so an
// unknown key in a call's expect is still refused.
func (x *CallExpect) UnmarshalYAML(unmarshal func(any) error) error {
	// Named as the type it reads, so that an unknown key's error names the
	// type a writer knows.
	type CallExpect struct {
		File   callExpectFile `yaml:",inline"`
		Output yaml.Node      `yaml:"output"`
	}
	var aux CallExpect
	if err := unmarshal(&aux); err != nil {
		return err
	}
	*(*callExpectFile)(x) = aux.File
	if aux.Output.Kind == 0 {
		return nil
	}
	v, err := jsonOfYAML(&aux.Output, "output")
	if err != nil {
		return err
	}
	return x.setOutput(v)
}

// setOutput puts an expected output in the field for its shape.
func (x *CallExpect) setOutput(v any) error {
	if o, ok := v.(map[string]any); ok {
		x.Output, x.OutputJSON = o, nil
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	x.Output, x.OutputJSON = nil, b
	return nil
}

// MarshalYAML writes output under its one key.
func (x CallExpect) MarshalYAML() (any, error) {
	out := struct {
		File   callExpectFile `yaml:",inline"`
		Output *any           `yaml:"output,omitempty"`
	}{File: callExpectFile(x)}
	if v, ok := x.WantOutput(); ok {
		out.Output = &v
	}
	return out, nil
}

// MarshalJSON writes output under its one key.
func (x CallExpect) MarshalJSON() ([]byte, error) {
	out := struct {
		callExpectFile
		Output json.RawMessage `json:"output,omitempty"`
	}{callExpectFile: callExpectFile(x)}
	switch {
	case x.Output != nil:
		b, err := json.Marshal(x.Output)
		if err != nil {
			return nil, fmt.Errorf("output: %w", err)
		}
		out.Output = b
	case x.OutputJSON != nil:
		out.Output = x.OutputJSON
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (x *CallExpect) UnmarshalJSON(b []byte) error {
	var aux struct {
		callExpectFile
		Output json.RawMessage `json:"output"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*x = CallExpect(aux.callExpectFile)
	if aux.Output == nil {
		return nil
	}
	var v any
	if err := json.Unmarshal(aux.Output, &v); err != nil {
		return fmt.Errorf("output: %w", err)
	}
	return x.setOutput(v)
}

// jsonOfYAML reads a YAML value as the JSON value it writes down: a
// timestamp stays the text it is written as (2027-06-01 is not a time of
// day in UTC), a key is its text, and what JSON cannot hold (.inf, .nan, a
// key that is a mapping, a key twice) is an error naming its line and its
// key (key is where n is, as in output.errors[0]).
func jsonOfYAML(n *yaml.Node, key string) (any, error) {
	bad := func(at *yaml.Node, format string, args ...any) error {
		return fmt.Errorf("line %d: %s: %s", at.Line, key, fmt.Sprintf(format, args...))
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 1 {
			return jsonOfYAML(n.Content[0], key)
		}
		return nil, nil
	case yaml.AliasNode:
		return jsonOfYAML(n.Alias, key)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for i, c := range n.Content {
			v, err := jsonOfYAML(c, fmt.Sprintf("%s[%d]", key, i))
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			switch {
			case k.Kind != yaml.ScalarNode:
				return nil, bad(k, "a key must be text")
			case k.ShortTag() == "!!merge":
				return nil, bad(k, "merge keys (<<) are not read here: write the keys out")
			}
			if _, dup := out[k.Value]; dup {
				return nil, bad(k, "key %q is given twice", k.Value)
			}
			v, err := jsonOfYAML(n.Content[i+1], key+"."+k.Value)
			if err != nil {
				return nil, err
			}
			out[k.Value] = v
		}
		return out, nil
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return nil, nil
		case "!!bool":
			var b bool
			if err := n.Decode(&b); err != nil {
				return nil, bad(n, "%v", err)
			}
			return b, nil
		case "!!int", "!!float":
			var f float64
			if err := n.Decode(&f); err != nil {
				return nil, bad(n, "%v", err)
			}
			if math.IsInf(f, 0) || math.IsNaN(f) {
				return nil, bad(n, "%s is not a JSON number", n.Value)
			}
			if i, err := strconv.ParseInt(n.Value, 0, 64); err == nil && n.ShortTag() == "!!int" {
				return int(i), nil // as YAML gives an int elsewhere in a scenario
			}
			return f, nil
		default: // !!str, !!timestamp, !!binary: the text as written
			return n.Value, nil
		}
	}
	return nil, bad(n, "not a JSON value")
}
