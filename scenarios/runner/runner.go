// Package runner plays a scenario in a browser tab against an app and
// records what happened as scenarios.Evidence. It judges nothing: package
// judge does, from the evidence alone.
package runner

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/data/signin"
	"github.com/agentready/agentready/internal/kit/laps"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/live/observer"
	"github.com/agentready/agentready/internal/live/webmcp"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Target is what a scenario runs against: an app and a fresh tab.
type Target struct {
	BaseURL  string
	Tab      *browser.Tab
	Observer *observer.Client // nil when the app is not observed: no journal, no state
	Browser  browser.Version
	Variant  string
	// Bound limits each wait for something that should happen at once
	// (vocab.Bound when zero).
	Bound time.Duration
	// Agent, when set, is a live agent acting in place of the scenario's
	// transcript (agentready mcp). It is called once the start page is open
	// and the state before the agent is read, and answers the agent's final
	// words (nil: none) when the agent is done. Each call it makes through
	// act is played and recorded as a transcript call is; act is not to be
	// called concurrently, nor after Agent returns.
	Agent func(ctx context.Context, act func(context.Context, scenarios.Call) record.Result) *string
	// AtMark, when set, is called at each phase mark once it is taken: the
	// report's filmstrip pictures the page there. It may go on while the
	// runner reads the app's state, which changes nothing on the page; the
	// func it answers (if any) is waited for before the page is acted on.
	// It records nothing the judge reads.
	AtMark func(ctx context.Context, phase vocab.Phase) (wait func())
	// Settle is the rule by which the catalog is waited for after the
	// start load, each navigation and before each call
	// (webmcp.DefaultSettle when zero).
	Settle webmcp.SettleRule
	// SignIn is the command line's sign-in (--storage-state, --header):
	// it wins over the scenario's signin keys it covers (signin.go).
	SignIn signin.Options
	// ReplaysOff, when set, says why no write is replayed (agentready run
	// --replays off): the record says so instead of holding replays.
	ReplaysOff string
	// AppEnded, when set, tells whether the app the suite started has
	// ended, and in what words. It is asked at each mark, so that an app
	// that ended is a fault of the phase it ended in: what earlier phases
	// recorded stands (issue 43 item 1).
	AppEnded func() (ended bool, words string)
}

// Run plays a scenario and records what happened. It judges nothing. A
// harness problem on the way is kept in Evidence.Faults, and the run goes on
// as far as it can, so that the evidence shows where it stopped. ctx reaches
// every wait: when it ends, the run stops waiting and records what it has.
func Run(ctx context.Context, sc scenarios.Scenario, t Target) *scenarios.Evidence {
	if t.Bound <= 0 {
		t.Bound = vocab.Bound
	}
	r := &runner{sc: sc, t: t, ev: newEvidence(sc, t)}
	r.ev.Capture.Observer = r.journalOn()
	if d := t.Tab.Dialogs; d != nil {
		d.SetPolicy(sc.Capture.Dialogs)
		d.SetPhase(vocab.PhaseSetup) // the start page's load and the setup steps
		r.ev.Capture.Dialogs = true
	}
	if p := t.Tab.Popups; p != nil {
		p.SetPhase(vocab.PhaseSetup)
		r.ev.Capture.Popups = true
	}
	t.Tab.Net.KeepBodies(r.ofApp)
	tools := t.Tab.Tools
	tools.Bound = t.Bound
	if sc.Capture.ToolTimeout > 0 {
		tools.Timeout = time.Duration(sc.Capture.ToolTimeout)
	}
	defer r.cancelPending(ctx) // a run cut short leaves nothing pending in the page
	r.open(ctx)                // and setup: the start catalog is the one the agent finds after it
	r.agent(ctx)
	r.human(ctx)
	person := r.personCookies(ctx) // replays.go
	r.collect(ctx)
	laps.Mark(ctx, "collect (cookies, bodies, journal)")
	r.ev.Cut = cutShort(ctx, t) // partial.go
	if r.ev.Cut == vocab.RendererCrashed {
		r.ev.Faults = append(r.ev.Faults, scenarios.WholeFault(crashFault(t.Tab)))
	}
	r.replay(ctx, person)
	laps.Mark(ctx, "replays")
	return r.ev
}

