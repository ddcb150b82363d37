package webmcp

import (
	"context"
	"fmt"
	"time"

	"github.com/agentready/agentready/internal/data/record"
)

// SettleRule is when a page's catalog counts as settled: no tool added or
// removed for Quiet, waited for at most Max. It is the one rule of the
// suite: `catalog`, `lint` (--settle, --max-wait) and `run` (after the start
// load, after each navigation and before each call) wait by it.
type SettleRule struct {
	Quiet time.Duration
	Max   time.Duration
}

// DefaultSettle waits for 300 ms with no toolsAdded/toolsRemoved, 5 s at most.
var DefaultSettle = SettleRule{Quiet: 300 * time.Millisecond, Max: 5 * time.Second}

// Check refuses a rule that cannot be waited by, saying why and naming
// the flags that set it.
func (s SettleRule) Check() error {
	switch {
	case s.Quiet <= 0:
		return fmt.Errorf("--settle %s: the quiet time must be more than 0 (e.g. 300ms)", s.Quiet)
	case s.Max <= 0:
		return fmt.Errorf("--max-wait %s: the longest wait must be more than 0 (e.g. 5s)", s.Max)
	case s.Quiet > s.Max:
		return fmt.Errorf("--settle %s is longer than --max-wait %s: the catalog could never be quiet for that long within the wait", s.Quiet, s.Max)
	}
	return nil
}

// settleStep is the page time granted between two looks at the trace when
// the wait runs on the page's virtual clock.
const settleStep = 50 * time.Millisecond

// Advance grants the page d of its own time and returns once it is used
// (browser.Clock.Advance). A nil Advance waits in real time.
type Advance func(ctx context.Context, d time.Duration) error

// Settled is what one wait for the catalog saw.
type Settled struct {
	Waited  time.Duration // the page's time waited (real time without a virtual clock)
	Arrived []string      // the tools added meanwhile, in order
	Left    []string      // the tools removed meanwhile, in order
	Bounded bool          // Max ran out before the catalog was quiet
	Mark    int           // the trace's length when the wait ended
}

// catalogChanges counts the events that change the catalog.
func catalogChanges(events []record.Event) int {
	n := 0
	for _, e := range events {
		if e.Kind == record.ToolsAdded || e.Kind == record.ToolsRemoved {
			n++
		}
	}
	return n
}

// Settle waits by rule until the catalog has not changed for rule.Quiet,
// at most rule.Max: on the page's clock through advance, or in real time
// when advance is nil. It ends early, with ctx's error, when ctx ends.
func (r *Recorder) Settle(ctx context.Context, rule SettleRule, advance Advance) (Settled, error) {
	start := r.Len()
	var quietSince time.Duration
	changes := catalogChanges(r.Events())
	s, err := r.wait(ctx, rule.Max, advance, func(waited time.Duration) bool {
		if n := catalogChanges(r.Events()); n != changes {
			changes, quietSince = n, waited
		}
		return waited-quietSince >= rule.Quiet
	})
	for _, e := range r.Events()[start:] {
		for _, t := range e.Tools {
			switch e.Kind {
			case record.ToolsAdded:
				s.Arrived = append(s.Arrived, t.Name)
			case record.ToolsRemoved:
				s.Left = append(s.Left, t.Name)
			}
		}
	}
	return s, err
}

// WaitLate waits, by the same clock and at most max, for a tool that was
// not there when the catalog had settled: it answers how long after that it
// arrived, or false when it did not.
func (r *Recorder) WaitLate(ctx context.Context, name string, max time.Duration, advance Advance) (time.Duration, bool) {
	present := func() bool { _, ok := r.Catalog().Get(name); return ok }
	s, _ := r.wait(ctx, max, advance, func(time.Duration) bool { return present() })
	return s.Waited, !s.Bounded && present()
}

// wait looks at done after each step of time until it holds or max is
// used; Waited is the time it took and Bounded says max ran out.
func (r *Recorder) wait(ctx context.Context, max time.Duration, advance Advance, done func(waited time.Duration) bool) (Settled, error) {
	var s Settled
	if advance == nil {
		begin := time.Now()
		deadline := time.NewTimer(max)
		defer deadline.Stop()
		for {
			r.mu.Lock()
			changed := r.changed
			r.mu.Unlock()
			s.Waited = time.Since(begin)
			if done(s.Waited) {
				s.Mark = r.Len()
				return s, nil
			}
			// Look again at the next change, or when quiet may be reached.
			tick := time.NewTimer(settleStep)
			select {
			case <-changed:
			case <-tick.C:
			case <-deadline.C:
				tick.Stop()
				s.Waited, s.Bounded = max, !done(time.Since(begin))
				s.Mark = r.Len()
				return s, nil
			case <-ctx.Done():
				tick.Stop()
				s.Waited = time.Since(begin)
				s.Mark = r.Len()
				return s, ctx.Err()
			}
			tick.Stop()
		}
	}
	for {
		if done(s.Waited) {
			s.Mark = r.Len()
			return s, nil
		}
		if s.Waited >= max {
			s.Bounded = true
			s.Mark = r.Len()
			return s, nil
		}
		step := min(settleStep, max-s.Waited)
		if err := advance(ctx, step); err != nil {
			s.Mark = r.Len()
			return s, err
		}
		s.Waited += step
	}
}
