package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/reporters/report"
	"github.com/agentready/agentready/internal/runs/play"
	"github.com/agentready/agentready/scenarios"
)

// The acceptance of issue 25.6: bad input is named as such, by the flag
// (or variable) that carried it, and nothing runs: a --base-url of another
// scheme says so rather than "does not answer"; an app that is down is
// named by --url for evals and mcp, not by AGENTREADY_BASE_URL.
func TestBadInputIsNamedByItsFlag(t *testing.T) {
	userShell(t)
	down := closedURL(t)
	evidence := t.TempDir()
	for _, tc := range []struct {
		name string
		env  string // AGENTREADY_BASE_URL
		run  func(args []string, stdout, stderr *bytes.Buffer) int
		args []string
		want string
	}{
		{"run, a scheme", "", runIn, []string{"--base-url", "ftp://example.org"}, `agentready run: --base-url ftp://example.org: the scheme "ftp" is not supported`},
		{"run, no scheme", "", runIn, []string{"--base-url", "127.0.0.1:3000"}, "agentready run: --base-url 127.0.0.1:3000 lacks its scheme: give http://127.0.0.1:3000"},
		{"run, the variable", "ftp://example.org", runIn, nil, `agentready run: AGENTREADY_BASE_URL=ftp://example.org: the scheme "ftp" is not supported`},
		{"run, down", "", runIn, []string{"--base-url", down}, "agentready run: --base-url " + down + " does not answer"},
		{"run, down by the variable", down, runIn, nil, "agentready run: AGENTREADY_BASE_URL=" + down + " does not answer"},
		{"evals, down", "", evalsIn, []string{"../../internal/sources/evals/testdata/tasks.evals.json", "--url", down + "/tasks"}, "agentready evals: --url " + down + " does not answer"},
		{"mcp, down", "", mcpIn, []string{"--url", down + "/tasks"}, "agentready mcp: --url " + down + " does not answer"},
		{"mcp, a scheme", "", mcpIn, []string{"--url", "ftp://example.org/tasks"}, `agentready mcp: --url ftp://example.org/tasks: the scheme "ftp" is not supported`},
		{"mcp, no scheme", "", mcpIn, []string{"--url", "localhost:3000/tasks"}, "agentready mcp: --url localhost:3000/tasks lacks its scheme: give http://localhost:3000/tasks"},
		{"mcp, garbage", "", mcpIn, []string{"--url", "::garbage"}, "agentready mcp: --url ::garbage is not a URL"},
		{"mcp, no host", "", mcpIn, []string{"--url", "http:///tasks"}, "agentready mcp: --url http:///tasks names no host"},
		{"smoke, a scheme", "", smokeIn, []string{"ftp://example.org"}, `agentready smoke: the URL "ftp://example.org": the scheme "ftp" is not supported`},
		{"smoke, no scheme", "", smokeIn, []string{"localhost:3000"}, `agentready smoke: the URL "localhost:3000" lacks its scheme: give http://localhost:3000`},
		{"catalog, a scheme", "", catalogIn, []string{"ftp://example.org"}, `agentready catalog: the URL "ftp://example.org": the scheme "ftp" is not supported`},
		{"catalog, garbage", "", catalogIn, []string{"::garbage"}, `agentready catalog: the URL "::garbage" is not a URL`},
		{"lint, no scheme", "", lintIn, []string{"127.0.0.1:3000/shop"}, `agentready lint: the URL "127.0.0.1:3000/shop" lacks its scheme: give http://127.0.0.1:3000/shop`},
		{"lint, no host", "", lintIn, []string{"https://"}, `agentready lint: the URL "https://" names no host`},
		{"run, an attack not in the catalogue", "", runIn, []string{"--attack", "ignore-everything"}, `agentready run: --attack "ignore-everything": attack.pattern: "ignore-everything" is not in the catalogue (exfiltrate, fake-system or ignore-previous)`},
		{"run, an attack without its call", "", runIn, []string{"--attack", "ignore-previous@tool_result:get_event_details"}, `agentready run: --attack "ignore-previous@tool_result:get_event_details": attack.call: ignore-previous asks the agent to call a tool: name it`},
		{"run, an attack's unknown key", "", runIn, []string{"--attack", "{pattern: exfiltrate, where: page_text}"}, `agentready run: --attack "{pattern: exfiltrate, where: page_text}": not an attack mapping: `},
		{"run, an attack's unknown option", "", runIn, []string{"--attack", "exfiltrate,to=x"}, `agentready run: --attack "exfiltrate,to=x": "to=x": give call=TOOL or url=URL after a comma`},
		{"mcp, no scenario file", "", mcpIn, []string{"--scenario", "missing.yaml"}, "agentready mcp: --scenario: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(play.EnvBaseURL, tc.env)
			var stdout, stderr bytes.Buffer
			start := time.Now()
			code := tc.run(append(tc.args, "--evidence", evidence), &stdout, &stderr)
			if code != 2 || !strings.Contains(stderr.String(), tc.want) || time.Since(start) > 10*time.Second {
				t.Errorf("exit %d, stderr:\n%s\nwant 2 at once and %q", code, stderr.String(), tc.want)
			}
			if strings.Contains(stderr.String(), "AGENTREADY_BASE_URL") && tc.env == "" {
				t.Errorf("an error about a flag names the variable:\n%s", stderr.String())
			}
		})
	}
	if entries, _ := os.ReadDir(evidence); len(entries) != 0 {
		t.Errorf("bad input wrote %v", entries)
	}
}

