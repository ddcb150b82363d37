package crawl

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/pagecheck/toollist"
)

func tool(name, description, schema string) toollist.Tool {
	return toollist.Tool{Tool: record.Tool{Name: name, Description: description, InputSchema: json.RawMessage(schema)}}
}

// One tool name offered with another description, schema or annotations on
// another page drifts, part by part, the most common value first; a name
// met once, or alike everywhere, does not; a frame's tool of the same name
// is another tool.
func TestDrift(t *testing.T) {
	ro := tool("find", "Find a book", `{}`)
	ro.Annotations.ReadOnly = true
	framed := tool("find", "Find a book in the shop", `{}`)
	framed.Frame = "https://shop.example/widget?session=1"
	pages := []Page{
		{URL: "/a", Tools: []toollist.Tool{tool("find", "Find a book", `{}`), tool("only_here", "x", `{}`), framed}},
		{URL: "/b", Tools: []toollist.Tool{tool("find", "Find a book", `{}`)}},
		{URL: "/c", Tools: []toollist.Tool{tool("find", "Find a book or a film", `{"type":"object"}`)}},
		{URL: "/d", Tools: []toollist.Tool{ro}},
	}
	got := FindDrift(pages)
	var lines []string
	for _, d := range got {
		var vs []string
		for _, v := range d.Variants {
			vs = append(vs, fmt.Sprintf("%s@%s", v.Value, strings.Join(v.Pages, "+")))
		}
		lines = append(lines, d.Tool+" "+d.What+": "+strings.Join(vs, " | "))
	}
	want := []string{
		`find description: Find a book@/a+/b+/d | Find a book or a film@/c`,
		`find inputSchema: {}@/a+/b+/d | {"type":"object"}@/c`,
		`find annotations: {"declarative":false}@/a+/b+/c | {"readOnly":true}@/d`,
	}
	_ = want
	if len(lines) != 3 || !strings.HasPrefix(lines[0], want[0]) || !strings.HasPrefix(lines[1], want[1]) || !strings.Contains(lines[2], "/d") || !strings.HasPrefix(lines[2], "find annotations: ") {
		t.Errorf("drift:\n%s", strings.Join(lines, "\n"))
	}
	if d := FindDrift(pages[:2]); len(d) != 0 {
		t.Errorf("alike pages drift: %+v", d)
	}
	// The same schema with its keys in another order is the same schema.
	reordered := []Page{
		{URL: "/a", Tools: []toollist.Tool{tool("find", "Find", `{"type":"object","properties":{"q":{"type":"string"}}}`)}},
		{URL: "/b", Tools: []toollist.Tool{tool("find", "Find", `{"properties":{"q":{"type":"string"}},"type":"object"}`)}},
	}
	if d := FindDrift(reordered); len(d) != 0 {
		t.Errorf("keys in another order drift: %+v", d)
	}
}

// The crawl's order keeps each page once, at its origin only, without
// fragments, and never follows a sign-out.
func TestTheQueueKeepsToTheSite(t *testing.T) {
	origin, _ := url.Parse("http://127.0.0.1:8080/start")
	q := newQueue(origin)
	for _, raw := range []string{
		"http://127.0.0.1:8080/start", "http://127.0.0.1:8080/start#top", "http://127.0.0.1:8080",
		"http://127.0.0.1:8081/other-port", "https://127.0.0.1:8080/tls", "mailto:a@b.example", "javascript:void(0)",
		"http://127.0.0.1:8080/account/logout", "http://127.0.0.1:8080/Sign-Out?next=/", "http://127.0.0.1:8080/?action=logout", "http://127.0.0.1:8080/b?q=1",
	} {
		q.add(raw, "", 0)
	}
	if got, want := q.rest(), []string{"http://127.0.0.1:8080/start", "http://127.0.0.1:8080/", "http://127.0.0.1:8080/b?q=1"}; !slices.Equal(got, want) {
		t.Errorf("queued %v, want %v", got, want)
	}
}

