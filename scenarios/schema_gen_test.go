package scenarios

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"
	orderedmap "github.com/pb33f/ordered-map/v2"
	"go.yaml.in/yaml/v4"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios/vocab"
)

// The scenario file's JSON Schema is generated from the Go types: the
// yaml tags name the keys, the Go comments describe them, and an examples
// tag on each field gives its examples (a YAML flow sequence). Types whose
// file form is not their Go form (they have their own UnmarshalYAML) get
// their schema here, beside the reflection, from what that UnmarshalYAML
// reads. TestTheSchemaIsGenerated fails when scenario.schema.json is not
// what this writes; `go test ./scenarios -run TestTheSchemaIsGenerated
// -update` writes it (docs/decisions/2026-12-01-scenario-files.md).

var updateSchema = flag.Bool("update", false, "rewrite scenario.schema.json from the Go types")

func TestTheSchemaIsGenerated(t *testing.T) {
	got, err := generateSchema()
	if err != nil {
		t.Fatal(err)
	}
	if *updateSchema {
		if err := os.WriteFile(SchemaFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(got, schemaJSON) {
		t.Fatalf("%s is not what the Go types make of it: run go test ./scenarios -run TestTheSchemaIsGenerated -update, and commit it", SchemaFile)
	}
}

func generateSchema() ([]byte, error) {
	r := &jsonschema.Reflector{
		FieldNameTag:               "yaml",
		RequiredFromJSONSchemaTags: true,
		Anonymous:                  true,
		Namer:                      schemaName,
		Mapper:                     refToScalar,
	}
	if err := r.AddGoComments("github.com/agentready/agentready/scenarios", "."); err != nil {
		return nil, err
	}
	root := r.Reflect(Scenario{})
	defs := root.Definitions
	for _, t := range scalarTypes {
		defs[schemaName(t)] = scalarSchema(t)
	}
	if err := addExamples(defs); err != nil {
		return nil, err
	}
	fileForms(defs)
	hoistNullable(defs)
	textTakesScalars(defs)
	for name, d := range defs {
		d.Description = withoutGoName(name, d.Description)
	}
	if err := contractSchema(defs); err != nil {
		return nil, err
	}
	full := defs["Scenario"]
	required := full.Required
	full.Required = nil
	// The file: a scenario, or (with extends) a merge patch of one.
	top := &jsonschema.Schema{
		Version:     jsonschema.Version,
		ID:          jsonschema.ID(schemaID),
		Title:       "agentready scenario",
		Description: "A scenario file of agentready (scenarios/README.md): the start page, the prompt, the agent's transcript, a person's steps and what must then be true. With extends, the file is a merge patch (RFC 7396) of the scenario it names.",
		If:          &jsonschema.Schema{Required: []string{ExtendsKey}},
		Then:        &jsonschema.Schema{Ref: "#/$defs/ScenarioPatch"},
		Else:        &jsonschema.Schema{Ref: "#/$defs/Scenario", Required: required},
		Definitions: defs,
	}
	patches(defs)
	b, err := json.MarshalIndent(top, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// schemaName names a definition: List[T] is a list of T's.
func schemaName(t reflect.Type) string {
	name := t.Name()
	if i := strings.Index(name, "["); i >= 0 {
		elem := name[i+1 : len(name)-1]
		elem = elem[strings.LastIndex(elem, ".")+1:]
		return name[:i] + "Of" + strings.ToUpper(elem[:1]) + elem[1:]
	}
	return name
}

func enumOf[T ~string](desc string, values ...T) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "string", Description: desc}
	for _, v := range values {
		s.Enum = append(s.Enum, string(v))
	}
	return s
}

// scalarTypes are the types whose schema scalarSchema writes: the
// vocabulary's words, and types a file writes otherwise than Go holds them.
var scalarTypes = []reflect.Type{
	reflect.TypeFor[vocab.Phase](), reflect.TypeFor[vocab.Transport](), reflect.TypeFor[vocab.Status](),
	reflect.TypeFor[vocab.Outcome](), reflect.TypeFor[vocab.Code](), reflect.TypeFor[vocab.Link](),
	reflect.TypeFor[MergeRule](), reflect.TypeFor[Match](), reflect.TypeFor[Duration](),
	reflect.TypeFor[RequestLine](), reflect.TypeFor[SchemaMatch](),
	reflect.TypeFor[vocab.AttackPattern](), reflect.TypeFor[vocab.AttackPlace](),
}

// refToScalar refers to the definition of a scalar type.
func refToScalar(t reflect.Type) *jsonschema.Schema {
	if slices.Contains(scalarTypes, t) {
		return &jsonschema.Schema{Ref: "#/$defs/" + schemaName(t)}
	}
	return nil
}

// scalarSchema is the schema of the vocabulary's words and of the types a
// file writes otherwise than Go holds them.
func scalarSchema(t reflect.Type) *jsonschema.Schema {
	switch t {
	case reflect.TypeFor[vocab.Phase]():
		return enumOf("A phase of the run: agent (the agent's calls and the review after them), human (the person's steps), leave (the person hides and leaves the page), or all of them.", vocab.PhaseAgent, vocab.PhaseHuman, vocab.PhaseLeave, vocab.PhaseAll)
	case reflect.TypeFor[vocab.Transport]():
		return enumOf("How a call is made: page or cdp.", vocab.PageAPI, vocab.CDP)
	case reflect.TypeFor[vocab.Status]():
		return enumOf("How a call ended.", vocab.Completed, vocab.Failed, vocab.Canceled, vocab.NoResponse)
	case reflect.TypeFor[vocab.Outcome]():
		return enumOf("A verdict's outcome.", vocab.Pass, vocab.Fail, vocab.Inconclusive)
	case reflect.TypeFor[vocab.Code]():
		return enumOf("A failure code (scenarios/README.md, Failure codes).", slices.Sorted(maps.Keys(vocab.Codes))...)
	case reflect.TypeFor[vocab.Link]():
		var links []vocab.Link
		for _, l := range vocab.Chain {
			links = append(links, l.Link)
		}
		return enumOf("A link of the recorded chain (scenarios/README.md, Where a failure departs).", links...)
	case reflect.TypeFor[vocab.AttackPattern]():
		return enumOf("An injection pattern of the catalogue (vocab.Attacks; scenarios/README.md, \"…that the agent is under attack?\").", vocab.AttackPatterns()...)
	case reflect.TypeFor[vocab.AttackPlace]():
		return enumOf("Where the harness plants the text: a tool's result, the page's text, or a tool's description.", vocab.AttackPlaces()...)
	case reflect.TypeFor[MergeRule]():
		return enumOf("How an API applies a body to a resource.", MergePatch, JSONPatch, Replace)
	case reflect.TypeFor[Match]():
		return enumOf("How an output is compared.", MatchSubset, MatchExact, MatchConstraints)
	case reflect.TypeFor[Duration]():
		return &jsonschema.Schema{Type: "string", Pattern: `^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$|^0$`,
			Description: "A duration as Go writes one: 3s, 500ms, 1m30s; 0s for none.", Examples: []any{"3s", "500ms"}}
	case reflect.TypeFor[RequestLine]():
		return &jsonschema.Schema{
			Description: `A request: "METHOD /path" (the method in any case; the path a path.Match pattern where requests are matched). {method, path} is read as the same line.`,
			OneOf: []*jsonschema.Schema{
				{Type: "string", Pattern: `^\s*[A-Za-z]+\s+/`, Description: `"METHOD /path"`, Examples: []any{"POST /api/orders", "GET /api/events/evt-1"}},
				{Type: "object", Description: "{method, path}: sugar for the line \"METHOD /path\"",
					Properties: props(
						"method", &jsonschema.Schema{Type: "string", Pattern: `^[A-Za-z]+$`, Description: "The HTTP method.", Examples: []any{"POST"}},
						"path", &jsonschema.Schema{Type: "string", Pattern: `^/`, Description: "The path, starting with /.", Examples: []any{"/api/orders"}}),
					Required: []string{"method", "path"}, AdditionalProperties: jsonschema.FalseSchema,
					Examples: []any{map[string]any{"method": "POST", "path": "/api/orders"}}},
			},
		}
	case reflect.TypeFor[SchemaMatch]():
		mode := enumOf("exact or subset (contains: the earlier spelling of subset)", MatchExact, MatchSubset, MatchContains)
		return &jsonschema.Schema{
			Description: "How catalog.schemas are compared: one word for every schema, or tool → word (the tools not named: exact).",
			OneOf: []*jsonschema.Schema{mode, {Type: "object", AdditionalProperties: mode, Description: "tool → exact or subset",
				Examples: []any{map[string]any{"prepare_order": "subset"}}}},
		}
	}
	return nil
}

func props(kv ...any) *orderedmap.OrderedMap[string, *jsonschema.Schema] {
	p := jsonschema.NewProperties()
	for i := 0; i+1 < len(kv); i += 2 {
		p.Set(kv[i].(string), kv[i+1].(*jsonschema.Schema))
	}
	return p
}

// addExamples sets each property's examples from its field's examples tag.
func addExamples(defs jsonschema.Definitions) error {
	var errs []string
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] || t.PkgPath() != reflect.TypeFor[Scenario]().PkgPath() {
			return
		}
		seen[t] = true
		def := defs[schemaName(t)]
		for i := range t.NumField() {
			f := t.Field(i)
			walk(f.Type)
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			tag, ok := f.Tag.Lookup("examples")
			if name == "-" || name == "" || def == nil {
				continue
			}
			if !ok {
				errs = append(errs, fmt.Sprintf("%s.%s has no examples tag", t.Name(), f.Name))
				continue
			}
			var examples []any
			if err := yaml.Unmarshal([]byte(tag), &examples); err != nil || len(examples) == 0 {
				errs = append(errs, fmt.Sprintf("%s.%s: examples %q is not a YAML list of examples: %v", t.Name(), f.Name, tag, err))
				continue
			}
			prop, _ := def.Properties.Get(name)
			for _, e := range examples {
				prop.Examples = append(prop.Examples, jsonOf(e))
			}
		}
	}
	walk(reflect.TypeFor[Scenario]())
	walk(reflect.TypeFor[requestExpectFile]())
	walk(reflect.TypeFor[directRequestFile]())
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return nil
}

