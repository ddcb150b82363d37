package inspector

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentready/agentready/scenarios"
)

// Options are what a trace does not say.
type Options struct {
	ID     string // the scenario's id
	Start  string // the page the trace was taken on: a URL or a path
	Source string // the trace file's name, for the header comment
}

// Scenario writes the trace as a scenario file: prompt, calls with inputs,
// final words, and expectations scaffolded from what the trace recorded.
// The file is loaded back before it is answered, so a scenario that would
// not load is an error, never a file.
func (t *Trace) Scenario(o Options) ([]byte, error) {
	start, origin, err := startPath(o.Start)
	if err != nil {
		return nil, err
	}
	doc := file{
		ID:         o.ID,
		Title:      "Imported from a Model Context Tool Inspector trace: " + shorten(t.Prompt, 60),
		Start:      start,
		Prompt:     t.Prompt,
		PromptData: t.promptData(),
		Agent:      agent{Final: t.Final},
	}
	declared := map[string]bool{}
	for _, d := range t.Tools {
		declared[d.Name] = true
	}
	var notes []string
	for i, c := range t.Calls {
		out := call{Tool: c.Tool, Input: c.Args, Expect: expectOf(c.Response)}
		doc.Agent.Calls = append(doc.Agent.Calls, out)
		doc.Expect.Calls.Exactly = append(doc.Expect.Calls.Exactly, sketch{Tool: c.Tool, Input: c.Args})
		switch r := c.Response; {
		case r == nil:
			notes = append(notes, fmt.Sprintf("call %d (%s): the trace holds no answer to it, so it expects nothing: did the tool never answer?", i, c.Tool))
		case r.IsError:
			notes = append(notes, fmt.Sprintf("call %d (%s): the Inspector met an error: %s", i, c.Tool, r.ErrorMsg))
		}
		if c.Frame != 0 {
			notes = append(notes, fmt.Sprintf("call %d (%s): the tool was in frame %d of the page (an iframe), not the top document", i, c.Tool, c.Frame))
		}
		if !declared[c.Tool] {
			notes = append(notes, fmt.Sprintf("call %d (%s): the model called a tool the Inspector never declared to it", i, c.Tool))
		}
		if doc.Expect.Case == nil && declared[c.Tool] {
			doc.Expect.Case = &caseTool{Tool: c.Tool}
		}
	}
	if len(t.Tools) > 0 {
		cat := &catalog{Exactly: []string{}, Schemas: map[string]map[string]any{}}
		for _, d := range t.Tools {
			if !slices.Contains(cat.Exactly, d.Name) {
				cat.Exactly = append(cat.Exactly, d.Name)
			}
			if d.Schema != nil {
				cat.Schemas[d.Name] = d.Schema
			}
		}
		slices.Sort(cat.Exactly)
		if len(cat.Schemas) == 0 {
			cat.Schemas = nil
		}
		doc.Expect.Catalog = cat
	}
	for _, e := range t.Errors {
		notes = append(notes, "the Inspector recorded an error: "+e)
	}
	if t.Final == nil {
		notes = append(notes, "the model's last response has no final words (final: null)")
	}

	var b strings.Builder
	fmt.Fprintf(&b, "# Imported by agentready import inspector from %s.\n", orDefault(o.Source, "a Model Context Tool Inspector trace"))
	fmt.Fprintf(&b, "# The prompt, the calls, their inputs and the final words are the trace's.\n")
	fmt.Fprintf(&b, "# The expectations are scaffolded from what it recorded: the declared tools\n")
	fmt.Fprintf(&b, "# and schemas, the calls, each answer. Edit them to say what must be true,\n")
	fmt.Fprintf(&b, "# and add what the trace cannot show: a person's steps (human), requests,\n")
	fmt.Fprintf(&b, "# guarded writes, state, ui, and answer (see scenarios/README.md).\n")
	if origin != "" {
		fmt.Fprintf(&b, "# Taken on %s: run it with --base-url %s.\n", o.Start, origin)
	}
	for _, n := range notes {
		fmt.Fprintf(&b, "# Note: %s\n", strings.ReplaceAll(n, "\n", " "))
	}
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	if _, err := scenarios.Parse(o.ID+".yaml", []byte(b.String())); err != nil {
		return nil, fmt.Errorf("the imported scenario does not load: %w", err)
	}
	return []byte(b.String()), nil
}

