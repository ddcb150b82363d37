package runner

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A person's wait on the page's clock: what comes is waited for as long as
// the page takes to bring it; what never comes ends at the bound of the
// page's time (here a fake clock, instant in real time) as an unmet wait
// (context.DeadlineExceeded), not as a fault.
func TestAWaitStepRunsOnThePagesClock(t *testing.T) {
	r := &runner{t: Target{Bound: 3 * time.Second}}
	var now time.Duration
	advance := func(_ context.Context, d time.Duration) error { now += d; return nil }
	comesAt := func(at time.Duration) func(context.Context) (bool, error) {
		return func(context.Context) (bool, error) { return now >= at, nil }
	}
	if err := r.untilOnPage(t.Context(), advance, comesAt(720*time.Millisecond)); err != nil || now != 750*time.Millisecond {
		t.Fatalf("a selector shown after 720 ms of the page's time: %v at %s, want found at 750ms", err, now)
	}
	now = 0
	start := time.Now()
	err := r.untilOnPage(t.Context(), advance, comesAt(time.Hour))
	if !errors.Is(err, context.DeadlineExceeded) || now != 3*time.Second {
		t.Fatalf("what never comes: %v at %s, want DeadlineExceeded at 3s", err, now)
	}
	if real := time.Since(start); real > time.Second {
		t.Errorf("the bound was waited in real time (%s)", real)
	}
	broken := errors.New("the page's clock failed")
	if err := r.untilOnPage(t.Context(), func(context.Context, time.Duration) error { return broken }, comesAt(time.Hour)); !errors.Is(err, broken) || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a clock that fails is the harness's fault, not an unmet wait: %v", err)
	}
}
