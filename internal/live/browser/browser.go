// Package browser starts (or attaches to) one Chromium with WebMCP on, checks
// that it can do what the suite needs before any spec runs, and opens
// isolated tabs whose events feed the WebMCP trace and the network log from
// one ordered stream.
package browser

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// Features are the Chromium features WebMCP needs, in the one
// --enable-features flag (a later flag would replace, not add). Later
// Chromium builds renamed WebMCPTesting to WebMCP: both are passed.
const Features = "WebMCP,WebMCPTesting,DevToolsWebMCPSupport"

// DisabledFeatures keeps chromedp's defaults and turns off the
// BackForwardCache, which wedges virtual time (the page clock) after a
// navigation the page starts itself, and the two omnibox popups Chromium
// 156 preloads as WebUI in every window (a renderer each, ~0.5 s of CPU
// per tab on this machine: more than the page under test). These are the
// browser's own UI, which no page sees (docs/decisions/
// 2026-12-05-browser-ui-off.md).
const DisabledFeatures = "Translate,BlinkGenPropertyTrees,BackForwardCache,WebUIOmniboxPopup,WebUIOmniboxAimPopup"

// MinMajorVersion is the oldest Chromium the suite was measured on.
const MinMajorVersion = 156

// Environment variables the suite reads.
const (
	EnvChromium      = "AGENTREADY_CHROMIUM"       // path of the Chromium binary
	EnvBrowserURL    = "AGENTREADY_BROWSER_URL"    // CDP websocket (or http://host:port) of a browser to attach to
	EnvBrowserHeader = "AGENTREADY_BROWSER_HEADER" // "Name: value" sent when attaching, for hosted browser services
)

// Options say which browser to use.
type Options struct {
	ExecPath string      // Chromium to start; found on PATH when empty
	URL      string      // attach to this browser instead of starting one
	Header   http.Header // headers for the websocket when attaching
	Flags    map[string]any
}

// OptionsFromEnv reads the AGENTREADY_* variables.
func OptionsFromEnv() Options {
	o := Options{ExecPath: os.Getenv(EnvChromium), URL: os.Getenv(EnvBrowserURL)}
	if h := os.Getenv(EnvBrowserHeader); h != "" {
		if name, value, ok := strings.Cut(h, ":"); ok {
			o.Header = http.Header{strings.TrimSpace(name): {strings.TrimSpace(value)}}
		}
	}
	return o
}

// Browser is one running (or attached) Chromium.
type Browser struct {
	ctx        context.Context // a chromedp context bound to the browser
	cancel     context.CancelFunc
	mux        *mux // the connection, wrapped: the sessions of iframes and workers (sessions.go)
	Version    Version
	dataDir    string
	spare      chan spareTab  // the tab opened ahead
	closed     chan struct{}  // closed by Close: NewTab answers ErrClosed
	background sync.WaitGroup // tabs opening and closing
	// unwarmed opens the next tab for the last tab taken, until that tab
	// has loaded its first page (Tab.warmNext); nil once it has.
	unwarmed  atomic.Pointer[func()]
	waiting   atomic.Int32 // callers of NewTab waiting for a tab
	closeOnce sync.Once
}

// Version is what the browser says it is.
type Version struct {
	Product  string `json:"product"`  // e.g. Chrome/156.0.8078.108
	Protocol string `json:"protocol"` // CDP protocol version
	Major    int    `json:"major"`
	// Features are the --enable-features and --disable-features values the
	// browser runs with (its own command line: what a browser attached by URL
	// was started with, too), and WebMCP what the preflight saw of it.
	Features []string `json:"features,omitempty"`
	WebMCP   string   `json:"webmcp,omitempty"`
}

// ErrPreflight marks a browser that cannot run the suite; the message says
// what to install or which flag to set.
var ErrPreflight = errors.New("browser preflight failed")

// Launch starts Chromium (or attaches to opts.URL), then runs the preflight.
// It never downloads a browser.
//
// The suite talks to the browser over a websocket it wraps (see mux in
// sessions.go), so that the tabs see their iframes' and workers' sessions;
// a browser it starts listens on a loopback port chosen by the system.
func Launch(opts Options) (*Browser, error) {
	var allocCtx context.Context
	var allocCancel context.CancelFunc
	b := &Browser{closed: make(chan struct{}), mux: newMux()}
	if opts.URL != "" {
		if err := checkBrowserURL(opts.URL); err != nil {
			return nil, err
		}
		// Without headers, an address with no /devtools/browser/ path is
		// looked up at /json/version; with headers it is used as given.
		allocCtx, allocCancel = chromedp.NewAllocatorContext(context.Background(), &attachAllocator{url: opts.URL, header: opts.Header, mux: b.mux})
	} else {
		path, err := FindChromium(opts.ExecPath)
		if err != nil {
			return nil, err
		}
		sweepProfiles(os.TempDir())
		dir, err := os.MkdirTemp("", profilePattern)
		if err != nil {
			return nil, err
		}
		b.dataDir = dir
		if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
			_ = os.RemoveAll(dir)
			return nil, err
		}
		allocCtx, allocCancel = chromedp.NewExecAllocator(context.Background(),
			append(execOptions(path, dir, opts.Flags), remote.WebSocket, chromedp.WithDialer(b.mux.dial))...)
	}
	ctx, cancel := chromedp.NewContext(allocCtx)
	b.ctx = ctx
	b.cancel = func() { cancel(); allocCancel() }
	// The first Do binds the browser's life to its context, so it gets the
	// long-lived one; the bound comes from within.
	if err := within(30*time.Second, cancel, func() error { return chromedp.Do(ctx) }); err != nil {
		b.Close()
		return nil, fmt.Errorf("%w: could not start or reach Chromium: %v", ErrPreflight, err)
	}
	vctx, vcancel := context.WithTimeout(ctx, 10*time.Second)
	v, err := chromedp.CallBrowser(vctx, browser.GetVersion, cdp.Empty{})
	vcancel()
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("%w: Browser.getVersion: %v", ErrPreflight, err)
	}
	b.Version = Version{Product: v.Product, Protocol: v.ProtocolVersion, Major: majorOf(v.Product)}
	b.Version.Features = featureFlags(ctx)
	// Shared workers are attached to no page: only the browser's own
	// auto-attach reaches them. The mux hands each to the tab of its
	// browser context, paused until that tab has its network on. So are
	// service workers: attached through the page alone, a worker was detached
	// as the page left it, and a write it sent after the page was gone
	// was missing from the log in 5 runs of 8 although the app received it
	// (swleave_test.go); attached by the browser as well, it is the tab's
	// until the worker stops. So are
	// the windows a page opens (popups.go): a target=_blank link's opens
	// without waiting for anyone, and only this catches its first request.
	// A page the suite opens itself is let go at once (mux.release).
	actx, acancel := context.WithTimeout(ctx, 10*time.Second)
	_, err = chromedp.CallBrowser(actx, target.SetAutoAttach, target.SetAutoAttachParams{AutoAttach: true, WaitForDebuggerOnStart: true,
		Flatten: new(true), Filter: target.Filter{{Type: "shared_worker"}, {Type: "service_worker"}, {Type: "page"}, {Exclude: true}}})
	acancel()
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("%w: Target.setAutoAttach for shared workers: %v", ErrPreflight, err)
	}
	if err := b.preflight(); err != nil {
		b.Close()
		return nil, err
	}
	b.spare = make(chan spareTab, 1)
	b.warm()
	return b, nil
}

