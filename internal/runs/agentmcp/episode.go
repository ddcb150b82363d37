package agentmcp

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/live/webmcp"
	"github.com/agentready/agentready/internal/reporters/results"
	"github.com/agentready/agentready/internal/runs/play"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// episode is one run: a fresh tab, the runner playing the scenario, and
// the live agent's calls going into it.
type episode struct {
	n        int
	tab      *browser.Tab
	ready    chan struct{}    // closed when the agent may act
	ended    chan struct{}    // closed when the agent's phase is over
	recorded chan struct{}    // closed when the run's bundle is written
	result   chan results.Row // the run once recorded

	mu     sync.Mutex // one call at a time; held while act runs
	act    func(context.Context, scenarios.Call) record.Result
	done   bool         // the agent's phase is over: no more calls
	finish chan *string // the final words (or nil) end the agent's phase
	stop   sync.Once    // finish is sent once
	watch  func()       // stops following the catalog
}

func (e *episode) end(final *string) {
	e.stop.Do(func() { e.finish <- final })
}

// leave ends the agent's phase without final words: the client went away.
func (e *episode) leave() { e.end(nil) }

func (s *server) runID(n int) string {
	if s.o.Runs == 1 {
		return s.base.ID
	}
	return fmt.Sprintf("%s.run-%d", s.base.ID, n)
}

// start opens run n on a fresh tab: the play of the scenario, whose
// agent's phase waits for the live agent, and is sealed as the scenario
// judges what the agent did.
func (s *server) start(ctx context.Context, n int) (*episode, error) {
	sc := s.base
	sc.ID = s.runID(n)
	app, stop, err := s.apps(n)
	if err != nil {
		return nil, err
	}
	if app.Settle == (webmcp.SettleRule{}) {
		app.Settle = s.o.Settle
	}
	if err := app.Check(ctx); err != nil {
		stop()
		return nil, err
	}
	ep := &episode{n: n, ready: make(chan struct{}), ended: make(chan struct{}), recorded: make(chan struct{}), result: make(chan results.Row, 1),
		finish: make(chan *string, 1)}
	p, err := play.Start(ctx, sc, play.Options{Browser: s.b, App: app, RunID: s.o.RunID, Dir: s.o.Evidence,
		Agent: func(ctx context.Context, act func(context.Context, scenarios.Call) record.Result) *string {
			return s.agent(ctx, ep, act)
		},
		Judged: s.transcript})
	if err != nil {
		stop()
		return nil, err
	}
	ep.tab = p.Target.Tab
	go func() {
		defer stop()
		defer p.Close()
		sealed, err := p.Finish(ctx)
		if err != nil {
			s.logf("run %d: the bundle: %v", n, err)
		}
		if f := sealed.Row.Faults; len(f) > 0 {
			s.logf("run %d: harness fault: %s", n, f[0])
		}
		close(ep.recorded)
		ep.result <- sealed.Row
	}()
	return ep, nil
}

// agent is the live agent's phase of run ep: its calls go into the play
// through act until it gives its final words (or leaves).
func (s *server) agent(ctx context.Context, ep *episode, act func(context.Context, scenarios.Call) record.Result) *string {
	ep.mu.Lock()
	ep.act = act
	ep.mu.Unlock()
	ep.watch = s.follow(ctx, ep.tab)
	s.setCurrent(ep)
	close(ep.ready)
	var final *string
	select {
	case final = <-ep.finish:
	case <-ctx.Done():
	}
	s.setCurrent(nil)
	ep.mu.Lock() // a call in flight finishes first
	ep.done = true
	ep.mu.Unlock()
	ep.watch()
	close(ep.ended)
	return final
}

// transcript is the scenario as judged: the agent's calls and final words
// are what the agent did. A call keeps the scenario's expectation of the
// call at its place when it is of the same tool.
func (s *server) transcript(sc scenarios.Scenario, ev *scenarios.Evidence) scenarios.Scenario {
	sc.Agent = scenarios.Agent{Final: ev.Final}
	for _, c := range ev.Calls {
		if c.Phase != vocab.PhaseAgent {
			continue
		}
		call := scenarios.Call{Tool: c.Call.Tool, Input: c.Call.Input}
		if i := c.Index; i < len(s.base.Agent.Calls) && s.base.Agent.Calls[i].Tool == call.Tool {
			call.Expect = s.base.Agent.Calls[i].Expect
		}
		sc.Agent.Calls = append(sc.Agent.Calls, call)
	}
	return sc
}

func (s *server) setCurrent(ep *episode) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cur = ep
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *server) endAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.over = true
	close(s.changed)
	s.changed = make(chan struct{})
}

var errOver = errors.New("no run takes calls any more: every run asked for is done")

// withRun runs f with the run that takes calls now, one call at a time,
// waiting (never past ctx) while the next run's page opens.
func (s *server) withRun(ctx context.Context, f func(ep *episode)) error {
	for {
		s.mu.Lock()
		ep, changed, over := s.cur, s.changed, s.over
		s.mu.Unlock()
		if over {
			return errOver
		}
		if ep != nil {
			ep.mu.Lock()
			if !ep.done {
				f(ep)
				ep.mu.Unlock()
				return nil
			}
			ep.mu.Unlock()
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
