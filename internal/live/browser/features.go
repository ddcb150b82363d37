package browser

import (
	"context"
	"strings"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/scenarios/vocab"
)

// featureFlags answers the browser's --enable-features and
// --disable-features switches from its own command line (Chromium does not
// say which feature names it knows: an unknown one is silently ignored, so
// the evidence records what was asked and what the preflight saw). A browser
// that will not tell answers nothing.
func featureFlags(ctx context.Context) []string {
	ctx, cancel := context.WithTimeout(ctx, vocab.Bound)
	defer cancel()
	res, err := chromedp.CallBrowser(ctx, browser.GetBrowserCommandLine, cdp.Empty{})
	if err != nil {
		return nil
	}
	var out []string
	for _, arg := range res.Arguments {
		if strings.HasPrefix(arg, "--enable-features=") || strings.HasPrefix(arg, "--disable-features=") {
			out = append(out, arg)
		}
	}
	return out
}
