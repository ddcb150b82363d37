// Package runner plays a scenario in a browser tab against an app and
// records what happened as scenarios.Evidence. It judges nothing: package
// judge does, from the evidence alone.
package runner

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/browser"
	"github.com/agentready/agentready/observer"
	"github.com/agentready/agentready/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/vocab"
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
	t.Tab.Net.KeepBodies(sameOrigin(t.BaseURL))
	tools := t.Tab.Tools
	tools.Bound = t.Bound
	if sc.Capture.ToolTimeout > 0 {
		tools.Timeout = time.Duration(sc.Capture.ToolTimeout)
	}
	r.open(ctx)
	r.steps(ctx, vocab.PhaseSetup, sc.Setup)
	r.agent(ctx)
	r.human(ctx)
	r.collect(ctx)
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
	return ev
}

func (r *runner) fault(format string, args ...any) {
	r.ev.Faults = append(r.ev.Faults, fmt.Sprintf(format, args...))
}

// open loads the start page (on the scenario's fixed clock, when it has
// one) and records its catalog as the agent finds it.
func (r *runner) open(ctx context.Context) {
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
	if err := r.t.Tab.Navigate(ctx, r.t.BaseURL+r.sc.Start); err != nil {
		r.fault("open %s: %v", r.sc.Start, err)
	}
	catalog, page, err := r.t.Tab.Tools.CatalogAndPage(ctx)
	r.ev.Catalog, r.ev.PageTools = cmpOr(catalog, record.Catalog{}), page
	if err != nil && page == nil {
		r.fault("read the catalog: %v", err)
	}
}

// agent plays the transcript's calls and records the page as the agent left it.
func (r *runner) agent(ctx context.Context) {
	r.mark(ctx, vocab.PhaseAgent)
	r.ev.States[vocab.StateBefore] = r.state(ctx, vocab.PhaseAgent)
	r.waitPicture()
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
			beforeCancel = nil
			r.call(ctx, vocab.PhaseAgent, i, c)
		}
	}
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
	// A person reviews for seconds before confirming: what the page does
	// meanwhile happened before confirmation, in the agent's phase.
	r.window(ctx, vocab.PhaseAgent, r.sc.Capture.ReviewTime())
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
			r.fault("the page's time after %s: %v", after, err)
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
	r.ev.States[vocab.PhaseAgent] = r.state(ctx, vocab.PhaseHuman)
	r.waitPicture()
	if len(r.sc.Human) > 0 {
		r.steps(ctx, vocab.PhaseHuman, r.sc.Human)
		r.window(ctx, vocab.PhaseHuman, r.sc.Capture.SettleTime())
		if sel := r.selectors(vocab.PhaseHuman); len(sel) > 0 {
			r.ev.UI[vocab.PhaseHuman] = r.snapshot(ctx, sel)
		}
		r.ev.Pages[vocab.PhaseHuman] = r.location(ctx)
	}
	r.mark(ctx, vocab.PhaseEnd)
	if len(r.sc.Human) > 0 {
		r.ev.States[vocab.PhaseHuman] = r.state(ctx, vocab.PhaseEnd)
	}
	r.waitPicture()
}