// jsonOf writes a YAML value as JSON holds it (keys as text).
func jsonOf(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			out[k] = jsonOf(x)
		}
		return out
	case map[any]any:
		out := map[string]any{}
		for k, x := range v {
			out[fmt.Sprint(k)] = jsonOf(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = jsonOf(x)
		}
		return out
	}
	return v
}

// fileForms writes into the reflected definitions what each type's
// UnmarshalYAML reads besides its fields.
func fileForms(defs jsonschema.Definitions) {
	request := func(desc string, examples ...any) *jsonschema.Schema {
		return &jsonschema.Schema{Ref: "#/$defs/RequestLine", Description: desc, Examples: examples}
	}
	// A count and a request sent name their request by its line.
	withFirst := func(def *jsonschema.Schema, name string, s *jsonschema.Schema) {
		p := jsonschema.NewProperties()
		p.Set(name, s)
		for k, v := range def.Properties.FromOldest() {
			p.Set(k, v)
		}
		def.Properties = p
		def.Required = append([]string{name}, def.Required...)
	}
	withFirst(defs["RequestExpect"], "request", request(`The requests counted: "METHOD /path", the path a path.Match pattern (/api/drafts/*).`, "POST /api/orders"))
	withFirst(defs["DirectRequest"], "request", request(`The request sent: "METHOD /path".`, "POST /api/tasks"))

	// A call's output is any JSON value.
	x := defs["CallExpect"]
	x.Properties.Set("output", &jsonschema.Schema{
		Description: "What the result must match (by match): a JSON value of any shape — object, array, text, number, boolean or null. Constraints ({$pattern: …}, {$gte: 1}) are allowed.",
		Examples:    []any{map[string]any{"code": "CONFIRMATION_REQUIRED"}, []any{map[string]any{"field": "address", "code": "REQUIRED"}}},
	})

	// A step does exactly one thing.
	one := uint64(1)
	defs["Step"].MinProperties, defs["Step"].MaxProperties = &one, &one

	// Words for a whole mapping: a prompt value as text, csrf: true,
	// calls: as_transcript.
	alsoScalar := func(name string, scalar *jsonschema.Schema) {
		obj := *defs[name]
		desc := obj.Description
		obj.Description = ""
		defs[name] = &jsonschema.Schema{Description: desc, OneOf: []*jsonschema.Schema{scalar, &obj}}
	}
	alsoScalar("PromptValue", &jsonschema.Schema{Type: "string", Description: "The value, which must appear in the prompt.", Examples: []any{"reader@example.com"}})
	alsoScalar("CSRF", &jsonschema.Schema{Type: "boolean", Description: "true: <meta name=\"csrf-token\"> and X-CSRF-Token; false: none.", Examples: []any{true}})
	alsoScalar("CallsExpect", &jsonschema.Schema{Const: CallsAsTranscript, Description: "The transcript's calls (agent.calls), in order, each with its input as written (a call without input: any input), exactly: so that the transcript is not restated.", Examples: []any{CallsAsTranscript}})

	// A day that does not expire, {$date: today+7d}, is written where a
	// text goes (it is written out as the file loads).
	defs["DateValue"] = &jsonschema.Schema{Type: "object",
		Description: "A day relative to the scenario's clock or the run's start, written out when the file loads: {$date: today+7d} (today, or today±N followed by d, w, mo or y), with $format in Go's layout for another form than 2006-01-02; with $time, an instant: that time of day in $zone (UTC when none), written in $in (else $zone) as RFC 3339. On one line.",
		Properties: props(
			"$date", &jsonschema.Schema{Type: "string", Pattern: `^today([+-][0-9]+(d|w|mo|y))?$`, Description: "today, or today±N followed by d, w, mo or y.", Examples: []any{"today+7d"}},
			"$format", &jsonschema.Schema{Type: "string", Description: "Go's layout for the day, such as 02/01/2006.", Examples: []any{"02/01/2006"}},
			"$time", &jsonschema.Schema{Type: "string", Pattern: `^[0-9]{2}:[0-9]{2}(:[0-9]{2})?$`, Description: "A time of day, HH:MM or HH:MM:SS, in $zone: the value is then an instant.", Examples: []any{"18:30"}},
			"$zone", &jsonschema.Schema{Type: "string", Description: "An IANA time zone: today is that zone's day, and $time that zone's time (summer time included).", Examples: []any{"Europe/Berlin"}},
			"$in", &jsonschema.Schema{Type: "string", Description: "The IANA time zone the instant is written in (default: $zone).", Examples: []any{"UTC"}}),
		Required: []string{"$date"}, AdditionalProperties: jsonschema.FalseSchema,
		Examples: []any{map[string]any{"$date": "today+7d"}}}
	orDate := func(s *jsonschema.Schema) *jsonschema.Schema {
		return &jsonschema.Schema{Description: s.Description, Examples: s.Examples, AnyOf: []*jsonschema.Schema{{Type: s.Type}, {Ref: "#/$defs/DateValue"}}}
	}
	pv := defs["PromptValue"]
	pv.OneOf = append(pv.OneOf[:1], append([]*jsonschema.Schema{{Ref: "#/$defs/DateValue"}}, pv.OneOf[1:]...)...)
	pv.OneOf[2].Properties.Set("value", orDate(pv.OneOf[2].Properties.Value("value")))
	defs["Step"].Properties.Value("fill").AdditionalProperties = orDate(defs["Step"].Properties.Value("fill").AdditionalProperties)
	for _, key := range []string{"value", "text_contains"} {
		defs["UI"].Properties.Set(key, orDate(defs["UI"].Properties.Value(key)))
	}

	// An output's match and a schema's are different words of one type.
	defs["CallExpect"].Properties.Value("match").Enum = []any{string(MatchSubset), string(MatchExact), string(MatchConstraints)}

	// Phases a snapshot is taken after: agent and human.
	judged := &jsonschema.Schema{Type: "string", Enum: []any{string(vocab.PhaseAgent), string(vocab.PhaseHuman)}}
	for _, key := range []string{"state", "ui", "page"} {
		defs["Expect"].Properties.Value(key).PropertyNames = judged
	}
	// Writes are counted in every window, the leave phase's too.
	defs["Expect"].Properties.Value("writes").PropertyNames = &jsonschema.Schema{Type: "string", Enum: []any{string(vocab.PhaseAgent), string(vocab.PhaseHuman), string(vocab.PhaseLeave)}}
}

