package mutants

import (
	"context"
	"fmt"
	"os"

	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/internal/runs/attack"
	"github.com/agentready/agentready/internal/runs/play"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

// EmbedKiller is the embed attack (package attack) against the variant:
// its verdict is the first framing that did not pass, else the framing
// with allow="tools". A harness fault in either is an error, never a kill.
func EmbedKiller() Killer {
	return Killer{Name: "attack.embed", Area: "embed", Run: func(ctx context.Context, env *Env, v refapp.Variant) (judge.Verdict, error) {
		app, err := refapp.Start(refapp.Options{Variant: v, ObserverToken: "mutants"})
		if err != nil {
			return judge.Verdict{}, err
		}
		defer app.Close()
		dir, err := os.MkdirTemp("", "agentready-embed-")
		if err != nil {
			return judge.Verdict{}, err
		}
		defer os.RemoveAll(dir)
		sealed, err := attack.Embed(ctx, attack.Options{Browser: env.Browser, AppURL: app.URL + "/tasks", ObserverToken: "mutants", RunID: "mutants", Dir: dir})
		if err != nil {
			return judge.Verdict{}, err
		}
		return firstNotPassing(sealed)
	}}
}

// firstNotPassing answers the first verdict that is not PASS, else the
// first; an inconclusive one is a harness error.
func firstNotPassing(sealed []play.Sealed) (judge.Verdict, error) {
	if len(sealed) == 0 {
		return judge.Verdict{}, fmt.Errorf("the embed attack sealed no bundle")
	}
	for _, s := range sealed {
		switch s.Verdict.Outcome {
		case vocab.Inconclusive:
			return judge.Verdict{}, fmt.Errorf("%s: inconclusive %v", s.Row.ID, s.Verdict.Codes)
		case vocab.Fail:
			return s.Verdict, nil
		}
	}
	return sealed[0].Verdict, nil
}
