package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/kit/hang"
	"github.com/agentready/agentready/scenarios/vocab"
)

// cancelPage registers a tool that waits until the test releases it before
// it writes (a timer on the paced page clock could run out before the cancel
// lands on a loaded machine), and notes what it hears of a cancel: its execute's second
// argument's signal, and toolcancel on document.modelContext.
const cancelPage = `<!doctype html><title>slow</title><script>
window.heard = [];
document.modelContext.addEventListener("toolcancel", (e) => heard.push("toolcancel:" + e.toolName));
document.modelContext.registerTool({
  name: "slow_add", description: "Add after a while.", inputSchema: {type: "object", properties: {}},
  async execute(input, client) {
    heard.push("args:" + Object.keys(client || {}).join(",") + ":" + (client && client.signal ? "signal" : "nosignal"));
    client?.signal?.addEventListener("abort", () => heard.push("abort"));
    await new Promise((r) => { window.release = r; });
    heard.push("aborted=" + !!client?.signal?.aborted);
    if (client?.signal?.aborted) return "stopped";
    await fetch("/write", {method: "POST", body: "x"});
    return "written";
  },
});
</script>`

func TestACallCanceledInFlightIsCanceledAndTheToolCanTell(t *testing.T) {
	b := launched(t)
	app, writes := countingApp(t, cancelPage)
	for _, via := range []vocab.Transport{vocab.PageAPI, vocab.CDP} {
		ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
		tab, clock := clockedTab(t, ctx, b, app.URL)
		if err := tab.Tools.WaitTool(ctx, "slow_add", true); err != nil {
			t.Fatal(err)
		}
		writes.Store(0)
		advance := func(ctx context.Context, d time.Duration) error { _, err := clock.Advance(ctx, d); return err }
		res, err := tab.Tools.InvokeCanceling(ctx, "slow_add", "", nil, via, 50*time.Millisecond, advance)
		if err != nil {
			t.Fatal(err)
		}
		in, stop := tab.Bind(ctx)
		waiting, err := chromedp.Run(in, chromedp.Evaluate[bool]("window.release ? (window.release(), true) : false"))
		stop()
		if err != nil || !waiting {
			t.Fatalf("%s: the tool was not waiting to be released (%v): the call never reached it", via, err)
		}
		if _, err := clock.Advance(ctx, time.Second); err != nil { // the tool's write, if it makes one
			t.Fatal(err)
		}
		in, stop = tab.Bind(ctx)
		heard, err := chromedp.Run(in, chromedp.Evaluate[[]string]("window.heard"))
		stop()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: status=%s error=%q heard=%v writes=%d", via, res.Status, res.ErrorText, heard, writes.Load())
		if res.Status != vocab.Canceled {
			t.Errorf("%s: a call canceled in flight answered %s (%s)", via, res.Status, res.ErrorText)
		}
		// Chromium 156: the tool's signal aborts and toolcancel fires, so a
		// tool that checks its signal does not write.
		if !slices.Contains(heard, "abort") || !slices.Contains(heard, "toolcancel:slow_add") || writes.Load() != 0 {
			t.Errorf("%s: the page heard %v and wrote %d time(s); want abort, toolcancel and no write", via, heard, writes.Load())
		}
		tab.Close()
		cancel()
	}
}

// fastPage registers a tool that writes and answers at once, and one that
// answers with no request at all.
const fastPage = `<!doctype html><title>fast</title><script>
document.modelContext.registerTool({
  name: "quick_add", description: "Add now.", inputSchema: {type: "object", properties: {}},
  async execute() { await fetch("/write", {method: "POST", body: "x"}); return "written"; },
});
document.modelContext.registerTool({
  name: "echo", description: "Answer now.", inputSchema: {type: "object", properties: {}},
  async execute() { return "echoed"; },
});
</script>`

// A tool that writes and answers within milliseconds still sees its cancel
// (issue 44 item 4): its answer is held until the cancel has landed, so the
// call is canceled every run, while the app has the write. Known bad: a
// tool that answers without a request has nothing to hold, and answers
// first (completed), as the coverage then says.
func TestACancelLandsWhileAFastCallRuns(t *testing.T) {
	b := launched(t)
	app, writes := countingApp(t, fastPage)
	ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
	defer cancel()
	tab, clock := clockedTab(t, ctx, b, app.URL)
	defer tab.Close()
	if err := tab.Tools.WaitTool(ctx, "echo", true); err != nil {
		t.Fatal(err)
	}
	advance := func(ctx context.Context, d time.Duration) error { _, err := clock.Advance(ctx, d); return err }
	for _, after := range []time.Duration{200 * time.Millisecond, 0, 50 * time.Millisecond} {
		res, err := tab.Tools.InvokeCanceling(ctx, "quick_add", "", nil, vocab.PageAPI, after, advance)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != vocab.Canceled {
			t.Errorf("after %s: a fast write answered %s (%s); want canceled", after, res.Status, res.ErrorText)
		}
	}
	// With 200 ms to go, the write reached the app before the cancel: it
	// was its answer that was held.
	writes.Store(0)
	if res, err := tab.Tools.InvokeCanceling(ctx, "quick_add", "", nil, vocab.CDP, 200*time.Millisecond, advance); err != nil || res.Status != vocab.Canceled || writes.Load() != 1 {
		t.Errorf("through CDP: %s %v with %d write(s) at its end; want canceled, written once", res.Status, err, writes.Load())
	}
	res, err := tab.Tools.InvokeCanceling(ctx, "echo", "", nil, vocab.PageAPI, 200*time.Millisecond, advance)
	if err != nil || res.Status != vocab.Completed {
		t.Errorf("a call with nothing to hold: %s %v, want completed", res.Status, err)
	}
	// The page is itself again: its answers are no longer held.
	in, stop := tab.Bind(ctx)
	defer stop()
	if ok, err := chromedp.Run(in, chromedp.Evaluate[bool](`fetch("/write", {method: "POST"}).then(r => r.ok)`, chromedp.EvalAwaitPromise)); err != nil || !ok {
		t.Errorf("a request after the call: %v %v", ok, err)
	}
}

// countingApp serves page and counts the POSTs it gets (the tools' writes).
func countingApp(t *testing.T, page string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var writes atomic.Int32
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			writes.Add(1)
			w.WriteHeader(http.StatusNoContent)
			return
		}
		fmt.Fprint(w, page)
	}))
	t.Cleanup(app.Close)
	return app, &writes
}

// clockedTab is a new tab on the page's clock, at url.
func clockedTab(t *testing.T, ctx context.Context, b *Browser, url string) (*Tab, *Clock) {
	t.Helper()
	tab, err := b.NewTab(ctx)
	if err != nil {
		t.Fatal(err)
	}
	clock, err := tab.StartClock(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := tab.Navigate(ctx, url); err != nil {
		t.Fatal(err)
	}
	return tab, clock
}
