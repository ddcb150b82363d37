package browser

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/kit/hang"
	"github.com/agentready/agentready/internal/live/webmcp"
	"github.com/agentready/agentready/scenarios/vocab"
)

// A shop whose page, a same-origin frame and a cross-site frame allowed to
// offer tools each register a tool named pay (and one of their own), and a
// cross-site frame not allowed to, whose tools must be absent.
const dupPage = `<!doctype html><title>dup</title>
<iframe id=same src="/frame?who=same"></iframe>
<iframe id=cross allow="tools" src="{B}/frame?who=cross"></iframe>
<iframe id=plain src="{B}/frame?who=plain"></iframe>
<script>
if (!location.search.includes("nopay")) document.modelContext.registerTool({name: "pay", description: "pay at the top", execute: (input) => ({from: "top", input})});
</script>`

const dupFrame = `<!doctype html><p id=reg>pending</p><script>
const who = new URLSearchParams(location.search).get("who");
const tool = (name) => document.modelContext.registerTool({name, description: name + " in " + who, execute: (input) => ({from: who, input})});
Promise.all([tool("pay"), tool(who + "_only")]).then(() => "registered", (e) => "rejected: " + e.message).then((s) => { document.getElementById("reg").textContent = s; });
</script>`

func dupSites(t *testing.T) (a, b string) {
	t.Helper()
	var bURL string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/dup":
			fmt.Fprint(w, strings.ReplaceAll(dupPage, "{B}", bURL))
		case "/frame":
			fmt.Fprint(w, dupFrame)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	bURL = "http://localhost:" + port // another site: a process of its own
	return srv.URL, bURL
}

// waitCatalog waits (bounded) until the tab's catalog names want, and
// answers it.
func waitCatalog(t *testing.T, tab *Tab, want string) record.Catalog {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
	defer cancel()
	err := tab.Trace.WaitUntil(ctx, "the catalog "+want, func(events []record.Event) bool {
		return strings.Join(record.CatalogAt(events, len(events)).Names(), ",") == want
	})
	if err != nil {
		for _, e := range tab.Trace.Events() {
			t.Logf("%+v", e)
		}
		t.Fatalf("%v: the catalog is %v", err, tab.Trace.Catalog().Names())
	}
	return tab.Trace.Catalog()
}

