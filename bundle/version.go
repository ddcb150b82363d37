package bundle

import (
	"os/exec"
	"strings"
)

// SuiteVersion is agentready's version, written into every manifest.
const SuiteVersion = "0.1.0-dev"

// GitCommit answers the commit of the checkout the suite runs from, or "".
func GitCommit() string {
	out, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return ""
	}
	commit := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
		commit += "-dirty"
	}
	return commit
}
