package browser

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// browserUIPages answers the browser's own UI pages (type browser_ui:
// WebUI a window preloads, such as the omnibox's popups), in any context,
// and how many of them are in the tab's.
func browserUIPages(t *testing.T, b *Browser, tab *Tab) (urls []string, inTabs int) {
	t.Helper()
	res, err := chromedp.CallBrowser(b.ctx, target.GetTargets, target.GetTargetsParams{Filter: target.Filter{{}}})
	if err != nil {
		t.Fatal(err)
	}
	context := chromedp.FromContext(tab.Ctx).BrowserContextID
	for _, info := range res.TargetInfos {
		if info.Type == "browser_ui" {
			urls = append(urls, info.URL)
			if info.BrowserContextID == context {
				inTabs++
			}
		}
	}
	return urls, inTabs
}

// A tab's window in Chromium 156 preloads two omnibox popups
// (chrome://omnibox-popup.top-chrome/, and its AI-mode page), each a WebUI
// renderer of its own: measured ~0.5 s of CPU per window, more than the page
// under test costs, on every scenario (docs/decisions/
// 2026-12-05-browser-ui-off.md). DisabledFeatures turns them off. The
// known-bad case is the same browser with chromedp's features only: the
// popups are there, in the tab's own context, as soon as its first page has
// loaded (8 of 8 in three probes); it is still given a bounded wait, so that
// a slow machine cannot make it pass for the wrong reason. With the suite's
// flags no browser_ui page is anywhere in the browser once the tab's first
// page has loaded.
func TestATabsWindowPreloadsNoBrowserUI(t *testing.T) {
	requireChromium(t)
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`<!doctype html><title>one page</title><p>hello`))
	}))
	defer page.Close()
	for _, tc := range []struct {
		name  string
		flags map[string]any
		want  bool
	}{
		{"the suite's flags", nil, false},
		{"without turning the omnibox WebUI off", map[string]any{"disable-features": "Translate,BlinkGenPropertyTrees,BackForwardCache"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Launch(Options{Flags: tc.flags})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(b.Close)
			tab := openTab(t, b, page.URL)
			got, inTabs := browserUIPages(t, b, tab)
			if !tc.want {
				if len(got) > 0 {
					t.Errorf("browser UI pages with the suite's flags: %q", got)
				}
				return
			}
			for deadline := time.Now().Add(5 * time.Second); inTabs < 2 && time.Now().Before(deadline); {
				got, inTabs = browserUIPages(t, b, tab)
			}
			if inTabs < 2 {
				t.Errorf("the known-bad browser's tab context has %d browser UI pages (all: %q), want its two omnibox popups", inTabs, got)
			}
		})
	}
}