type runner struct {
	sc scenarios.Scenario
	t  Target
	ev *scenarios.Evidence
	// actedAt is where the request log stood before the last step that
	// did something: wait_request waits for a request after it.
	actedAt int
	clock   *browser.Clock // the page's fixed clock, or nil
	// pictured waits for AtMark's picture of the last mark, or is nil.
	pictured func()
	// marked is the phase of the last mark taken (setup before the first).
	marked vocab.Phase
	// appEnded: the app's end is in the faults already.
	appEnded bool
	// clockLost: the page's leaving the fixed clock is in the faults already.
	clockLost bool
	// issuesRead is how many of the tab's browser issues the evidence holds.
	issuesRead int
	// pending are the agent's calls left running for the person's steps
	// to answer (answered_in: human; pending.go).
	pending []pendingCall
}

func newEvidence(sc scenarios.Scenario, t Target) *scenarios.Evidence {
	ev := &scenarios.Evidence{
		ScenarioID: sc.ID,
		Env:        scenarios.Env{BaseURL: t.BaseURL, Variant: t.Variant, Browser: t.Browser.Product, Protocol: t.Browser.Protocol},
		States:     map[vocab.Phase]*record.Snapshot{},
		UI:         map[vocab.Phase][]record.Element{},
		Pages:      map[vocab.Phase]string{},
		Marks:      map[vocab.Phase]scenarios.Mark{},
		Calls:      []scenarios.CallRecord{},
		Final:      sc.Agent.Final,
	}
	ev.Capture.Network = sc.Capture.NetworkOn()
	ev.Env.ProbeTokens = true
	return ev
}

func (r *runner) fault(format string, args ...any) {
	r.ev.Faults = append(r.ev.Faults, scenarios.WholeFault(fmt.Sprintf(format, args...)))
}

// noteAppEnded keeps the app's end, once, as a fault of the phase it
// ended in: the one that began at the last mark.
func (r *runner) noteAppEnded(during vocab.Phase) {
	if r.appEnded || r.t.AppEnded == nil {
		return
	}
	if ended, words := r.t.AppEnded(); ended {
		r.appEnded = true
		r.faultFrom(cmp.Or(during, vocab.PhaseSetup), "%s (noticed at the end of %s)", words, cmp.Or(during, vocab.PhaseSetup))
	}
}

// noteClockLost keeps, once, that the page no longer ran on the scenario's
// fixed clock by the end of phase: a document of another site (a sign-in
// provider, a payment page) runs on the real date, so what was recorded
// from that phase on ran on another day than the one the scenario's
// expectations were written for.
func (r *runner) noteClockLost(ctx context.Context, during vocab.Phase) {
	if r.clockLost || r.clock == nil || r.sc.Clock == nil {
		return
	}
	if at, kept := r.clock.Kept(ctx); !kept {
		r.clockLost = true
		r.faultFrom(during, "the page's fixed clock (%s) was lost by the end of %s: %s runs on %s; a document of another site has a renderer of its own, on the real date, and the clock cannot be fixed there again (keep the run on one site, e.g. sign in by signin: instead of through the provider)",
			r.sc.Clock.UTC().Format(time.RFC3339), during, at.URL, at.Time.Format(time.RFC3339))
	}
}

// faultFrom keeps a fault that may have cut the evidence of phase and
// after, not what earlier phases recorded: a step of the person's that
// timed out says nothing against the agent's window before it.
func (r *runner) faultFrom(phase vocab.Phase, format string, args ...any) {
	r.ev.Faults = append(r.ev.Faults, scenarios.FaultFrom(phase, fmt.Sprintf(format, args...)))
}

