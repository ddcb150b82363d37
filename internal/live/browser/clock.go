package browser

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/record"
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
	// polls are the method and path of requests taken for long polls
	// (guarded by grantMu); notWaited what the clock went on without.
	polls     map[string]bool
	owed      int               // expiries still to come of budgets an advance grant ended (guarded by grantMu)
	seen      map[int]time.Time // when the clock first saw each open request of the log (guarded by grantMu)
	notWaited []record.NotWaited
	budgets   atomic.Int64 // the page milliseconds granted so far, every policy
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
	c := &Clock{Start: at, tab: t, stopped: make(chan struct{}), done: make(chan struct{}), last: time.Now(), polls: map[string]bool{}, seen: map[int]time.Time{}}
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
	// What is left is read from the page's own clock when it answers: a
	// grant that ended early (an expiry of an earlier budget that came
	// late, on a loaded machine with a stream open) is then made up, and
	// the window is the page time it says. Without an answer (the page
	// between documents), each slice counts as granted.
	// A clock that jumped (a document of another site, whose renderer has
	// the real date) or went back is not read.
	from, read := c.pageNow(ctx)
	var granted time.Duration
	left := d
	for slices := 0; left > 0 && slices < maxSlices(d); slices++ {
		slice := min(left, windowSlice)
		if err := c.grant(ctx, float64(slice.Milliseconds())); err != nil {
			if ctx.Err() == nil { // a caller that stopped waiting is no clock's fault
				c.fail(err)
			}
			return time.Since(start), err
		}
		granted += slice
		left = d - granted
		now, ok := c.pageNow(ctx)
		switch {
		case !read || !ok:
		case now == from && granted >= 2*windowSlice: // a page whose Date stands still (a script replaced it): each slice counts as granted
			read = false
		case now >= from && now-from <= granted+windowSlice:
			left = d - (now - from)
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
	if left > 0 {
		err := fmt.Errorf("the page's clock moved %s of the %s granted in %d slices", d-left, d, maxSlices(d))
		c.fail(err)
		return time.Since(start), err
	}
	return time.Since(start), nil
}

// pageNow reads the page's clock (Date.now(), virtual time), bounded.
func (c *Clock) pageNow(ctx context.Context) (time.Duration, bool) {
	ctx, cancel := c.tab.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, vocab.Bound/5)
	defer cancelBound()
	ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64]("Date.now()"))
	return time.Duration(ms) * time.Millisecond, err == nil
}

// maxSlices bounds a window's grants: twice its slices and a few, so that
// a page whose clock does not move as granted cannot keep a window going.
func maxSlices(d time.Duration) int { return 2*int(d/windowSlice) + 4 }

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

// Streams never end, and pauseIfNetworkFetchesPending waits for them
// (measured on Chromium 156, docs/decisions/2026-12-07-the-clock-and-live-connections.md):
// an open EventSource holds every budget for good, and so does a long poll
// until it is answered; a WebSocket and a fetch whose body streams after
// its headers do not. So a grant while a request that holds the clock is
// open is made with the advance policy, after the suite itself has waited
// (as the policy would) for the page's other requests to be answered.
const (
	// holdCheck is how often a grant that has not expired looks for a
	// request holding it.
	holdCheck = 250 * time.Millisecond
	// longPoll is how long a GET of the page may go unanswered before it is
	// taken for a long poll: one that holds the clock until it answers. Its
	// path is then not waited for again. A slow write is always waited for.
	longPoll = 5 * time.Second
	// secondExpiry bounds the wait for the held budget's own expiry, which
	// comes with the advance budget's (measured: 2 ms after it; a loaded
	// machine is given far longer).
	secondExpiry = vocab.Bound / 5
)