func TestEveryFramesToolsAreInTheCatalogWithTheirFrame(t *testing.T) {
	b := launched(t)
	a, cross := dupSites(t)
	tab := openTab(t, b, a+"/dup")
	// The frame not allowed to offer tools has none: Chromium refused them.
	catalog := waitCatalog(t, tab, "cross_only,pay,pay,pay,same_only")
	var got []string
	for _, tool := range catalog {
		got = append(got, fmt.Sprintf("%s %q %v", tool.Name, tool.Frame, tool.CrossOrigin))
	}
	slices.Sort(got)
	want := []string{
		fmt.Sprintf("cross_only %q true", cross+"/frame?who=cross"),
		`pay "" false`, // the top document's
		fmt.Sprintf("pay %q false", a+"/frame?who=same"),
		fmt.Sprintf("pay %q true", cross+"/frame?who=cross"),
		fmt.Sprintf("same_only %q false", a+"/frame?who=same"),
	}
	if !slices.Equal(got, want) {
		t.Errorf("catalog:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The top document's getTools() lists its origin's tools only, so the
	// cross-site frame's are left out of the comparison. (It now and then
	// misses the same-origin frame's tool as well: a Chromium 156 flake,
	// docs/decisions/2026-11-30-child-targets.md.)
	both, page, err := tab.Tools.CatalogAndPage(t.Context())
	if err != nil && strings.Contains(err.Error(), "cross") {
		t.Errorf("the cross-site frame's tools count in the comparison with getTools(): %v", err)
	}
	for _, p := range page {
		if strings.Contains(p.Description, "cross") {
			t.Errorf("the top document's getTools() lists %+v", p)
		}
	}
	if len(both) != 5 || len(page) == 0 {
		t.Errorf("catalog %v, getTools() %+v", both.Names(), page)
	}

	// A frame that goes away takes its tools with it.
	ctx, cancel := tab.Bind(t.Context())
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("cross").remove() ?? true`)); err != nil {
		t.Fatal(err)
	}
	waitCatalog(t, tab, "pay,pay,same_only")
}

// openDup opens the dup page in a tab whose same-origin frame answers
// getTools(). Now and then (3 loads in 40 under three busy cores) Chromium
// 156's getTools() in that frame never settles, for as long as the page
// lives, and the top document's misses the frame's tools: a page-API call
// there cannot begin (the judge's harness fault, "the call never began").
// That is the browser's, not this test's subject: such a load is shown to
// answer "never began", and the test goes on in a fresh tab (at most four).
func openDup(t *testing.T, b *Browser, url string) *Tab {
	t.Helper()
	for load := 1; ; load++ {
		tab := openTab(t, b, url)
		waitCatalog(t, tab, "cross_only,pay,pay,pay,same_only")
		ctx, cancel := tab.Bind(t.Context())
		// Not hang.Bound: a getTools() that never settles is Chromium's,
		// met in one load of a few and mended by a fresh tab
		// (docs/decisions/2026-12-06-a-frame-whose-gettools-hung.md); 15 s
		// is still far above its answer on a busy machine, and four such
		// loads stay under the hang bound.
		probe, stop := context.WithTimeout(ctx, 15*time.Second)
		_, err := chromedp.Run(probe, chromedp.Evaluate[int](`document.getElementById("same").contentWindow.document.modelContext.getTools().then((ts) => ts.length)`, chromedp.EvalAwaitPromise))
		stop()
		cancel()
		if err == nil {
			return tab
		}
		if load == 4 {
			t.Fatalf("getTools() in the same-origin frame never settled in %d loads: %v", load, err)
		}
		res, err := tab.Tools.InvokeIn(t.Context(), "same_only", "", nil, vocab.PageAPI)
		if err != nil || res.Status != vocab.NoResponse || res.InvocationID != "" || !strings.Contains(res.ErrorText, "no invocation began") {
			t.Errorf("a page-API call where getTools() never settles: %+v %v, want no_response with no invocation", res, err)
		}
		t.Logf("load %d: Chromium's getTools() in the same-origin frame never settled; a fresh tab", load)
		tab.Close()
	}
}

func TestACallGoesToTheFrameThatOffersTheTool(t *testing.T) {
	b := launched(t)
	a, _ := dupSites(t)
	tab := openDup(t, b, a+"/dup")
	for _, via := range []vocab.Transport{vocab.PageAPI, vocab.CDP} {
		for _, c := range []struct{ tool, frame, from string }{
			{"pay", "", "top"}, // the page's own tool before an embedded one's
			{"pay", "#same", "same"},
			{"pay", "#cross", "cross"},
			{"pay", "/frame?who=cross", "cross"},
			{"cross_only", "", "cross"},
			{"same_only", "", "same"},
		} {
			res, err := tab.Tools.InvokeIn(t.Context(), c.tool, c.frame, map[string]any{"n": 1}, via)
			want := `{"from":"` + c.from + `","input":{"n":1}}`
			if err != nil || res.Status != vocab.Completed || string(res.Output) != want {
				t.Errorf("%s %s in %q: %s %s %s %v, want %s", via, c.tool, c.frame, res.Status, res.Output, res.ErrorText, err, want)
			}
			// The call is tied to its invocation in the trace (a frame's
			// events come a moment after the frame's own answer).
			if res.InvocationID == "" {
				t.Errorf("%s %s in %q: no invocation id", via, c.tool, c.frame)
			}
		}
		// A frame that offers no tool of that name answers the browser's
		// own "not found"; a frame that is not there is the caller's mistake.
		res, err := tab.Tools.InvokeIn(t.Context(), "cross_only", "#same", nil, via)
		if err != nil || res.Status != vocab.Failed {
			t.Errorf("%s cross_only in #same: %+v %v", via, res, err)
		}
		if _, err := tab.Tools.InvokeIn(t.Context(), "pay", "#nowhere", nil, via); err == nil || !strings.Contains(err.Error(), "#nowhere") {
			t.Errorf("%s pay in #nowhere: %v", via, err)
		}
	}
	// Known-bad: a client that cannot reach frames calls the top
	// document, which cannot see a cross-site frame's tool.
	frames := tab.Tools.Frames
	tab.Tools.Frames = nil
	res := tab.Tools.Invoke(t.Context(), "cross_only", nil, vocab.PageAPI)
	tab.Tools.Frames = frames
	if res.Status != vocab.Failed || !strings.Contains(res.ErrorText, "not found") {
		t.Errorf("cross_only from the top document alone: %+v", res)
	}
}

func TestANameOnlyFramesOfferIsAmbiguous(t *testing.T) {
	b := launched(t)
	a, _ := dupSites(t)
	tab := openTab(t, b, a+"/dup?nopay")
	waitCatalog(t, tab, "cross_only,pay,pay,same_only")
	before := tab.Trace.Len()
	_, err := tab.Tools.InvokeIn(t.Context(), "pay", "", nil, vocab.CDP)
	var amb *webmcp.ErrAmbiguous
	if !errors.As(err, &amb) || len(amb.Frames) != 2 {
		t.Fatalf("pay by name alone: %v", err)
	}
	for _, e := range tab.Trace.Events()[before:] {
		if e.Kind == record.ToolInvoked {
			t.Errorf("an ambiguous call was made: %+v", e)
		}
	}
	if res := tab.Tools.Invoke(t.Context(), "pay", nil, vocab.PageAPI); res.Status != vocab.Failed || !strings.Contains(res.ErrorText, "2 frames offer") {
		t.Errorf("Invoke of an ambiguous name: %+v", res)
	}
}