// collect takes the ordered records from the tab and the app's journal.
func (r *runner) collect(ctx context.Context) {
	tab := r.t.Tab
	if r.journalOn() {
		r.ev.Env.Session = r.sessionHash(ctx)
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
	if r.clock != nil {
		if err := r.clock.Err(); err != nil {
			r.fault("the page's clock: %v", err)
		}
	}
}

func (r *runner) mark(ctx context.Context, phase vocab.Phase) {
	// A request still in flight would count in the network log but not yet
	// in the journal: let what has started finish first (briefly).
	settle, cancel := r.t.Tab.Bind(ctx)
	settle, cancelBound := context.WithTimeout(settle, r.t.Bound/3)
	_ = r.t.Tab.Net.WaitSettled(settle)
	cancelBound()
	cancel()
	m := scenarios.Mark{Trace: r.t.Tab.Trace.Len(), Requests: r.t.Tab.Net.Len()}
	if r.journalOn() {
		j, err := r.t.Observer.Journal(ctx, 0)
		m.Journal = len(j)
		if err != nil {
			r.fault("read the journal at the start of %s: %v", phase, err)
			m.Journal = -1 // no window: the judge calls it missing, not 0
		}
	}
	r.ev.Marks[phase] = m
	if r.t.AtMark != nil {
		r.pictured = r.t.AtMark(ctx, phase)
	}
}

// waitPicture lets the picture of the last mark finish before the page is
// acted on.
func (r *runner) waitPicture() {
	if r.pictured != nil {
		r.pictured()
		r.pictured = nil
	}
}

// journalOn: the app keeps a journal and the scenario records it.
func (r *runner) journalOn() bool { return r.t.Observer != nil && r.sc.Capture.JournalOn() }

// state reads the app's state from every source it has: the observation
// endpoint, and the scenario's probes of the app's own API, fetched in the
// page so that they carry the person's session. window is the phase whose
// window the probes' requests fall in (the judge leaves them out of its
// counts). No source at all is no state (nil): unknown, not empty.
func (r *runner) state(ctx context.Context, window vocab.Phase) *record.Snapshot {
	if r.t.Observer == nil && len(r.sc.Probes) == 0 {
		return nil
	}
	s := &record.Snapshot{Docs: map[string]json.RawMessage{}}
	failed := func(source string, err error) {
		if s.Errors == nil {
			s.Errors = map[string]string{}
		}
		s.Errors[source] = err.Error()
	}
	// The observation endpoint is read while the page fetches the probes:
	// two reads of the same moment, neither of which changes anything.
	// What they answer is recorded in the same order as before.
	type observed struct {
		doc json.RawMessage
		err error
	}
	var obs chan observed
	if r.t.Observer != nil {
		obs = make(chan observed, 1)
		go func() {
			doc, err := r.t.Observer.State(ctx)
			obs <- observed{doc, err}
		}()
	}
	var docs map[string]probed
	var probeErr error
	if len(r.sc.Probes) > 0 {
		docs, probeErr = r.probe(ctx)
	}
	if obs != nil {
		if o := <-obs; o.err != nil {
			r.fault("read the app's state: %v", o.err)
			failed(record.ObserverSource, o.err)
		} else {
			s.Docs[record.ObserverSource] = o.doc
		}
	}
	if len(r.sc.Probes) > 0 {
		if err := probeErr; err != nil {
			r.fault("probe the app's state: %v", err)
		}
		for _, name := range slices.Sorted(maps.Keys(r.sc.Probes)) {
			method, path, _ := record.SplitRequest(r.sc.Probes[name])
			r.ev.ProbeReads = append(r.ev.ProbeReads, scenarios.ProbeRead{Window: window, Method: method, Path: path})
			switch got, ok := docs[name]; {
			case !ok:
				failed(name, fmt.Errorf("not read"))
			case got.Error != "":
				failed(name, errors.New(got.Error))
			default:
				s.Docs[name] = got.Body
			}
		}
	}
	return s
}

const probeJS = `(async (base, probes, header) => {
  const out = {};
  await Promise.all(probes.map(async ([name, path]) => {
    try {
      const r = await fetch(base + path, { headers: { Accept: "application/json", [header]: name }, credentials: "include", cache: "no-store" });
      const text = await r.text();
      if (!r.ok) { out[name] = { error: "GET " + path + " answered " + r.status + ": " + text.slice(0, 200) }; return; }
      try { out[name] = { body: JSON.parse(text) }; } catch (e) { out[name] = { error: "GET " + path + " did not answer JSON: " + text.slice(0, 200) }; }
    } catch (e) { out[name] = { error: "GET " + path + ": " + String(e) }; }
  }));
  return out;
})`

const directJS = `(async (url, method, body, meta, header) => {
  const headers = { Accept: "application/json" };
  if (body !== null) headers["Content-Type"] = "application/json";
  if (meta) {
    const token = document.querySelector('meta[name="' + meta + '"]')?.content;
    if (token === undefined) return { error: "no <meta name=\"" + meta + "\"> on the page for the CSRF token" };
    headers[header] = token;
  }
  try {
    const r = await fetch(url, { method, headers, credentials: "include", body: body === null ? undefined : JSON.stringify(body) });
    const text = await r.text();
    let parsed = null;
    try { parsed = JSON.parse(text); } catch (_) {}
    return { status: r.status, body: parsed };
  } catch (e) { return { error: String(e) }; }
})`

// direct sends a request from the page as the person's session: their
// cookies and CSRF token, none of the page's own checks.
func (r *runner) direct(ctx context.Context, phase vocab.Phase, i int, d scenarios.DirectRequest) scenarios.DirectRecord {
	rec := scenarios.DirectRecord{Phase: phase, Index: i, Method: strings.ToUpper(d.Method), Path: d.Path}
	meta, header := "", ""
	if d.CSRF != nil {
		meta, header = d.CSRF.Meta, d.CSRF.Header
	}
	args, err := json.Marshal([]any{r.t.BaseURL + d.Path, rec.Method, d.Body, meta, header})
	if err != nil {
		rec.Error = err.Error()
		return rec
	}
	r.settleDocument(ctx)
	ctx, cancel := r.t.Tab.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, r.t.Bound)
	defer cancelBound()
	out, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
		Status int             `json:"status"`
		Body   json.RawMessage `json:"body"`
		Error  string          `json:"error"`
	}](directJS+"(..."+string(args)+")", chromedp.EvalAwaitPromise))
	switch {
	case err != nil:
		rec.Error = err.Error()
	case out.Error != "":
		rec.Error = out.Error
	default:
		rec.Status = out.Status
		if string(out.Body) != "null" {
			rec.Body = out.Body
		}
	}
	return rec
}

