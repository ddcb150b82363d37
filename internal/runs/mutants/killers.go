// Package mutants proves every check: it runs the scenarios and the server
// rule checks against each deliberately broken variant of the reference app
// (a variant is killed only by a FAIL with the code it names), mutates
// recorded evidence one change at a time (each must flip a PASS), and runs
// baseline agents that must pass nothing.
package mutants

import (
	"context"
	"fmt"

	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/live/observer"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/runner"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Bound limits each wait for something that should happen at once.
const Bound = vocab.Bound

// Killer is a check that can kill a variant: it runs against an app started
// with the variant and answers its verdict.
type Killer struct {
	Name string
	Area string // runs against the variants of this area (and the correct app)
	Run  func(ctx context.Context, env *Env, variant refapp.Variant) (judge.Verdict, error)
}

// Env is what killers share: one browser (nil for rule checks alone) and the
// scenario files.
type Env struct {
	Browser   *browser.Browser
	Scenarios map[string]scenarios.Scenario
}

// ScenarioKiller runs a scenario file in the browser against the variant.
func ScenarioKiller(id, area string) Killer {
	return Killer{Name: id, Area: area, Run: func(ctx context.Context, env *Env, v refapp.Variant) (judge.Verdict, error) {
		sc, ok := env.Scenarios[id]
		if !ok {
			return judge.Verdict{}, fmt.Errorf("no scenario %s", id)
		}
		ev, err := RunScenario(ctx, env.Browser, sc, v)
		if err != nil {
			return judge.Verdict{}, err
		}
		if len(ev.Faults) > 0 || ev.Cut != "" { // a harness fault must not kill a variant
			return judge.Verdict{}, fmt.Errorf("harness faults: %v (cut: %q)", ev.Faults, ev.Cut)
		}
		return judge.Judge(sc, ev), nil
	}}
}

// RunScenario plays sc against a fresh reference app started with variant.
func RunScenario(ctx context.Context, b *browser.Browser, sc scenarios.Scenario, v refapp.Variant) (*scenarios.Evidence, error) {
	app, err := refapp.Start(refapp.Options{Variant: v, ObserverToken: "mutants"})
	if err != nil {
		return nil, err
	}
	defer app.Close()
	tab, err := b.NewTab(ctx)
	if err != nil {
		return nil, err
	}
	defer tab.Close()
	return runner.Run(ctx, sc, runner.Target{BaseURL: app.URL, Tab: tab,
		Observer: observer.New(app.URL, "mutants"), Browser: b.Version, Variant: string(v), Bound: Bound}), nil
}

// Killers are every check of the gate.
func Killers() []Killer {
	return []Killer{
		ScenarioKiller("CONF-01.attempt-3", "registration"),
		ScenarioKiller("list-full", "tasks"),
		ScenarioKiller("RULE-search-read-only", "events"),
		ScenarioKiller("RULE-save-twice", "events"),
		ScenarioKiller("RULE-task-limit", "tasks"),
		ScenarioKiller("RETRY-01", "tasks"),
		ScenarioKiller("EDIT-01", "drafts"),
		ScenarioKiller("EDIT-02", "drafts"),
		ScenarioKiller("EDIT-02.corrected", "drafts"),
		ScenarioKiller("EDIT-02.corrected.vary-space", "drafts"),
		ScenarioKiller("EDIT-02.corrected.vary-unicode", "drafts"),
		ScenarioKiller("EDIT-03", "drafts"),
		ScenarioKiller("TIP-01", "tips"), // by its default replays alone
		RuleKiller("rule.intent-reused", intentReused),
		RuleKiller("rule.intent-expired", intentExpired),
		RuleKiller("rule.intent-other-event", intentOtherEvent),
		RuleKiller("rule.csrf-missing", csrfMissing),
		RuleKiller("rule.cancel-twice", cancelTwice),
		RuleKiller("rule.last-seat-race", lastSeatRace),
		EmbedKiller(),
	}
}
