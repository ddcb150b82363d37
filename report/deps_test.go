package report

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// Imports point one way: the report reads bundles, and package bundle (the
// store, and verify) never links its renderer. The check bites on this
// package, which does link bundle.
func TestTheBundleDoesNotImportItsReport(t *testing.T) {
	deps := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		return strings.Fields(string(out))
	}
	const bundle, report = "github.com/agentready/agentready/bundle", "github.com/agentready/agentready/report"
	if slices.Contains(deps("../bundle"), report) {
		t.Error("package bundle links package report")
	}
	if !slices.Contains(deps("."), bundle) {
		t.Fatal("package report does not list bundle among its deps: the check would pass on nothing")
	}
}
