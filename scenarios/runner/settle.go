package runner

import (
	"context"
	"slices"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/live/webmcp"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// advance is how a settle waits: on the page's virtual clock, fast-forwarded,
// when it has one and no workers (whose timers run on real time, as in
// window); nil (real time) otherwise.
func (r *runner) advance(ctx context.Context) webmcp.Advance {
	if r.clock == nil || r.t.Tab.HasWorkers(ctx) {
		return nil
	}
	return func(ctx context.Context, d time.Duration) error {
		_, err := r.clock.Advance(ctx, d)
		return err
	}
}

// settleCatalog waits by the suite's settle rule until the document's tools
// have stopped changing, and records the wait (evidence catalogSettles). A
// wait the harness could not make (the clock failed) is a fault, never the
// app's; one that ran out with the catalog still changing is recorded as
// bounded and the run goes on with the catalog as it is.
func (r *runner) settleCatalog(ctx context.Context, after vocab.SettleAfter, phase vocab.Phase, index int, tool string) *scenarios.CatalogSettle {
	rule := r.rule()
	advance := r.advance(ctx)
	s, err := r.t.Tab.Trace.Settle(ctx, rule, advance)
	if err != nil && ctx.Err() == nil {
		r.fault("wait for the catalog to settle (%s): %v", after, err)
	}
	rec := scenarios.CatalogSettle{After: after, Phase: phase, Index: index, Tool: tool, WaitedMs: s.Waited.Milliseconds(),
		PageTime: advance != nil, Arrived: s.Arrived, Left: s.Left, Bounded: s.Bounded, BoundMs: rule.Max.Milliseconds(), QuietMs: rule.Quiet.Milliseconds()}
	r.ev.CatalogSettles = append(r.ev.CatalogSettles, rec)
	return &r.ev.CatalogSettles[len(r.ev.CatalogSettles)-1]
}

// rule is the settle rule of the run.
func (r *runner) rule() webmcp.SettleRule {
	if r.t.Settle != (webmcp.SettleRule{}) {
		return r.t.Settle
	}
	return webmcp.DefaultSettle
}

// lateTool looks, after a call of a tool the settled catalog did not
// offer, whether the tool comes after all within another bound: a tool
// that arrives later than the settle is a finding of its own (tool_late),
// not a call of a tool the page does not have.
func (r *runner) lateTool(ctx context.Context, settleAt int, tool string, offered []string) {
	if slices.Contains(offered, tool) {
		return
	}
	after, ok := r.t.Tab.Trace.WaitLate(ctx, tool, r.rule().Max, r.advance(ctx))
	if !ok {
		return
	}
	ms := after.Milliseconds()
	r.ev.CatalogSettles[settleAt].LateMs = &ms
}

// animationsBound bounds the wait for the page's animations before its UI
// is read.
const animationsBound = 2 * time.Second

// animationsJS waits for every running animation and transition of the
// document with an end (an infinite one never finishes) to finish, and for
// what the page does when they do (a card removed once it has faded out).
const animationsJS = `(async () => {
  const running = document.getAnimations().filter((a) => a.playState === "running" && a.effect && a.effect.getComputedTiming().endTime !== Infinity);
  await Promise.allSettled(running.map((a) => a.finished));
  await new Promise((r) => setTimeout(r, 0));
  return running.length;
})()`

// stillPage lets running animations and transitions finish (bounded)
// before the UI is read: a removed element is gone, a shown one in place.
// A page still moving at the bound is read as it is.
func (r *runner) stillPage(ctx context.Context) {
	ctx, cancel := r.t.Tab.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, animationsBound)
	defer cancelBound()
	_, _ = chromedp.Run(ctx, chromedp.Evaluate[int](animationsJS, chromedp.EvalAwaitPromise))
}
