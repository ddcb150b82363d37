package lint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaURL is where a tool's schema is placed for the compiler: a name of
// our own in a reserved domain, never fetched.
const schemaURL = "https://agentready.invalid/input-schema.json"

// refuseLoader loads nothing: a page's schema must not make the linter read
// a file or fetch a URL ($ref to anything outside the schema fails instead).
// The metaschemas come embedded in the library.
type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("agentready does not load %s: a tool's schema should stand alone", url)
}

// schemaProblems answers what is wrong with a tool's input schema: it must
// be a JSON Schema (compiled against draft 2020-12's metaschema, or the
// draft its $schema names), an object schema with "type": "object" and
// "properties", and every required name must be a property. Nil when fine.
func schemaProblems(raw json.RawMessage) []string {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return []string{"it is not JSON: " + err.Error()}
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(refuseLoader{})
	var problems []string
	if err := c.AddResource(schemaURL, doc); err != nil {
		return []string{"it is not a JSON Schema: " + oneLine(err)}
	}
	if _, err := c.Compile(schemaURL); err != nil {
		problems = append(problems, "it is not a valid JSON Schema: "+oneLine(err))
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return append(problems, fmt.Sprintf("it is %s, not a schema object", jsonKind(doc)))
	}
	if t, ok := obj["type"].(string); !ok || t != "object" {
		if obj["type"] == nil {
			problems = append(problems, `it has no "type": "object"`)
		} else {
			problems = append(problems, fmt.Sprintf(`its "type" is %s, not "object"`, compact(obj["type"])))
		}
	}
	props, ok := obj["properties"].(map[string]any)
	if !ok {
		problems = append(problems, `it has no "properties" object`)
	}
	if req, ok := obj["required"].([]any); ok {
		var missing []string
		for _, r := range req {
			name, isString := r.(string)
			if _, isProp := props[name]; !isString || !isProp {
				missing = append(missing, compact(r))
			}
		}
		if len(missing) > 0 {
			problems = append(problems, fmt.Sprintf(`"required" names %s, not among its properties`, strings.Join(missing, ", ")))
		}
	}
	return problems
}

// propertyNames answers a schema's top-level property names, sorted, and
// which of them have no description.
func propertyNames(raw json.RawMessage) (names, undescribed []string) {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(raw, &s) != nil {
		return nil, nil
	}
	for name, prop := range s.Properties {
		names = append(names, name)
		var p struct {
			Description string `json:"description"`
		}
		if json.Unmarshal(prop, &p) != nil || blank(p.Description) {
			undescribed = append(undescribed, name)
		}
	}
	slices.Sort(names)
	slices.Sort(undescribed)
	return names, undescribed
}

// oneLine flattens the library's error into one line: the leaves of its
// tree of causes (where the schema breaks the metaschema), without the
// made-up URL of the schema.
func oneLine(err error) string {
	var sve *jsonschema.SchemaValidationError
	if errors.As(err, &sve) {
		err = sve.Err
	}
	var msgs []string
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		var leaves func(*jsonschema.ValidationError)
		leaves = func(e *jsonschema.ValidationError) {
			if len(e.Causes) == 0 {
				if m := e.Error(); !slices.Contains(msgs, m) {
					msgs = append(msgs, m)
				}
			}
			for _, c := range e.Causes {
				leaves(c)
			}
		}
		leaves(ve)
	} else {
		msgs = strings.Split(err.Error(), "\n")
	}
	for i, m := range msgs {
		msgs[i] = strings.ReplaceAll(strings.TrimSpace(m), schemaURL, "the schema")
	}
	return strings.Join(msgs, "; ")
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "a number"
}

func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
