package bundle

import "runtime/debug"

// SuiteVersion is agentready's version, written into every manifest.
const SuiteVersion = "0.1.0-dev"

// commit may be set at link time (-ldflags "-X .../bundle.commit=abc123")
// where the build carries no VCS stamp (GOFLAGS=-buildvcs=false, go run).
var commit string

// SuiteCommit answers the commit this binary was built from, from its own
// build information, or "" when the build does not say. It never asks git:
// the working directory may be another repository altogether.
func SuiteCommit() string {
	if commit != "" {
		return commit
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return commitOf(info.Settings)
}

func commitOf(settings []debug.BuildSetting) string {
	var rev string
	dirty := false
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return ""
	}
	rev = rev[:min(12, len(rev))]
	if dirty {
		rev += "-dirty"
	}
	return rev
}
