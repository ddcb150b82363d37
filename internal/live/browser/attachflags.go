package browser

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/scenarios/vocab"
)

// AttachFlags are the switches the harness relies on that a browser it
// starts gets from it, and a browser started by hand must be given (the
// README lists them in the command to start one): a page clock that stops
// after a navigation without BackForwardCache off, timers of a page the
// browser counts as in the background that run late without the three
// background switches, and a window a tool opens (window.open outside a
// click: a sign-in or payment popup), which the popup blocker answers with
// null (measured on Chromium 156; chromedp and chromedriver pass
// --disable-popup-blocking to the browsers they start).
var AttachFlags = []string{
	"--disable-background-timer-throttling",
	"--disable-backgrounding-occluded-windows",
	"--disable-renderer-backgrounding",
	"--disable-popup-blocking",
}

// checkAttachedFlags fails an attached browser fast, naming the switch it
// lacks, when its command line says it was started without one the harness
// relies on. A browser that will not tell its command line (a headful one
// started without --enable-automation, some hosted services) is not
// refused for it: the WebMCP check on the preflight page still holds.
func checkAttachedFlags(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, vocab.Bound)
	defer cancel()
	res, err := chromedp.CallBrowser(ctx, browser.GetBrowserCommandLine, cdp.Empty{})
	if err != nil {
		return nil
	}
	return attachedFlagsProblem(res.Arguments)
}

// attachedFlagsProblem says which switch the harness relies on is missing
// from args (a browser's command line), or nil.
func attachedFlagsProblem(args []string) error {
	var missing []string
	for _, f := range AttachFlags {
		if !slices.Contains(args, f) {
			missing = append(missing, f)
		}
	}
	if !featureListed(args, "--disable-features=", "BackForwardCache") {
		missing = append(missing, "--disable-features="+DisabledFeatures)
	}
	if len(missing) == 0 {
		return nil
	}
	//lint:ignore ST1005 a message for a person, in sentences, printed as the run's first and only failure
	return fmt.Errorf("%w: the browser at %s was started without %s.\n  The suite relies on it (a page clock that goes on after a navigation, timers that are not throttled, windows a tool opens);\n  start Chromium with the flags the README gives (section Browser), or leave %s unset and the suite starts one itself.",
		ErrPreflight, EnvBrowserURL, strings.Join(missing, " "), EnvBrowserURL)
}

// featureListed tells whether a --enable-features= or --disable-features=
// switch of args (prefix) lists name.
func featureListed(args []string, prefix, name string) bool {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, prefix); ok && slices.Contains(strings.Split(v, ","), name) {
			return true
		}
	}
	return false
}
