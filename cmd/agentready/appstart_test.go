package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/agentready/agentready/fixtures/plainapp"
	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/reporters/shard"
	"github.com/agentready/agentready/internal/runs/play"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// asMain makes this test binary the agentready command when it is started
// as the app of a folder file: a real process the suite starts and stops,
// without a `go build` per test.
const asMain = "AGENTREADY_TEST_AS_MAIN"

// pidDir is where such a process leaves its pid, so that a test counts the
// apps started and checks that none is left running.
const pidDir = "AGENTREADY_TEST_PID_DIR"

// diesOnWrite makes that process a Little Oven that exits at the first
// write it receives: an app that crashes in the middle of a scenario.
const diesOnWrite = "AGENTREADY_TEST_DIES_ON_WRITE"

func serveDyingOnWrite() int {
	h, err := plainapp.Handler(plainapp.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("Little Oven, dying on its first write")
	die := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			// As a crashing app's log often does: the request, with the
			// person's name in it (the bundle must not keep it).
			body, _ := io.ReadAll(r.Body)
			fmt.Printf("crashing on %s %s %s\n", r.Method, r.URL.Path, body)
			os.Exit(3)
		}
		h.ServeHTTP(w, r)
	})
	err = http.ListenAndServe("127.0.0.1:"+os.Getenv("PORT"), die)
	fmt.Fprintln(os.Stderr, err)
	return 1
}

