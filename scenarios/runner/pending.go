package runner

import (
	"context"

	"github.com/agentready/agentready/internal/live/webmcp"
)

// pendingCall is an agent's call left running past the agent's window
// (answered_in: human): call is its index in the evidence's calls, whose
// result is the answer once the person's steps have given one.
type pendingCall struct {
	call int
	p    *webmcp.Pending
}

// awaitPending reads the answers the person's steps gave the pending calls
// (bounded by the tool timeout, on the page's clock), and records each as
// its call's result: a call never answered stays no_response, judged by
// the rule of any call that never answered.
func (r *runner) awaitPending(ctx context.Context) {
	for _, pc := range r.pending {
		r.ev.Calls[pc.call].Result = pc.p.Await(ctx, r.advance(ctx))
	}
}

// abandonPending cancels what is still pending, so that nothing is left
// running in the page once the person's phase is over; an answer that came
// after the wait and before the cancel is the call's (the trace holds it
// first).
func (r *runner) abandonPending(ctx context.Context) {
	for _, pc := range r.pending {
		r.ev.Calls[pc.call].Result = pc.p.Abandon(ctx)
	}
}

// cancelPending cancels what a run cut short left pending, after its
// record was taken: the record keeps the calls as they stood.
func (r *runner) cancelPending(ctx context.Context) {
	for _, pc := range r.pending {
		_ = pc.p.Abandon(ctx)
	}
}
