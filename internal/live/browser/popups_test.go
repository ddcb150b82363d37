package browser

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	cdptarget "github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/kit/hang"
	"github.com/agentready/agentready/scenarios/vocab"
)

// A sign-in page as real sites have them: a tool (or a button, or a link)
// opens a window on the sign-in origin, which registers a tool of its own,
// POSTs, asks with confirm(), tells its opener by postMessage and closes
// itself.
const openerPage = `<!doctype html><title>opener</title><p id=msg>none</p>
<button id=open onclick='window.open("{POP}/popup?via=click", "signin", "popup")'>sign in</button>
<a id=blank target=_blank href="{POP}/popup?via=link">sign in (new tab)</a>
<script>
window.addEventListener("message", (e) => { document.getElementById("msg").textContent = e.data; });
document.modelContext.registerTool({name: "open_popup", description: "opens the sign-in window", inputSchema: {type: "object", properties: {}},
  execute: () => window.open("{POP}/popup?via=tool", "signin", "popup") ? "opened" : "blocked"});
</script>`

const popupPage = `<!doctype html><title>sign in</title><p id=who>popup</p><button id=done onclick="window.close()">done</button><script>
const via = new URLSearchParams(location.search).get("via");
document.modelContext.registerTool({name: "popup_tool", description: "the popup's tool", inputSchema: {type: "object", properties: {}}, execute: () => "ok"});
fetch("/api/popup", {method: "POST", body: "from-" + via}).then((r) => r.text()).then(() => {
  if (via === "confirm") confirm("Sign in as Ada?");
  setTimeout(() => { if (window.opener) window.opener.postMessage("signed-in " + via, "*"); if (via === "close") window.close(); }, 200);
});
</script>`

// popupSites serves the opener on A and the popup on A (same origin) or on
// B addressed as localhost (another site: a renderer of its own).
func popupSites(t *testing.T) (a, b string) {
	var popupOrigin string
	h := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		switch r.URL.Path {
		case "/popup":
			fmt.Fprint(w, popupPage)
		case "/api/popup":
			fmt.Fprint(w, `{"ok":true}`)
		default:
			pop := ""
			if r.URL.Query().Get("cross") != "" {
				pop = popupOrigin
			}
			fmt.Fprint(w, strings.ReplaceAll(openerPage, "{POP}", pop))
		}
	}
	sa, sb := httptest.NewServer(http.HandlerFunc(h)), httptest.NewServer(http.HandlerFunc(h))
	t.Cleanup(sa.Close)
	t.Cleanup(sb.Close)
	_, port, _ := net.SplitHostPort(sb.Listener.Addr().String())
	popupOrigin = "http://localhost:" + port
	return sa.URL, popupOrigin
}