// contractSchema is a tool contract: a file's path, the contract inline
// (as its JSON file is written), or the bundle's {file, contract}.
func contractSchema(defs jsonschema.Definitions) error {
	r := &jsonschema.Reflector{Anonymous: true, DoNotReference: true, AllowAdditionalProperties: false}
	c := r.Reflect(record.Contract{})
	c.Version = ""
	c.Description = "A tool contract, as agentready catalog --update-contract writes it: every tool of the page with its name, description, declarative, inputSchema and annotations."
	example := map[string]any{"tools": []any{map[string]any{"name": "add_task", "description": "Add a task", "declarative": false, "annotations": map[string]any{}}}}
	c.Examples = []any{example}
	if p, ok := c.Properties.Get("page"); ok {
		p.Description, p.Examples = "Where the contract was read, for people.", []any{"http://127.0.0.1:8080/tasks"}
	}
	if p, ok := c.Properties.Get("tools"); ok {
		p.Description, p.Examples = "Every tool of the page, in name order: name, description, declarative, inputSchema, annotations.", example["tools"].([]any)[:1:1]
		p.Examples = []any{example["tools"]}
	}
	defs["ToolContract"] = c
	defs["ContractRef"] = &jsonschema.Schema{
		Description: "A tool contract: a JSON file's path relative to the scenario, the contract inline, or {file, contract} as a bundle writes it.",
		OneOf: []*jsonschema.Schema{
			{Type: "string", Description: "The contract file's path, relative to the scenario file.", Examples: []any{"contracts/tasks.json"}},
			{Ref: "#/$defs/ToolContract"},
			{Type: "object", Description: "The contract as a bundle holds it: the file it was read from, and its contents.",
				Properties: props(
					"file", &jsonschema.Schema{Type: "string", Description: "The file it was read from.", Examples: []any{"contracts/tasks.json"}},
					"contract", &jsonschema.Schema{Ref: "#/$defs/ToolContract", Description: "The contract as it was read.", Examples: []any{example}}),
				Required: []string{"contract"}, AdditionalProperties: jsonschema.FalseSchema},
		},
	}
	return nil
}

