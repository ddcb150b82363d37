package scenarios

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"go.yaml.in/yaml/v4"

	"github.com/agentready/agentready/internal/data/record"
)

// UnmarshalYAML reads a plain string or {value, from, personal}. Its keys
// are checked here, since a node decodes without the file's known-fields
// check: a misspelt personal would otherwise leave a person's value in the
// bundle without a word.
func (v *PromptValue) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		v.Value = n.Value
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: a prompt_data value is a string or {value, from, personal}", n.Line)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], n.Content[i+1]
		switch key.Value {
		case "value", "from":
			if val.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: %s is a string", val.Line, key.Value)
			}
		case "personal":
			var on bool
			if val.Kind != yaml.ScalarNode || val.Decode(&on) != nil {
				return fmt.Errorf("line %d: personal is true or false, not %q", val.Line, val.Value)
			}
		default:
			return fmt.Errorf("line %d: unknown key %q in a prompt_data value (value, from, personal)", key.Line, key.Value)
		}
	}
	type plain PromptValue
	return n.Decode((*plain)(v))
}

// UnmarshalYAML reads `true` as the usual meta and header.
func (c *CSRF) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		var on bool
		if err := n.Decode(&on); err != nil {
			return fmt.Errorf("line %d: csrf is true or {meta, header}, {cookie, header} or {from: {request, path}, header}", n.Line)
		}
		if on {
			*c = CSRF{Meta: "csrf-token", Header: "X-CSRF-Token"}
		}
		return nil
	}
	type plain CSRF
	return n.Decode((*plain)(c))
}

// UnmarshalYAML reads a path, an inline contract, or {file, contract} as
// a bundle's scenario.json writes it.
func (c *ContractRef) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		c.File = n.Value
		return nil
	}
	// Inline, the contract is written as its JSON file is (inputSchema as
	// a mapping): through JSON, with the file's strictness.
	var v any
	if err := n.Decode(&v); err != nil {
		return err
	}
	if m, ok := v.(map[string]any); ok && m["contract"] != nil {
		file, _ := m["file"].(string)
		c.File, v = file, m["contract"]
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("line %d: the contract: %w", n.Line, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c.Contract); err != nil {
		return fmt.Errorf("line %d: not a tool contract: %w", n.Line, err)
	}
	c.inline = true
	return nil
}

// loadContract reads a contract file named relative to the scenario file.
func (c *ContractRef) loadContract(scenarioFile string) error {
	if c.File == "" || c.inline {
		return nil
	}
	path := c.File
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(scenarioFile), path)
	}
	data, err := record.ReadInput(path)
	if err != nil {
		return fmt.Errorf("expect.catalog.contract: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c.Contract); err != nil {
		return fmt.Errorf("expect.catalog.contract: %s is not a tool contract: %w", c.File, err)
	}
	return nil
}

// MarshalJSON writes a duration as a file does ("2.5s"), so that
// scenario.json can be pasted back into one.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// MarshalYAML writes a duration as a file does.
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

// UnmarshalJSON reads what MarshalJSON writes.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a duration is text such as \"3s\": %w", err)
	}
	v, err := time.ParseDuration(s)
	*d = Duration(v)
	return err
}

// UnmarshalYAML implements yaml.Unmarshaler.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	*d = Duration(v)
	return nil
}

// Parse reads and validates a scenario; name is its file's path, for
// problems and for the files it names (extends, a contract). Every problem
// of the file (and of what it extends) is in the error, a Problems, each at
// its file, line and column.
func Parse(name string, data []byte) (Scenario, error) {
	if data == nil {
		data = []byte{}
	}
	return parseAt(name, data, time.Now())
}

// parseAt reads a scenario whose {$date} values resolve against now when
// it fixes no clock of its own.
func parseAt(name string, data []byte, now time.Time) (Scenario, error) {
	t, probs := readTree(name, data, now)
	if len(probs) > 0 {
		return Scenario{}, probs.sorted()
	}
	var p problems
	checkSchema(t, &p)
	var sc Scenario
	if err := t.root.Decode(&sc); err != nil {
		if p.empty() {
			decodeProblems(err, &p)
		}
		return Scenario{}, p.placed(name, t).sorted()
	}
	if t.today != "" {
		sc.Today = t.today
	}
	sc.File, sc.Extends = name, ""
	sc.Deprecated = t.deprecated
	if sc.Family == "" {
		sc.Family, _, _ = strings.Cut(sc.ID, ".")
	}
	if c := sc.Expect.Catalog; c != nil && c.Contract != nil {
		at := pathOf("expect", "catalog", "contract")
		file, _, _ := t.locate(at, false)
		if err := c.Contract.loadContract(file); err != nil {
			p.bad(at, "%v", strings.TrimPrefix(err.Error(), "expect.catalog.contract: "))
		}
	}
	if sc.SignIn != nil {
		sc.SignIn.From, _, _ = t.locate(pathOf("signin"), false)
	}
	sc.asTranscript()
	var meaning problems
	sc.validate(&meaning)
	sc.checkToolNames(&meaning)
	return sc, joinProblems(name, t, p, meaning)
}

// joinProblems places the schema's problems and the meaning's together;
// where both name one key, the meaning's says more and is kept.
func joinProblems(name string, t *tree, schema, meaning problems) error {
	said := map[string]bool{}
	for _, kp := range meaning.list {
		said[kp.at.String()] = true
	}
	var all problems
	for _, kp := range schema.list {
		if !said[kp.at.String()] {
			all.list = append(all.list, kp)
		}
	}
	all.list = append(all.list, meaning.list...)
	if all.empty() {
		return nil
	}
	return all.placed(name, t).sorted()
}

// decodeProblems words what the decoder refused (the schema lets little
// through to it): at the place it names, without Go's type names.
func decodeProblems(err error, p *problems) {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		for _, ue := range te.Errors {
			line, column := ue.Line, ue.Column
			msg := ue.Err.Error()
			var inner int
			if _, err := fmt.Sscanf(strings.TrimPrefix(msg, "yaml: "), "line %d:", &inner); err == nil && inner != line {
				line, column = inner, 0 // the value's own line, written in the message
			}
			p.list = append(p.list, keyedProblem{message: cleanDecodeMessage(msg), line: line, column: column})
		}
		return
	}
	p.bad(nil, "%s", cleanDecodeMessage(err.Error()))
}

var goTypeWords = regexp.MustCompile(`\s+(into|in type)\s+[\w.*\[\]]+`)

func cleanDecodeMessage(msg string) string {
	msg = strings.TrimPrefix(msg, "yaml: ")
	for {
		var n int
		if _, err := fmt.Sscanf(msg, "line %d:", &n); err != nil {
			break
		}
		_, msg, _ = strings.Cut(msg, ":")
		msg = strings.TrimSpace(msg)
	}
	msg = goTypeWords.ReplaceAllString(msg, " here")
	for tag, word := range map[string]string{"!!seq": "a list", "!!map": "a mapping", "!!str": "text", "!!int": "a number", "!!float": "a number", "!!bool": "true or false"} {
		msg = strings.ReplaceAll(msg, tag, word)
	}
	return msg
}