type probed struct {
	Body  json.RawMessage `json:"body"`
	Error string          `json:"error"`
}

// settleDocument lets a navigation in progress (a form that submitted to a
// result page) finish before the page is read: the new document, not a page
// half way between two. A load that does not finish within the bound is
// news about the app, kept as unmet.
func (r *runner) settleDocument(ctx context.Context) {
	loaded, cancel := context.WithTimeout(ctx, r.t.Bound)
	defer cancel()
	if err := r.t.Tab.WaitLoaded(loaded); err != nil && ctx.Err() == nil {
		r.ev.Unmet = append(r.ev.Unmet, "the page did not finish loading within "+r.t.Bound.String())
	}
}

// probe fetches every probe from the page, all at once, started in name
// order: reads that change nothing need not wait for each other (the judge
// matches them to the journal by method and path, not by order).
func (r *runner) probe(ctx context.Context) (map[string]probed, error) {
	r.settleDocument(ctx)
	var pairs [][2]string
	for _, name := range slices.Sorted(maps.Keys(r.sc.Probes)) {
		_, path, _ := record.SplitRequest(r.sc.Probes[name])
		pairs = append(pairs, [2]string{name, path})
	}
	args, err := json.Marshal([]any{r.t.BaseURL, pairs, record.ProbeHeader})
	if err != nil {
		return nil, err
	}
	ctx, cancel := r.t.Tab.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, r.t.Bound)
	defer cancelBound()
	return chromedp.Run(ctx, chromedp.Evaluate[map[string]probed](probeJS+"(..."+string(args)+")", chromedp.EvalAwaitPromise))
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

func (r *runner) call(ctx context.Context, phase vocab.Phase, i int, c scenarios.Call) {
	tools := r.t.Tab.Tools
	before := r.t.Tab.Trace.Catalog().Names()
	res := tools.Invoke(ctx, c.Tool, c.Input, c.Transport.OrDefault())
	if x := c.Expect; x != nil && x.CatalogAfter != nil {
		// Tools enter and leave the catalog just after an answer; wait (a
		// bounded time) for the state the scenario looks for before recording.
		// The tools that must leave first: when the call navigates, they
		// leave with the old document, and only then is a tool that must be
		// present looked for in the new one (a site-wide tool is on both:
		// the old document's would answer at once).
		for _, t := range x.CatalogAfter.Absent {
			_ = tools.WaitTool(ctx, t, false)
		}
		for _, t := range x.CatalogAfter.Present {
			_ = tools.WaitTool(ctx, t, true)
		}
	}
	r.ev.Calls = append(r.ev.Calls, scenarios.CallRecord{Phase: phase, Index: i, Call: c, Result: res,
		CatalogBefore: before, CatalogAfter: r.t.Tab.Trace.Catalog().Names()})
}