func runIn(args []string, stdout, stderr *bytes.Buffer) int {
	return runScenarios(append([]string{"--scenarios", plainScenarios}, args...), stdout, stderr)
}

// smokeIn, catalogIn and lintIn take the URL as their argument; the
// --evidence the table adds is after "--", so it is an argument too and
// the URL, first, is checked first.
func smokeIn(args []string, stdout, stderr *bytes.Buffer) int {
	return smokeCmd(args[:1], stdout, stderr)
}

func catalogIn(args []string, stdout, stderr *bytes.Buffer) int {
	return catalogCmd(args[:1], stdout, stderr)
}

func lintIn(args []string, stdout, stderr *bytes.Buffer) int {
	return lintCmd(args[:1], stdout, stderr)
}

// An address of a browser to attach to that cannot be one is named by its
// variable, in every command that opens a browser, before anything is
// dialled or written: not "could not start or reach Chromium".
func TestEveryCommandNamesABadBrowserURL(t *testing.T) {
	userShell(t)
	for _, bad := range []struct{ raw, want string }{
		{"ftp://127.0.0.1:9222", `AGENTREADY_BROWSER_URL=ftp://127.0.0.1:9222: the scheme "ftp" is not supported`},
		{"127.0.0.1:9222", "AGENTREADY_BROWSER_URL=127.0.0.1:9222 lacks its scheme: give http://127.0.0.1:9222"},
	} {
		t.Setenv(browser.EnvBrowserURL, bad.raw)
		for _, c := range commands(t) {
			t.Run(c.name, func(t *testing.T) {
				out := t.TempDir()
				var stdout, stderr bytes.Buffer
				start := time.Now()
				code := c.run(c.args(t, out), &stdout, &stderr)
				if code != 2 || !strings.Contains(stderr.String(), bad.want) || strings.Contains(stderr.String(), "could not start") || time.Since(start) > 15*time.Second {
					t.Errorf("exit %d, want 2 at once and %q:\n%s%s", code, bad.want, stdout.String(), stderr.String())
				}
				if entries, _ := os.ReadDir(out); len(entries) > 0 {
					t.Errorf("a command with a bad browser address wrote %v", entries)
				}
			})
		}
	}
}

