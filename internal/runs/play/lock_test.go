package play

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain runs the tests, or, as a child of the lock tests below
// (AGENTREADY_LOCK_HOLDER=dir), holds dir's lock instead: it says
// "locked", and ends when its standard input closes, releasing the lock
// or (with AGENTREADY_LOCK_KILLED) leaving as a killed run does, without
// a word.
func TestMain(m *testing.M) {
	dir := os.Getenv("AGENTREADY_LOCK_HOLDER")
	if dir == "" {
		os.Exit(m.Run())
	}
	lock, err := LockRun(dir, "the holder")
	if err != nil {
		fmt.Println("no lock:", err)
		os.Exit(3)
	}
	fmt.Println("locked")
	_, _ = io.Copy(io.Discard, os.Stdin)
	if os.Getenv("AGENTREADY_LOCK_KILLED") != "" {
		os.Exit(0) // the kernel lets the flock go; the file stays
	}
	if err := lock.Release(); err != nil {
		os.Exit(4)
	}
	os.Exit(0)
}

// holder starts a child process that holds dir's lock, and answers its pid
// and a func that ends it.
func holder(t *testing.T, dir string, killed bool) (pid int, end func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "AGENTREADY_LOCK_HOLDER="+dir)
	if killed {
		cmd.Env = append(cmd.Env, "AGENTREADY_LOCK_KILLED=1")
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n') // the child's word, not a guess of time
	if strings.TrimSpace(line) != "locked" {
		in.Close()
		_ = cmd.Wait()
		t.Fatalf("the holder: %q", line)
	}
	ended := false
	end = func() {
		if !ended {
			ended = true
			in.Close()
			_ = cmd.Wait()
		}
	}
	t.Cleanup(end)
	return cmd.Process.Pid, end
}

// Two runs of one run folder at once: the second is refused, naming the
// first (its pid); once the first lets go, the folder is free again, with
// no lock file left.
func TestASecondRunOfTheSameFolderIsRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r1")
	pid, end := holder(t, dir, false)
	_, err := LockRun(dir, "agentready run")
	if !errors.Is(err, ErrRunBusy) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", pid)) || !strings.Contains(err.Error(), "the holder") {
		t.Fatalf("a second run of a busy folder: %v", err)
	}
	end()
	if _, err := os.Stat(filepath.Join(dir, LockFile)); !os.IsNotExist(err) {
		t.Errorf("the released lock left its file: %v", err)
	}
	lock, err := LockRun(dir, "agentready run")
	if err != nil || lock.Stale != nil {
		t.Fatalf("after the first run ended: %v, stale %v", err, lock.Stale)
	}
	// Within one process too: a second claim is refused while the first holds.
	if _, err := LockRun(dir, "again"); !errors.Is(err, ErrRunBusy) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Errorf("a second claim in this process: %v", err)
	}
	if err := lock.Release(); err != nil {
		t.Fatal(err)
	}
}

// A run that ended without letting go (killed) leaves its lock file: the
// next run detects it as stale, says whose it was, and takes the folder.
func TestAStaleLockIsDetectedAndTakenOver(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r1")
	pid, end := holder(t, dir, true)
	end()
	if _, err := os.Stat(filepath.Join(dir, LockFile)); err != nil {
		t.Fatalf("the killed holder left no lock file: %v", err)
	}
	lock, err := LockRun(dir, "agentready run")
	if err != nil {
		t.Fatalf("a stale lock blocks the folder: %v", err)
	}
	defer lock.Release()
	if lock.Stale == nil || lock.Stale.PID != pid || lock.Stale.Command != "the holder" {
		t.Errorf("the stale lock: %+v, want the holder's pid %d", lock.Stale, pid)
	}
}

// A folder that cannot be made is an error, not a lock.
func TestALockNeedsAFolder(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LockRun(filepath.Join(file, "r1"), "x"); err == nil {
		t.Error("a run folder under a file was locked")
	}
}
