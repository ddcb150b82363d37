package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentready/agentready/internal/pagecheck/toollist"
	"github.com/agentready/agentready/scenarios"
)

// initCmd is `agentready init URL --id ID [--out FILE]`: a scenario file with
// the page's real catalog pinned (names, schemas, annotations) and a
// placeholder prompt and transcript to fill in, so that nobody guesses a
// browser-generated schema again. It refuses to overwrite a file.
func initCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("init", "agentready init --id ID [--out FILE] URL", stderr)
	id := fs.String("id", "", "the scenario's ID (letters, digits, '.', '_', '-')")
	out := fs.String("out", "", "the file to write (default: <id>.yaml in the current folder; - for standard output)")
	opts := pageOptions(fs)
	if err := parseFlags(fs, args); err != nil {
		return flagExit(err)
	}
	if fs.NArg() != 1 || *id == "" {
		fmt.Fprintln(stderr, "usage: agentready init --id ID [--out FILE] URL")
		return 2
	}
	target, ok := newScenarioFile("init", *id, *out, stderr)
	if !ok {
		return 2
	}
	l, code := readPage("init", fs.Arg(0), *opts, stderr)
	if code != 0 {
		return code
	}
	data, err := scenarioFor(*id, l)
	if err != nil {
		fmt.Fprintln(stderr, "agentready init:", err)
		return 1
	}
	if target == "-" {
		_, _ = stdout.Write(scenarios.HeadedBySchema(data))
		return 0
	}
	// The file names its schema, written beside it, for the user's editor.
	if data, err = scenarios.WithSchema(filepath.Dir(target), data); err != nil {
		fmt.Fprintf(stderr, "agentready init: %v\n", err)
		return 1
	}
	if err := os.WriteFile(target, data, 0o644); err != nil {
		fmt.Fprintln(stderr, "agentready init:", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s: %d tool(s) of %s pinned; fill in the prompt, the transcript and what must be true\n", target, len(l.Tools), l.URL)
	return 0
}

// scenarioFor writes a scenario that pins the listing's catalog. It is
// loaded back before it is answered: init never writes a file that does
// not load.
func scenarioFor(id string, l toollist.Listing) ([]byte, error) {
	u, err := url.Parse(l.URL)
	if err != nil {
		return nil, err
	}
	start := u.EscapedPath()
	if start == "" {
		start = "/"
	}
	if u.RawQuery != "" {
		start += "?" + u.RawQuery
	}
	exactly := l.Names()
	cat := map[string]any{"exactly": exactly}
	schemas := map[string]any{}
	autosubmit := map[string]bool{}
	readOnly := map[string]bool{}
	for _, t := range l.Sorted() {
		if len(t.InputSchema) > 0 {
			var s any
			if err := json.Unmarshal(t.InputSchema, &s); err != nil {
				return nil, fmt.Errorf("the schema of %s: %w", t.Name, err)
			}
			schemas[t.Name] = s
		}
		if t.Declarative {
			autosubmit[t.Name] = t.Annotations.Autosubmit
		} else {
			readOnly[t.Name] = t.Annotations.ReadOnly
		}
	}
	if len(schemas) > 0 {
		cat["schemas"] = schemas
	}
	if len(autosubmit) > 0 {
		cat["autosubmit"] = autosubmit
	}
	if len(readOnly) > 0 {
		cat["read_only"] = readOnly
	}
	doc := map[string]any{
		"id":     id,
		"title":  "TODO: what this scenario shows",
		"start":  start,
		"prompt": "TODO: what the person asked, word for word",
		"agent":  map[string]any{"calls": []any{}, "final": nil},
		"expect": map[string]any{"catalog": cat},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Written by agentready init from %s: the catalog below is the page's real\n", l.URL)
	fmt.Fprintf(&b, "# one (as Chromium built it); keep it, and fill in the prompt, the agent's\n")
	fmt.Fprintf(&b, "# calls (tool, input, expect), its final words, a person's steps and what\n")
	fmt.Fprintf(&b, "# must be true afterwards: see scenarios/README.md.\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(orderedScenario(doc)); err != nil {
		return nil, err
	}
	if _, err := scenarios.Parse(id+".yaml", []byte(b.String())); err != nil {
		return nil, fmt.Errorf("the written scenario does not load (a defect of init): %w", err)
	}
	return []byte(b.String()), nil
}

// orderedScenario lays the top-level keys out in the order people read a
// scenario in.
func orderedScenario(doc map[string]any) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for _, k := range []string{"id", "title", "start", "prompt", "agent", "expect"} {
		var v yaml.Node
		_ = v.Encode(doc[k])
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, &v)
	}
	return n
}

// newScenarioFile answers where a command that writes a new scenario
// writes it (--out, or ID.yaml; "-" is standard output), after checking
// the ID and that no file would be overwritten; it says why not on stderr.
func newScenarioFile(cmd, id, out string, stderr io.Writer) (string, bool) {
	if !regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`).MatchString(id) {
		fmt.Fprintf(stderr, "agentready %s: --id %q may hold only letters, digits, '.', '_' and '-'\n", cmd, id)
		return "", false
	}
	target := cmp.Or(out, id+".yaml")
	if target != "-" {
		if _, err := os.Stat(target); err == nil {
			fmt.Fprintf(stderr, "agentready %s: %s exists; not overwriting it\n", cmd, target)
			return "", false
		} else if !errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(stderr, "agentready %s: %v\n", cmd, err)
			return "", false
		}
	}
	return target, true
}