func TestMain(m *testing.M) {
	if os.Getenv(asMain) == "1" {
		if dir := os.Getenv(pidDir); dir != "" {
			pid := strconv.Itoa(os.Getpid())
			if err := os.WriteFile(filepath.Join(dir, pid), []byte(pid), 0o644); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		if os.Getenv(diesOnWrite) == "1" {
			os.Exit(serveDyingOnWrite())
		}
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	// The tests run against the embedded app unless they say otherwise, as
	// one shard: a developer's environment must not point them elsewhere.
	// Cleared here, once, so that tests may run in parallel (t.Setenv
	// refuses a parallel test).
	for _, v := range []string{play.EnvBaseURL, play.EnvObserverToken, shard.Env} {
		os.Unsetenv(v)
	}
	os.Exit(m.Run())
}

// startedFolder writes a scenario folder whose agentready.yaml starts Little
// Oven (this binary as `agentready serve --app plain`) with fresh, and two
// copies of ORDER-01 that each also expect their order to be the app's
// first (ord-1): true only of an app no other scenario has written to.
func startedFolder(t *testing.T, fresh string) (dir, pids string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, pids = t.TempDir(), t.TempDir()
	file := fmt.Sprintf(`app:
  command: [%q, serve, --app, plain, --addr, "127.0.0.1:{port}"]
  env: {%s: "1", %s: %q}
  url: http://127.0.0.1:{port}/menu
  timeout: 30s
  fresh: %s
`, exe, asMain, pidDir, pids, fresh)
	if err := os.WriteFile(filepath.Join(dir, scenarios.FolderFile), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	order, err := os.ReadFile(filepath.Join(plainScenarios, "ORDER-01.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const at = "        $.orders.orders[0].item: croissant\n"
	if !bytes.Contains(order, []byte(at)) {
		t.Fatalf("ORDER-01.yaml no longer has %q", at)
	}
	order = bytes.Replace(order, []byte(at), []byte(at+"        $.orders.orders[0].id: ord-1\n"), 1)
	for _, id := range []string{"ORDER-01", "ORDER-02"} {
		body := bytes.ReplaceAll(order, []byte("ORDER-01"), []byte(id))
		if err := os.WriteFile(filepath.Join(dir, id+".yaml"), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, pids
}

// runStarted runs `agentready run` on dir with no app given.
func runStarted(t *testing.T, dir string, args ...string) (code int, stdout, stderr, evidence string) {
	t.Helper()
	evidence = t.TempDir()
	t.Setenv(play.EnvObserverToken, "")
	var out, errs bytes.Buffer
	code = runScenarios(append([]string{"--scenarios", dir, "--evidence", evidence, "--run-id", "r1"}, args...), &out, &errs)
	t.Logf("stdout:\n%s\nstderr:\n%s", out.String(), errs.String())
	return code, out.String(), errs.String(), evidence
}

// appOutput is the app's output a bundle keeps.
func appOutput(t *testing.T, dir string) string {
	t.Helper()
	b, err := bundle.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(b.Evidence.AppOutput, "\n")
}

// started answers the pids of the apps started, each checked to be gone.
func started(t *testing.T, pids string) []int {
	t.Helper()
	entries, err := os.ReadDir(pids)
	if err != nil {
		t.Fatal(err)
	}
	var all []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		// Signal 0 only asks: ESRCH once the app has ended and been reaped.
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("the app (pid %d) is still there after the run: %v", pid, err)
		}
		all = append(all, pid)
	}
	return all
}

// The acceptance of issue 26.5: a folder whose agentready.yaml names the
// app's command is run without a server started by hand. fresh: scenario
// gives each scenario an app of its own, so both find their order the
// app's first; fresh: run shares one, so the second finds the first's
// order before its own (state_mismatch): the known-bad case that shows the
// first is not passing by chance. Every app started is gone after the run.
func TestRunStartsTheFoldersAppFreshPerScenario(t *testing.T) {
	t.Run("fresh per scenario", func(t *testing.T) {
		t.Setenv(play.EnvBaseURL, "")
		dir, pids := startedFolder(t, "scenario")
		code, out, _, evidence := runStarted(t, dir)
		if code != 0 || !strings.Contains(out, "\nrun: 2 passed, 0 failed\n") {
			t.Errorf("exit %d, want 0 and 2 passed", code)
		}
		for _, id := range []string{"ORDER-01", "ORDER-02"} {
			if v := readVerdict(t, filepath.Join(evidence, "r1", id)); v.Outcome != vocab.Pass {
				t.Errorf("%s: %s %v", id, v.Outcome, v.Codes)
			}
		}
		if n := len(started(t, pids)); n != 2 {
			t.Errorf("%d apps started, want one per scenario (2)", n)
		}
		// Each scenario's own app: its output from its start is the scenario's.
		for _, id := range []string{"ORDER-01", "ORDER-02"} {
			if out := appOutput(t, filepath.Join(evidence, "r1", id)); !strings.Contains(out, "Little Oven at http://127.0.0.1:") {
				t.Errorf("%s's bundle lacks its app's output:\n%s", id, out)
			}
		}
	})
	t.Run("once per run leaks state", func(t *testing.T) {
		t.Setenv(play.EnvBaseURL, "")
		dir, pids := startedFolder(t, "run")
		code, out, _, evidence := runStarted(t, dir)
		if code != 1 || !strings.Contains(out, "\nrun: 1 passed, 1 failed\n") {
			t.Errorf("exit %d, want 1 and 1 passed, 1 failed", code)
		}
		if v := readVerdict(t, filepath.Join(evidence, "r1", "ORDER-01")); v.Outcome != vocab.Pass {
			t.Errorf("ORDER-01, the first on the shared app: %s %v", v.Outcome, v.Codes)
		}
		if v := readVerdict(t, filepath.Join(evidence, "r1", "ORDER-02")); v.Outcome != vocab.Fail || !slices.Contains(v.Codes, vocab.StateMismatch) {
			t.Errorf("ORDER-02 after ORDER-01 on one app: %s %v, want FAIL with state_mismatch", v.Outcome, v.Codes)
		}
		if n := len(started(t, pids)); n != 1 {
			t.Errorf("%d apps started, want one for the run", n)
		}
		// The shared app's start was before any scenario: none of them owns it.
		for _, id := range []string{"ORDER-01", "ORDER-02"} {
			if out := appOutput(t, filepath.Join(evidence, "r1", id)); strings.Contains(out, "Little Oven at") {
				t.Errorf("%s's bundle holds the shared app's start:\n%s", id, out)
			}
		}
	})
	t.Run("a scenario's own arguments", func(t *testing.T) {
		// The user's own known-bad variant: the same scenario, its app
		// started with --variant writes-early added, fails as it should.
		t.Setenv(play.EnvBaseURL, "")
		dir, pids := startedFolder(t, "run")
		path := filepath.Join(dir, "ORDER-02.yaml")
		body, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		body = bytes.Replace(body, []byte("start: /order\n"), []byte("start: /order\napp: {args: [--variant, writes-early]}\n"), 1)
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, _, evidence := runStarted(t, dir, "--id", "ORDER-02")
		if code != 1 {
			t.Errorf("exit %d, want 1", code)
		}
		if v := readVerdict(t, filepath.Join(evidence, "r1", "ORDER-02")); v.Outcome != vocab.Fail || !slices.Contains(v.Codes, vocab.SideEffectBeforeConfirmation) {
			t.Errorf("ORDER-02 on its own writes-early app: %s %v, want FAIL with side_effect_before_confirmation", v.Outcome, v.Codes)
		}
		// Its own app, not the run's shared one: started for it alone.
		if n := len(started(t, pids)); n != 2 {
			t.Errorf("%d apps started, want the run's and the scenario's own (2)", n)
		}
	})
	t.Run("an app that ends mid-scenario is not the app's verdict", func(t *testing.T) {
		// Without the fault the page's dead app would FAIL its ui and state
		// checks: what the harness lost is INCONCLUSIVE, naming the cause.
		t.Setenv(play.EnvBaseURL, "")
		dir, pids := startedFolder(t, "scenario")
		path := filepath.Join(dir, "ORDER-02.yaml")
		body, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		body = bytes.Replace(body, []byte("start: /order\n"), []byte("start: /order\napp: {env: {"+diesOnWrite+": \"1\"}}\n"), 1)
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, _, evidence := runStarted(t, dir, "--id", "ORDER-02")
		if code != 1 {
			t.Errorf("exit %d, want 1", code)
		}
		v := readVerdict(t, filepath.Join(evidence, "r1", "ORDER-02"))
		if v.Outcome != vocab.Inconclusive || !slices.Contains(v.Codes, vocab.HarnessFault) {
			t.Errorf("ORDER-02 on an app that died: %s %v, want INCONCLUSIVE with harness_fault", v.Outcome, v.Codes)
		}
		var named bool
		for _, c := range v.Checks {
			named = named || strings.Contains(c.Message, "crashing on POST /api/orders")
		}
		if !named {
			t.Error("no check names the app's end with its last lines")
		}
		out := appOutput(t, filepath.Join(evidence, "r1", "ORDER-02"))
		if !strings.Contains(out, "dying on its first write") || !strings.Contains(out, "crashing on POST /api/orders") {
			t.Errorf("the bundle lacks the app's output:\n%s", out)
		}
		if strings.Contains(out, "Ada Baker") || !strings.Contains(out, "customerName") {
			t.Errorf("the app's output in the bundle is not redacted (or lacks the body):\n%s", out)
		}
		if n := len(started(t, pids)); n != 1 {
			t.Errorf("%d apps started, want 1", n)
		}
	})
	t.Run("a broken folder file runs nothing", func(t *testing.T) {
		t.Setenv(play.EnvBaseURL, "")
		dir, pids := startedFolder(t, "always")
		code, _, errs, evidence := runStarted(t, dir)
		if code != 2 || !strings.Contains(errs, "agentready.yaml:6:10: app.fresh is scenario") {
			t.Errorf("exit %d, want 2 naming the line and key", code)
		}
		if entries, _ := os.ReadDir(evidence); len(entries) != 0 {
			t.Errorf("a broken folder file wrote %v", entries)
		}
		if n := len(started(t, pids)); n != 0 {
			t.Errorf("%d apps started from a broken folder file", n)
		}
	})
	t.Run("own arguments for an app the suite does not start", func(t *testing.T) {
		app, err := plainapp.Start(plainapp.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer app.Close()
		t.Setenv(play.EnvBaseURL, app.URL)
		dir, pids := startedFolder(t, "scenario")
		path := filepath.Join(dir, "ORDER-02.yaml")
		body, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		body = bytes.Replace(body, []byte("start: /order\n"), []byte("start: /order\napp: {args: [--variant, writes-early]}\n"), 1)
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errs, _ := runStarted(t, dir, "--id", "ORDER-02")
		if code == 0 || !strings.Contains(out+errs, "this scenario adds app arguments or environment") {
			t.Errorf("exit %d, want a refusal saying the scenario's arguments cannot reach an app already up", code)
		}
		if n := len(started(t, pids)); n != 0 {
			t.Errorf("%d apps started although AGENTREADY_BASE_URL is given", n)
		}
	})
	t.Run("an app already up wins", func(t *testing.T) {
		app, err := plainapp.Start(plainapp.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer app.Close()
		t.Setenv(play.EnvBaseURL, app.URL)
		dir, pids := startedFolder(t, "scenario")
		code, _, errs, evidence := runStarted(t, dir, "--id", "ORDER-01")
		if code != 0 || !strings.Contains(errs, "AGENTREADY_BASE_URL="+app.URL+" is given, so the app of") {
			t.Errorf("exit %d, want 0 and the app given named", code)
		}
		if v := readVerdict(t, filepath.Join(evidence, "r1", "ORDER-01")); v.Outcome != vocab.Pass {
			t.Errorf("ORDER-01 on the app given: %s %v", v.Outcome, v.Codes)
		}
		if n := len(started(t, pids)); n != 0 {
			t.Errorf("%d apps started although AGENTREADY_BASE_URL is given", n)
		}
	})
}
