package main

import (
	"bytes"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/fixtures/realpages"
)

// A --settle that cannot be waited by is refused, saying why, before any
// browser starts (exit 2), by every command that reads a page or plays
// scenarios.
func TestABadSettleIsRefused(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--settle", "0s"}, `invalid value "0s" for flag -settle: 0s: a wait must be more than 0`},
		{[]string{"--settle", "-1s"}, "-1s: a wait must be more than 0"},
		{[]string{"--max-wait", "0s"}, `invalid value "0s" for flag -max-wait: 0s: a wait must be more than 0`},
		{[]string{"--settle", "10s", "--max-wait", "5s"}, "--settle 10s is longer than --max-wait 5s"},
		{[]string{"--settle", "soon"}, `invalid value "soon" for flag -settle`},
	} {
		// The commands that play scenarios take the same flags, from the
		// same definition (settleFlags), and check them the same way.
		// The page's URL comes last: each is given it by its own flag.
		urlFlag := func(args []string, flag string, more ...string) []string {
			last := len(args) - 1
			return append(append(append([]string{}, args[:last]...), more...), flag, args[last])
		}
		mcp := func(args []string, stdout, stderr io.Writer) int {
			return mcpCmd(urlFlag(args, "--url"), strings.NewReader(""), stdout, stderr)
		}
		run := func(args []string, stdout, stderr io.Writer) int {
			return runScenarios(urlFlag(args, "--base-url", "--evidence", t.TempDir()), stdout, stderr)
		}
		evalsAt := func(args []string, stdout, stderr io.Writer) int {
			return evalsCmd(urlFlag(args, "--url", "../../internal/sources/evals/testdata/tasks.evals.json", "--evidence", t.TempDir()), stdout, stderr)
		}
		for name, cmd := range map[string]func([]string, io.Writer, io.Writer) int{"catalog": catalogCmd, "lint": lintCmd, "init": initCmd, "smoke": smokeCmd,
			"run": run, "evals": evalsAt, "mcp": mcp} {
			var out, errs bytes.Buffer
			args := append([]string{}, c.args...)
			if name == "init" {
				args = append(args, "--id", "X-01")
			}
			code := cmd(append(args, "http://127.0.0.1:1/"), &out, &errs)
			if code != 2 || !strings.Contains(errs.String(), c.want) {
				t.Errorf("%s %v: exit %d, %q; want 2 and %q", name, c.args, code, errs.String(), c.want)
			}
		}
	}
}

// run --settle and --max-wait are the rule the run waits for the catalog
// by: SPA-01.late (search_books 5.5 s after its data) is tool_late by the
// default rule (quiet for 300 ms, so settled before the tool comes), and
// with --settle 6s --max-wait 12s the tool is waited for, the call
// completes, and the bundle records the rule.
func TestRunSettlesByTheCommandLinesBound(t *testing.T) {
	srv, err := realpages.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, c := range []struct {
		flags   []string
		boundMs int64
		late    bool
	}{{nil, 5000, true}, {[]string{"--settle", "6s", "--max-wait", "12s"}, 12000, false}} {
		evidence := t.TempDir()
		var out, errs bytes.Buffer
		runScenarios(append([]string{"--base-url", srv.URL, "--scenarios", "../../fixtures/realpages/scenarios", "--id", "SPA-01.late",
			"--evidence", evidence, "--run-id", "r"}, c.flags...), &out, &errs)
		var run struct {
			CatalogSettles []struct {
				BoundMs int64 `json:"boundMs"`
			} `json:"catalogSettles"`
		}
		runJSON(t, filepath.Join(evidence, "r", "SPA-01.late", "run.json"), &run)
		var verdict struct {
			Codes []string `json:"codes"`
		}
		runJSON(t, filepath.Join(evidence, "r", "SPA-01.late", "verdict.json"), &verdict)
		if len(run.CatalogSettles) == 0 || run.CatalogSettles[0].BoundMs != c.boundMs || slices.Contains(verdict.Codes, "tool_late") != c.late {
			t.Errorf("run %v: settles %+v, codes %v; want bound %d ms, tool_late %v\n%s", c.flags, run.CatalogSettles, verdict.Codes, c.boundMs, c.late, errs.String())
		}
	}
}
