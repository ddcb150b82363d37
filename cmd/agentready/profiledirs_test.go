package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentready/agentready/fixtures/realpages"
)

// profileDirs lists the browser profile folders in tmp.
func profileDirs(t *testing.T, tmp string) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(tmp, "agentready-chromium-*"))
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// browserOf answers the pid of the Chromium browser process (not one of its
// helpers) whose profile is dir, or 0.
func browserOf(dir string) int {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		args := strings.Split(string(b), "\x00")
		var mine, helper bool
		for _, a := range args {
			mine = mine || a == "--user-data-dir="+dir
			helper = helper || strings.HasPrefix(a, "--type=")
		}
		if mine && !helper {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			return pid
		}
	}
	return 0
}

// until waits at most bound for cond, looking every 50 ms.
func until(t *testing.T, bound time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(bound)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, bound)
		}
		<-tick.C
	}
}

// No command leaves a browser profile folder behind: not when it ends
// normally, not when its run fails, not on SIGINT or SIGTERM mid-run, not
// after its browser was killed. Each case runs this binary as agentready
// in a private TMPDIR and counts agentready-chromium-* folders after.
func TestNoProfileFolderLeftBehind(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium")
	}
	srv, err := realpages.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	folder := func(files ...string) string {
		dir := t.TempDir()
		for _, f := range files {
			data, err := os.ReadFile(filepath.Join("../../fixtures/realpages/scenarios", f))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	start := func(tmp string, args ...string) (*exec.Cmd, *bytes.Buffer) {
		cmd := exec.Command(exe, args...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		cmd.Env = append(os.Environ(), asMain+"=1", "TMPDIR="+tmp, "AGENTREADY_BROWSER_URL=", "AGENTREADY_GRID_URL=")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd, &out
	}
	wait := func(cmd *exec.Cmd) error {
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			return err
		case <-time.After(2 * time.Minute):
			_ = cmd.Process.Kill()
			t.Fatal("the command did not end within 2m")
			return nil
		}
	}
	run := func(tmp string, scenarios string) []string {
		return []string{"run", "--base-url", srv.URL, "--scenarios", scenarios, "--evidence", filepath.Join(tmp, "evidence")}
	}
	for _, c := range []struct {
		name     string
		args     func(tmp string) []string
		exit     int
		interact func(t *testing.T, tmp string, cmd *exec.Cmd) // mid-run
	}{
		{name: "a normal command", args: func(string) []string { return []string{"catalog", srv.URL + "/deep"} }, exit: 0},
		{name: "a failed run", args: func(tmp string) []string {
			dir := folder("ABOUT-01.yaml")
			about := filepath.Join(dir, "ABOUT-01.yaml")
			data, _ := os.ReadFile(about)
			// no tools expected of a page that offers some, not as meant
			if err := os.WriteFile(about, bytes.Replace(data, []byte("start: /about"), []byte("start: /pizza"), 1), 0o644); err != nil {
				t.Fatal(err)
			}
			return run(tmp, dir)
		}, exit: 1},
		{name: "SIGINT mid-run", args: func(tmp string) []string { return run(tmp, folder("MANY-01.yaml", "DEEP-01.yaml")) }, exit: -1,
			interact: func(t *testing.T, tmp string, cmd *exec.Cmd) {
				until(t, time.Minute, "the browser to start", func() bool { d := profileDirs(t, tmp); return len(d) == 1 && browserOf(d[0]) != 0 })
				_ = cmd.Process.Signal(os.Interrupt)
			}},
		{name: "SIGTERM mid-run", args: func(tmp string) []string { return run(tmp, folder("MANY-01.yaml", "DEEP-01.yaml")) }, exit: -1,
			interact: func(t *testing.T, tmp string, cmd *exec.Cmd) {
				until(t, time.Minute, "the browser to start", func() bool { d := profileDirs(t, tmp); return len(d) == 1 && browserOf(d[0]) != 0 })
				_ = cmd.Process.Signal(syscall.SIGTERM)
			}},
		{name: "a killed browser", args: func(tmp string) []string { return run(tmp, folder("MANY-01.yaml", "DEEP-01.yaml")) }, exit: -1,
			interact: func(t *testing.T, tmp string, cmd *exec.Cmd) {
				var pid int
				until(t, time.Minute, "the browser to start", func() bool {
					d := profileDirs(t, tmp)
					if len(d) == 1 {
						pid = browserOf(d[0])
					}
					return pid != 0
				})
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			// a short path: Chromium's singleton socket path has a length limit
			tmp, err := os.MkdirTemp("/tmp", "pd")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = os.RemoveAll(tmp) })
			cmd, out := start(tmp, c.args(tmp)...)
			if c.interact != nil {
				c.interact(t, tmp, cmd)
			}
			_ = wait(cmd)
			if got := cmd.ProcessState.ExitCode(); c.exit >= 0 && got != c.exit {
				t.Fatalf("exit %d, want %d\n%s", got, c.exit, out)
			}
			if left := profileDirs(t, tmp); len(left) != 0 {
				t.Fatalf("%d profile folder(s) left: %v\n%s", len(left), left, out)
			}
		})
	}
}
