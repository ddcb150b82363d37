package webmcp

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// A person's wait or a tool wait on the page's clock: what comes is waited
// for as long as the page takes to bring it; what never comes ends at the
// bound of the page's time (here a fake clock, instant in real time) as
// context.DeadlineExceeded, which the runner calls unmet, not a fault; a
// clock that fails is the harness's error, never an unmet wait.
func TestUntilOnPageWaitsThePagesTime(t *testing.T) {
	var now time.Duration
	advance := func(_ context.Context, d time.Duration) error { now += d; return nil }
	comesAt := func(at time.Duration) func(context.Context) (bool, error) {
		return func(context.Context) (bool, error) { return now >= at, nil }
	}
	if err := UntilOnPage(t.Context(), advance, 3*time.Second, comesAt(720*time.Millisecond)); err != nil || now != 750*time.Millisecond {
		t.Fatalf("shown after 720 ms of the page's time: %v at %s, want found at 750ms", err, now)
	}
	now = 0
	start := time.Now()
	err := UntilOnPage(t.Context(), advance, 3*time.Second, comesAt(time.Hour))
	if !errors.Is(err, context.DeadlineExceeded) || now != 3*time.Second || !strings.Contains(err.Error(), "of the page's time") {
		t.Fatalf("what never comes: %v at %s, want DeadlineExceeded at 3s of the page's time", err, now)
	}
	if real := time.Since(start); real > time.Second {
		t.Errorf("the bound was waited in real time (%s)", real)
	}
	broken := errors.New("the page's clock failed")
	if err := UntilOnPage(t.Context(), func(context.Context, time.Duration) error { return broken }, 3*time.Second, comesAt(time.Hour)); !errors.Is(err, broken) || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a clock that fails is the harness's fault, not an unmet wait: %v", err)
	}
}

// A page whose time stands still (a fetch that never ends holds it) is
// still let go in real time, between two grants, after three times the
// bound: an unmet wait that says so.
func TestUntilOnPageIsCutInRealTimeBetweenGrants(t *testing.T) {
	const bound = untilStep + 10*time.Millisecond // more than one step
	stalled := func(ctx context.Context, _ time.Duration) error {
		// The grant takes real time and gives the page none of its own.
		timer := time.NewTimer(3*bound + 20*time.Millisecond)
		defer timer.Stop()
		select {
		case <-timer.C:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	never := func(context.Context) (bool, error) { return false, nil }
	err := UntilOnPage(t.Context(), stalled, bound, never)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "of real time") {
		t.Fatalf("a stalled page clock: %v, want DeadlineExceeded naming real time", err)
	}
}
