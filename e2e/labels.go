// Package e2e is the Ginkgo suite: its _test.go files only wire Describe,
// labels and the call into e2e/framework; the labels declared here let
// `--label-filter` pick an area, a scenario ID or a family.
package e2e

import (
	"github.com/agentready/agentready/e2e/framework"
	. "github.com/onsi/ginkgo/v2"
)

// Labels of the specs, so that `--label-filter` picks an area or a scenario.
var (
	MarkSmoke    = Label("smoke")
	MarkHarness  = Label("harness")
	MarkCatalog  = Label("catalog")
	MarkRegister = Label("registration")
	MarkTasks    = Label("tasks")
	MarkNetwork  = Label("network")
)

// MarkScenario labels the specs about scenarios.
var MarkScenario = Label("scenario")

// MarkScenarioFile labels the specs generated from scenario files, and only
// them: against a user's app (AGENTREADY_BASE_URL), make runs just these.
var MarkScenarioFile = Label("scenario-file")

// MarkServerRules labels the specs of the app's server gate.
var MarkServerRules = Label("server-rules")

// MarkBundle labels the specs of evidence bundles.
var MarkBundle = Label("bundle")

// Own declares a container of specs about the suite's own embedded app.
// Against a user's app (AGENTREADY_BASE_URL) it is left out of the spec tree
// altogether: those specs are not the user's, so they are neither run nor
// reported as skipped.
func Own(text string, args ...any) bool {
	if framework.App.User() {
		return true
	}
	return Describe(text, args...)
}
