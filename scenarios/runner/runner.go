// Package runner plays a scenario in a browser tab against an app and
// records what happened as scenarios.Evidence. It judges nothing: package
// judge does, from the evidence alone.
package runner

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

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
	// Bound limits each wait for something that should happen at once.
	Bound time.Duration
}

// Run plays a scenario and records what happened. It judges nothing. A
// harness problem on the way is kept in Evidence.Faults, and the run goes on
// as far as it can, so that the evidence shows where it stopped.
func Run(ctx context.Context, sc scenarios.Scenario, t Target) *scenarios.Evidence {
	r := &runner{sc: sc, t: t, ctx: ctx}
	if r.t.Bound <= 0 {
		r.t.Bound = 3 * time.Second
	}
	return r.run()
}

type runner struct {
	sc  scenarios.Scenario
	t   Target
	ctx context.Context
	ev  *scenarios.Evidence
	// actedAt is where the request log stood before the last step that
	// did something: wait_request waits for a request after it.
	actedAt int
}

func (r *runner) fault(format string, args ...any) {
	r.ev.Faults = append(r.ev.Faults, fmt.Sprintf(format, args...))
}

func (r *runner) run() *scenarios.Evidence {
	sc, tab := r.sc, r.t.Tab
	r.ev = &scenarios.Evidence{
		ScenarioID: sc.ID,
		Env:        scenarios.Env{BaseURL: r.t.BaseURL, Variant: r.t.Variant, Browser: r.t.Browser.Product, Protocol: r.t.Browser.Protocol},
		States:     map[vocab.Phase]*record.State{},
		UI:         map[vocab.Phase][]record.Element{},
		Marks:      map[vocab.Phase]scenarios.Mark{},
		Calls:      []scenarios.CallRecord{},
		Final:      sc.Agent.Final,
	}
	r.ev.Capture.Network = sc.Capture.NetworkOn()
	r.ev.Capture.Observer = r.t.Observer != nil
	if sc.Capture.ToolTimeout > 0 {
		tab.Tools.Timeout = time.Duration(sc.Capture.ToolTimeout)
	}

	if err := tab.Navigate(r.t.BaseURL + sc.Start); err != nil {
		r.fault("open %s: %v", sc.Start, err)
	}
	catalog, page, err := tab.Tools.CatalogAndPage(r.t.Bound)
	r.ev.Catalog, r.ev.PageTools = nonNilCatalog(catalog), page
	if err != nil && page == nil {
		r.fault("read the catalog: %v", err)
	}
	r.steps(vocab.PhaseSetup, sc.Setup)

	r.mark(vocab.PhaseAgent)
	r.ev.States[vocab.StateBefore] = r.state()
	agentUI := r.selectors(vocab.PhaseAgent)
	tab.Tools.OnNoResponse = func(record.Result) {
		// The page as the agent left it: canceling the call clears the
		// form's WebMCP pseudo-classes.
		r.ev.UI[vocab.PhaseAgent] = r.snapshot(agentUI)
	}
	for i, c := range sc.Agent.Calls {
		r.call(vocab.PhaseAgent, i, c)
	}
	tab.Tools.OnNoResponse = nil
	if _, taken := r.ev.UI[vocab.PhaseAgent]; !taken && len(agentUI) > 0 {
		r.ev.UI[vocab.PhaseAgent] = r.snapshot(agentUI)
	}
	// Each phase's state is read after its mark, which lets requests still
	// in flight land first: a write the agent's last call started counts.
	r.mark(vocab.PhaseHuman)
	r.ev.States[vocab.PhaseAgent] = r.state()
	if len(sc.Human) > 0 {
		r.steps(vocab.PhaseHuman, sc.Human)
		if sel := r.selectors(vocab.PhaseHuman); len(sel) > 0 {
			r.ev.UI[vocab.PhaseHuman] = r.snapshot(sel)
		}
	}
	r.mark(vocab.PhaseEnd)
	if len(sc.Human) > 0 {
		r.ev.States[vocab.PhaseHuman] = r.state()
	}

	bodies, cancel := context.WithTimeout(tab.Ctx, r.t.Bound)
	_ = tab.Net.FillBodies(bodies)
	cancel()
	r.ev.Trace = tab.Trace.Events()
	if r.ev.Capture.Network {
		r.ev.Requests = nonNilLog(tab.Net.Requests())
	}
	if r.t.Observer != nil {
		j, err := r.t.Observer.Journal(r.ctx, 0)
		if err != nil {
			r.fault("read the journal: %v", err)
		}
		r.ev.Journal = j
	}
	r.ev.Console = tab.Console.Entries()
	return r.ev
}

func (r *runner) mark(phase vocab.Phase) {
	// A request still in flight would count in the network log but not yet
	// in the journal: let what has started finish first (briefly).
	settle, cancel := context.WithTimeout(r.t.Tab.Ctx, r.t.Bound/3)
	_ = r.t.Tab.Net.WaitSettled(settle)
	cancel()
	m := scenarios.Mark{Trace: r.t.Tab.Trace.Len(), Requests: r.t.Tab.Net.Len()}
	if r.t.Observer != nil {
		j, err := r.t.Observer.Journal(r.ctx, 0)
		m.Journal = len(j)
		if err != nil {
			r.fault("read the journal at the start of %s: %v", phase, err)
			m.Journal = -1 // no window: the judge calls it missing, not 0
		}
	}
	r.ev.Marks[phase] = m
}

