package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/kit/hang"
	"github.com/agentready/agentready/netlog/har"
)

// Pages of our own that behave like real sites: a page with a same-origin
// iframe, cross-site iframes (another origin and another site: localhost
// against 127.0.0.1, so a process of their own), a same-site cross-origin
// iframe (127.0.0.1 on another port: the page's process), each registering a
// WebMCP tool and POSTing from a timer; and a page with a dedicated worker
// (which starts a nested one), a shared worker and a service worker, each
// POSTing.

const framesPage = `<!doctype html><title>frames</title><h1 id=title>Frames</h1>
<iframe id=same src="/same"></iframe>
<iframe id=cross src="{B}/cross?v=plain&w=1"></iframe>
<iframe id=cross-allowed allow="tools" src="{B}/cross?v=allowed"></iframe>
<iframe id=cross-exposed allow="tools" src="{B}/cross?v=exposed&top={A}"></iframe>
<iframe id=same-site src="{S}/cross?v=samesite"></iframe>
<script>
document.modelContext.registerTool({name: "top_tool", description: "the top page's tool", inputSchema: {type: "object", properties: {}}, execute: () => ({ok: true})});
setTimeout(() => fetch("/api/top", {method: "POST", body: "from-top"}), 20);
</script>`

const samePage = `<!doctype html><p id=inner>same-origin frame</p><script>
document.modelContext.registerTool({name: "same_tool", description: "the same-origin frame's tool", inputSchema: {type: "object", properties: {}}, execute: () => ({ok: true})});
setTimeout(() => fetch("/api/same", {method: "POST", body: "from-same"}), 20);
</script>`

// crossPage registers its tool (with exposedTo naming the top page when
// asked), shows what came of it, and POSTs only then: the POST in the log
// means the outcome is on the page.
const crossPage = `<!doctype html><p id=inner>cross-site frame</p><p id=reg>pending</p><script>
const q = new URLSearchParams(location.search), v = q.get("v");
const opts = q.get("top") ? {exposedTo: [q.get("top")]} : undefined;
if (q.get("w")) new Worker("/frame-worker.js");
Promise.resolve().then(() => document.modelContext.registerTool({name: "cross_" + v, description: "the " + v + " frame's tool",
  inputSchema: {type: "object", properties: {}}, execute: () => ({ok: true, from: v})}, opts))
  .then(() => "registered", (e) => "rejected: " + e.message)
  .then((outcome) => {
    document.getElementById("reg").textContent = outcome;
    setTimeout(() => fetch("/api/cross-" + v, {method: "POST", body: "from-cross-" + v}), 20);
  });
</script>`

const workersPage = `<!doctype html><title>workers</title><script>
new Worker("/dedicated.js");
new SharedWorker("/shared.js");
navigator.serviceWorker.register("/sw.js");
setTimeout(() => fetch("/api/top", {method: "POST", body: "from-top"}), 20);
</script>`

var scripts = map[string]string{
	"/dedicated.js":    `new Worker("/nested.js"); setTimeout(() => fetch("/api/dedicated", {method: "POST", body: "from-dedicated"}), 20);`,
	"/nested.js":       `setTimeout(() => fetch("/api/nested", {method: "POST", body: "from-nested"}), 20);`,
	"/shared.js":       `setTimeout(() => fetch("/api/shared", {method: "POST", body: "from-shared"}), 20);`,
	"/sw.js":           `self.addEventListener("install", (e) => e.waitUntil(fetch("/api/sw", {method: "POST", body: "from-sw"})));`,
	"/frame-worker.js": `setTimeout(() => fetch("/api/cross-worker", {method: "POST", body: "from-cross-worker"}), 20);`,
}

// sites are the two servers: A (the page's, http://127.0.0.1:…) and B,
// addressed as http://localhost:… (another site) and http://127.0.0.1:…
// (the same site, another origin). They count the POSTs they receive.
type sites struct {
	a, b    *httptest.Server
	A, B, S string // origins: the page's, B as another site, B as the same site
	mu      sync.Mutex
	hits    map[string]int
	changed chan struct{}
}

