package runner_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/kit/hang"
	"github.com/agentready/agentready/internal/live/browser/browsertest"
	"github.com/agentready/agentready/internal/live/observer"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/runner"
	"github.com/agentready/agentready/scenarios/vocab"
)

// An app that ends during the agent's phase is a fault of that phase (issue
// 43 item 1): the runner sees it at the next mark and places it there, so
// that what the record held before the agent stands.
func TestAnAppThatEndsIsAFaultOfThePhaseItEndedIn(t *testing.T) {
	app, err := refapp.Start(refapp.Options{ObserverToken: "tok"})
	if err != nil {
		t.Fatal(err)
	}
	var ended atomic.Bool
	t.Cleanup(func() {
		if !ended.Load() {
			_ = app.Close()
		}
	})
	tab := browsertest.Tab(t)
	target := runner.Target{BaseURL: app.URL, Tab: tab, Observer: observer.New(app.URL, "tok"), Browser: browsertest.Browser(t).Version,
		AppEnded: func() (bool, string) { return ended.Load(), "the app `refapp` ended (killed) during the scenario" }}
	target.Agent = func(ctx context.Context, act func(context.Context, scenarios.Call) record.Result) *string {
		act(ctx, scenarios.Call{Tool: "add_task", Input: map[string]any{"text": "milk"}})
		_ = app.Close()
		ended.Store(true)
		return nil
	}
	sc := scenarios.Scenario{ID: "APP-ENDS", Title: "the app ends", Start: "/tasks", Prompt: "Add milk."}
	sc.Capture.Review, sc.Capture.Settle = duration(0), duration(0)
	ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
	defer cancel()
	ev := runner.Run(ctx, sc, target)
	var placed []scenarios.Fault
	for _, f := range ev.Faults {
		if strings.Contains(f.Text, "ended (killed)") {
			placed = append(placed, f)
		}
	}
	if len(placed) != 1 || placed[0].From != vocab.PhaseAgent || !strings.Contains(placed[0].Text, "noticed at the end of agent") {
		t.Errorf("the app's end among the faults: %+v (all: %+v)", placed, ev.Faults)
	}
}
