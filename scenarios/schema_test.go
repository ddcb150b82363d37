package scenarios

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	yamlv3 "go.yaml.in/yaml/v3"
)

// editorSchema compiles scenario.schema.json from its file as an editor
// does (the whole document, if/then/else and all), apart from the loader.
func editorSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(mustRead(t, SchemaFile)))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("file:///scenario.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("file:///scenario.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// asAnEditorReadsIt is a file's YAML as a YAML 1.2 editor hands it to a
// JSON Schema validator: another YAML library than the loader's, a
// timestamp as its text, nothing written out.
func asAnEditorReadsIt(t *testing.T, path string) (any, error) {
	t.Helper()
	var v any
	if err := yamlv3.Unmarshal(mustRead(t, path), &v); err != nil {
		return nil, err
	}
	var fix func(any) any
	fix = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				v[k] = fix(x)
			}
		case []any:
			for i, x := range v {
				v[i] = fix(x)
			}
		case time.Time:
			return v.Format(time.RFC3339)
		}
		return v
	}
	return fix(v), nil
}

// repositoryScenarioFiles are every scenario file of the repository.
func repositoryScenarioFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != ".." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "broken" || d.Name() == "deprecated") {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) && isScenarioFile(p) {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 50 {
		t.Fatalf("only %d scenario files found", len(out))
	}
	return out
}

// isScenarioFile tells a scenario from the repository's other YAML (CI
// workflows): a scenario names the schema on its first line.
func isScenarioFile(p string) bool {
	b, err := os.ReadFile(p)
	return err == nil && bytes.HasPrefix(b, []byte("# yaml-language-server: $schema="))
}

func TestEveryScenarioFileOfTheRepositoryValidatesAgainstTheSchema(t *testing.T) {
	s := editorSchema(t)
	for _, p := range repositoryScenarioFiles(t) {
		v, err := asAnEditorReadsIt(t, p)
		if err != nil {
			t.Errorf("%s is no YAML an editor reads: %v", p, err)
			continue
		}
		if err := s.Validate(v); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		sc, err := Load(p)
		if err != nil {
			t.Errorf("%s does not load: %v", p, err)
		}
		for _, w := range ofFile(p, sc.Deprecated) {
			t.Errorf("the repository writes a deprecated spelling: %v", w)
		}
	}
}

// Every YAML file of the repository that is a scenario says so: it names
// the schema on its first line, by a path that reaches it.
func TestEveryScenarioFileNamesTheSchema(t *testing.T) {
	var missing []string
	_ = filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if d.IsDir() && p != ".." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) || strings.Contains(p, string(filepath.Separator)+"ci"+string(filepath.Separator)) ||
			d.Name() == FolderFile { // a folder's shared file, not a scenario
			return nil
		}
		first, _, _ := strings.Cut(string(mustRead(t, p)), "\n")
		ref, ok := strings.CutPrefix(first, "# yaml-language-server: $schema=")
		if !ok {
			missing = append(missing, p)
			return nil
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(p), ref)); err != nil || filepath.Base(ref) != SchemaFile {
			t.Errorf("%s names %s, which is not the schema", p, ref)
		}
		return nil
	})
	if len(missing) > 0 {
		t.Errorf("these files do not name the schema on their first line: %s", strings.Join(missing, ", "))
	}
}

var (
	wantLine    = regexp.MustCompile(`(?m)^# want: (.+)$`)
	pointerLine = regexp.MustCompile(`(?m)^# pointer: (.+)$`)
	schemaNo    = regexp.MustCompile(`(?m)^# schema: no`)
)