func newSites(t *testing.T) *sites {
	s := &sites{hits: map[string]int{}, changed: make(chan struct{})}
	handler := func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			s.mu.Lock()
			s.hits[r.URL.Path+" "+string(body)]++
			close(s.changed)
			s.changed = make(chan struct{})
			s.mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"ok":true}`)
			return
		}
		if js, ok := scripts[r.URL.Path]; ok {
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, js)
			return
		}
		page, ok := map[string]string{"/frames": framesPage, "/same": samePage, "/cross": crossPage, "/workers": workersPage}[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, strings.NewReplacer("{A}", s.A, "{B}", s.B, "{S}", s.S).Replace(page))
	}
	s.a = httptest.NewServer(http.HandlerFunc(handler))
	s.b = httptest.NewServer(http.HandlerFunc(handler))
	t.Cleanup(s.a.Close)
	t.Cleanup(s.b.Close)
	_, port, _ := net.SplitHostPort(s.b.Listener.Addr().String())
	s.A, s.B, s.S = s.a.URL, "http://localhost:"+port, "http://127.0.0.1:"+port
	return s
}

// waitHits waits until the servers have received each POST ("path body").
func (s *sites) waitHits(ctx context.Context, want ...string) error {
	for {
		s.mu.Lock()
		missing := slices.DeleteFunc(slices.Clone(want), func(w string) bool { return s.hits[w] > 0 })
		changed := s.changed
		s.mu.Unlock()
		if len(missing) == 0 {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("the servers never received %v", missing)
		}
	}
}

func (s *sites) count(hit string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[hit]
}

// openTab opens a tab of b at url, closed when the test ends.
func openTab(t *testing.T, b *Browser, url string) *Tab {
	t.Helper()
	tab := newTab(t, t.Context(), b)
	if err := tab.Navigate(t.Context(), url); err != nil {
		t.Fatal(err)
	}
	return tab
}

// newTab takes a fresh tab for one test, closed when the test ends.
func newTab(t *testing.T, ctx context.Context, b *Browser) *Tab {
	t.Helper()
	tab, err := b.NewTab(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tab.Close)
	return tab
}

// launched starts a browser with WebMCP on for one test, closed when it ends.
func launched(t *testing.T) *Browser {
	t.Helper()
	requireChromium(t)
	b, err := Launch(Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// post is one POST the pages make: where, its body, and the target that
// must report it (nil: the page's own session).
type post struct {
	path, body string
	target     string // "", iframe, worker, shared_worker, service_worker
}

// waitPosts waits (bounded) until each POST is in the tab's log and done.
func waitPosts(t *testing.T, tab *Tab, posts []post) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
	defer cancel()
	for _, p := range posts {
		if _, err := tab.Net.WaitFor(ctx, 0, func(r record.Request) bool { return r.Method == "POST" && r.Path == p.path }); err != nil {
			var seen []string
			for _, r := range tab.Net.Requests() {
				seen = append(seen, r.Method+" "+r.URL)
			}
			t.Fatalf("POST %s never reached the tab's log: %v\nlog: %s", p.path, err, strings.Join(seen, "\n     "))
		}
	}
}

// checkPosts: each POST is in the log once, done, with its body, status and
// the target that sent it; the server received it once; the HAR has it.
func checkPosts(t *testing.T, s *sites, tab *Tab, posts []post) {
	t.Helper()
	settle, stop := context.WithTimeout(t.Context(), hang.Bound)
	defer stop()
	if err := tab.Net.WaitSettled(settle); err != nil {
		var open []string
		for _, r := range tab.Net.Requests() {
			if !r.Done {
				open = append(open, r.Method+" "+r.URL)
			}
		}
		t.Fatalf("the log never settled: %v; open: %v", err, open)
	}
	bound, cancel := tab.Bind(t.Context())
	if err := tab.Net.FillBodies(bound); err != nil {
		t.Fatal(err)
	}
	cancel()
	log := tab.Net.Requests()
	for i, r := range log {
		if r.Seq != i+1 {
			t.Errorf("entry %d has seq %d: the log is not one ordered list", i, r.Seq)
		}
	}
	raw, err := har.HAR(log, har.HARInfo{Creator: "agentready", CreatorVersion: "test", Browser: "Chromium"})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Log struct {
			Entries []struct {
				Request struct {
					Method   string `json:"method"`
					URL      string `json:"url"`
					PostData struct {
						Text string `json:"text"`
					} `json:"postData"`
				} `json:"request"`
			} `json:"entries"`
		} `json:"log"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for _, p := range posts {
		got := log.Filter("POST", p.path)
		if len(got) != 1 {
			t.Errorf("POST %s: %d entries in the log, want 1: %+v", p.path, len(got), got)
			continue
		}
		r := got[0]
		if !r.Done || r.Status != 200 || r.Body != p.body || r.Failure != "" {
			t.Errorf("POST %s: done %v, status %d, body %q, failure %q", p.path, r.Done, r.Status, r.Body, r.Failure)
		}
		switch {
		case p.target == "" && r.Target != nil:
			t.Errorf("POST %s: target %+v, want the page's own session", p.path, *r.Target)
		case p.target != "" && (r.Target == nil || r.Target.Type != p.target || r.Target.ID == ""):
			t.Errorf("POST %s: target %+v, want a %s", p.path, r.Target, p.target)
		case p.target == "iframe" && r.Target.ID != r.FrameID:
			t.Errorf("POST %s: a cross-site iframe's target id %s is its frame id, got frame %s", p.path, r.Target.ID, r.FrameID)
		}
		if n := s.count(p.path + " " + p.body); n != 1 {
			t.Errorf("POST %s: the server received it %d times", p.path, n)
		}
		found := slices.ContainsFunc(doc.Log.Entries, func(e struct {
			Request struct {
				Method   string `json:"method"`
				URL      string `json:"url"`
				PostData struct {
					Text string `json:"text"`
				} `json:"postData"`
			} `json:"request"`
		}) bool {
			return e.Request.Method == "POST" && strings.HasSuffix(e.Request.URL, p.path) && e.Request.PostData.Text == p.body
		})
		if !found {
			t.Errorf("POST %s is not in the HAR with its body", p.path)
		}
	}
}