func (r *runner) steps(ctx context.Context, phase vocab.Phase, steps []scenarios.Step) {
	for i, s := range steps {
		err := r.step(ctx, phase, i, s)
		switch {
		case err == nil:
		case s.IsWait() && errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
			r.ev.Unmet = append(r.ev.Unmet, fmt.Sprintf("%s step %d (%s): not within %s", phase, i, strings.Join(s.Kinds(), ","), r.t.Bound))
		default:
			r.fault("%s step %d (%s): %v", phase, i, strings.Join(s.Kinds(), ","), err)
		}
	}
}

func (r *runner) step(ctx context.Context, phase vocab.Phase, i int, s scenarios.Step) error {
	tab := r.t.Tab
	if !s.IsWait() {
		r.actedAt = tab.Net.Len()
	}
	switch {
	case s.Call != nil:
		r.call(ctx, phase, i, *s.Call)
		return nil
	case s.Request != nil:
		r.ev.Direct = append(r.ev.Direct, r.direct(ctx, phase, i, *s.Request))
		return nil
	case s.Navigate != "":
		return tab.Navigate(ctx, r.t.BaseURL+s.Navigate)
	case s.WaitTool != "":
		return tab.Tools.WaitTool(ctx, s.WaitTool, true)
	}
	ctx, cancel := tab.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, r.t.Bound)
	defer cancelBound()
	switch {
	case s.Click != "":
		if phase == vocab.PhaseHuman {
			if err := r.review(ctx, i, s.Click); err != nil {
				return err
			}
		}
		return chromedp.Do(ctx, chromedp.Click(chromedp.CSS(s.Click), chromedp.NodeVisible))
	case len(s.Fill) > 0:
		for _, sel := range slices.Sorted(maps.Keys(s.Fill)) {
			// A person replaces a value by selecting it and typing over it.
			// chromedp.Clear empties the value attribute, which no longer
			// holds the value once a script or a tool has set it: the typed
			// text was appended to a tool's prepared value.
			if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(sel))); err != nil {
				return err
			}
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](selectFocused)); err != nil {
				return err
			}
			if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(sel), s.Fill[sel])); err != nil {
				return err
			}
		}
		return nil
	case s.WaitFor != "":
		return chromedp.Do(ctx, chromedp.WaitReady(chromedp.CSS(s.WaitFor)))
	case s.WaitRequest != "":
		method, p, _ := record.SplitRequest(s.WaitRequest)
		_, err := tab.Net.WaitFor(ctx, r.actedAt, func(q record.Request) bool { return record.MatchRequest(q.Method, q.Path, method, p) })
		return err
	}
	return fmt.Errorf("nothing to do")
}

// selectFocused selects the whole value of the focused control, so that
// the keys typed next replace it.
const selectFocused = `(e => { if (e && typeof e.select === "function") { e.select(); return true } return false })(document.activeElement)`

// cmpOr answers v, or empty when v is nil: a record that was taken but held
// nothing is empty, not missing.
func cmpOr[S ~[]E, E any](v, empty S) S {
	if v == nil {
		return empty
	}
	return v
}

// Partial records what a tab holds when a run was cut short (a timeout or an
// interrupt): the trace, the requests and the console so far, and a fault
// that says why the rest is missing. Its verdict is never PASS.
func Partial(sc scenarios.Scenario, t Target, why string) *scenarios.Evidence {
	tab := t.Tab
	ev := newEvidence(sc, t)
	ev.Catalog = cmpOr(tab.Trace.Catalog(), record.Catalog{})
	ev.Trace = tab.Trace.Events()
	ev.Console = tab.Console.Entries()
	ev.Faults = []string{"the run did not finish: " + why}
	tab.Net.KeepBodies(sameOrigin(t.BaseURL))
	if ev.Capture.Network {
		ev.Requests = cmpOr(tab.Net.Requests(), record.Log{})
	}
	return ev
}

// sessionHash names the tab's session the way the app's journal does
// (observer.SessionHash of its session cookie), so that the journal is
// judged for this tab only; "" when the tab has no such cookie.
func (r *runner) sessionHash(ctx context.Context) string {
	name := cmp.Or(r.t.Observer.SessionCookie, observer.DefaultSessionCookie)
	ctx, cancel := r.t.Tab.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, r.t.Bound)
	defer cancelBound()
	res, err := chromedp.Call(ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{r.t.BaseURL + "/"}})
	if err != nil {
		return ""
	}
	for _, c := range res.Cookies {
		if c.Name == name {
			return observer.SessionHash(c.Value)
		}
	}
	return ""
}
