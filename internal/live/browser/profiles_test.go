package browser

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// A launch sweeps the profile folders whose owner has ended, and only those.
func TestSweepProfilesRemovesOnlyTheDeadOwners(t *testing.T) {
	tmp := t.TempDir()
	ended := exec.Command("true")
	if err := ended.Run(); err != nil {
		t.Skip("no true command:", err)
	}
	mk := func(name, owner string) string {
		dir := filepath.Join(tmp, profilePattern+name)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if owner != "" {
			if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(owner), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	dead := mk("dead", strconv.Itoa(ended.Process.Pid))
	live := mk("live", strconv.Itoa(os.Getppid()))
	mine := mk("mine", strconv.Itoa(os.Getpid()))
	none := mk("none", "")
	junk := mk("junk", "not a pid")
	sweepProfiles(tmp)
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the folder of an ended owner is left: %v", err)
	}
	for _, dir := range []string{live, mine, none, junk} {
		if _, err := os.Stat(dir); err != nil {
			t.Errorf("%s was removed: %v", dir, err)
		}
	}
	if err := removeProfile(live, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(live); !os.IsNotExist(err) {
		t.Errorf("removeProfile left %s", live)
	}
}
