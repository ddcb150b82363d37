package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentready/agentready/fixtures/lintpages"
	"github.com/agentready/agentready/fixtures/realpages"
	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/internal/kit/hang"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/runs/play"
)

// command is one of the commands that open a browser, as a test calls it:
// args to run it with, and what its output shows when it ran.
type command struct {
	name string
	run  func(args []string, stdout, stderr io.Writer) int
	args func(t *testing.T, out string) []string // out: a fresh folder for what it writes
	ok   string                                  // in its output when it ran
}

// commands are every command that opens a browser, each with input that
// it takes (the apps and pages started here).
func commands(t *testing.T) []command {
	t.Helper()
	app, err := refapp.Start(refapp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.Close() })
	lp, err := lintpages.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = lp.Close() })
	rp, err := realpages.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rp.Close() })
	return []command{
		{"catalog", catalogCmd, func(*testing.T, string) []string { return []string{app.URL + "/tasks"} }, "offers 4 tool(s)"},
		{"lint", lintCmd, func(*testing.T, string) []string { return lintArgs(lp.URL + "/" + lintpages.Clean) }, "no findings"},
		{"init", initCmd, func(_ *testing.T, out string) []string {
			return []string{"--id", "TASKS-01", "--out", filepath.Join(out, "TASKS-01.yaml"), app.URL + "/tasks"}
		}, "4 tool(s) of " + app.URL + "/tasks pinned"},
		{"smoke", smokeCmd, func(*testing.T, string) []string { return []string{rp.URL + "/about"} }, "smoke: 0 calls, 0 findings"},
		{"evals", evalsCmd, func(_ *testing.T, out string) []string {
			return []string{"../../internal/sources/evals/testdata/tasks.evals.json", "--url", app.URL + "/tasks", "--evidence", out, "--run-id", "r1"}
		}, "evals: 2 passed, 0 failed, 1 skipped"},
		{"run", runScenarios, func(_ *testing.T, out string) []string {
			return []string{"--scenarios", "../../" + "scenarios/cases", "--id", "CONF-01.attempt-3", "--evidence", out, "--run-id", "r1"}
		}, "run: 1 passed, 0 failed"},
		{"mcp", mcpOverPipes, func(_ *testing.T, out string) []string {
			return []string{"--scenario", "../../scenarios/cases/CONF-01.attempt-3.yaml", "--evidence", out, "--run-id", "r1"}
		}, "mcp: pass^1 = 1, pass@1 = 1"},
	}
}

// userShell is the environment of a user's shell: none of the variables
// that point the suite at another browser or app.
func userShell(t *testing.T) {
	for _, v := range []string{browser.EnvGridURL, browser.EnvBrowserURL, browser.EnvBrowserHeader, play.EnvBaseURL, play.EnvObserverToken, "AGENTREADY_EVIDENCE", "AGENTREADY_RUN_ID", "AGENTREADY_SHARD"} {
		t.Setenv(v, "")
	}
}

// The acceptance of issue 23.2: every command that opens a browser starts
// it the one way, so with AGENTREADY_GRID_URL at a grid that is not there
// each fails at once (exit 2) naming the grid's URL, and writes nothing;
// none quietly starts a local browser instead.
func TestEveryCommandFailsFastNamingTheGrid(t *testing.T) {
	userShell(t)
	grid := closedURL(t)
	t.Setenv(browser.EnvGridURL, grid)
	for _, c := range commands(t) {
		t.Run(c.name, func(t *testing.T) {
			out := t.TempDir()
			var stdout, stderr bytes.Buffer
			start := time.Now()
			code := c.run(c.args(t, out), &stdout, &stderr)
			if took := time.Since(start); code != 2 || !strings.Contains(stderr.String(), grid) || took > 15*time.Second {
				t.Errorf("exit %d after %v, want 2 at once naming %s:\n%s%s", code, took.Round(time.Millisecond), grid, stdout.String(), stderr.String())
			}
			if strings.Contains(stdout.String()+stderr.String(), c.ok) {
				t.Errorf("it ran all the same:\n%s", stdout.String())
			}
			if entries, _ := os.ReadDir(out); len(entries) > 0 {
				t.Errorf("a command that could not start its browser wrote %v", entries)
			}
		})
	}
}