func evalsIn(args []string, stdout, stderr *bytes.Buffer) int { return evalsCmd(args, stdout, stderr) }

func mcpIn(args []string, stdout, stderr *bytes.Buffer) int {
	return mcpCmd(args, strings.NewReader(""), stdout, stderr)
}

// The acceptance of issue 25.5: verify on a run folder fails for any
// folder in it that is not a whole bundle (here: one whose manifest is
// gone), instead of leaving it out and printing "1 passed".
func TestVerifyFailsARunFolderWithAPartOfABundle(t *testing.T) {
	run := t.TempDir()
	writeBundle(t, filepath.Join(run, "A"))
	writeBundle(t, filepath.Join(run, "B"))
	if err := os.Remove(filepath.Join(run, "B", bundle.ManifestFile)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(run, "index.html"), []byte("<!doctype html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := verify([]string{run}, &out, &errs); code != 1 {
		t.Errorf("exit %d, want 1:\n%s%s", code, out.String(), errs.String())
	}
	for _, want := range []string{"ok     A  " + filepath.Join(run, "A"), "FAILED   " + filepath.Join(run, "B"), "manifest.json: missing: this folder is no whole bundle", "verify: 1 passed, 1 failed"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("verify's output lacks %q:\n%s", want, out.String())
		}
	}
	// The whole bundle alone, and the run folder without the broken one, verify.
	if code := verify([]string{filepath.Join(run, "A")}, &out, &errs); code != 0 {
		t.Errorf("the whole bundle: exit %d", code)
	}
	if err := os.RemoveAll(filepath.Join(run, "B")); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := verify([]string{run}, &out, &errs); code != 0 || !strings.Contains(out.String(), "verify: 1 passed, 0 failed") {
		t.Errorf("a run folder of whole bundles: exit %d\n%s", code, out.String())
	}
	// A folder with no bundle at all is bad input.
	empty := t.TempDir()
	if err := os.Mkdir(filepath.Join(empty, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if code := verify([]string{empty}, &out, &errs); code != 2 || !strings.Contains(errs.String(), "no bundle here") {
		t.Errorf("a folder with no bundle: exit %d, %s", code, errs.String())
	}
}

// writeBundle seals a bundle of a scenario that checks only the final words.
func writeBundle(t *testing.T, dir string) {
	t.Helper()
	final := "done"
	sc := scenarios.Scenario{ID: filepath.Base(dir), Title: "t", Start: "/", Prompt: "p", Expect: scenarios.Expect{Answer: &scenarios.AnswerExpect{MustMention: []string{"done"}}}}
	b, err := bundle.Seal(bundle.Meta{RunID: "r"}, sc, &scenarios.Evidence{ScenarioID: sc.ID, Final: &final, Calls: []scenarios.CallRecord{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := report.Write(dir, b); err != nil {
		t.Fatal(err)
	}
}

// verify takes the evidence root given to run --evidence, whose run folders
// are one level down (issue 45): every bundle of every run folder, and a
// run folder's broken part still fails. Known bad, before: "no bundle here".
func TestVerifyTakesTheEvidenceRoot(t *testing.T) {
	root := t.TempDir()
	writeBundle(t, filepath.Join(root, "run-1", "A"))
	writeBundle(t, filepath.Join(root, "run-2", "shard", "B"))
	var out, errs bytes.Buffer
	if code := verify([]string{root}, &out, &errs); code != 0 || !strings.Contains(out.String(), "verify: 2 passed, 0 failed") {
		t.Fatalf("the evidence root: exit %d\n%s%s", code, out.String(), errs.String())
	}
	if err := os.Mkdir(filepath.Join(root, "run-1", "half"), 0o755); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := verify([]string{root}, &out, &errs); code != 1 || !strings.Contains(out.String(), "FAILED   "+filepath.Join(root, "run-1", "half")) {
		t.Errorf("a run folder's broken part under the root: exit %d\n%s", code, out.String())
	}
}