// open loads the start page (on the scenario's fixed clock, when it has
// one), plays the setup steps (a sign-in, say), and then records the
// catalog as the agent finds it: a page behind a sign-in offers its tools
// only once setup has signed in.
func (r *runner) open(ctx context.Context) {
	r.plant(ctx) // attack.go: before any document of the run
	clock, err := r.t.Tab.StartClock(ctx, r.sc.Clock)
	switch {
	case err != nil && r.sc.Clock != nil:
		r.fault("%v", err)
	case err != nil:
		// Without virtual time there is no fast-forwarded window: the
		// windows are then waited for in real time (see window).
	default:
		r.clock = clock
		r.ev.Env.Clock = r.sc.Clock
	}
	request := r.signIn(ctx)
	laps.Mark(ctx, "start the page clock")
	if err := r.t.Tab.Navigate(ctx, r.t.BaseURL+r.sc.Start); err != nil {
		r.fault("open %s: %v", r.sc.Start, err)
	}
	laps.Mark(ctx, "open the start page")
	if request {
		r.signInRequest(ctx)
	}
	r.steps(ctx, vocab.PhaseSetup, r.sc.Setup)
	r.settleCatalog(ctx, vocab.SettleStart, "", 0, "")
	laps.Mark(ctx, "setup and the catalog settling")
	catalog, page, err := r.t.Tab.Tools.CatalogAndPage(ctx)
	r.browserIssues(ctx)
	laps.Mark(ctx, "read the catalog")
	r.ev.Catalog, r.ev.PageTools = cmpOr(catalog, record.Catalog{}), page
	if page != nil {
		r.ev.Exposure = r.t.Tab.Tools.ExposedToTop(ctx, catalog, page)
	}
	switch {
	case err != nil && page == nil:
		r.fault("read the catalog: %v", err)
	case err != nil:
		r.ev.PageToolsHung = r.t.Tab.Tools.HungFrames(ctx, catalog, page)
	}
}

// browserIssues keeps the WebMCP issues Chromium reported since the last
// read, located while their documents are there.
func (r *runner) browserIssues(ctx context.Context) {
	read := r.t.Tab.WebMCPIssues(ctx, r.issuesRead)
	r.ev.BrowserIssues = append(r.ev.BrowserIssues, read...)
	r.issuesRead += len(read) // what came while they were read is read next time
}

// agent plays the transcript's calls and records the page as the agent left it.
func (r *runner) agent(ctx context.Context) {
	r.mark(ctx, vocab.PhaseAgent)
	laps.Mark(ctx, "marks")
	r.ev.States[vocab.StateBefore] = r.state(ctx, vocab.PhaseAgent)
	laps.Mark(ctx, "state reads")
	r.waitPicture()
	laps.Mark(ctx, "wait for pictures")
	selectors := r.selectors(vocab.PhaseAgent)
	// The page as the agent left it: when a call does not answer, that is
	// before the suite cancels it (canceling clears the form's WebMCP
	// pseudo-classes); a later call leaves the page again.
	var beforeCancel []record.Element
	var beforeCancelURL string
	r.t.Tab.Tools.OnNoResponse = func(ctx context.Context, _ record.Result) {
		beforeCancel = r.snapshot(ctx, selectors)
		beforeCancelURL = r.location(ctx)
	}
	if live := r.t.Agent; live != nil { // the live agent's calls are the transcript
		n := 0
		r.ev.Final = live(ctx, func(ctx context.Context, c scenarios.Call) record.Result {
			beforeCancel = nil
			r.call(ctx, vocab.PhaseAgent, n, c)
			n++
			return r.ev.Calls[len(r.ev.Calls)-1].Result
		})
	} else {
		for i, c := range r.sc.Agent.Calls {
			r.asks(i) // dialogue.go
			beforeCancel = nil
			r.call(ctx, vocab.PhaseAgent, i, c)
		}
		r.asks(len(r.sc.Agent.Calls))
	}
	laps.Mark(ctx, "the agent's calls")
	r.t.Tab.Tools.OnNoResponse = nil
	switch {
	case beforeCancel != nil:
		r.ev.UI[vocab.PhaseAgent] = beforeCancel
		r.ev.Pages[vocab.PhaseAgent] = beforeCancelURL
	default:
		if len(selectors) > 0 {
			r.ev.UI[vocab.PhaseAgent] = r.snapshot(ctx, selectors)
		}
		r.ev.Pages[vocab.PhaseAgent] = r.location(ctx)
	}
	laps.Mark(ctx, "looks (UI and URL)")
	// A person reviews for seconds before confirming: what the page does
	// meanwhile happened before confirmation, in the agent's phase.
	r.window(ctx, vocab.PhaseAgent, r.sc.Capture.ReviewTime())
	laps.Mark(ctx, "windows of page time")
}

