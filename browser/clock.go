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

	"github.com/agentready/agentready/vocab"
)

// A fixed page clock (../shared/docs/virtual-time-probe.md, "A fixed page
// clock"): the first Emulation.setVirtualTimePolicy of a fresh tab, before
// its first navigation, sets the page's clock to an instant; from then on
// the page's time moves only by granted budgets. The clock below grants
// budgets as real time passes, so the page's time runs from the fixed
// instant at the pace of real time: Date, Intl, timers, same-site frames
// and dedicated workers all agree on it.
//
// Budgets use pauseIfNetworkFetchesPending, so a page waiting for the
// network does not see its own timeouts fire early, and a starvation limit,
// so a page that never goes idle cannot stop the clock. The launch flags
// disable the BackForwardCache, without which a navigation started in the
// page wedges virtual time for good.

// clockTick is how often the clock grants the real time that has passed.
const clockTick = 10 * time.Millisecond

// Clock is a tab's page clock, fixed to an instant and then running.
type Clock struct {
	Start   time.Time // the instant the page's clock started from
	tab     *Tab
	stopped chan struct{}
	done    chan struct{}
	mu      sync.Mutex
	err     error
}

// FixClock sets the page's clock of a tab that has not navigated yet to at,
// and keeps it running until the tab closes or Stop is called.
func (t *Tab) FixClock(ctx context.Context, at time.Time) (*Clock, error) {
	ctx, cancel := t.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, vocab.Bound)
	defer cancelBound()
	initial := cdp.TimeSinceEpoch(float64(at.UnixMicro()) / 1e6)
	if _, err := chromedp.Call(ctx, emulation.SetVirtualTimePolicy, emulation.SetVirtualTimePolicyParams{
		Policy: emulation.VirtualTimePolicyPause, InitialVirtualTime: initial}); err != nil {
		return nil, fmt.Errorf("fix the page's clock: %w", err)
	}
	c := &Clock{Start: at, tab: t, stopped: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c, nil
}

// Err answers the first problem the clock met (a budget that never
// expired), or nil.
func (c *Clock) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
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

func (c *Clock) run() {
	defer close(c.done)
	ticker := time.NewTicker(clockTick)
	defer ticker.Stop()
	last := time.Now()
	for {
		select {
		case <-c.stopped:
			return
		case <-c.tab.Ctx.Done():
			return
		case <-ticker.C:
		}
		now := time.Now()
		budget := max(1, float64(now.Sub(last).Milliseconds()))
		last = now
		if err := c.grant(budget); err != nil {
			if c.tab.Ctx.Err() != nil || errors.Is(err, errStopped) {
				return
			}
			c.mu.Lock()
			if c.err == nil {
				c.err = err
			}
			c.mu.Unlock()
		}
	}
}

var errStopped = errors.New("clock stopped")

// grant gives the page budget virtual milliseconds and waits, bounded, for
// them to be used.
func (c *Clock) grant(budget float64) error {
	for len(c.tab.budgetExpired) > 0 { // a late expiry of an earlier grant
		<-c.tab.budgetExpired
	}
	ctx, cancel := context.WithTimeout(c.tab.Ctx, vocab.Bound)
	defer cancel()
	if _, err := chromedp.Call(ctx, emulation.SetVirtualTimePolicy, emulation.SetVirtualTimePolicyParams{
		Policy: emulation.VirtualTimePolicyPauseIfNetworkFetchesPending, Budget: &budget, MaxVirtualTimeTaskStarvationCount: 1000}); err != nil {
		return fmt.Errorf("grant the page %v ms: %w", budget, err)
	}
	select {
	case <-c.tab.budgetExpired:
		return nil
	case <-c.stopped:
		return errStopped
	case <-ctx.Done():
		return fmt.Errorf("the page did not use %v virtual ms within %s", budget, vocab.Bound)
	}
}
