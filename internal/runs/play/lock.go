package play

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// LockFile is the lock a live run holds on its run folder.
const LockFile = "run.lock"

// ErrRunBusy is the error of a run folder another live run is writing.
var ErrRunBusy = errors.New("another run is writing this run folder")

// Owner is what a lock file says of the run that holds it.
type Owner struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Command string    `json:"command"`
	Since   time.Time `json:"since"`
}

func (o Owner) String() string {
	if o.PID == 0 {
		return "a holder that wrote no name in the lock"
	}
	return fmt.Sprintf("%s, pid %d on %s, since %s", o.Command, o.PID, o.Host, o.Since.Format(time.RFC3339))
}

// Lock is a run folder claimed by this process.
type Lock struct {
	// Stale is the run that left the folder's lock behind without
	// holding it any more (it ended without releasing it: killed), when
	// there was one.
	Stale *Owner
	path  string
	f     *os.File
}

// LockRun claims the run folder dir (made if need be) for this process, so
// that two runs given the same run id at once do not write one folder and
// replace each other's bundles: the second is refused with ErrRunBusy,
// naming the first (docs/decisions/2026-12-01-run-folder-lock.md). The
// lock is an flock(2) on dir/run.lock, which holds the owner's pid: the
// kernel lets it go when its process ends however it ends, so a lock left
// by a killed run is stale, detected, and taken over. command names the
// run in the file ("agentready run").
func LockRun(dir, command string) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, LockFile)
	for range 3 { // another process may remove the file between open and flock
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			owner := readOwner(f)
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, fmt.Errorf("%w: %s (%s); wait for it to end, or give this run another id", ErrRunBusy, dir, owner)
			}
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if !sameFile(f, path) {
			f.Close()
			continue
		}
		l := &Lock{path: path, f: f}
		if prev := readOwner(f); prev.PID != 0 {
			l.Stale = &prev
		}
		host, _ := os.Hostname()
		data, _ := json.Marshal(Owner{PID: os.Getpid(), Host: host, Command: command, Since: time.Now().UTC().Truncate(time.Second)})
		err = f.Truncate(0)
		if err == nil {
			_, err = f.WriteAt(append(data, '\n'), 0)
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		return l, nil
	}
	return nil, fmt.Errorf("lock %s: the lock file kept changing under us", path)
}

// Release lets the run folder go: the lock file is removed, then unlocked.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := os.Remove(l.path)
	err = errors.Join(err, l.f.Close()) // closing the last descriptor releases the flock
	l.f = nil
	return err
}

func readOwner(f *os.File) Owner {
	var o Owner
	data := make([]byte, 4096)
	n, _ := f.ReadAt(data, 0)
	_ = json.Unmarshal(data[:n], &o)
	return o
}

// sameFile: path still names the file f has open (it was not removed and
// made again by a run that let go meanwhile).
func sameFile(f *os.File, path string) bool {
	a, errA := f.Stat()
	b, errB := os.Stat(path)
	return errA == nil && errB == nil && os.SameFile(a, b)
}