var framePosts = []post{
	{"/api/top", "from-top", ""},
	{"/api/same", "from-same", ""},
	{"/api/cross-samesite", "from-cross-samesite", ""}, // another origin, the same site: the page's process
	{"/api/cross-plain", "from-cross-plain", "iframe"},
	{"/api/cross-allowed", "from-cross-allowed", "iframe"},
	{"/api/cross-exposed", "from-cross-exposed", "iframe"},
	{"/api/cross-worker", "from-cross-worker", "worker"}, // a worker of a cross-site iframe
}

var workerPosts = []post{
	{"/api/top", "from-top", ""},
	{"/api/dedicated", "from-dedicated", "worker"},
	{"/api/nested", "from-nested", "worker"},
	{"/api/shared", "from-shared", "shared_worker"},
	{"/api/sw", "from-sw", "service_worker"},
}

func TestCrossSiteFramesJoinTheTabsNetworkLog(t *testing.T) {
	b := launched(t)
	s := newSites(t)
	tab := openTab(t, b, s.A+"/frames")
	waitPosts(t, tab, framePosts)
	checkPosts(t, s, tab, framePosts)
	// The cross-site worker's target is not the iframe's.
	log := tab.Net.Requests()
	w, f := log.Filter("POST", "/api/cross-worker")[0], log.Filter("POST", "/api/cross-plain")[0]
	if w.Target.ID == f.Target.ID {
		t.Errorf("the iframe's worker reports as the iframe: %+v", w.Target)
	}
}

func TestWorkersJoinTheTabsNetworkLog(t *testing.T) {
	b := launched(t)
	s := newSites(t)
	tab := openTab(t, b, s.A+"/workers")
	waitPosts(t, tab, workerPosts)
	checkPosts(t, s, tab, workerPosts)
	// Each worker's script was loaded by the one that started it and is
	// in the log once, finished (on the worker's own session).
	for _, js := range []string{"/dedicated.js", "/nested.js", "/shared.js", "/sw.js"} {
		if got := tab.Net.Requests().Filter("GET", js); len(got) != 1 || !got[0].Done || got[0].Status != 200 {
			t.Errorf("GET %s: %+v", js, got)
		}
	}
}

// TestWithoutFollowingChildrenTheirRequestsAreMissing is the known-bad
// companion: the same pages in a tab that does not attach to its children
// (a bare chromedp tab's behaviour). The servers receive every POST; the
// tab's log has only those of the page's own process.
func TestWithoutFollowingChildrenTheirRequestsAreMissing(t *testing.T) {
	b := launched(t)
	s := newSites(t)
	tab, err := b.openTab(false)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
	defer cancel()
	var want []string
	for _, page := range []struct {
		path  string
		posts []post
	}{{"/frames", framePosts}, {"/workers", workerPosts}} {
		if err := tab.Navigate(ctx, s.A+page.path); err != nil {
			t.Fatal(err)
		}
		want = want[:0]
		for _, p := range page.posts {
			want = append(want, p.path+" "+p.body)
		}
		if err := s.waitHits(ctx, want...); err != nil {
			t.Fatal(err)
		}
		// The POSTs of the page's process are in the log: the log works.
		// (It never settles: a worker's script, begun on the page's
		// session, finishes on the worker's, which nobody listens to.)
		for _, p := range page.posts {
			if p.target != "" {
				continue
			}
			if _, err := tab.Net.WaitFor(ctx, 0, func(r record.Request) bool { return r.Path == p.path && r.Method == "POST" }); err != nil {
				t.Fatalf("%s: POST %s: %v", page.path, p.path, err)
			}
		}
		for _, p := range page.posts {
			n := tab.Net.Requests().Count("POST", p.path)
			if p.target == "" && n == 0 {
				t.Errorf("%s: POST %s from the page's process is missing", page.path, p.path)
			}
			if p.target != "" && n != 0 {
				t.Errorf("%s: POST %s from a %s is in the log of a tab that does not follow its children: the known-bad check proves nothing", page.path, p.path, p.target)
			}
		}
	}
}