func (r *runner) state() *record.State {
	if r.t.Observer == nil {
		return nil
	}
	s, err := r.t.Observer.State(r.ctx)
	if err != nil {
		r.fault("read the app's state: %v", err)
		return nil
	}
	return &s
}

// selectors are the elements the scenario's expectations name for a phase:
// the page is recorded where someone will look.
func (r *runner) selectors(phase vocab.Phase) []string {
	var out []string
	for _, u := range r.sc.Expect.UI[phase] {
		if !slices.Contains(out, u.Selector) {
			out = append(out, u.Selector)
		}
	}
	return out
}

func (r *runner) snapshot(selectors []string) []record.Element {
	ctx, cancel := context.WithTimeout(r.t.Tab.Ctx, r.t.Bound)
	defer cancel()
	els, err := browser.Snapshot(ctx, selectors...)
	if err != nil {
		r.fault("record the page: %v", err)
	}
	return els
}

func (r *runner) call(phase vocab.Phase, i int, c scenarios.Call) {
	tools := r.t.Tab.Tools
	before := r.t.Tab.Trace.Catalog().Names()
	res := tools.Invoke(c.Tool, c.Input, c.Transport.OrDefault())
	if x := c.Expect; x != nil && x.CatalogAfter != nil {
		// Tools enter and leave the catalog just after an answer; wait (a
		// bounded time) for the state the scenario looks for before recording.
		for _, t := range x.CatalogAfter.Present {
			_ = tools.WaitTool(t, true, r.t.Bound)
		}
		for _, t := range x.CatalogAfter.Absent {
			_ = tools.WaitTool(t, false, r.t.Bound)
		}
	}
	r.ev.Calls = append(r.ev.Calls, scenarios.CallRecord{Phase: phase, Index: i, Call: c, Result: res,
		CatalogBefore: before, CatalogAfter: r.t.Tab.Trace.Catalog().Names()})
}

func (r *runner) steps(phase vocab.Phase, steps []scenarios.Step) {
	for i, s := range steps {
		err := r.step(phase, i, s)
		switch {
		case err == nil:
		case s.IsWait() && errors.Is(err, context.DeadlineExceeded):
			r.ev.Unmet = append(r.ev.Unmet, fmt.Sprintf("%s step %d (%s): not within %s", phase, i, strings.Join(s.Kinds(), ","), r.t.Bound))
		default:
			r.fault("%s step %d (%s): %v", phase, i, strings.Join(s.Kinds(), ","), err)
		}
	}
}

func (r *runner) step(phase vocab.Phase, i int, s scenarios.Step) error {
	tab := r.t.Tab
	if s.WaitFor == "" && s.WaitRequest == "" && s.WaitTool == "" {
		r.actedAt = tab.Net.Len()
	}
	if s.Call != nil {
		r.call(phase, i, *s.Call)
		return nil
	}
	if s.Navigate != "" {
		return tab.Navigate(r.t.BaseURL + s.Navigate)
	}
	ctx, cancel := context.WithTimeout(tab.Ctx, r.t.Bound)
	defer cancel()
	switch {
	case s.Click != "":
		return chromedp.Do(ctx, chromedp.Click(chromedp.CSS(s.Click), chromedp.NodeVisible))
	case len(s.Fill) > 0:
		for _, sel := range slices.Sorted(maps.Keys(s.Fill)) {
			if err := chromedp.Do(ctx, chromedp.Clear(chromedp.CSS(sel)), chromedp.SendKeys(chromedp.CSS(sel), s.Fill[sel])); err != nil {
				return err
			}
		}
		return nil
	case s.WaitFor != "":
		return chromedp.Do(ctx, chromedp.WaitReady(chromedp.CSS(s.WaitFor)))
	case s.WaitTool != "":
		return tab.Tools.WaitTool(s.WaitTool, true, r.t.Bound)
	case s.WaitRequest != "":
		method, p, _ := record.SplitRequest(s.WaitRequest)
		_, err := tab.Net.WaitFor(ctx, r.actedAt, func(q record.Request) bool { return record.MatchRequest(q.Method, q.Path, method, p) })
		return err
	}
	return fmt.Errorf("nothing to do")
}

func nonNilCatalog(c record.Catalog) record.Catalog {
	if c == nil {
		return record.Catalog{}
	}
	return c
}

func nonNilLog(l record.Log) record.Log {
	if l == nil {
		return record.Log{}
	}
	return l
}

// Partial records what a tab holds when a run was cut short (a timeout or an
// interrupt): the trace, the requests and the console so far, and a fault
// that says why the rest is missing. Its verdict is never PASS.
func Partial(sc scenarios.Scenario, t Target, why string) *scenarios.Evidence {
	tab := t.Tab
	ev := &scenarios.Evidence{
		ScenarioID: sc.ID,
		Env:        scenarios.Env{BaseURL: t.BaseURL, Variant: t.Variant, Browser: t.Browser.Product, Protocol: t.Browser.Protocol},
		Catalog:    nonNilCatalog(tab.Trace.Catalog()),
		Calls:      []scenarios.CallRecord{},
		Trace:      tab.Trace.Events(),
		States:     map[vocab.Phase]*record.State{},
		UI:         map[vocab.Phase][]record.Element{},
		Marks:      map[vocab.Phase]scenarios.Mark{},
		Console:    tab.Console.Entries(),
		Final:      sc.Agent.Final,
		Faults:     []string{"the run did not finish: " + why},
	}
	ev.Capture.Network = sc.Capture.NetworkOn()
	if ev.Capture.Network {
		ev.Requests = nonNilLog(tab.Net.Requests())
	}
	return ev
}
