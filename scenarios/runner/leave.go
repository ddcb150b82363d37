package runner

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/vocab"
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

// blankPage is where the person goes: a page of no origin, which sends
// nothing of its own.
const blankPage = "about:blank"

// leave hides the page and navigates away from it, between the leave mark
// and the end mark. A page that cannot be hidden (a browser without
// windows to minimize) is left visible: leaving still fires
// visibilitychange, pagehide and unload.
func (r *runner) leave(ctx context.Context) {
	if !r.sc.Capture.Leave.On() {
		return
	}
	r.mark(ctx, vocab.PhaseLeave)
	lv := &scenarios.Leave{Mode: vocab.LeaveNavigate}
	r.ev.Leave = lv
	start := time.Now()
	hidden, err := r.t.Tab.Hide(ctx)
	lv.HideMs, lv.Hidden = time.Since(start).Milliseconds(), hidden
	if err != nil {
		lv.HideError = err.Error()
	}
	r.window(ctx, vocab.PhaseLeave, r.sc.Capture.SettleTime())
	// The bodies the browser only announced are asked for while their
	// document is still there: once it is left, the renderer forgets them.
	bodies, cancel := r.t.Tab.Bind(ctx)
	bodies, cancelBound := context.WithTimeout(bodies, r.t.Bound)
	_ = r.t.Tab.Net.FillBodies(bodies)
	cancelBound()
	cancel()
	start = time.Now()
	if err := r.t.Tab.Navigate(ctx, blankPage); err != nil {
		r.fault("leave the page (navigate to %s): %v", blankPage, err)
	}
	lv.NavigateMs = time.Since(start).Milliseconds()
	r.left = true
}

// backAtApp opens, once the page was left, a document of the app's origin
// for the probes to be fetched from with the person's session: the first
// probe's own answer, which runs no script of the app. It is opened after
// the end mark, so its request falls in no phase's window.
func (r *runner) backAtApp(ctx context.Context) {
	if !r.left || r.back || len(r.sc.Probes) == 0 {
		return
	}
	r.back = true
	first := slices.Sorted(maps.Keys(r.sc.Probes))[0]
	_, path, _ := r.sc.Probes[first].Split()
	if err := r.t.Tab.Navigate(ctx, r.t.BaseURL+path); err != nil {
		r.fault("open %s to read the app's state after the page was left: %v", path, err)
	}
}
