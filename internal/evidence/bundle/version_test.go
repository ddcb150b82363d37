package bundle

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"testing"
)

func TestCommitOfReadsTheBuildStamp(t *testing.T) {
	for _, tt := range []struct {
		settings []debug.BuildSetting
		want     string
	}{
		{nil, ""},
		{[]debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}}, "0123456789ab"},
		{[]debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.modified", Value: "true"}}, "0123456789ab-dirty"},
		{[]debug.BuildSetting{{Key: "vcs.modified", Value: "true"}}, ""},
	} {
		if got := commitOf(tt.settings); got != tt.want {
			t.Errorf("commitOf(%v) = %q, want %q", tt.settings, got, tt.want)
		}
	}
}

// SuiteCommit must not depend on the working directory: it used to run git
// there, and named the commit of whatever repository the caller stood in.
func TestSuiteCommitIgnoresTheWorkingDirectory(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed to make the other repository: .ci/run installs it")
	}
	before := SuiteCommit()
	other := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "--allow-empty", "-m", "x"}} {
		if out, err := exec.Command("git", append([]string{"-C", other}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	wd, _ := os.Getwd()
	t.Cleanup(func() { _ = os.Chdir(wd) })
	if err := os.Chdir(filepath.Clean(other)); err != nil {
		t.Fatal(err)
	}
	if got := SuiteCommit(); got != before {
		t.Errorf("SuiteCommit() in another repository = %q, in the suite's = %q", got, before)
	}
}