// patches adds, for each definition of a mapping, its form in a merge
// patch: every key optional, null allowed (it removes the key), and the
// mappings within in their patch form. Lists and everything else are
// replaced whole, so they keep their own form.
func patches(defs jsonschema.Definitions) {
	names := slices.Sorted(maps.Keys(defs))
	isObject := func(name string) bool {
		d := defs[name]
		return d != nil && d.Type == "object" && d.Properties != nil
	}
	var patchOf func(s *jsonschema.Schema) *jsonschema.Schema
	patchOf = func(s *jsonschema.Schema) *jsonschema.Schema {
		if s == nil {
			return nil
		}
		if name, ok := strings.CutPrefix(s.Ref, "#/$defs/"); ok && isObject(name) {
			c := *s
			c.Ref = "#/$defs/" + name + "Patch"
			return &c
		}
		if s.Type == "object" && s.AdditionalProperties != nil && s.AdditionalProperties != jsonschema.FalseSchema && s.Properties == nil {
			c := *s
			c.AdditionalProperties = nullable(patchOf(s.AdditionalProperties))
			return &c
		}
		return s
	}
	for _, name := range names {
		if !isObject(name) {
			continue
		}
		d := *defs[name]
		d.Required = nil
		p := jsonschema.NewProperties()
		for k, v := range d.Properties.FromOldest() {
			p.Set(k, nullable(patchOf(v)))
		}
		d.Properties = p
		d.Description = "In a merge patch: " + d.Description
		d.MinProperties, d.MaxProperties = nil, nil
		defs[name+"Patch"] = &d
	}
}

