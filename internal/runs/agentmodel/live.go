package agentmodel

import (
	"context"
	"encoding/json"

	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/runs/play"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Live is play.Options.Live for this agent: on each play's tab a fresh
// conversation with the model plays the scenario's prompt; the scenario
// is judged with what the model did as its transcript; the record goes
// into the evidence (model.json) and a fault of the model into its faults
// (the verdict is then INCONCLUSIVE).
func (a *Agent) Live(sc scenarios.Scenario, tab *browser.Tab) play.Live {
	cfg := a.cfg
	if a.replay != nil {
		cfg.HTTP = a.replay.client(sc)
	}
	one := newAgent(cfg, a.name) // a play's own recorder
	var rec *Record
	return play.Live{
		Agent: func(ctx context.Context, act func(context.Context, scenarios.Call) record.Result) *string {
			var person Person
			if len(sc.User) > 0 {
				person = sc.ReplyTo
			}
			final, r := one.Play(ctx, sc.Prompt, Page{Tools: tab.Trace.Catalog, Act: act, Click: clicker(tab)}, person)
			rec = &r
			return final
		},
		Judged: func(base scenarios.Scenario, ev *scenarios.Evidence) scenarios.Scenario {
			if rec != nil {
				if data, err := json.Marshal(rec); err == nil {
					ev.Model = data
				}
				if rec.Fault != "" {
					ev.Faults = append(ev.Faults, scenarios.FaultFrom(vocab.PhaseAgent, rec.Fault))
				}
				ev.Dialogue = rec.Dialogue
			}
			return Transcript(base, ev)
		},
	}
}

// clicker clicks in the tab's page, in the agent's phase, as a browser
// agent may (agentmcp's page_click does the same).
func clicker(tab *browser.Tab) func(context.Context, string) error {
	return func(ctx context.Context, selector string) error {
		ctx, cancel := tab.Bind(ctx)
		defer cancel()
		ctx, cancelBound := context.WithTimeout(ctx, vocab.Bound)
		defer cancelBound()
		return chromedp.Do(ctx, chromedp.Click(selector, browser.Deep(selector), chromedp.NodeVisible))
	}
}

// Transcript is the scenario as judged when a live agent played it: its
// calls, its questions to the person and its final words are what the
// agent did. A call keeps the
// scenario's expectation of the call at its place when it is of the same
// tool.
func Transcript(sc scenarios.Scenario, ev *scenarios.Evidence) scenarios.Scenario {
	base := sc.Agent.Calls
	sc.Agent = scenarios.Agent{Final: ev.Final}
	for _, t := range ev.Dialogue {
		sc.Agent.Asks = append(sc.Agent.Asks, scenarios.Ask{After: t.AfterCalls, Text: t.Asked})
	}
	for _, c := range ev.Calls {
		if c.Phase != vocab.PhaseAgent {
			continue
		}
		call := scenarios.Call{Tool: c.Call.Tool, Input: c.Call.Input}
		if i := c.Index; i < len(base) && base[i].Tool == call.Tool {
			call.Expect = base[i].Expect
		}
		sc.Agent.Calls = append(sc.Agent.Calls, call)
	}
	return sc
}
