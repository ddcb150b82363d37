package runner_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/agentready/agentready/fixtures/realpages"
	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/kit/hang"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/live/browser/browsertest"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/runner"
)

func TestMain(m *testing.M) { browsertest.Main(m) }

// play runs sc in a fresh tab against the real pages; agent, when set,
// acts in place of the transcript.
func play(t *testing.T, sc scenarios.Scenario, agent func(context.Context, *browser.Tab, func(context.Context, scenarios.Call) record.Result)) (*scenarios.Evidence, string) {
	t.Helper()
	srv, err := realpages.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	tab := browsertest.Tab(t)
	target := runner.Target{BaseURL: srv.URL, Tab: tab, Browser: browsertest.Browser(t).Version}
	if agent != nil {
		target.Agent = func(ctx context.Context, act func(context.Context, scenarios.Call) record.Result) *string {
			agent(ctx, tab, act)
			return nil
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
	defer cancel()
	return runner.Run(ctx, sc, target), srv.URL
}

func duration(d time.Duration) *scenarios.Duration {
	v := scenarios.Duration(d)
	return &v
}

// requestsOf answers the log's entries of method and path, with their
// positions.
func requestsOf(ev *scenarios.Evidence, method, path string) (at []int, reqs []record.Request) {
	for i, r := range ev.Requests {
		if r.Method == method && r.Path == path {
			at, reqs = append(at, i), append(reqs, r)
		}
	}
	return at, reqs
}

// loadScenario reads a scenario file of testdata: what a scenario says to
// use the real pages.
func loadScenario(t *testing.T, path string) scenarios.Scenario {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenarios.Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}
