package browser

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/scenarios/vocab"
)

// The page's clock (../shared/docs/virtual-time-probe.md): virtual time is
// turned on in the fresh tab before its first navigation, optionally from a
// fixed instant (initialVirtualTime counts only in that first call). From
// then on the page's time moves only by granted budgets:
//
//   - between windows the Clock grants, every 10 ms, the real time that has
//     passed, so the page runs at the pace of real time and every step
//     (navigation, calls, clicks, waits) works unchanged;
//   - a window (Advance) grants a span of page time at once, in slices of
//     250 ms with a short real gap between them (so that replies from the
//     browser process — IndexedDB, Cache Storage, a tool's answer — can land
//     between slices): a person's five seconds of review cost tens of
//     milliseconds.
//
// Budgets use pauseIfNetworkFetchesPending (a page waiting for the network
// does not see its timeouts fire early, and a write in flight is finished
// inside the window) and a starvation limit (a page that never idles cannot
// stop the clock). The launch flags disable the BackForwardCache, without
// which a navigation the page starts itself wedges virtual time.

const (
	clockTick     = 10 * time.Millisecond  // how often the paced clock grants the real time passed
	windowSlice   = 250 * time.Millisecond // a window's slice of page time
	sliceGap      = time.Millisecond       // real time between slices, for browser-process replies
	starvationCap = 1000
)

// Clock is a tab's page clock.
type Clock struct {
	Start   *time.Time // the instant the page's clock was fixed to, if it was
	tab     *Tab
	grantMu sync.Mutex // one grant at a time: the paced clock's or a window's
	stopped chan struct{}
	done    chan struct{}
	mu      sync.Mutex
	err     error
	last    time.Time // when the paced clock last granted (guarded by grantMu)
}

// StartClock turns virtual time on in a tab that has not navigated yet,
// from the instant at when it is given, and keeps the page's time running at
// the pace of real time until the tab closes or Stop is called.
func (t *Tab) StartClock(ctx context.Context, at *time.Time) (*Clock, error) {
	ctx, cancel := t.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, vocab.Bound)
	defer cancelBound()
	p := emulation.SetVirtualTimePolicyParams{Policy: emulation.VirtualTimePolicyPause}
	if at != nil {
		p.InitialVirtualTime = cdp.TimeSinceEpoch(float64(at.UnixMicro()) / 1e6)
	}
	if _, err := chromedp.Call(ctx, emulation.SetVirtualTimePolicy, p); err != nil {
		return nil, fmt.Errorf("turn the page's clock to virtual time: %w", err)
	}
	c := &Clock{Start: at, tab: t, stopped: make(chan struct{}), done: make(chan struct{}), last: time.Now()}
	go c.run()
	return c, nil
}

// FixClock is StartClock from a fixed instant.
func (t *Tab) FixClock(ctx context.Context, at time.Time) (*Clock, error) {
	return t.StartClock(ctx, &at)
}

// Err answers the first problem the clock met (a budget that never
// expired), or nil.
func (c *Clock) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *Clock) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.err = err
	}
}

// Stop ends the granting and waits for it: the page's time stands still.
func (c *Clock) Stop() {
	select {
	case <-c.stopped:
	default:
		close(c.stopped)
	}
	<-c.done
}

// Advance grants the page d of its time now, in slices, and answers how
// much real time that took. The paced clock waits meanwhile, and does not
// catch up on the real time the window took: the window is extra page time.
func (c *Clock) Advance(ctx context.Context, d time.Duration) (time.Duration, error) {
	c.grantMu.Lock()
	defer c.grantMu.Unlock()
	start := time.Now()
	defer func() { c.last = time.Now() }()
	gap := time.NewTimer(0)
	defer gap.Stop()
	for left := d; left > 0; left -= windowSlice {
		if err := c.grant(ctx, float64(min(left, windowSlice).Milliseconds())); err != nil {
			c.fail(err)
			return time.Since(start), err
		}
		// A real pause between slices is what lets browser-process replies
		// land (measured: without it, chains through IndexedDB or Cache
		// Storage miss the window); it is the recipe, not a guess.
		gap.Reset(sliceGap)
		select {
		case <-gap.C:
		case <-ctx.Done():
			return time.Since(start), ctx.Err()
		}
	}
	return time.Since(start), nil
}

func (c *Clock) run() {
	defer close(c.done)
	ticker := time.NewTicker(clockTick)
	defer ticker.Stop()
	for {
		select {
		case <-c.stopped:
			return
		case <-c.tab.Ctx.Done():
			return
		case <-ticker.C:
		}
		c.grantMu.Lock()
		now := time.Now()
		budget := max(1, float64(now.Sub(c.last).Milliseconds()))
		c.last = now
		err := c.grant(c.tab.Ctx, budget)
		c.grantMu.Unlock()
		if err != nil {
			if c.tab.Ctx.Err() != nil || errors.Is(err, errStopped) {
				return
			}
			c.fail(err)
		}
	}
}

var errStopped = errors.New("clock stopped")

// grantBound bounds one grant. Virtual time stands still while a fetch of
// the page is pending (the policy's point: a response is not overtaken by
// timers), so a grant lasts as long as the page's slowest request of the
// window, not "at once": on a 2-core machine under load average 20–37 the
// plain Bound ran out in 2–3 of 79 specs, which passed when re-run alone.
const grantBound = 3 * vocab.Bound

// grant gives the page budget virtual milliseconds and waits, bounded, for
// them to be used. The caller holds grantMu.
func (c *Clock) grant(ctx context.Context, budget float64) error {
	for len(c.tab.budgetExpired) > 0 { // a late expiry of an earlier grant
		<-c.tab.budgetExpired
	}
	ctx, cancel := c.tab.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, grantBound)
	defer cancelBound()
	if _, err := chromedp.Call(ctx, emulation.SetVirtualTimePolicy, emulation.SetVirtualTimePolicyParams{
		Policy: emulation.VirtualTimePolicyPauseIfNetworkFetchesPending, Budget: &budget, MaxVirtualTimeTaskStarvationCount: starvationCap}); err != nil {
		return fmt.Errorf("grant the page %v ms: %w", budget, err)
	}
	select {
	case <-c.tab.budgetExpired:
		return nil
	case <-c.stopped:
		return errStopped
	case <-ctx.Done():
		return fmt.Errorf("the page did not use %v virtual ms within %s", budget, grantBound)
	}
}
