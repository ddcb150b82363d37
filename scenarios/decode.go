package scenarios

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
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
			return fmt.Errorf("line %d: csrf is true or {meta, header}", n.Line)
		}
		if on {
			*c = CSRF{Meta: "csrf-token", Header: "X-CSRF-Token"}
		}
		return nil
	}
	type plain CSRF
	return n.Decode((*plain)(c))
}

// UnmarshalYAML reads a path or an inline contract.
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
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("line %d: the contract: %w", n.Line, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c.Contract); err != nil {
		return fmt.Errorf("line %d: not a tool contract: %w", n.Line, err)
	}
	return nil
}

// loadContract reads a contract file named relative to the scenario file.
func (c *ContractRef) loadContract(scenarioFile string) error {
	if c.File == "" {
		return nil
	}
	path := c.File
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(scenarioFile), path)
	}
	data, err := os.ReadFile(path)
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

// UnmarshalYAML implements yaml.Unmarshaler.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	*d = Duration(v)
	return nil
}

// Parse reads and validates a scenario; name is used in error messages.
func Parse(name string, data []byte) (Scenario, error) {
	data, today, err := resolveDates(data, time.Now())
	if err != nil {
		return Scenario{}, fmt.Errorf("%s: %w", name, err)
	}
	sc := Scenario{Today: today}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&sc); err != nil {
		return Scenario{}, fmt.Errorf("%s: %s", name, strings.ReplaceAll(err.Error(), "\n ", "\n   "))
	}
	sc.File = name
	if sc.Family == "" {
		sc.Family, _, _ = strings.Cut(sc.ID, ".")
	}
	if c := sc.Expect.Catalog; c != nil && c.Contract != nil {
		if err := c.Contract.loadContract(name); err != nil {
			return Scenario{}, fmt.Errorf("%s: %w", name, err)
		}
	}
	if err := sc.Validate(); err != nil {
		return Scenario{}, fmt.Errorf("%s: %w", name, err)
	}
	return sc, nil
}
