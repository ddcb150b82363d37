package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/kit/hang"
)

// swCachePage's service worker caches GET /api/slots when it installs and
// answers it from its cache from then on; the page fetches it once the
// worker controls it.
const swCachePage = `<!doctype html><title>sw</title><script>
navigator.serviceWorker.register("/cache-sw.js").then(() => navigator.serviceWorker.ready).then(() => {
  if (navigator.serviceWorker.controller) return fetch("/api/slots");
  return new Promise((r) => navigator.serviceWorker.addEventListener("controllerchange", r, {once: true})).then(() => fetch("/api/slots"));
}).then((r) => r.text()).then((t) => { document.title = "fetched " + t; });
</script>`

const cacheSW = `self.addEventListener("install", (e) => e.waitUntil(caches.open("v1").then((c) => c.add("/api/slots")).then(() => self.skipWaiting())));
self.addEventListener("activate", (e) => e.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (e) => { if (new URL(e.request.url).pathname === "/api/slots") e.respondWith(caches.match(e.request)); });`

// TestAResponseFromAServiceWorkersCacheIsMarked: the page's request that a
// service worker answered from its cache is in the log marked as such
// (fromServiceWorker), and is not counted as one the server got: the server
// saw only the worker's own pre-cache read.
func TestAResponseFromAServiceWorkersCacheIsMarked(t *testing.T) {
	b := launched(t)
	var served atomic.Int32
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/cache-sw.js":
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, cacheSW)
		case "/api/slots":
			served.Add(1)
			fmt.Fprint(w, `{"slots":3}`)
		default:
			fmt.Fprint(w, swCachePage)
		}
	}))
	defer app.Close()
	tab := openTab(t, b, app.URL+"/")
	ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
	defer cancel()
	page, err := tab.Net.WaitFor(ctx, 0, func(r record.Request) bool { return r.Path == "/api/slots" && r.FromSW })
	if err != nil {
		t.Fatalf("no request of the page answered by the worker: %v\n%+v", err, tab.Net.Requests().Filter("GET", "/api/slots"))
	}
	if page.Counted() || page.Target != nil {
		t.Errorf("the page's side of a cached answer is counted as the server's (%v) or is not the page's (%+v)", page.Counted(), page.Target)
	}
	got := tab.Net.Requests().Filter("GET", "/api/slots")
	counted := 0
	for _, r := range got {
		if r.Counted() {
			counted++
		}
	}
	if n := int(served.Load()); counted != n {
		t.Errorf("the log counts %d reads of /api/slots as the server's, the server served %d: %+v", counted, n, got)
	}
}
