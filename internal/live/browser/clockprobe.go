package browser

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// The page clock on a navigating page (issue 25.2): a browser the suite did
// not start may have been started without a flag the clock needs, and its
// command line is not always readable (Browser.getBrowserCommandLine needs
// --enable-automation). So an attached browser is also tried the way the
// runs use it: a fresh tab on virtual time opens a page that navigates
// itself (a renderer-started navigation, the one BackForwardCache wedges),
// and the next page must reach a timer of its own under granted budgets.

const (
	clockProbeFirst  = "/agentready-clock-a"
	clockProbeSecond = "/agentready-clock-b"
	// clockProbeGrant is one budget of page time; clockProbeGrants of them
	// (3 s of page time) are far more than the two pages' timers need.
	clockProbeGrant  = 100.0
	clockProbeGrants = 30
	// clockProbeExpiry bounds the real wait for one budget to be used: an
	// idle page uses it in milliseconds; a wedged clock never does.
	clockProbeExpiry = 3 * time.Second
)

// clockProbePages serves the two pages: the first goes to the second by
// itself once loaded; the second names itself in its title after a timer.
func clockProbePages(w http.ResponseWriter, r *http.Request) bool {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	switch r.URL.Path {
	case clockProbeFirst:
		fmt.Fprintf(w, `<!doctype html><title>leaving</title><script>addEventListener("load", () => setTimeout(() => { location.href = %q }, 0))</script>`, clockProbeSecond)
	case clockProbeSecond:
		fmt.Fprint(w, `<!doctype html><title>arriving</title><script>setTimeout(() => { document.title = "arrived" }, 50)</script>`)
	default:
		return false
	}
	return true
}

var errClockWedged = errors.New("the page clock stopped")

// probeClock opens base+clockProbeFirst on virtual time and grants budgets
// until the second page's timer has run; it answers errClockWedged (wrapped,
// naming the flag) when a budget is never used or the page never arrives.
func (b *Browser) probeClock(base string) error {
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	defer cancel()
	if err := within(15*time.Second, cancel, func() error { return chromedp.Do(ctx) }); err != nil {
		return fmt.Errorf("%w: could not open a tab for the page clock check: %v", ErrPreflight, err)
	}
	setCtx, stop := context.WithTimeout(ctx, clockProbeExpiry)
	_, err := chromedp.Call(setCtx, emulation.SetVirtualTimePolicy, emulation.SetVirtualTimePolicyParams{Policy: emulation.VirtualTimePolicyPause})
	stop()
	if err != nil {
		return fmt.Errorf("%w: could not turn a tab to virtual time: %v", ErrPreflight, err)
	}
	// Page.navigate holds its commit until page time is granted: it runs
	// beside the grants, and ends with the tab.
	go func() { _ = chromedp.Do(ctx, chromedp.Navigate(base+clockProbeFirst)) }()
	for range clockProbeGrants {
		if err := grantOnce(ctx); err != nil {
			return wedged(err)
		}
		titleCtx, stop := context.WithTimeout(ctx, clockProbeExpiry)
		title, err := chromedp.Run(titleCtx, chromedp.Evaluate[string](`document.title`))
		stop()
		if err == nil && title == "arrived" {
			return nil
		}
	}
	return wedged(fmt.Errorf("the page that navigated itself did not run its timer in %v page-ms", clockProbeGrant*clockProbeGrants))
}

// grantOnce grants one budget and waits, bounded, for the browser to say it
// was used.
func grantOnce(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, clockProbeExpiry)
	defer cancel()
	expired := chromedp.Events(ctx, emulation.VirtualTimeBudgetExpired) // subscribed before the grant
	budget := clockProbeGrant
	if _, err := chromedp.Call(ctx, emulation.SetVirtualTimePolicy, emulation.SetVirtualTimePolicyParams{
		Policy: emulation.VirtualTimePolicyPauseIfNetworkFetchesPending, Budget: &budget, MaxVirtualTimeTaskStarvationCount: starvationCap}); err != nil {
		return fmt.Errorf("grant %v page-ms: %w", budget, err)
	}
	for _, err := range expired {
		if err != nil {
			return fmt.Errorf("a budget of %v page-ms was not used within %s", budget, clockProbeExpiry)
		}
		return nil
	}
	return fmt.Errorf("a budget of %v page-ms was not used within %s", budget, clockProbeExpiry)
}

func wedged(cause error) error {
	//lint:ignore ST1005 a message for a person, in sentences, printed as the run's first and only failure
	return fmt.Errorf("%w: %w after a navigation the page made itself (%v).\n  The browser at %s was likely started without BackForwardCache in --disable-features;\n  start Chromium with --disable-features=%s and the other flags the README gives (section Browser), or leave %s unset and the suite starts one itself.",
		ErrPreflight, errClockWedged, cause, EnvBrowserURL, DisabledFeatures, EnvBrowserURL)
}
