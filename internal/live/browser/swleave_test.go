package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/kit/hang"
)

// swLeavePage hands its service worker a write as the page goes
// (pagehide), which the worker sends once the page is gone.
const swLeavePage = `<!doctype html><title>loading</title><script>
navigator.serviceWorker.register("/leave-sw.js").then(() => navigator.serviceWorker.ready).then(() =>
  navigator.serviceWorker.controller || new Promise((r) => navigator.serviceWorker.addEventListener("controllerchange", r, {once: true}))
).then(() => { document.title = "ready"; });
addEventListener("pagehide", () => navigator.serviceWorker.controller.postMessage({write: "after the page"}));
</script>`

const leaveSW = `self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (e) => e.waitUntil(self.clients.claim()));
self.addEventListener("message", (e) => e.waitUntil(fetch("/write", {method: "POST", body: e.data.write})));`

// TestAServiceWorkersWriteAfterThePageIsGoneIsRecorded (issue 49, item
// 4): a write a service worker sends once the page it served has gone is
// in the tab's log, as the worker's, after the page's leaving: every time
// the app received it.
func TestAServiceWorkersWriteAfterThePageIsGoneIsRecorded(t *testing.T) {
	b := launched(t)
	for run := range 8 {
		var got atomic.Int32
		app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case r.URL.Path == "/leave-sw.js":
				w.Header().Set("Content-Type", "text/javascript")
				fmt.Fprint(w, leaveSW)
			case r.Method == http.MethodPost:
				got.Add(1)
				w.WriteHeader(http.StatusNoContent)
			default:
				fmt.Fprint(w, swLeavePage)
			}
		}))
		tab := openTab(t, b, app.URL+"/")
		ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
		in, stop := tab.Bind(ctx)
		_, err := chromedp.Run(in, chromedp.Poll[bool](`document.title === "ready"`))
		stop()
		if err != nil {
			t.Fatalf("run %d: the worker never took the page: %v", run, err)
		}
		left := tab.Net.Len()
		if err := tab.Navigate(ctx, "about:blank"); err != nil {
			t.Fatal(err)
		}
		w, err := tab.Net.WaitFor(ctx, left, func(r record.Request) bool { return r.Method == "POST" && r.Path == "/write" })
		if err != nil {
			t.Errorf("run %d: the worker's write after the page is not in the log (the app received %d): %v", run, got.Load(), err)
		} else if w.Target == nil || w.Target.Type != "service_worker" {
			t.Errorf("run %d: the write is in the log as %+v, not the service worker's", run, w.Target)
		}
		cancel()
		app.Close()
	}
}
