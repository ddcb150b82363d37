package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// A run cut short is the harness's news, never the app's: the evidence
// says how it was cut (Evidence.Cut), and the judge then fails no check
// (docs/decisions/2026-12-01-faults-first.md).

// cutShort says how a run was cut short, or "" when it was not: its context
// ended (Ctrl-C, a signal, the caller's timeout), or the tab lost its
// browser (the process killed, the connection dropped; chromedp then ends
// the tab's context). Asked once the run is over, it sees a cut anywhere in
// it: whatever the runner recorded after one is not the app's doing.
func cutShort(ctx context.Context, t Target) vocab.Code {
	switch {
	case ctx.Err() != nil:
		return vocab.RunInterrupted
	case t.Tab != nil && crashed(t.Tab):
		return vocab.RendererCrashed
	case t.Tab != nil && t.Tab.Ctx != nil && t.Tab.Ctx.Err() != nil:
		return vocab.BrowserLost
	}
	return ""
}

// Partial records what a tab holds when a run was cut short (a timeout or an
// interrupt that stopped the run before Run returned): the trace, the
// requests and the console so far, how it was cut (interrupted, or the
// browser lost when the tab's connection is gone too) and a fault that says
// why the rest is missing. Its verdict is INCONCLUSIVE, never PASS or FAIL.
func Partial(sc scenarios.Scenario, t Target, why string) *scenarios.Evidence {
	tab := t.Tab
	ev := newEvidence(sc, t)
	ev.Catalog = cmpOr(tab.Trace.Catalog(), record.Catalog{})
	ev.Trace = tab.Trace.Events()
	ev.Console = tab.Console.Entries()
	ev.Faults = []scenarios.Fault{scenarios.WholeFault("the run did not finish: " + why)}
	ev.Cut = vocab.RunInterrupted
	switch {
	case crashed(tab):
		ev.Cut = vocab.RendererCrashed
		ev.Faults = append(ev.Faults, scenarios.WholeFault(crashFault(tab)))
	case tab.Ctx != nil && tab.Ctx.Err() != nil:
		ev.Cut = vocab.BrowserLost
	}
	tab.Net.KeepBodies(func(raw string) bool { return sc.OfApp(t.BaseURL, raw) })
	if ev.Capture.Network {
		ev.Requests = cmpOr(tab.Net.Requests(), record.Log{})
	}
	return ev
}

// crashed tells whether the tab's renderer crashed (Inspector.targetCrashed).
func crashed(tab *browser.Tab) bool {
	_, ok := tab.CrashedAt()
	return ok
}

// crashFault names the crash in the record's faults, with its time, so the
// verdict says what happened to the page and when.
func crashFault(tab *browser.Tab) string {
	at, _ := tab.CrashedAt()
	return fmt.Sprintf("the page's renderer crashed at %s (Inspector.targetCrashed: out of memory, killed, or a browser bug): the page was gone from then on", at.UTC().Format(time.RFC3339Nano))
}
