package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentready/agentready/scenarios"
)

func TestCheckPassesTheRepositoryScenarios(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"check", "../../scenarios/cases", "../../fixtures/plainapp/scenarios", "../../fixtures/realpages/scenarios"}, &out, &errOut)
	if code != 0 || !strings.Contains(out.String(), "0 problems") {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errOut.String())
	}
}

// check lists every problem of every file, each at file:line:col, and
// exits 1: the broken files of the scenarios package, and a folder beside
// them with a good file and one mistyped tool.
func TestCheckListsEveryProblemOfEveryFile(t *testing.T) {
	dir := t.TempDir()
	good := "id: OK-01\ntitle: good\nstart: /\nprompt: hi\nexpect: {answer: {must_mention: [hi]}}\nagent: {final: hi}\n"
	bad := "id: BAD-01\ntitle: bad\nstart: /\nprompt: hi\nagent:\n  calls: [{tool: add_tsk}]\n  final: hi\nexpect:\n  catalog: {exactly: [add_task]}\n  anwser: {}\n"
	for name, body := range map[string]string{"OK-01.yaml": good, "BAD-01.yaml": bad} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errOut bytes.Buffer
	code := run([]string{"check", dir, "../../scenarios/testdata/broken"}, &out, &errOut)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, out.String())
	}
	for _, want := range []string{
		filepath.Join(dir, "BAD-01.yaml") + ":6:18: agent.calls[0].tool: tool \"add_tsk\" is not on the page (expect.catalog.exactly); did you mean add_task?",
		filepath.Join(dir, "BAD-01.yaml") + ":10:3: expect.anwser: unknown key; did you mean answer?",
		"broken/key-typo.yaml:7:1: promt_data: unknown key; did you mean prompt_data?",
		"broken/syntax.yaml:7:14: YAML:",
		"check: 1 scenarios load, 11 problems",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("check's output lacks %q:\n%s", want, out.String())
		}
	}
	located := regexp.MustCompile(`^\S+\.yaml:\d+:\d+: `)
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if !strings.HasPrefix(line, "check: ") && !located.MatchString(line) {
			t.Errorf("a problem not at a file:line:col: %q", line)
		}
	}

	out.Reset()
	if code := run([]string{"check", "--json", dir}, &out, &errOut); code != 1 {
		t.Fatalf("--json: exit %d", code)
	}
	var ps []scenarios.Problem
	if err := json.Unmarshal(out.Bytes(), &ps); err != nil || len(ps) != 2 || ps[0].Line == 0 || ps[0].Column == 0 {
		t.Fatalf("--json: %v %s", err, out.String())
	}
}

func TestCheckRefusesNoArgumentsAndNamesAMissingFolder(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"check"}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "usage: agentready check") {
		t.Errorf("no arguments: exit %d, %s", code, errOut.String())
	}
	if code := run([]string{"check", "nowhere"}, &out, &errOut); code != 1 || !strings.Contains(out.String(), "nowhere: no such file or folder") {
		t.Errorf("a missing folder: exit %d, %s", code, out.String())
	}
}

// Flags stand before or after a command's arguments, as people type them.
func TestFlagsAreReadBeforeAndAfterTheArguments(t *testing.T) {
	for _, args := range [][]string{
		{"A", "B", "--run-id", "r7", "--json"},
		{"--run-id", "r7", "A", "--json", "B"},
		{"--json", "--run-id=r7", "A", "B"},
		{"-run-id", "r7", "--json", "--", "A", "B"},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		runID := fs.String("run-id", "", "")
		asJSON := fs.Bool("json", false, "")
		if err := parseFlags(fs, args); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if *runID != "r7" || !*asJSON || strings.Join(fs.Args(), " ") != "A B" {
			t.Errorf("%v: run-id %q, json %v, args %v", args, *runID, *asJSON, fs.Args())
		}
	}
	// An argument that looks like a flag after -- is an argument.
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.Bool("json", false, "")
	if err := parseFlags(fs, []string{"--", "--json"}); err != nil || strings.Join(fs.Args(), " ") != "--json" {
		t.Errorf("after --: %v %v", err, fs.Args())
	}
	// A command: verify reads --json after the folder.
	var out, errOut bytes.Buffer
	run([]string{"verify", t.TempDir(), "--json"}, &out, &errOut)
	if strings.Contains(errOut.String(), "--json") {
		t.Errorf("verify took --json for a folder: %s", errOut.String())
	}
}

