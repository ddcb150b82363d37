package browser

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// browserUIPages answers the URLs of the browser's own UI pages (type
// browser_ui: WebUI the window preloads, such as the omnibox's popups) in
// the tab's browser context.
func browserUIPages(t *testing.T, b *Browser, tab *Tab) []string {
	t.Helper()
	res, err := chromedp.CallBrowser(b.ctx, target.GetTargets, target.GetTargetsParams{Filter: target.Filter{{}}})
	if err != nil {
		t.Fatal(err)
	}
	context := chromedp.FromContext(tab.Ctx).BrowserContextID
	var urls []string
	for _, info := range res.TargetInfos {
		if info.Type == "browser_ui" && info.BrowserContextID == context {
			urls = append(urls, info.URL)
		}
	}
	return urls
}

// A tab's window in Chromium 156 preloads two omnibox popups
// (chrome://omnibox-popup.top-chrome/, and its AI-mode page), each a WebUI
// renderer of its own: measured ~0.5 s of CPU per window, more than the page
// under test costs, on every scenario (docs/decisions/
// 2026-12-05-browser-ui-off.md). DisabledFeatures turns them off. The
// known-bad case is the same browser with chromedp's features only: the
// popups are there as soon as the tab's first page has loaded.
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
			defer b.Close()
			tab, err := b.NewTab(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			defer tab.Close()
			if err := tab.Navigate(t.Context(), page.URL); err != nil {
				t.Fatal(err)
			}
			got := browserUIPages(t, b, tab)
			if (len(got) > 0) != tc.want {
				t.Errorf("browser UI pages in the tab's context: %q (want some: %v)", got, tc.want)
			}
		})
	}
}