// And each runs on a browser a person started by hand with the suite's
// flags and a debugging port, attached by AGENTREADY_BROWSER_URL; with
// AGENTREADY_CHROMIUM pointing nowhere, a command that launched a browser
// of its own instead could not start one.
func TestEveryCommandRunsOnABrowserStartedByHand(t *testing.T) {
	userShell(t)
	t.Setenv(browser.EnvBrowserURL, startByHand(t))
	t.Setenv(browser.EnvChromium, filepath.Join(t.TempDir(), "no-chromium-here"))
	for _, c := range commands(t) {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := c.run(c.args(t, t.TempDir()), &stdout, &stderr); code != 0 || !strings.Contains(stdout.String()+stderr.String(), c.ok) {
				t.Errorf("exit %d, want 0 and %q:\n%s%s", code, c.ok, stdout.String(), stderr.String())
			}
		})
	}
}

// startByHand starts Chromium as a person would for the suite to attach to
// (the suite's flags, a profile of its own, a debugging port the system
// picks), and answers the DevTools address it prints. It ends with the
// test, its whole process group, and its profile removed.
func startByHand(t *testing.T) string {
	t.Helper()
	path, err := browser.FindChromium(os.Getenv(browser.EnvChromium))
	if err != nil {
		t.Fatal(err)
	}
	profile := t.TempDir()
	return startWith(t, path, append(browser.GridArgs(), "--no-first-run", "--user-data-dir="+profile, "--remote-debugging-port=0", "about:blank"))
}

// startWith starts Chromium at path with args (a debugging port and a
// profile among them) as startByHand does, and answers its DevTools address.
func startWith(t *testing.T, path string, args []string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, path, args...)
	// Chromium's helper processes can outlive the main one and keep writing
	// to the profile: end the whole group before the profile goes.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() }) // before TempDir's own cleanup removes the profile
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if _, url, ok := strings.Cut(sc.Text(), "DevTools listening on "); ok {
				found <- strings.TrimSpace(url)
			}
		}
		close(found)
	}()
	select {
	case url, ok := <-found:
		if !ok {
			t.Fatal("Chromium ended without printing its DevTools address")
		}
		return url
	case <-time.After(hang.Bound):
		t.Fatalf("Chromium did not print its DevTools address within %v", hang.Bound)
	}
	return ""
}

// closedURL is the URL of a loopback port that nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

// mcpOverPipes runs `agentready mcp` with a scripted MCP client of the
// official SDK on its standard input and output: the agent of CONF-01
// attempt 3, done right. Everything the command says for a person (on
// standard error) is its output here.
func mcpOverPipes(args []string, _, stderr io.Writer) int {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- mcpCmd(args, inR, outW, stderr)
		outW.Close()
		inR.Close()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "scripted-agent", Version: "1"}, nil)
	connected := make(chan *mcp.ClientSession, 1)
	go func() {
		cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
		if err != nil {
			cs = nil
		}
		connected <- cs
	}()
	var cs *mcp.ClientSession
	select {
	case c := <-code: // the command ended before it served
		inW.Close()
		return c
	case cs = <-connected:
	}
	if cs == nil {
		inW.Close()
		return <-code
	}
	call := func(name string, in map[string]any) {
		if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: in}); err != nil || res.IsError {
			io.WriteString(stderr, "the scripted agent: "+name+" failed\n")
		}
	}
	call("prepare_event_registration", map[string]any{"attendeeName": "測試讀者", "email": "reader@example.com"})
	call("final_answer", map[string]any{"text": "I have filled in the form for 測試讀者 (reader@example.com). It is not submitted yet: please check the details and press \"Submit registration\" yourself."})
	_ = cs.Close()
	inW.Close()
	return <-code
}
