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
	var writes atomic.Int32
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			writes.Add(1)
			w.WriteHeader(http.StatusNoContent)
			return
		}
		fmt.Fprint(w, cancelPage)
	}))
	defer app.Close()
	for _, via := range []vocab.Transport{vocab.PageAPI, vocab.CDP} {
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		tab, err := b.NewTab(ctx)
		if err != nil {
			t.Fatal(err)
		}
		clock, err := tab.StartClock(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := tab.Navigate(ctx, app.URL); err != nil {
			t.Fatal(err)
		}
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