// expectOf scaffolds a call's expectation from the Inspector's answer: a
// result is what the call must answer (JSON as JSON, other text as text); an
// error expects an error; no answer, nothing.
func expectOf(r *Response) *callExpect {
	switch {
	case r == nil:
		return nil
	case r.IsError:
		return &callExpect{Status: "error"}
	}
	x := &callExpect{Status: "completed"}
	switch v := r.Result.(type) {
	case nil:
	case string:
		var parsed any
		if err := json.Unmarshal([]byte(v), &parsed); err == nil && parsed != nil {
			x.Output = parsed
		} else {
			x.OutputText = &v
		}
	default:
		x.Output = v
	}
	return x
}

// promptData scaffolds prompt_data: each call's top-level input value that
// the prompt says word for word, by parameter (the first call that gives a
// parameter wins).
func (t *Trace) promptData() map[string]string {
	out := map[string]string{}
	for _, c := range t.Calls {
		for k, v := range c.Args {
			var s string
			switch v := v.(type) {
			case string:
				s = v
			case float64:
				s = strconv.FormatFloat(v, 'f', -1, 64)
			default:
				continue
			}
			if _, taken := out[k]; taken || strings.TrimSpace(s) == "" {
				continue
			}
			if strings.Contains(strings.ToLower(t.Prompt), strings.ToLower(s)) {
				out[k] = s
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// startPath answers the scenario's start (a path) and, when start is a
// whole URL, its origin.
func startPath(start string) (path, origin string, err error) {
	if start == "" {
		return "", "", fmt.Errorf("--start is required: the page the trace was taken on (a URL or a path)")
	}
	u, err := url.Parse(start)
	if err != nil {
		return "", "", fmt.Errorf("--start %q: %w", start, err)
	}
	switch {
	case u.Scheme == "" && u.Host == "":
		if !strings.HasPrefix(start, "/") {
			return "", "", fmt.Errorf("--start %q is neither a URL (http://…) nor a path that starts with /", start)
		}
		return start, "", nil
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		return "", "", fmt.Errorf("--start %q is not an http(s) URL", start)
	}
	path = u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	return path, u.Scheme + "://" + u.Host, nil
}

func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// The file as written, in the order people read a scenario in.
type file struct {
	ID         string            `yaml:"id"`
	Title      string            `yaml:"title"`
	Start      string            `yaml:"start"`
	Prompt     string            `yaml:"prompt"`
	PromptData map[string]string `yaml:"prompt_data,omitempty"`
	Agent      agent             `yaml:"agent"`
	Expect     expect            `yaml:"expect"`
}

type agent struct {
	Calls []call  `yaml:"calls,omitempty"`
	Final *string `yaml:"final"`
}

type call struct {
	Tool   string         `yaml:"tool"`
	Input  map[string]any `yaml:"input"`
	Expect *callExpect    `yaml:"expect,omitempty"`
}

type callExpect struct {
	Status     string  `yaml:"status"`
	Output     any     `yaml:"output,omitempty"`
	OutputText *string `yaml:"output_text,omitempty"`
}

type expect struct {
	Case    *caseTool `yaml:"case,omitempty"`
	Catalog *catalog  `yaml:"catalog,omitempty"`
	Calls   calls     `yaml:"calls"`
}

type caseTool struct {
	Tool string `yaml:"tool"`
}

type catalog struct {
	Exactly []string                  `yaml:"exactly"`
	Schemas map[string]map[string]any `yaml:"schemas,omitempty"`
}

type calls struct {
	Exactly []sketch `yaml:"exactly"`
}

type sketch struct {
	Tool  string         `yaml:"tool"`
	Input map[string]any `yaml:"input"`
}
