package mutants

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/scenarios"
)

var env *Env

func TestMain(m *testing.M) {
	os.Exit(func() int {
		b, err := browser.Launch(browser.OptionsFromEnv())
		if err != nil {
			fmt.Fprintln(os.Stderr, "mutants:", err)
			return 1
		}
		defer b.Close()
		all, err := scenarios.LoadDir(filepath.Join("..", "..", "..", scenarios.DefaultDir))
		if err != nil {
			fmt.Fprintln(os.Stderr, "mutants:", err)
			return 1
		}
		env = &Env{Browser: b, Scenarios: map[string]scenarios.Scenario{}}
		for _, sc := range all {
			env.Scenarios[sc.ID] = sc
		}
		return m.Run()
	}())
}

// TestKillGate: every variant must be killed by its own code, and the
// correct app must pass the same killers in the same run.
func TestKillGate(t *testing.T) {
	gate := RunGate(t.Context(), env, refapp.Variants(), Killers(), 2)
	report(t, "mutants.txt", gate.Print)
	if !gate.OK() {
		t.Fatalf("the kill gate is red: kill rate %.0f%%, %d false alarms, %d harness errors", 100*gate.KillRate(), len(gate.FalseAlarms), len(gate.Errors))
	}
}

// report prints a table and keeps it in reports/ for CI to show.
func report(t *testing.T, name string, print func(w io.Writer)) {
	t.Helper()
	print(os.Stdout)
	dir := os.Getenv("AGENTREADY_REPORTS")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "reports")
	}
	if err := os.MkdirAll(dir, 0o755); err == nil {
		if f, err := os.Create(filepath.Join(dir, name)); err == nil {
			print(f)
			f.Close()
		}
	}
}
