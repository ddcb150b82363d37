package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/live/browser"
)

// readmeAttachCommand answers the arguments of the command the README tells
// a person to start Chromium with for AGENTREADY_BROWSER_URL (the sh block
// after its attach-command marker), with the port the system picks and a
// profile of the test's own in place of the README's.
func readmeAttachCommand(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(data), "<!-- attach-command")
	if !ok {
		t.Fatal("README.md has no attach-command block")
	}
	_, block, _ = strings.Cut(block, "```sh\n")
	block, _, _ = strings.Cut(block, "\nexport ")
	words := strings.Fields(strings.ReplaceAll(block, "\\\n", " "))
	if len(words) < 2 || words[0] != "chromium" {
		t.Fatalf("the README's attach command is not a chromium command: %q", words)
	}
	args := words[1:]
	for i, a := range args {
		switch {
		case strings.HasPrefix(a, "--remote-debugging-port="):
			args[i] = "--remote-debugging-port=0"
		case strings.HasPrefix(a, "--user-data-dir="):
			args[i] = "--user-data-dir=" + t.TempDir()
		}
	}
	return append(args, "about:blank")
}

// The acceptance of issue 25.2: Chromium started by hand with exactly the
// flags the README gives, attached by AGENTREADY_BROWSER_URL, runs
// navigating scenarios green (the person's click submits and the page
// navigates, on the page clock); and the same command without a flag the
// harness relies on is refused at once, naming the flag, before any
// scenario runs.
func TestTheREADMEsAttachCommandRunsScenarios(t *testing.T) {
	userShell(t)
	path, err := browser.FindChromium("")
	if err != nil {
		t.Fatal(err)
	}
	args := readmeAttachCommand(t)
	t.Setenv(browser.EnvChromium, filepath.Join(t.TempDir(), "no-chromium-here")) // no browser of its own
	t.Run("the README's flags", func(t *testing.T) {
		t.Setenv(browser.EnvBrowserURL, startWith(t, path, args))
		var stdout, stderr bytes.Buffer
		code := runScenarios([]string{"--scenarios", "../../scenarios/cases", "--id", "CONF-01", "--id", "RULE-sold-out",
			"--evidence", t.TempDir(), "--run-id", "attached"}, &stdout, &stderr)
		if code != 0 || !strings.Contains(stdout.String()+stderr.String(), " 0 failed") || !strings.Contains(stdout.String(), "; 0 not as meant") {
			t.Errorf("exit %d on the README's browser:\n%s%s", code, stdout.String(), stderr.String())
		}
	})
	t.Run("one flag short", func(t *testing.T) {
		short := slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == "--disable-renderer-backgrounding" })
		if len(short) == len(args) {
			t.Fatal("the README's command has no --disable-renderer-backgrounding to leave out")
		}
		t.Setenv(browser.EnvBrowserURL, startWith(t, path, short))
		var stdout, stderr bytes.Buffer
		start := time.Now()
		code := runScenarios([]string{"--scenarios", "../../scenarios/cases", "--id", "CONF-01", "--evidence", t.TempDir()}, &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), "started without --disable-renderer-backgrounding") || time.Since(start) > 20*time.Second {
			t.Errorf("exit %d after %v, want 2 at once naming the flag:\n%s%s", code, time.Since(start), stdout.String(), stderr.String())
		}
	})
	t.Run("no command line to read, no BackForwardCache off", func(t *testing.T) {
		// Without --enable-automation the browser does not tell its command
		// line: only the page clock check on a page that navigates itself
		// can find the missing feature, and it must, before any scenario.
		var blind []string
		for _, a := range args {
			switch {
			case a == "--enable-automation":
			case strings.HasPrefix(a, "--disable-features="):
				blind = append(blind, "--disable-features=Translate,BlinkGenPropertyTrees")
			default:
				blind = append(blind, a)
			}
		}
		if len(blind) != len(args)-1 {
			t.Fatalf("the README's command lacks --enable-automation or --disable-features: %q", args)
		}
		t.Setenv(browser.EnvBrowserURL, startWith(t, path, blind))
		var stdout, stderr bytes.Buffer
		start := time.Now()
		code := runScenarios([]string{"--scenarios", "../../scenarios/cases", "--id", "CONF-01", "--evidence", t.TempDir()}, &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), "the page clock stopped after a navigation the page made itself") ||
			!strings.Contains(stderr.String(), "--disable-features="+browser.DisabledFeatures) || time.Since(start) > 30*time.Second {
			t.Errorf("exit %d after %v, want 2 at once naming the page clock and the flag:\n%s%s", code, time.Since(start), stdout.String(), stderr.String())
		}
	})
}
