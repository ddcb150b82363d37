package runner

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/kit/laps"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// The leave phase (docs/decisions/2026-12-04-leave-phase.md): after the
// person's last step the page is hidden, as when a person switches away
// from it, given its settle time hidden (on its clock), and navigated away
// from, as when they go elsewhere. What it sends meanwhile — a save on
// visibilitychange, a beacon on pagehide — is the leave phase's. Measured on
// Chromium 156: whatever a document sends from pagehide or unload reaches
// the server before the navigation away has finished, so the end mark's
// journal read holds it; the page's network log never does (the judge
// knows, judge/leave.go).

// blankPage is where the person goes when the scenario reads no probes: a
// page of no origin, which sends nothing of its own.
const blankPage = "about:blank"

// away is where the person goes: the first probe's own answer when the
// scenario has probes (a document of the app's origin, which runs no
// script of the app, for the state to be read from with the person's
// session: one navigation, where about:blank and back again cost
// 120–210 ms more, measured), else about:blank. The judge leaves the
// navigation's own request out (Leave.To; the journal's, by ProbeReads).
func (r *runner) away() (url, path string) {
	if len(r.sc.Probes) == 0 {
		return blankPage, ""
	}
	first := slices.Sorted(maps.Keys(r.sc.Probes))[0]
	_, path, _ = r.sc.Probes[first].Split()
	return r.t.BaseURL + path, path
}

// A service worker outlives the page it served: what it sends once the
// page is gone (told so at pagehide) comes after the navigation away, on
// the worker's own real-time clock. So the end mark waits, when the tab has
// one, until no request of a service worker has come for workerQuiet
// (bounded by workerQuietMax): its writes land in the leave window, not
// after every window, where nothing would judge them.
const (
	workerQuiet    = 300 * time.Millisecond
	workerQuietMax = 3 * time.Second
)

func (r *runner) workersQuiet(ctx context.Context) {
	if !slices.ContainsFunc(r.t.Tab.Targets(), func(t browser.Target) bool { return t.Type == "service_worker" }) {
		return
	}
	ofWorker := func(q record.Request) bool { return q.Target != nil && q.Target.Type == "service_worker" }
	deadline := time.Now().Add(workerQuietMax)
	for from := r.t.Tab.Net.Len(); time.Now().Before(deadline); from = r.t.Tab.Net.Len() {
		quiet, cancel := context.WithTimeout(ctx, min(workerQuiet, time.Until(deadline)))
		_, err := r.t.Tab.Net.WaitFor(quiet, from, ofWorker)
		cancel()
		if err != nil {
			return
		}
	}
}

// leave hides the page and navigates away from it, between the leave mark
// and the end mark. A page that cannot be hidden (a browser without
// windows to minimize) is left visible: leaving still fires
// visibilitychange, pagehide and unload.
func (r *runner) leave(ctx context.Context) {
	if !r.sc.Capture.Leave.On() {
		return
	}
	r.mark(ctx, vocab.PhaseLeave)
	laps.Mark(ctx, "marks")
	r.waitPicture() // the page as the person left it, before it is hidden
	laps.Mark(ctx, "wait for pictures")
	lv := &scenarios.Leave{Mode: vocab.LeaveNavigate}
	r.ev.Leave = lv
	start := time.Now()
	hidden, err := r.t.Tab.Hide(ctx)
	lv.HideMs, lv.Hidden = time.Since(start).Milliseconds(), hidden
	if err != nil {
		lv.HideError = err.Error()
	}
	laps.Mark(ctx, "leave: hide")
	r.window(ctx, vocab.PhaseLeave, r.sc.Capture.SettleTime())
	laps.Mark(ctx, "windows of page time")
	// The bodies the browser only announced are asked for while their
	// document is still there: once it is left, the renderer forgets them.
	bodies, cancel := r.t.Tab.Bind(ctx)
	bodies, cancelBound := context.WithTimeout(bodies, r.t.Bound)
	_ = r.t.Tab.Net.FillBodies(bodies)
	cancelBound()
	cancel()
	r.browserIssues(ctx) // while their elements are there
	to, path := r.away()
	lv.To = to
	if path != "" {
		r.ev.ProbeReads = append(r.ev.ProbeReads, scenarios.ProbeRead{Window: vocab.PhaseLeave, Method: "GET", Path: path})
	}
	start = time.Now()
	if err := r.t.Tab.Navigate(ctx, to); err != nil {
		r.faultFrom(vocab.PhaseLeave, "leave the page (navigate to %s): %v", to, err)
	}
	lv.NavigateMs = time.Since(start).Milliseconds()
	r.workersQuiet(ctx)
	laps.Mark(ctx, "leave: bodies and navigate away")
	if hidden {
		// The person's next page is in front: a minimized window draws
		// nothing, and a later picture would wait for a frame.
		if err := r.t.Tab.Show(ctx); err != nil {
			r.faultFrom(vocab.PhaseLeave, "show the window again after leaving the page: %v", err)
		}
	}
	laps.Mark(ctx, "leave: show")
}