// grant gives the page budget virtual milliseconds and waits, bounded, for
// them to be used. The caller holds grantMu.
func (c *Clock) grant(ctx context.Context, budget float64) error {
	ctx, cancel := c.tab.Bind(ctx)
	defer cancel()
	c.settleOwed(ctx)
	for len(c.tab.budgetExpired) > 0 { // a late expiry of an earlier grant
		<-c.tab.budgetExpired
	}
	ctx, cancelBound := context.WithTimeout(ctx, grantBound)
	defer cancelBound()
	if len(c.holders()) > 0 {
		return c.grantPastHolders(ctx, budget)
	}
	if err := c.setBudget(ctx, emulation.VirtualTimePolicyPauseIfNetworkFetchesPending, budget); err != nil {
		return err
	}
	check := time.NewTicker(holdCheck)
	defer check.Stop()
	for {
		if expired, err := c.expiry(ctx, budget, check.C); expired || err != nil {
			return err
		}
		if len(c.holders()) == 0 {
			continue
		}
		// The budget is held by a stream: once the page's other requests
		// are answered (the policy's own wait), the same budget with advance
		// ends both (the held one's expiry comes with it).
		if err := c.tab.Net.WaitOpen(ctx, c.waitsFor); err != nil {
			return fmt.Errorf("the page's requests (a stream aside) were not answered within %s", grantBound)
		}
		if err := c.setBudget(ctx, emulation.VirtualTimePolicyAdvance, budget); err != nil {
			return err
		}
		if _, err := c.expiry(ctx, budget, nil); err != nil {
			return err
		}
		c.owed++ // the held budget's own expiry, which comes with it
		c.settleOwed(ctx)
		return nil
	}
}

// settleOwed waits, bounded by secondExpiry each, for the expiries still
// owed by budgets an advance grant ended: one that came after the next
// grant was made would end that grant early, and the page would get less
// time than it was given. The caller holds grantMu.
func (c *Clock) settleOwed(ctx context.Context) {
	for ; c.owed > 0; c.owed-- {
		wait, cancel := context.WithTimeout(ctx, secondExpiry)
		select {
		case <-c.tab.budgetExpired:
		case <-wait.Done():
		}
		cancel()
	}
}

// grantPastHolders grants budget with the advance policy once every request
// of the page but the holders has been answered: the policy's wait, made
// by the suite for the requests it can wait for.
func (c *Clock) grantPastHolders(ctx context.Context, budget float64) error {
	if err := c.tab.Net.WaitOpen(ctx, c.waitsFor); err != nil {
		return fmt.Errorf("the page's requests (a stream aside) were not answered within %s", grantBound)
	}
	if err := c.setBudget(ctx, emulation.VirtualTimePolicyAdvance, budget); err != nil {
		return err
	}
	_, err := c.expiry(ctx, budget, nil)
	return err
}

func (c *Clock) setBudget(ctx context.Context, policy emulation.VirtualTimePolicy, budget float64) error {
	if _, err := chromedp.Call(ctx, emulation.SetVirtualTimePolicy, emulation.SetVirtualTimePolicyParams{
		Policy: policy, Budget: &budget, MaxVirtualTimeTaskStarvationCount: starvationCap}); err != nil {
		return fmt.Errorf("grant the page %v ms: %w", budget, err)
	}
	c.budgets.Add(int64(budget))
	return nil
}

// keptSlack is how far past the budgets it was given a page's clock may
// read and still be the fixed clock: a budget's last slice may be counted
// late, never a day.
const keptSlack = time.Minute

