package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/kit/hang"
)

// streamPage opens what its query names (?open=sse: an EventSource that
// never ends; ?open=poll: a fetch the server never answers), counts 100 ms
// ticks of its own clock, and on later() fetches /slow (answered 300 ms
// later in real time), then 200 ms of page time after the answer posts
// /write: the chain a window must see whole.
const streamPage = `<!doctype html><title>live</title><script>
window.ticks = 0; setInterval(() => ticks++, 100);
const open = new URLSearchParams(location.search).get("open");
if (open === "sse") new EventSource("/sse");
if (open === "poll") fetch("/poll");
window.later = () => fetch("/slow").then(() => setTimeout(() => fetch("/write", {method: "POST"}), 200));
</script>`

func streamApp(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var writes atomic.Int32
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/sse":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, ": open\n\n")
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		case "/poll":
			<-r.Context().Done()
		case "/slow":
			select {
			case <-time.After(300 * time.Millisecond): // the server's own pace, not the test's
			case <-r.Context().Done():
			}
		case "/write":
			writes.Add(1)
		default:
			fmt.Fprint(w, streamPage)
		}
	}))
	t.Cleanup(app.CloseClientConnections)
	t.Cleanup(app.Close)
	return app, &writes
}

// TestAnOpenStreamDoesNotStopThePagesClock: with an EventSource open, or a
// long poll unanswered, the page's time still moves (pauseIfNetworkFetchesPending
// alone would hold it for good, measured on Chromium 156), the page's other
// requests are still waited for (a window sees a fetch → timer → POST chain
// whole), and the clock says what it did not wait for.
func TestAnOpenStreamDoesNotStopThePagesClock(t *testing.T) {
	b := launched(t)
	app, writes := streamApp(t)
	for _, tt := range []struct{ open, request, why string }{
		{"sse", "GET /sse", "EventSource"},
		{"poll", "GET /poll", "long poll"},
		{"none", "", ""},
	} {
		ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
		tab, clock := clockedTab(t, ctx, b, app.URL+"/?open="+tt.open)
		eval := func(expr string) int {
			t.Helper()
			in, stop := tab.Bind(ctx)
			defer stop()
			n, err := chromedp.Run(in, chromedp.Evaluate[int](expr))
			if err != nil {
				t.Fatalf("%s: %s: %v", tt.open, expr, err)
			}
			return n
		}
		before, ticks := eval("Date.now()"), eval("ticks")
		if _, err := clock.Advance(ctx, 2*time.Second); err != nil {
			t.Fatalf("%s: the page's time did not move: %v", tt.open, err)
		}
		// The page's clock moved by what was granted (more when the paced
		// clock caught up on real time a stalled grant took); its timers
		// ran (how many depends on how busy the machine is: 14–23 of 20
		// seen under load, each later tick of a late interval merged).
		moved, ran := eval("Date.now()")-before, eval("ticks")-ticks
		t.Logf("%s: the page's clock moved %d ms, %d ticks", tt.open, moved, ran)
		if moved < 2000 || ran < 5 {
			t.Errorf("%s: 2 s of page time moved the page's clock %d ms and ran %d ticks of 100 ms", tt.open, moved, ran)
		}
		writes.Store(0)
		eval("later(), 0")
		if _, err := clock.Advance(ctx, time.Second); err != nil {
			t.Fatal(err)
		}
		wait, stop := context.WithTimeout(ctx, hang.Bound)
		_, err := tab.Net.WaitFor(wait, 0, func(r record.Request) bool { return r.Path == "/write" })
		stop()
		if err != nil || writes.Load() != 1 {
			t.Errorf("%s: the window missed the POST that came 200 ms of page time after a 300 ms fetch (%v, %d writes)", tt.open, err, writes.Load())
		}
		got := clock.NotWaitedFor()
		switch {
		case tt.request == "" && len(got) > 0:
			t.Errorf("%s: the clock went on without %+v", tt.open, got)
		case tt.request != "" && !slices.ContainsFunc(got, func(n record.NotWaited) bool { return n.Request == tt.request && strings.Contains(n.Why, tt.why) }):
			t.Errorf("%s: the clock noted %+v, want %s (%s)", tt.open, got, tt.request, tt.why)
		}
		tab.Close()
		cancel()
	}
}