// textOf reads an element's text in ctx's page, bounded.
func textOf(ctx context.Context, sel string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, hang.Bound)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.WaitReady(chromedp.CSS(sel))); err != nil {
		return "", err
	}
	return chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(`+"`"+sel+"`"+`).textContent`))
}

func TestAWindowThePageOpensIsATargetOfTheRun(t *testing.T) {
	b := launched(t)
	a, _ := popupSites(t)
	for _, tc := range []struct {
		name, query, via string
		open             func(ctx context.Context, tab *Tab) error
	}{
		{"a tool, same origin", "", "tool", nil},
		{"a tool, another site", "?cross=1", "tool", nil},
		{"a click", "?cross=1", "click", func(ctx context.Context, tab *Tab) error {
			return tab.Do(ctx, chromedp.Click(chromedp.CSS("#open"), chromedp.NodeVisible))
		}},
		{"a target=_blank link", "", "link", func(ctx context.Context, tab *Tab) error {
			return tab.Do(ctx, chromedp.Click(chromedp.CSS("#blank"), chromedp.NodeVisible))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
			defer cancel()
			tab, err := b.NewTab(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer tab.Close()
			clock, err := tab.StartClock(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := tab.Navigate(ctx, a+"/"+tc.query); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			if tc.open == nil {
				res := tab.Tools.Invoke(ctx, "open_popup", nil, vocab.PageAPI)
				if res.Status != vocab.Completed || res.OutputText != "opened" {
					t.Fatalf("the tool that opens a window: %+v", res)
				}
				t.Logf("the call answered in %v", res.Duration)
			} else if err := tc.open(ctx, tab); err != nil {
				t.Fatal(err)
			}
			// The popup's POST is in the tab's log, marked with its window.
			wait, cancelWait := context.WithTimeout(ctx, hang.Bound)
			post, err := tab.Net.WaitFor(wait, 0, func(r record.Request) bool { return r.Method == "POST" && r.Path == "/api/popup" })
			cancelWait()
			if err != nil {
				for _, r := range tab.Net.Requests() {
					t.Logf("%s %s %+v done=%v status=%d fail=%q", r.Method, r.URL, r.Target, r.Done, r.Status, r.Failure)
				}
				t.Logf("popups %+v targets %+v", tab.Popups.Entries(), tab.Targets())
				t.Fatalf("the popup's POST never reached the log: %v", err)
			}
			t.Logf("the popup's POST was in the log %v after it opened", time.Since(start))
			pops := tab.Popups.Entries()
			if len(pops) != 1 {
				t.Fatalf("popups: %+v", pops)
			}
			p := pops[0]
			if post.Target == nil || post.Target.Type != "page" || post.Target.Window != p.Target || post.Body != "from-"+tc.via {
				t.Errorf("the popup's POST: target %+v body %q, want the window %s", post.Target, post.Body, p.Target)
			}
			if !strings.HasSuffix(p.URL, "/popup?via="+tc.via) || p.Opener == "" || p.Phase != vocab.PhaseSetup || p.Error != "" {
				t.Errorf("the popup's record: %+v", p)
			}
			if tc.via == "link" && p.OpenerReach {
				t.Errorf("a target=_blank link opens without an opener: %+v", p)
			}
			// The page clock goes on: a window of 5 s of page time is used.
			took, err := clock.Advance(ctx, 5*time.Second)
			if err != nil {
				t.Fatalf("the page's clock after the popup: %v", err)
			}
			t.Logf("5 s of page time after the popup took %v", took)
			if tc.via != "link" {
				in, cancel := tab.Bind(ctx)
				msg, err := textOf(in, "#msg")
				cancel()
				// A popup of another site runs on real time: its 200 ms
				// timer may come after the window.
				if err != nil || (tc.query == "" && msg != "signed-in "+tc.via) {
					t.Errorf("the opener heard %q (%v)", msg, err)
				}
			}
			// Its tools are recorded as its own: waited for on its trace.
			tab.Popups.mu.Lock()
			popupTrace := tab.Popups.byID[tab.Popups.entries[0].Target].trace
			tab.Popups.mu.Unlock()
			toolsCtx, stopTools := context.WithTimeout(ctx, hang.Bound)
			err = popupTrace.WaitUntil(toolsCtx, "the popup's tools", func(events []record.Event) bool {
				return len(record.CatalogAt(events, len(events))) > 0
			})
			stopTools()
			if err != nil {
				t.Error(err)
			}
			if tools := tab.Popups.Entries()[0].Tools.Names(); len(tools) != 1 || tools[0] != "popup_tool" {
				t.Errorf("the popup's tools: %v", tools)
			}
			if names := tab.Trace.Catalog().Names(); len(names) != 1 || names[0] != "open_popup" {
				t.Errorf("the page's catalog holds another window's tools: %v", names)
			}
			if err := clock.Err(); err != nil {
				t.Error(err)
			}
		})
	}
}

// waitPopup waits (bounded) until the tab's first popup satisfies ok.
func waitPopup(t *testing.T, ctx context.Context, tab *Tab, what string, ok func(record.Popup) bool) record.Popup {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, hang.Bound)
	defer cancel()
	for {
		tab.Popups.mu.Lock()
		changed := tab.Popups.changed
		tab.Popups.mu.Unlock()
		if pops := tab.Popups.Entries(); len(pops) > 0 && ok(pops[0]) {
			return pops[0]
		}
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("the popup never %s: %+v", what, tab.Popups.Entries())
		}
	}
}

func TestAPopupsDialogsAreAnsweredAndItCloses(t *testing.T) {
	b := launched(t)
	a, _ := popupSites(t)
	ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
	defer cancel()
	open := func(via string) *Tab {
		tab, err := b.NewTab(ctx)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(tab.Close)
		if _, err := tab.StartClock(ctx, nil); err != nil {
			t.Fatal(err)
		}
		if err := tab.Navigate(ctx, a+"/"); err != nil {
			t.Fatal(err)
		}
		js := `window.open("/popup?via=` + via + `", "w", "popup") ? "opened" : "blocked"`
		in, cancel := tab.Bind(ctx)
		defer cancel()
		if got, err := chromedp.Run(in, chromedp.Evaluate[string](js)); err != nil || got != "opened" {
			t.Fatalf("window.open: %q %v", got, err)
		}
		return tab
	}

	// A confirm() in the popup is answered (dismissed) and recorded as the
	// popup's; a step reads the popup's page.
	tab := open("confirm")
	select {
	case <-tab.Dialogs.Answered():
	case <-time.After(hang.Bound):
		t.Fatal("the popup's confirm() was never answered")
	}
	d := tab.Dialogs.Entries()
	p := tab.Popups.Entries()[0]
	if len(d) != 1 || d[0].Kind != vocab.DialogConfirm || d[0].Target == nil || d[0].Target.Window != p.Target || d[0].Accepted {
		t.Errorf("the popup's dialog: %+v", d)
	}
	in, cancel2, err := tab.BindPopup(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if who, err := textOf(in, "#who"); err != nil || who != "popup" {
		t.Errorf("read in the popup: %q %v", who, err)
	}
	cancel2()
	// The scenario closes it.
	if err := tab.ClosePopup(ctx); err != nil {
		t.Fatal(err)
	}
	if p := tab.Popups.Entries()[0]; !p.Closed || p.ClosedBy != record.ClosedByScenario {
		t.Errorf("closed by the scenario: %+v", p)
	}
	short, cancelShort := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancelShort()
	if err := tab.ClosePopup(short); err == nil || !strings.Contains(err.Error(), "no popup is open") {
		t.Errorf("closing a popup when none is open: %v", err)
	}

	// The popup closes itself after telling its opener.
	tab = open("close")
	waitPopup(t, ctx, tab, "closed itself", func(p record.Popup) bool { return p.Closed })
	if p := tab.Popups.Entries()[0]; p.ClosedBy != record.ClosedByPage {
		t.Errorf("closed by the page: %+v", p)
	}
	in, cancel3 := tab.Bind(ctx)
	defer cancel3()
	if msg, err := textOf(in, "#msg"); err != nil || msg != "signed-in close" {
		t.Errorf("the opener heard %q (%v)", msg, err)
	}
}

// TestWithoutAttachingAPopupTheToolNeverAnswers is the known-bad companion,
// and the measurement behind popups.go: with the browser-wide auto-attach
// for shared workers alone (as before), a window.open is held before its
// first navigation, never attached, and the tool's window.open never
// returns.
func TestWithoutAttachingAPopupTheToolNeverAnswers(t *testing.T) {
	b := launched(t)
	a, _ := popupSites(t)
	ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
	defer cancel()
	if _, err := chromedp.CallBrowser(b.ctx, cdptarget.SetAutoAttach, cdptarget.SetAutoAttachParams{AutoAttach: true, WaitForDebuggerOnStart: true,
		Flatten: new(true), Filter: cdptarget.Filter{{Type: "shared_worker"}, {Exclude: true}}}); err != nil {
		t.Fatal(err)
	}
	tab, err := b.NewTab(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	if err := tab.Navigate(ctx, a+"/"); err != nil {
		t.Fatal(err)
	}
	tab.Tools.Timeout = time.Second
	res := tab.Tools.Invoke(ctx, "open_popup", nil, vocab.PageAPI)
	if res.Status != vocab.NoResponse {
		t.Fatalf("a browser that does not attach popups: %+v; the known-bad case proves nothing", res)
	}
	if got := tab.Net.Requests().Count("POST", "/api/popup"); got != 0 {
		t.Errorf("the held window sent %d POSTs", got)
	}
}

// TestAnotherSuitesWindowWaitsForItsOwner: two suites attached to one
// browser, as make e2e-attached's two processes are. A window A's page
// opens is held by B's connection too. Were B to run it, the window could
// send its document's request and its POST before A has its network on
// (SIGNIN-01's POST once missing from an attached run); B lets it go unrun
// once A has run it, so A's log holds the window from its first request. A
// window in the browser's own context (the person's) B runs at once.
func TestAnotherSuitesWindowWaitsForItsOwner(t *testing.T) {
	host := startedByHand(t)
	ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
	defer cancel()
	suites := make([]*Browser, 2)
	for i := range suites {
		b, err := Launch(Options{URL: host})
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		suites[i] = b
	}
	a, b := suites[0], suites[1]
	heard := make(chan string, 8)
	b.mux.mu.Lock()
	b.mux.onWindow = func(id cdptarget.ID, what string) { heard <- string(id) + " " + what }
	b.mux.mu.Unlock()
	hear := func(id cdptarget.ID) string {
		t.Helper()
		for {
			select {
			case h := <-heard:
				if what, ok := strings.CutPrefix(h, string(id)+" "); ok {
					return what
				}
			case <-ctx.Done():
				t.Fatalf("the other suite never let the window %s go: %v", id, ctx.Err())
			}
		}
	}

	site, _ := popupSites(t)
	tab, err := a.NewTab(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	if err := tab.Navigate(ctx, site+"/"); err != nil {
		t.Fatal(err)
	}
	if res := tab.Tools.Invoke(ctx, "open_popup", nil, vocab.PageAPI); res.Status != vocab.Completed {
		t.Fatalf("the tool that opens a window: %+v", res)
	}
	if _, err := tab.Net.WaitFor(ctx, 0, func(r record.Request) bool { return r.Method == "POST" && r.Path == "/api/popup" }); err != nil {
		t.Fatalf("the popup's POST never reached its owner's log: %v", err)
	}
	pop := tab.Popups.Entries()[0]
	if got := hear(cdptarget.ID(pop.Target)); got != windowYielded {
		t.Errorf("the other suite %s the window: it must leave running it to its owner", got)
	}
	if !slices.ContainsFunc(tab.Net.Requests(), func(r record.Request) bool {
		return r.ResourceType == "Document" && r.Target != nil && r.Target.Window == pop.Target && r.Target.ID == pop.Target
	}) {
		t.Errorf("the owner's log lacks the window's document: it was recorded late")
	}

	// A window a page of the browser's own context opens (the person's):
	// no suite made that context, so B runs it at once.
	person, err := chromedp.CallBrowser(a.ctx, cdptarget.CreateTarget, cdptarget.CreateTargetParams{URL: site + "/"})
	if err != nil {
		t.Fatal(err)
	}
	pctx, stop := chromedp.NewContext(a.ctx, chromedp.WithTargetID(person.TargetID))
	defer stop()
	opened, err := chromedp.Run(pctx, chromedp.Evaluate[bool](`!!window.open(location.origin + "/popup?via=person", "person", "popup")`))
	if err != nil || !opened {
		t.Fatalf("the person's page opened no window: %v", err)
	}
	targets, err := chromedp.CallBrowser(a.ctx, cdptarget.GetTargets, cdptarget.GetTargetsParams{})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(targets.TargetInfos, func(ti *cdptarget.Info) bool { return ti.OpenerID == person.TargetID })
	if i < 0 {
		t.Fatal("the person's window is not among the browser's targets")
	}
	if got := hear(targets.TargetInfos[i].TargetID); got != windowReleased {
		t.Errorf("the other suite %s the person's window: it must run it", got)
	}
}
