package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// Environment variables for browsers from a Selenium Grid 4.
const (
	EnvGridURL       = "AGENTREADY_GRID_URL"       // e.g. http://127.0.0.1:4444: each process asks it for a Chrome session
	EnvGridKeepAlive = "AGENTREADY_GRID_KEEPALIVE" // how often a CDP command keeps the session alive (default 30s)
)

// DefaultGridKeepAlive is well within Selenium's default session timeout
// (300 s): the grid counts CDP commands through se:cdp as activity, not an
// open, silent websocket.
const DefaultGridKeepAlive = 30 * time.Second

// GridArgs are the Chromium flags a grid session asks for in
// goog:chromeOptions: the WebMCP features, and the flags of a local launch
// (chromedp's defaults) that chromedriver does not add itself. Without the
// backgrounding ones, a second tab's page is throttled behind the first
// and two people submitting at once time out.
func GridArgs() []string {
	return []string{"--headless=new", "--no-sandbox", "--disable-gpu",
		"--enable-features=" + Features, "--disable-features=" + DisabledFeatures,
		"--disable-quic", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-background-timer-throttling", "--disable-backgrounding-occluded-windows", "--disable-renderer-backgrounding",
		"--disable-popup-blocking", "--disable-ipc-flooding-protection", "--disable-hang-monitor", "--disable-dev-shm-usage", "--disable-breakpad",
		"--force-color-profile=srgb", "--password-store=basic"}
}

// GridSession is one Chrome session of a Selenium Grid 4, driven through
// its se:cdp websocket.
type GridSession struct {
	Grid    string // the grid's URL
	ID      string // the WebDriver session id
	CDP     string // se:cdp: a browser-level CDP websocket through the grid
	Version string // browserVersion

	deleteOnce sync.Once
	deleteErr  error
}

// NewGridSession asks the grid for a Chrome session with GridArgs.
func NewGridSession(ctx context.Context, gridURL string) (*GridSession, error) {
	base, err := gridBase(gridURL)
	if err != nil {
		return nil, err
	}
	caps := map[string]any{"capabilities": map[string]any{"alwaysMatch": map[string]any{
		"browserName": "chrome", "goog:chromeOptions": map[string]any{"args": GridArgs()},
	}}}
	body, _ := json.Marshal(caps)
	var res struct {
		Value struct {
			SessionID    string `json:"sessionId"`
			Capabilities struct {
				CDP     string `json:"se:cdp"`
				Version string `json:"browserVersion"`
			} `json:"capabilities"`
			Error   string `json:"error"`
			Message string `json:"message"`
		} `json:"value"`
	}
	if err := gridCall(ctx, http.MethodPost, base+"/session", body, &res); err != nil {
		return nil, fmt.Errorf("%w: %s=%s: no Chrome session: %v", ErrPreflight, EnvGridURL, gridURL, err)
	}
	g := &GridSession{Grid: base, ID: res.Value.SessionID, CDP: res.Value.Capabilities.CDP, Version: res.Value.Capabilities.Version}
	if g.ID == "" {
		return nil, fmt.Errorf("%w: %s=%s answered no session id", ErrPreflight, EnvGridURL, gridURL)
	}
	if g.CDP == "" {
		err := fmt.Errorf("%w: %s=%s gave session %s no se:cdp endpoint: the suite needs a Selenium Grid 4 that proxies CDP", ErrPreflight, EnvGridURL, gridURL, g.ID)
		return nil, errors.Join(err, g.Delete(ctx))
	}
	return g, nil
}

// Delete ends the session on the grid (once; later calls answer the first's error).
func (g *GridSession) Delete(ctx context.Context) error {
	g.deleteOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
		defer cancel()
		if err := gridCall(ctx, http.MethodDelete, g.Grid+"/session/"+url.PathEscape(g.ID), nil, nil); err != nil {
			g.deleteErr = fmt.Errorf("delete grid session %s: %w", g.ID, err)
		}
	})
	return g.deleteErr
}

// gridBase checks the grid's URL and answers it without a trailing slash
// (and without /wd/hub, which Grid 4 does not need).
func gridBase(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%w: %s=%q is not a grid's URL such as http://127.0.0.1:4444", ErrPreflight, EnvGridURL, raw)
	}
	return strings.TrimSuffix(strings.TrimRight(u.String(), "/"), "/wd/hub"), nil
}