// nullable lets a patch write null (remove the key) where s goes.
func nullable(s *jsonschema.Schema) *jsonschema.Schema {
	return &jsonschema.Schema{Description: s.Description, Examples: s.Examples, AnyOf: []*jsonschema.Schema{{Type: "null", Description: "null removes the key"}, s}}
}

// textTakesScalars lets every key that takes free text take a number or
// true/false as well, as its text: YAML users write passengers: 2 and
// must_mention: [11] bare, and the decoder reads them as written (issue
// 45). Text of a fixed form stays text alone: a word of a vocabulary or a
// pattern in the schema, or a word or form the loader checks (wordKeys).
// A number where a number is meant stays a number.
func textTakesScalars(defs jsonschema.Definitions) {
	seen := map[*jsonschema.Schema]bool{}
	var walk func(s *jsonschema.Schema, key string)
	walk = func(s *jsonschema.Schema, key string) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		if s.Type == "string" && s.Enum == nil && s.Const == nil && s.Pattern == "" && s.Format == "" && !wordKeys[key] {
			s.Type = ""
			if s.Extras == nil {
				s.Extras = map[string]any{}
			}
			s.Extras["type"] = textScalars
		}
		if s.Properties != nil {
			for name, p := range s.Properties.FromOldest() {
				walk(p, name)
			}
		}
		for _, list := range [][]*jsonschema.Schema{s.OneOf, s.AnyOf, s.AllOf, s.PrefixItems} {
			for _, c := range list {
				walk(c, key)
			}
		}
		walk(s.Items, key)
		walk(s.AdditionalProperties, key)
		walk(s.Not, key)
		walk(s.If, key)
		walk(s.Then, key)
		walk(s.Else, key)
		for _, c := range s.PatternProperties {
			walk(c, key)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(defs)) {
		walk(defs[name], "")
	}
}