// window gives the page d of its own time after a phase, fast-forwarded on
// its virtual clock. A page with workers (whose timers run on real time)
// or without a virtual clock gets d in real time instead, so that a write
// they make in it is still seen.
func (r *runner) window(ctx context.Context, after vocab.Phase, d time.Duration) {
	if d <= 0 {
		return
	}
	w := scenarios.Window{After: after, PageTime: d}
	if r.clock == nil || r.t.Tab.HasWorkers(ctx) {
		w.Paced = true
		start := time.Now()
		timer := time.NewTimer(d)
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
		}
		w.RealTime = time.Since(start)
	} else {
		took, err := r.clock.Advance(ctx, d)
		if err != nil && ctx.Err() == nil {
			r.faultFrom(after, "the page's time after %s: %v", after, err)
		}
		w.RealTime = took
	}
	r.ev.Windows = append(r.ev.Windows, w)
}

// human plays the person's steps. Each phase's state is read after its
// mark, which lets requests still in flight land first: a write the agent's
// last call started counts in the agent's phase.
func (r *runner) human(ctx context.Context) {
	r.mark(ctx, vocab.PhaseHuman)
	laps.Mark(ctx, "marks")
	r.ev.States[vocab.PhaseAgent] = r.state(ctx, vocab.PhaseHuman)
	laps.Mark(ctx, "state reads")
	r.waitPicture()
	laps.Mark(ctx, "wait for pictures")
	if len(r.sc.Human) > 0 {
		r.steps(ctx, vocab.PhaseHuman, r.sc.Human)
		laps.Mark(ctx, "the person's steps")
		r.window(ctx, vocab.PhaseHuman, r.sc.Capture.SettleTime())
		laps.Mark(ctx, "windows of page time")
		r.awaitPending(ctx)
		if sel := r.selectors(vocab.PhaseHuman); len(sel) > 0 {
			r.ev.UI[vocab.PhaseHuman] = r.snapshot(ctx, sel)
		}
		r.ev.Pages[vocab.PhaseHuman] = r.location(ctx)
		laps.Mark(ctx, "looks (UI and URL)")
		r.abandonPending(ctx) // after the looks: a cancel changes the form's state
	}
	r.leave(ctx) // leave.go: the state after the person is read after it
	r.mark(ctx, vocab.PhaseEnd)
	laps.Mark(ctx, "marks")
	if len(r.sc.Human) > 0 {
		r.ev.States[vocab.PhaseHuman] = r.state(ctx, vocab.PhaseEnd)
	}
	laps.Mark(ctx, "state reads")
	r.waitPicture()
	laps.Mark(ctx, "wait for pictures")
}