// gridCall sends one WebDriver request; a grid's error answer is an error
// that quotes it.
func gridCall(ctx context.Context, method, u string, body []byte, into any) error {
	req, err := http.NewRequestWithContext(ctx, method, u, bytes.NewReader(body))
	if err != nil {
		return err
	}
	if body != nil {
		// Grid 4.20 refuses a JSON body whose type does not say utf-8.
		req.Header.Set("Content-Type", "application/json; charset=utf-8")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return err
	}
	if res.StatusCode/100 != 2 {
		var e struct {
			Value struct{ Error, Message string } `json:"value"`
		}
		if json.Unmarshal(data, &e) == nil && e.Value.Error != "" {
			msg, _, _ := strings.Cut(e.Value.Message, "\n")
			return fmt.Errorf("%s %s: %s: %s", method, u, e.Value.Error, msg)
		}
		return fmt.Errorf("%s %s: %s", method, u, res.Status)
	}
	if into == nil {
		return nil
	}
	if err := json.Unmarshal(data, into); err != nil {
		return fmt.Errorf("%s %s: not a WebDriver answer: %v", method, u, err)
	}
	return nil
}

// LaunchFromEnv starts the browser the AGENTREADY_* variables name, the one
// way every command, the Ginkgo suite and the bench start theirs: a Chrome
// session of the grid at AGENTREADY_GRID_URL, a browser at
// AGENTREADY_BROWSER_URL, or a local Chromium; then the preflight, as
// always. release ends it all: the keep-alive, the browser, and the grid
// session (deleted, also when the run was interrupted; a process killed
// outright leaves it to the grid's session timeout).
//
// A grid counts a session before it answers the request for it, so a
// request cut short by an interrupt would leave a session whose id nobody
// knows: the request is always answered, and when ctx ended meanwhile the
// session is deleted at once and ctx's error answered.
func LaunchFromEnv(ctx context.Context) (b *Browser, release func() error, err error) {
	grid := os.Getenv(EnvGridURL)
	if grid == "" {
		b, err := Launch(OptionsFromEnv())
		if err != nil {
			return nil, nil, err
		}
		return b, func() error { b.Close(); return nil }, nil
	}
	if os.Getenv(EnvBrowserURL) != "" {
		return nil, nil, fmt.Errorf("%w: both %s and %s are set: a browser comes from one of them", ErrPreflight, EnvGridURL, EnvBrowserURL)
	}
	every, err := gridKeepAlive()
	if err != nil {
		return nil, nil, err
	}
	b, release, err = LaunchOnGrid(context.WithoutCancel(ctx), grid, every)
	if err == nil && ctx.Err() != nil {
		return nil, nil, errors.Join(fmt.Errorf("%s=%s: interrupted while the grid started a session: %w", EnvGridURL, grid, context.Cause(ctx)), release())
	}
	return b, release, err
}

func gridKeepAlive() (time.Duration, error) {
	v := os.Getenv(EnvGridKeepAlive)
	if v == "" {
		return DefaultGridKeepAlive, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%w: %s=%q is not a positive duration such as 30s", ErrPreflight, EnvGridKeepAlive, v)
	}
	return d, nil
}

// LaunchOnGrid asks the grid for a Chrome session, attaches to it through
// se:cdp, runs the preflight there, and keeps the session alive with a CDP
// command every keepAlive.
func LaunchOnGrid(ctx context.Context, gridURL string, keepAlive time.Duration) (*Browser, func() error, error) {
	g, err := NewGridSession(ctx, gridURL)
	if err != nil {
		return nil, nil, err
	}
	// se:cdp has no /devtools/browser/ in its path: chromedp's remote
	// allocator must take it as it is (remote.NoModifyURL), or it asks the
	// grid for /json/version and panics on the answer. Launch attaches with
	// NoModifyURL when it has headers to send; this one names the session
	// for the grid's logs and any proxy on the way.
	b, err := Launch(Options{URL: g.CDP, Header: http.Header{"X-Agentready-Grid-Session": {g.ID}}})
	if err != nil {
		return nil, nil, errors.Join(fmt.Errorf("%w (grid session %s on %s)", err, g.ID, g.Grid), g.Delete(ctx))
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		pingEvery(stop, keepAlive, func() error {
			pctx, cancel := context.WithTimeout(b.Context(), 10*time.Second)
			defer cancel()
			_, err := chromedp.CallBrowser(pctx, browser.GetVersion, cdp.Empty{})
			return err
		})
	}()
	var once sync.Once
	release := func() error {
		once.Do(func() { close(stop); <-done; b.Close() })
		return g.Delete(ctx)
	}
	return b, release, nil
}

// pingEvery calls ping every interval until stop is closed.
func pingEvery(stop <-chan struct{}, every time.Duration, ping func() error) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			_ = ping() // a browser gone fails the spec that uses it, with its own message
		}
	}
}