// Every command's help names each flag's value by its kind, never by a
// word of its description (Go's flag package takes `quoted` words for it).
func TestHelpTextNamesEachFlagsValueByItsKind(t *testing.T) {
	flagLine := regexp.MustCompile(`^  -([a-z-]+)(?: (\S.*))?$`)
	for _, cmd := range []string{"catalog", "init", "evals", "mcp", "smoke", "lint", "run", "merge", "serve", "verify", "check", "version"} {
		var out, errOut bytes.Buffer
		run([]string{cmd, "-h"}, &out, &errOut)
		help := errOut.String()
		if !strings.HasPrefix(help, "usage: agentready "+cmd) {
			t.Errorf("%s -h does not start with its usage: %q", cmd, help)
		}
		for _, line := range strings.Split(help, "\n") {
			m := flagLine.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			switch m[2] {
			case "", "string", "duration", "int", "value", "float", "uint":
			default:
				t.Errorf("%s -h: -%s takes %q", cmd, m[1], m[2])
			}
		}
	}
	var out, errOut bytes.Buffer
	run([]string{"import", "inspector", "-h"}, &out, &errOut)
	if !strings.HasPrefix(errOut.String(), "usage: agentready import inspector") {
		t.Errorf("import inspector -h: %q", errOut.String())
	}
}

func TestVersionNamesTheSuiteAndItsProtocol(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"version", "--no-browser"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"agentready 0.", "bundle format agentready-bundle/", "protocol: github.com/chromedp/cdproto v0."} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("version lacks %q: %s", want, out.String())
		}
	}
}

// A file in a deprecated spelling loads: check warns at its line, naming
// what to write, and exits 0; check --fix rewrites it in place, printing
// each change, after which check has nothing to say. A file with a problem
// is not rewritten, and the rest of the folder still is.
func TestCheckFixRewritesDeprecatedSpellings(t *testing.T) {
	dir := t.TempDir()
	old := "# the first spelling of a count\nid: OLD-01\ntitle: old\nstart: /\nprompt: hi\nexpect:\n  requests:\n    - {method: POST, path: /api/x, phase: agent, count: 0}  # none\n"
	broken := "id: OLD-02\ntitle: old and broken\nstart: /\nprompt: hi\nexpect:\n  requests:\n    - {method: POST, path: /api/x, phase: agent, count: 0}\n  anwser: {}\n"
	for name, body := range map[string]string{"OLD-01.yaml": old, "OLD-02.yaml": broken} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	oldFile, brokenFile := filepath.Join(dir, "OLD-01.yaml"), filepath.Join(dir, "OLD-02.yaml")
	var out, errOut bytes.Buffer
	if code := run([]string{"check", oldFile}, &out, &errOut); code != 0 {
		t.Fatalf("a deprecated spelling: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	warning := "warning: " + oldFile + ":8:8: expect.requests[0]: deprecated (request-keys, since 0.1; refused from 0.3): write request: POST /api/x"
	if !strings.Contains(out.String(), warning) || !strings.Contains(out.String(), "1 deprecated spellings (agentready check --fix rewrites them)") {
		t.Errorf("check says\n%s\nwant %q", out.String(), warning)
	}

	out.Reset()
	if code := run([]string{"check", "--fix", dir}, &out, &errOut); code != 1 {
		t.Fatalf("a folder with a broken file: exit %d, want 1\n%s", code, out.String())
	}
	if want := "fixed: " + oldFile + ":8: {method: POST, path: /api/x, phase: agent, count: 0} → {request: POST /api/x, phase: agent, count: 0}"; !strings.Contains(out.String(), want) {
		t.Errorf("check --fix says\n%s\nwant %q", out.String(), want)
	}
	if got := string(mustReadFile(t, oldFile)); got != strings.Replace(old, "method: POST, path: /api/x", "request: POST /api/x", 1) {
		t.Errorf("the file is now\n%s", got)
	}
	if got := string(mustReadFile(t, brokenFile)); got != broken {
		t.Errorf("a file with a problem was rewritten:\n%s", got)
	}

	out.Reset()
	if code := run([]string{"check", oldFile}, &out, &errOut); code != 0 || strings.Contains(out.String(), "warning") {
		t.Errorf("after --fix: exit %d\n%s", code, out.String())
	}
}

func mustReadFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