// Kept answers whether the page still runs on the fixed clock, and the
// time the page said. A document of another site gets a renderer of its
// own, and there the date is the real one although virtual time is still
// on; an initialVirtualTime sent again is ignored there too (measured on
// Chromium 156: ../shared/docs/virtual-time-probe.md, and the decision
// 2026-12-07-a-fixed-clock-across-sites.md). A page that cannot be read
// now (between documents) answers kept: the next look reads it.
func (c *Clock) Kept(ctx context.Context) (PageClock, bool) {
	if c.Start == nil {
		return PageClock{}, true
	}
	ctx, cancel := c.tab.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, vocab.Bound/5)
	defer cancelBound()
	read, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
		Now float64 `json:"now"`
		URL string  `json:"url"`
	}]("({now: Date.now(), url: location.href})"))
	if err != nil {
		return PageClock{}, true
	}
	at := PageClock{Time: time.UnixMilli(int64(read.Now)).UTC(), URL: read.URL}
	latest := c.Start.Add(time.Duration(c.budgets.Load())*time.Millisecond + keptSlack)
	return at, !at.Time.Before(c.Start.Add(-time.Second)) && !at.Time.After(latest)
}

// PageClock is what a page's clock said, and where.
type PageClock struct {
	Time time.Time
	URL  string
}

// expiry waits for the budget's expiry; with look, it also answers (not
// expired, no error) when look ticks, so that the caller can look again.
func (c *Clock) expiry(ctx context.Context, budget float64, look <-chan time.Time) (bool, error) {
	select {
	case <-c.tab.budgetExpired:
		return true, nil
	case <-c.stopped:
		return false, errStopped
	case <-ctx.Done():
		return false, fmt.Errorf("the page did not use %v virtual ms within %s", budget, grantBound)
	case <-look:
		return false, nil
	}
}

// holders are the page's open requests that hold the clock for good: an
// EventSource, or a request unanswered for longPoll (then its method and
// path are known as a long poll's). Each is noted once (NotWaitedFor).
func (c *Clock) holders() []record.Request {
	var out []record.Request
	for _, i := range c.tab.Net.Open() {
		r, ok := c.tab.Net.At(i)
		if !ok || !c.pageOwn(r) || r.Done {
			continue
		}
		why := ""
		switch {
		case r.ResourceType == "EventSource":
			why = "an EventSource: a stream open while the page lives"
		case c.polls[r.Method+" "+r.Path]:
			why = "a long poll"
		case r.ResponseAt == 0 && r.Method == "GET" && (r.ResourceType == "Fetch" || r.ResourceType == "XHR") && c.openFor(i) > longPoll:
			why = fmt.Sprintf("a long poll: unanswered for more than %s", longPoll)
			c.polls[r.Method+" "+r.Path] = true
		default:
			continue
		}
		c.note(r.Method+" "+r.Path, why)
		out = append(out, r)
	}
	return out
}

// openFor is how long, in real time, the clock has seen request i of the
// log open (a request's own Started is the page's time, which is virtual).
// The caller holds grantMu.
func (c *Clock) openFor(i int) time.Duration {
	first, ok := c.seen[i]
	if !ok {
		c.seen[i] = time.Now()
		return 0
	}
	return time.Since(first)
}

// waitsFor tells whether a grant past the holders waits for r: a request of
// the page not yet answered that holds nothing for good.
//
// A WebSocket's handshake is not waited for: its answer reaches the log
// only once the page's own scheduler runs, which the paused clock holds
// (measured: waiting for it stalled every grant of the booking fixture).
func (c *Clock) waitsFor(r record.Request) bool {
	return c.pageOwn(r) && !r.Done && r.ResponseAt == 0 && r.ResourceType != "EventSource" && r.ResourceType != "WebSocket" && !c.polls[r.Method+" "+r.Path]
}

// pageOwn: a request of the page's own renderer (virtual time is the
// renderer's: a worker's or another process's requests do not hold it).
func (c *Clock) pageOwn(r record.Request) bool { return r.Target == nil }

func (c *Clock) note(request, why string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !slices.ContainsFunc(c.notWaited, func(n record.NotWaited) bool { return n.Request == request }) {
		c.notWaited = append(c.notWaited, record.NotWaited{Request: request, Why: why})
	}
}

// NotWaitedFor answers the requests the clock did not wait for, in the
// order it met them.
func (c *Clock) NotWaitedFor() []record.NotWaited {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.notWaited)
}
