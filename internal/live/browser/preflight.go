package browser

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

// preflight checks the version and that WebMCP is on, on a real loopback page,
// so that a wrong browser fails the run at once instead of every spec timing out.
func (b *Browser) preflight() error {
	if b.Version.Major != 0 && b.Version.Major < MinMajorVersion {
		return fmt.Errorf("%w: %s is too old: WebMCP needs Chromium %d or newer (apt-get install -y chromium)",
			ErrPreflight, b.Version.Product, MinMajorVersion)
	}
	if err := checkNotHeadlessShell(b.Version.Product); err != nil {
		return err
	}
	if b.dataDir == "" { // attached (a grid's has GridArgs): it has only the flags it was started with
		if err := checkAttachedFlags(b.ctx); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("%w: no loopback port for the preflight page: %v", ErrPreflight, err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if clockProbePages(w, r) {
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!doctype html><title>agentready preflight</title>")
	}), ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()

	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	defer cancel()
	if err := within(15*time.Second, cancel, func() error {
		return chromedp.Do(ctx, chromedp.Navigate("http://"+ln.Addr().String()+"/"))
	}); err != nil {
		return fmt.Errorf("%w: could not open a loopback page: %v", ErrPreflight, err)
	}
	evalCtx, stop := context.WithTimeout(ctx, 5*time.Second)
	defer stop()
	api, err := chromedp.Run(evalCtx, chromedp.Evaluate[string](
		`typeof document.modelContext?.registerTool === "function" && typeof document.modelContext?.executeTool === "function" ? "ok" : String(typeof document.modelContext)`))
	if err != nil {
		return fmt.Errorf("%w: could not evaluate on the preflight page: %v", ErrPreflight, err)
	}
	b.Version.WebMCP = "document.modelContext is " + api
	if api == "ok" {
		b.Version.WebMCP = "document.modelContext is on"
	}
	if api != "ok" {
		//lint:ignore ST1005 a message for a person, in sentences, printed as the run's first and only failure
		return fmt.Errorf("%w: WebMCP is off in %s: document.modelContext is %s.\n  Start Chromium %d+ with --enable-features=%s\n  (the suite sets it when it starts Chromium; set it yourself on a browser you attach with %s).",
			ErrPreflight, b.Version.Product, api, MinMajorVersion, Features, EnvBrowserURL)
	}
	if b.dataDir == "" { // a browser the suite started has the flags by construction
		return b.probeClock("http://" + ln.Addr().String())
	}
	return nil
}

// checkNotHeadlessShell refuses chromium-headless-shell, the old headless
// embedder (it calls itself HeadlessChrome; the full browser in
// --headless=new says Chrome). It keeps a cross-site frame in its page's
// process (as far as we can tell), and a right app's tool that lives in a
// cross-site frame was judged FAIL on it: PAY-01 (docs/decisions/
// 2026-12-05-browser-ui-off.md).
func checkNotHeadlessShell(product string) error {
	if !strings.HasPrefix(product, "HeadlessChrome/") {
		return nil
	}
	return headlessShellRefused(product)
}

// isHeadlessShell tells a headless shell's binary by its name, so that it
// is refused before it starts: Debian's starts through a script that does
// not exec it, and would outlive the suite.
func isHeadlessShell(path string) bool {
	name := filepath.Base(path)
	return strings.Contains(name, "headless-shell") || strings.Contains(name, "headless_shell")
}

func headlessShellRefused(what string) error {
	return fmt.Errorf("%w: %s is chromium-headless-shell, the old headless: on it a right app's tool in a cross-site frame was judged FAIL (PAY-01).\n  Use the full Chromium (apt-get install -y chromium; the suite runs it headless), or set %s to its path",
		ErrPreflight, what, EnvChromium)
}