// collect takes the ordered records from the tab and the app's journal.
func (r *runner) collect(ctx context.Context) {
	r.noteAppEnded(r.marked)
	tab := r.t.Tab
	if r.journalOn() {
		session, err := r.sessionHash(ctx)
		r.ev.Env.Session = session
		if err != nil {
			r.ev.Env.SessionUnread = err.Error()
		}
	}
	bodies, cancel := tab.Bind(ctx)
	bodies, cancelBound := context.WithTimeout(bodies, r.t.Bound)
	_ = tab.Net.FillBodies(bodies)
	cancelBound()
	cancel()
	r.ev.Trace = tab.Trace.Events()
	if r.ev.Capture.Network {
		r.ev.Requests = cmpOr(tab.Net.Requests(), record.Log{})
		// The app's writes' bodies are evidence (seed 003): one the log
		// could not keep whole is a gap in the record, said so.
		for _, u := range tab.Net.Unkept() {
			if !record.IsWrite(u.Method) {
				continue
			}
			r.fault("the body of %s %s (request %d of the log) is not in the record: %s", u.Method, pathOf(u.URL), u.Seq, u.Why)
		}
	}
	if r.journalOn() {
		j, err := r.t.Observer.Journal(ctx, 0)
		if err != nil {
			r.fault("read the journal: %v", err)
		}
		r.ev.Journal = j
	}
	r.ev.Console = tab.Console.Entries()
	r.browserIssues(ctx) // those of a page that was not left
	if tab.Dialogs != nil {
		r.ev.Dialogs = tab.Dialogs.Entries()
		for i, d := range r.ev.Dialogs {
			if d.Error != "" {
				r.fault("answer the page's %s dialog (dialog %d): %s", d.Kind, i, d.Error)
			}
		}
	}
	if tab.Popups != nil {
		r.ev.Popups = tab.Popups.Entries()
		for i, p := range r.ev.Popups {
			if p.Error != "" {
				r.fault("follow the window the page opened (popup %d, %s): %s", i, cmp.Or(p.URL, "no document yet"), p.Error)
			}
		}
	}
	if r.clock != nil {
		if err := r.clock.Err(); err != nil {
			r.fault("the page's clock: %v", err)
		}
		r.ev.ClockNotWaited = r.clock.NotWaitedFor()
	}
}

// openAppRequests are the app's requests of the log before n still open.
func (r *runner) openAppRequests(n int) []int {
	var out []int
	for _, i := range r.t.Tab.Net.Open() {
		if q, ok := r.t.Tab.Net.At(i); ok && i < n && q.Counted() && r.ofApp(q.URL) {
			out = append(out, i)
		}
	}
	return out
}

// journalOnceArrived reads the journal once the app has seen arrive the
// open requests the network log holds before the mark (n): a request the
// browser has sent but the app has not received would lie before the mark
// in the network log and after it in the journal. It waits for their
// arrival, not their answer (a long poll arrives and stays open), within a
// third of the bound; those still not arrived are answered as in flight.
// Arrival is counted by method and path since the last mark: the journal
// must hold at least as many entries of each as the log holds requests.
func (r *runner) journalOnceArrived(ctx context.Context, n int, open []int) (record.Journal, []int, error) {
	j, err := r.t.Observer.Journal(ctx, 0)
	if err != nil || len(open) == 0 {
		return j, nil, err
	}
	prev := r.ev.Marks[r.marked] // the zero mark before the first
	short := func(j record.Journal) map[string]int {
		want := map[string]int{}
		for _, i := range open {
			q, _ := r.t.Tab.Net.At(i)
			want[q.Method+" "+q.Path] = 0
		}
		for i := max(prev.Requests, 0); i < n; i++ {
			if q, ok := r.t.Tab.Net.At(i); ok && q.Counted() && r.ofApp(q.URL) {
				if _, watched := want[q.Method+" "+q.Path]; watched {
					want[q.Method+" "+q.Path]++
				}
			}
		}
		for _, e := range j[min(max(prev.Journal, 0), len(j)):] {
			if _, watched := want[e.Method+" "+e.Path]; watched {
				want[e.Method+" "+e.Path]--
			}
		}
		maps.DeleteFunc(want, func(_ string, v int) bool { return v <= 0 })
		return want
	}
	wait, cancel := context.WithTimeout(ctx, r.t.Bound/3)
	defer cancel()
	// The journal is an HTTP endpoint that sends no event: it is read again
	// on a short tick, within the bound.
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for missing := short(j); len(missing) > 0; missing = short(j) {
		select {
		case <-wait.Done():
			// Still not arrived: the last of each kind are in flight.
			var inFlight []int
			for k := len(open) - 1; k >= 0; k-- {
				q, _ := r.t.Tab.Net.At(open[k])
				if key := q.Method + " " + q.Path; missing[key] > 0 {
					missing[key]--
					inFlight = append(inFlight, open[k])
				}
			}
			slices.Sort(inFlight)
			return j, inFlight, nil
		case <-tick.C:
		}
		if j, err = r.t.Observer.Journal(ctx, 0); err != nil {
			return j, nil, err
		}
	}
	return j, nil, nil
}