// wordKeys take a word or a form the loader checks (a URL, a path, a
// JSONPath, accept or dismiss): a number there is a mistake, said at once.
var wordKeys = map[string]bool{"start": true, "navigate": true, "origins": true, "app": true, "frame": true,
	"dialogs": true, "leave": true, "kind": true, "text_contains_state": true, "before": true,
	"storage_state": true, "variant": true}

// textScalars are the JSON kinds a text key takes.
var textScalars = []string{"string", "number", "boolean"}

// hoistNullable moves the description and examples of a key that may be
// null to the key, where an editor shows them.
func hoistNullable(defs jsonschema.Definitions) {
	for _, d := range defs {
		if d.Properties == nil {
			continue
		}
		for _, p := range d.Properties.FromOldest() {
			if len(p.OneOf) == 2 && p.OneOf[1].Type == "null" && p.Description == "" {
				p.Description, p.OneOf[0].Description = p.OneOf[0].Description, ""
				if len(p.Examples) == 0 {
					p.Examples, p.OneOf[0].Examples = p.OneOf[0].Examples, nil
				}
			}
		}
	}
}

// withoutGoName words a type's doc comment for a person writing a file:
// "RequestExpect counts requests…" is "Counts requests…".
func withoutGoName(name, desc string) string {
	for _, prefix := range []string{name + " is ", name + " are ", name + " "} {
		if rest, ok := strings.CutPrefix(desc, prefix); ok && rest != "" {
			return strings.ToUpper(rest[:1]) + rest[1:]
		}
	}
	return desc
}