func execOptions(path, dataDir string, extra map[string]any) []chromedp.ExecAllocatorOption {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.UserDataDir(dataDir),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("enable-features", Features),
		chromedp.Flag("disable-features", DisabledFeatures),
	)
	for k, v := range extra {
		opts = append(opts, chromedp.Flag(k, v))
	}
	return opts
}

// FindChromium answers the Chromium binary to start: path when given, else
// the first of chromium, chromium-browser, google-chrome on PATH.
func FindChromium(path string) (string, error) {
	if path != "" {
		if _, err := os.Stat(path); err != nil {
			return "", fmt.Errorf("%w: %s=%s: %v", ErrPreflight, EnvChromium, path, err)
		}
		if isHeadlessShell(path) {
			return "", headlessShellRefused(EnvChromium + "=" + path)
		}
		return path, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	//lint:ignore ST1005 a message for a person, in sentences, printed as the run's first and only failure
	return "", fmt.Errorf("%w: Chromium not found on PATH.\n  Install Debian's package:  sudo apt-get install -y chromium   (version %d or newer)\n  or point %s at a Chromium binary, or %s at a running browser.\n  The suite never downloads a browser.",
		ErrPreflight, MinMajorVersion, EnvChromium, EnvBrowserURL)
}

func majorOf(product string) int {
	_, ver, _ := strings.Cut(product, "/")
	var major int
	fmt.Sscanf(ver, "%d", &major)
	return major
}

// Close ends the browser (or detaches from it) and removes its profile,
// after the tabs still closing have closed (10 s at most).
func (b *Browser) Close() { b.closeOnce.Do(b.close) }

func (b *Browser) close() {
	close(b.closed)
	if b.spare != nil {
		b.warmUnwarmed() // else a tab taken and never loaded leaves none to wait for
		if ready := <-b.spare; ready.tab != nil {
			ready.tab.Close()
		}
		done := make(chan struct{})
		go func() { b.background.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
		}
	}
	if b.cancel != nil {
		b.cancel()
	}
	if b.dataDir != "" {
		_ = removeProfile(b.dataDir, 5*time.Second)
	}
}

// profilePattern names the profile folders of the browsers the suite
// starts; ownerFile in each holds the pid of the process that made it.
const (
	profilePattern = "agentready-chromium-"
	ownerFile      = "agentready-owner"
)

// sweepProfiles removes the profile folders in tmp whose owner process has
// ended without removing its own (killed with SIGKILL, or a test binary
// that timed out), so that they do not pile up. A folder without an owner
// file, or whose owner is alive, is left alone.
func sweepProfiles(tmp string) {
	dirs, _ := filepath.Glob(filepath.Join(tmp, profilePattern+"*"))
	for _, dir := range dirs {
		data, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
		if err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if !alive(pid) {
			_ = os.RemoveAll(dir)
		}
	}
}

// alive reports whether process pid may still run (signal 0 on Unix).
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return !errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone)
}

// removeProfile removes a profile folder, trying again for at most bound
// while it is not gone: a helper process of a browser just ended (or
// killed) may still write into it while RemoveAll walks it.
func removeProfile(dir string, bound time.Duration) error {
	deadline := time.Now().Add(bound)
	for {
		err := os.RemoveAll(dir)
		if _, statErr := os.Stat(dir); err == nil && errors.Is(statErr, os.ErrNotExist) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the profile folder %s is left: %v", dir, err)
		}
		<-time.After(50 * time.Millisecond)
	}
}

// within runs f, and when it has not returned after d, cancels (which makes
// f return) and answers a timeout error. It bounds a first chromedp.Do, whose
// context must outlive the call.
func within(d time.Duration, cancel context.CancelFunc, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case err := <-done:
		return err
	case <-timer.C:
		cancel()
		<-done
		return fmt.Errorf("no answer within %s", d)
	}
}

// Context is the browser's chromedp context, for code that drives the same
// browser with bare chromedp calls (the benchmark's floor).
func (b *Browser) Context() context.Context { return b.ctx }