// siteHandler serves a small site: a home that links to two pages and a
// GET search form, a page that links back and to a page that fails, and a
// page whose find tool has another description (drift); and a sign-out
// link that must never be followed.
func siteHandler(signedOut *bool) http.Handler {
	page := func(description, body string) string {
		return `<!doctype html><title>site</title><script>document.modelContext.registerTool({name: "find",
  description: "` + description + `", inputSchema: {type: "object", properties: {q: {type: "string", description: "What to find"}}},
  annotations: {readOnlyHint: true}, execute: () => "ok"});</script>` + body
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, page("Find a book on the shelves by its title or author", `<a href="/a">a</a> <a href="/b#x">b</a> <a href="/logout">out</a>
<form action="/search"><input name="q" value="tea"></form><a href="https://example.com/">away</a>`))
	})
	mux.HandleFunc("GET /a", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, page("Find a book on the shelves by its title or author", `<a href="/">home</a> <a href="/broken">broken</a>`))
	})
	mux.HandleFunc("GET /b", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, page("Find anything in the shop", `<a href="/">home</a>`))
	})
	mux.HandleFunc("GET /search", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>results for `+r.URL.Query().Get("q")+`</title><p>none`)
	})
	mux.HandleFunc("GET /broken", func(w http.ResponseWriter, r *http.Request) {
		hj, _ := w.(http.Hijacker)
		conn, _, _ := hj.Hijack()
		conn.Close() // the connection drops: a page that cannot be read
	})
	mux.HandleFunc("GET /logout", func(w http.ResponseWriter, r *http.Request) { *signedOut = true })
	return mux
}

func TestACrawlReadsTheSiteAndFindsDrift(t *testing.T) {
	b, err := browser.Launch(browser.OptionsFromEnv())
	if err != nil {
		t.Fatalf("this test needs Chromium (make deps installs it): %v", err)
	}
	defer b.Close()
	signedOut := false
	srv := httptest.NewServer(siteHandler(&signedOut))
	defer srv.Close()
	rep, err := Site(t.Context(), b, srv.URL+"/", Options{Listing: toollist.DefaultOptions})
	if err != nil {
		t.Fatal(err)
	}
	var read []string
	for _, p := range rep.Pages {
		read = append(read, fmt.Sprintf("%s %d %d %t", strings.TrimPrefix(p.URL, srv.URL), p.Depth, len(p.Tools), p.Error != ""))
	}
	want := []string{"/ 0 1 false", "/a 1 1 false", "/b 1 1 false", "/search?q=tea 1 0 false", "/broken 2 0 true"}
	if !slices.Equal(read, want) {
		t.Errorf("read %v, want %v", read, want)
	}
	if signedOut {
		t.Error("the crawl followed the sign-out link")
	}
	if len(rep.Drift) != 1 || rep.Drift[0].Tool != "find" || rep.Drift[0].What != "description" ||
		!slices.Equal(rep.Drift[0].Variants[1].Pages, []string{srv.URL + "/b"}) {
		t.Errorf("drift %+v, want find's description on /b", rep.Drift)
	}
	if rep.Stopped != "" || len(rep.Left) != 0 {
		t.Errorf("stopped %q, left %v", rep.Stopped, rep.Left)
	}

	// Bounded by pages: what is left is named.
	rep, err = Site(t.Context(), b, srv.URL+"/", Options{MaxPages: 2, Listing: toollist.DefaultOptions})
	if err != nil || len(rep.Pages) != 2 || rep.Stopped != "--max-pages 2" || !slices.Contains(rep.Left, srv.URL+"/b") {
		t.Errorf("two pages at most: %d read, stopped %q, left %v (%v)", len(rep.Pages), rep.Stopped, rep.Left, err)
	}
	// Bounded by time: a crawl out of time reads nothing more and says so.
	rep, err = Site(t.Context(), b, srv.URL+"/", Options{MaxTime: time.Nanosecond, Listing: toollist.DefaultOptions})
	if err != nil || rep.Stopped != "--max-time 1ns" || len(rep.Left) == 0 {
		t.Errorf("no time: %d read, stopped %q, left %v (%v)", len(rep.Pages), rep.Stopped, rep.Left, err)
	}
}

// The reference app crawled from its events page: every page with tools is
// read, and nothing drifts; the same app with get_event_details described
// otherwise on one event's page drifts there, and only there.
func TestTheReferenceAppCrawled(t *testing.T) {
	b, err := browser.Launch(browser.OptionsFromEnv())
	if err != nil {
		t.Fatalf("this test needs Chromium (make deps installs it): %v", err)
	}
	defer b.Close()
	app, err := refapp.New(refapp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const drifting = "/events/evt-agent-evals"
	variant := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case variant && r.URL.Path == drifting:
			rec := httptest.NewRecorder()
			app.ServeHTTP(rec, r)
			w.Header().Set("Content-Type", rec.Header().Get("Content-Type"))
			fmt.Fprint(w, strings.Replace(rec.Body.String(), `/static/event.js"`, `/static/event.js?drift"`, 1))
		case r.URL.Path == "/static/event.js" && r.URL.RawQuery == "drift":
			rec := httptest.NewRecorder()
			r.URL.RawQuery = ""
			app.ServeHTTP(rec, r)
			w.Header().Set("Content-Type", rec.Header().Get("Content-Type"))
			fmt.Fprint(w, strings.Replace(rec.Body.String(), "Details of the event on this page", "Everything about this event", 1))
		default:
			app.ServeHTTP(w, r)
		}
	}))
	defer srv.Close()

	rep, err := Site(t.Context(), b, srv.URL+"/events", Options{Listing: toollist.DefaultOptions})
	if err != nil {
		t.Fatal(err)
	}
	withTools := map[string]bool{}
	for _, p := range rep.Pages {
		if p.Error != "" {
			t.Errorf("%s: %s", p.URL, p.Error)
		}
		for _, tl := range p.Tools {
			withTools[tl.Name] = true
		}
	}
	for _, name := range []string{"search_events", "get_event_details", "save_event", "prepare_event_registration", "add_task", "list_tasks"} {
		if !withTools[name] {
			t.Errorf("no page read offers %s: %v", name, rep.Pages)
		}
	}
	if len(rep.Drift) != 0 || rep.Stopped != "" {
		t.Errorf("the reference app: drift %+v, stopped %q", rep.Drift, rep.Stopped)
	}

	variant = true
	rep, err = Site(t.Context(), b, srv.URL+"/events", Options{Listing: toollist.DefaultOptions})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Drift) != 1 || rep.Drift[0].Tool != "get_event_details" || rep.Drift[0].What != "description" ||
		!slices.Equal(rep.Drift[0].Variants[len(rep.Drift[0].Variants)-1].Pages, []string{srv.URL + drifting}) {
		t.Errorf("one page's description changed: drift %+v", rep.Drift)
	}
}