func (r *runner) mark(ctx context.Context, phase vocab.Phase) {
	// A request still in flight would count in the network log but not yet
	// in the journal: let what has started finish first (briefly). A stream
	// (an EventSource open for the page's life) never finishes: it is not
	// waited for.
	settle, cancel := r.t.Tab.Bind(ctx)
	settle, cancelBound := context.WithTimeout(settle, r.t.Bound/3)
	settled := r.t.Tab.Net.WaitOpen(settle, finishes) == nil
	cancelBound()
	cancel()
	m := scenarios.Mark{Trace: r.t.Tab.Trace.Len(), Requests: r.t.Tab.Net.Len()}
	if r.journalOn() {
		var open []int
		if !settled { // a long poll, or requests queued in the browser
			open = r.openAppRequests(m.Requests)
		}
		j, inFlight, err := r.journalOnceArrived(ctx, m.Requests, open)
		m.Journal, m.InFlight = len(j), inFlight
		if err != nil {
			r.faultFrom(cmp.Or(r.marked, vocab.PhaseSetup), "read the journal at the start of %s: %v", phase, err) // its mark ends the window before
			m.Journal = -1                                                                                         // no window: the judge calls it missing, not 0
		}
	}
	r.ev.Marks[phase] = m
	r.noteAppEnded(r.marked)
	if phase != vocab.PhaseEnd || !r.sc.Capture.Leave.On() { // at the end the page is already left, when the run leaves it
		r.noteClockLost(ctx, cmp.Or(r.marked, vocab.PhaseSetup))
	}
	r.marked = phase
	if d := r.t.Tab.Dialogs; d != nil {
		d.SetPhase(phase)
	}
	if p := r.t.Tab.Popups; p != nil {
		p.SetPhase(phase)
	}
	if r.t.AtMark != nil {
		r.pictured = r.t.AtMark(ctx, phase)
	}
}

// finishes: a request that is not a stream, which ends by design.
func finishes(q record.Request) bool { return !q.Streams() }

// waitPicture lets the picture of the last mark finish before the page is
// acted on.
func (r *runner) waitPicture() {
	if r.pictured != nil {
		r.pictured()
		r.pictured = nil
	}
}

// selectors are the elements the scenario's expectations name for a phase:
// the page is recorded where someone will look.
func (r *runner) selectors(phase vocab.Phase) []browser.ElementRef {
	var out []browser.ElementRef
	for _, u := range r.sc.Expect.UI[phase] {
		if ref := (browser.ElementRef{Frame: u.Frame, Selector: u.Selector}); !slices.Contains(out, ref) {
			out = append(out, ref)
		}
	}
	return out
}

// location is the page's URL, once a navigation in progress has finished;
// "" when it cannot be read (a fault).
func (r *runner) location(ctx context.Context) string {
	r.settleDocument(ctx)
	ctx, cancel := r.t.Tab.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, r.t.Bound)
	defer cancelBound()
	url, err := chromedp.Run(ctx, chromedp.Evaluate[string]("location.href"))
	if err != nil {
		r.fault("read the page's URL: %v", err)
	}
	return url
}

func (r *runner) snapshot(ctx context.Context, selectors []browser.ElementRef) []record.Element {
	r.settleDocument(ctx)
	r.stillPage(ctx)
	ctx, cancel := r.t.Tab.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, r.t.Bound)
	defer cancelBound()
	els, err := r.t.Tab.Snapshot(ctx, selectors...)
	if err != nil {
		r.fault("record the page: %v", err)
	}
	return els
}