// Each broken file says what agentready check says of it (file:line:col,
// key and message) and where an editor's validation points (a JSON
// pointer), or that it is beyond the schema; both must hold.
func TestBrokenFilesFailAtTheirPlaceInTheLoaderAndInAnEditor(t *testing.T) {
	s := editorSchema(t)
	files, _ := filepath.Glob("testdata/broken/*.yaml")
	if len(files) < 8 {
		t.Fatalf("only %d broken files", len(files))
	}
	for _, p := range files {
		t.Run(filepath.Base(p), func(t *testing.T) {
			text := string(mustRead(t, p))
			want := wantLine.FindStringSubmatch(text)
			if want == nil {
				t.Fatal("the file says nothing it wants (# want: …)")
			}
			_, err := Load(p)
			if err == nil || !strings.Contains(err.Error(), filepath.Dir(p)+"/"+strings.TrimSpace(want[1])) {
				t.Errorf("loading says\n%v\nwant %q", err, want[1])
			}
			v, yerr := asAnEditorReadsIt(t, p)
			ptr := pointerLine.FindStringSubmatch(text)
			switch {
			case ptr != nil:
				if yerr != nil {
					t.Fatalf("an editor reads no YAML: %v", yerr)
				}
				err := s.Validate(v)
				var ve *jsonschema.ValidationError
				if !errors.As(err, &ve) {
					t.Fatalf("the schema lets it through: %v", err)
				}
				if !pointsAt(ve, strings.TrimSpace(ptr[1])) {
					t.Errorf("the schema does not point at %s: %v", ptr[1], err)
				}
			case schemaNo.MatchString(text):
				if yerr == nil && s.Validate(v) != nil && !strings.Contains(text, "YAML:") {
					t.Logf("beyond the schema, and the schema refuses it too: %v", s.Validate(v))
				}
			default:
				t.Fatal("the file says neither where the schema points (# pointer:) nor that it is beyond it (# schema: no)")
			}
		})
	}
}

// pointsAt tells whether a validation error (or one of its causes) is at
// the pointer.
func pointsAt(ve *jsonschema.ValidationError, ptr string) bool {
	at := "/" + strings.Join(ve.InstanceLocation, "/")
	if at == ptr || at == "/" && ptr == "" {
		return true
	}
	if k, ok := ve.ErrorKind.(*kind.AdditionalProperties); ok { // at the mapping, naming its key
		for _, name := range k.Properties {
			if strings.TrimSuffix(at, "/")+"/"+name == ptr {
				return true
			}
		}
	}
	for _, c := range ve.Causes {
		if pointsAt(c, ptr) {
			return true
		}
	}
	return false
}

// Every key of the schema has a description and examples, for an editor's
// hover and completion, and every example fits its key.
func TestEveryKeyHasADescriptionAndExamplesThatFitIt(t *testing.T) {
	var doc struct {
		Defs map[string]struct {
			Properties map[string]map[string]any `json:"properties"`
			OneOf      []struct {
				Properties map[string]map[string]any `json:"properties"`
			} `json:"oneOf"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(mustRead(t, SchemaFile), &doc); err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	raw, _ := jsonschema.UnmarshalJSON(bytes.NewReader(mustRead(t, SchemaFile)))
	if err := c.AddResource(schemaID, raw); err != nil {
		t.Fatal(err)
	}
	keys := 0
	for name, def := range doc.Defs {
		if strings.HasSuffix(name, "Patch") {
			continue
		}
		props := map[string]map[string]any{}
		for k, v := range def.Properties {
			props["properties/"+k] = v
		}
		for i, alt := range def.OneOf {
			for k, v := range alt.Properties {
				props[fmt.Sprintf("oneOf/%d/properties/%s", i, k)] = v
			}
		}
		for at, p := range props {
			keys++
			key := name + "/" + at
			if d, _ := p["description"].(string); strings.TrimSpace(d) == "" {
				t.Errorf("%s has no description", key)
			}
			examples, _ := p["examples"].([]any)
			if len(examples) == 0 {
				t.Errorf("%s has no examples", key)
				continue
			}
			sch, err := c.Compile(schemaID + "#/$defs/" + name + "/" + strings.ReplaceAll(at, "$", "%24"))
			if err != nil {
				t.Errorf("%s: %v", key, err)
				continue
			}
			for _, e := range examples {
				if err := sch.Validate(e); err != nil {
					t.Errorf("%s: the example %v does not fit: %v", key, e, err)
				}
			}
		}
	}
	if keys < 100 {
		t.Errorf("only %d keys", keys)
	}
}
