package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/chromedp/cdproto/audits"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	cdptarget "github.com/chromedp/cdproto/target"
	cdpwebmcp "github.com/chromedp/cdproto/webmcp"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/live/webmcp"
	"github.com/agentready/agentready/netlog"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Tab is one isolated browser context (its own cookies and storage) with one
// page, whose WebMCP and network events are recorded in the order the
// browser sent them.
type Tab struct {
	Ctx     context.Context // the chromedp context of the page
	Trace   *webmcp.Recorder
	Net     *netlog.Recorder
	Tools   *webmcp.Client
	Console *ConsoleLog
	// Issues are the WebMCP issues Chromium reports through its Audits
	// domain (issues.go): a form control the browser left out of a tool.
	Issues  *IssueLog
	Dialogs *Dialogs // the JavaScript dialogs, answered as they open (dialogs.go)
	Popups  *Popups  // the windows the page opened, attached as they open (popups.go)
	// budgetExpired hears Emulation.virtualTimeBudgetExpired (see Clock);
	// it holds several, so that two that come together are both counted.
	budgetExpired chan struct{}
	loading       *loading
	cancel        context.CancelFunc
	close         sync.Once
	browser       *Browser
	// kids are the targets attached to the page (children.go);
	// followChildren turns each one's network on before it runs.
	kids           children
	owners         frameOwners // which child session reports which frame's tools (frametools.go)
	followChildren bool
	browserContext cdp.BrowserContextID
	crash          *crash                                                                // Inspector.targetCrashed (crash.go)
	onChildEvent   atomic.Pointer[func(c *child, method string, params json.RawMessage)] // for tests
	// warmNext starts opening the next tab: once this one's first page has
	// loaded (or it closes), not while it loads on the same cores.
	warmNext func()
}

// hookScript reports the page-side WebMCP events into the ordered CDP stream
// through a binding; it runs before any script of the page.
var hookScript = fmt.Sprintf(`(() => {
  const mc = document.modelContext;
  if (!mc || typeof mc.addEventListener !== "function") return;
  const report = (kind) => (e) => {
    try { globalThis[%[1]q](JSON.stringify({ kind, toolName: e.toolName ?? null })); } catch (_) {}
  };
  mc.addEventListener("toolactivated", report(%[2]q));
  mc.addEventListener("toolcancel", report(%[3]q));
})();`, webmcp.BindingName, record.ToolActivated, record.ToolCanceled)

// NewTab answers an isolated tab, never used before. Close it when done.
//
// A new browser context costs a renderer process's start (Runtime.enable
// answers only then): ~110 ms of wall time on an idle 2-core machine since
// the window's omnibox popups are off (~200 ms before; docs/decisions/
// 2026-12-05-browser-ui-off.md), and more under load. So the browser keeps
// one tab opened ahead: NewTab takes it, and
// the next starts opening once the caller's tab has loaded its first page
// (or is closed, or another tab is asked for). Opened at once, it slowed
// that first load on two cores: the page clock's first command 7 → ~53 ms
// and the load ~123 → ~157 ms (bench stages; docs/decisions/
// 2026-12-04-where-the-time-goes.md).
//
// It waits for the tab opened ahead, never past ctx, and answers ErrClosed
// once the browser is closed.
func (b *Browser) NewTab(ctx context.Context) (*Tab, error) {
	select {
	case <-b.closed:
		return nil, ErrClosed
	default:
	}
	// A tab taken earlier that has not loaded a page yet opens the next
	// now: this caller needs it.
	b.waiting.Add(1)
	b.warmUnwarmed()
	select {
	case ready := <-b.spare:
		b.waiting.Add(-1)
		if ready.tab == nil {
			b.warm()
			return ready.tab, ready.err
		}
		warm := sync.OnceFunc(b.warm)
		ready.tab.warmNext = warm
		b.unwarmed.Store(&warm)
		// Stored first, then looked: a caller that came meanwhile either
		// found it stored, or is counted here and gets its tab now.
		if b.waiting.Load() > 0 {
			b.warmUnwarmed()
		}
		return ready.tab, ready.err
	case <-b.closed:
		b.waiting.Add(-1)
		return nil, ErrClosed
	case <-ctx.Done():
		b.waiting.Add(-1)
		return nil, fmt.Errorf("waiting for a new tab: %w", ctx.Err())
	}
}

// warmUnwarmed opens the next tab for a tab taken that has not loaded a
// page yet, if there is one.
func (b *Browser) warmUnwarmed() {
	if warm := b.unwarmed.Swap(nil); warm != nil {
		(*warm)()
	}
}

// ErrClosed is what NewTab answers once the browser is closed.
var ErrClosed = errors.New("the browser is closed: no new tab")

type spareTab struct {
	tab *Tab
	err error
}

// warm opens the next tab in the background.
func (b *Browser) warm() {
	b.background.Add(1)
	go func() {
		defer b.background.Done()
		t, err := b.openTab(true)
		b.spare <- spareTab{t, err}
	}()
}

// Settle waits until the tab opened ahead is ready and the tabs closed in
// the background are gone, so that a measurement counts the whole cost of a
// tab, the parts done out of sight included.
func (b *Browser) Settle() { b.background.Wait() }

// openTab opens an isolated tab. With followChildren, every iframe in
// another process and every worker of the page is paused when it starts
// until its requests are recorded (children.go); without, they run
// unobserved, as they would in a bare chromedp tab.
func (b *Browser) openTab(followChildren bool) (*Tab, error) {
	t := &Tab{Trace: webmcp.NewRecorder(), Net: netlog.NewRecorder(), Console: &ConsoleLog{}, Issues: &IssueLog{}, Dialogs: newDialogs(), Popups: newPopups(), browser: b, budgetExpired: make(chan struct{}, 8), loading: newLoading(),
		kids: children{bySession: map[cdptarget.SessionID]*child{}, gone: map[cdptarget.SessionID]bool{}}, followChildren: followChildren}
	t.Net.SetSessions(t.childSession)
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext(), chromedp.WithListener(func(ev any) {
		t.observe(ev)
		if _, ok := ev.(*emulation.EventVirtualTimeBudgetExpired); ok {
			select {
			case t.budgetExpired <- struct{}{}:
			default:
			}
		}
	}))
	t.Ctx, t.cancel = ctx, cancel
	t.crash = newCrash(ctx)
	if err := within(15*time.Second, cancel, func() error {
		return chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
			t.loading.mu.Lock()
			t.loading.frame = string(target.TargetID) // a page target's id is its top frame's
			t.loading.mu.Unlock()
			raw, unsubscribe := target.Subscribe(cdpwebmcp.ToolsAdded.Method)
			go func() {
				defer unsubscribe()
				for v := range raw {
					_ = t.Trace.RecordRawToolsAdded(v)
				}
			}()
			if err := netlog.Enable(ctx); err != nil {
				return fmt.Errorf("enable the Network domain: %w", err)
			}
			if _, err := chromedp.Call(ctx, runtime.AddBinding, runtime.AddBindingParams{Name: webmcp.BindingName}); err != nil {
				return fmt.Errorf("Runtime.addBinding: %w", err)
			}
			if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: hookScript}); err != nil {
				return fmt.Errorf("Page.addScriptToEvaluateOnNewDocument: %w", err)
			}
			if _, err := chromedp.Call(ctx, cdpwebmcp.Enable, cdp.Empty{}); err != nil {
				return fmt.Errorf("WebMCP.enable: %w", err)
			}
			if _, err := chromedp.Call(ctx, audits.Enable, cdp.Empty{}); err != nil {
				return fmt.Errorf("enable the Audits domain: %w", err)
			}
			if followChildren {
				t.browserContext = chromedp.FromContext(ctx).BrowserContextID
				b.mux.adopt(t.browserContext, target.SessionID)
				if _, err := chromedp.Call(ctx, cdptarget.SetAutoAttach, autoAttach); err != nil {
					return fmt.Errorf("Target.setAutoAttach: %w", err)
				}
			}
			return nil
		}))
	}); err != nil {
		cancel()
		return nil, fmt.Errorf("open tab: %w", err)
	}
	t.Tools = webmcp.NewClient(t.Bind, t.Trace)
	t.Tools.Frames = tabFrames{t}
	go t.Net.Run(ctx) // bodies are asked for while their document is there
	return t, nil
}

// Close closes the tab and disposes of its browser context. Request bodies
// are fetched first; the closing itself goes on in the background (the
// browser waits for it when it closes), so a spec does not pay for it.
func (t *Tab) Close() {
	if t.warmNext != nil {
		t.warmNext()
	}
	t.close.Do(func() {
		ctx, cancel := context.WithTimeout(t.Ctx, vocab.Bound)
		_ = t.Net.FillBodies(ctx)
		cancel()
		t.browser.mux.disown(t.browserContext)
		t.browser.background.Add(1)
		go func() {
			defer t.browser.background.Done()
			defer t.cancel()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			done := make(chan struct{})
			go func() { _ = chromedp.Cancel(t.Ctx); close(done) }()
			select {
			case <-done:
			case <-ctx.Done():
			}
		}()
	})
}

// NavigateTimeout bounds a page load.
const NavigateTimeout = 15 * time.Second

// Navigate opens url in the tab and waits for the load, 15 s at most and
// never past ctx.
func (t *Tab) Navigate(ctx context.Context, url string) error {
	ctx, cancel := t.Bind(ctx)
	defer cancel()
	ctx, cancelLoad := context.WithTimeout(ctx, NavigateTimeout)
	defer cancelLoad()
	if t.warmNext != nil {
		defer t.warmNext()
	}
	return chromedp.Do(ctx, chromedp.Navigate(url))
}

// Do runs chromedp actions in the tab, within vocab.Bound and never past ctx.
func (t *Tab) Do(ctx context.Context, actions ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := t.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, vocab.Bound)
	defer cancelBound()
	return chromedp.Do(ctx, actions...)
}

// Bind gives a caller's context this tab: the result carries the tab's
// chromedp target (so chromedp calls reach this page), keeps ctx's deadline,
// and ends when ctx or the tab ends. Every call that talks to the tab takes
// the caller's ctx and binds it, so a spec's timeout or interrupt reaches
// every wait.
func (t *Tab) Bind(ctx context.Context) (context.Context, context.CancelFunc) {
	return bindTo(t.alive(), ctx)
}

// bindTo gives ctx the chromedp target of base (see Bind).
func bindTo(base, ctx context.Context) (context.Context, context.CancelFunc) {
	bound, cancel := context.WithCancel(base)
	if d, ok := ctx.Deadline(); ok {
		var cancelDeadline context.CancelFunc
		bound, cancelDeadline = context.WithDeadline(bound, d)
		stop := context.AfterFunc(ctx, cancel)
		return bound, func() { stop(); cancelDeadline(); cancel() }
	}
	stop := context.AfterFunc(ctx, cancel)
	return bound, func() { stop(); cancel() }
}

// ConsoleLog keeps console errors and uncaught exceptions.
type ConsoleLog struct {
	mu      sync.Mutex
	entries []record.ConsoleEntry
}

func (c *ConsoleLog) observe(ev any) {
	var e record.ConsoleEntry
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeWarning {
			return
		}
		e.Type = string(ev.Type)
		for _, a := range ev.Args {
			if e.Text != "" {
				e.Text += " "
			}
			if len(a.Value) > 0 {
				e.Text += string(a.Value)
			} else {
				e.Text += a.Description
			}
		}
	case *runtime.EventExceptionThrown:
		e.Type = "exception"
		if d := ev.ExceptionDetails; d != nil {
			e.Text, e.URL, e.Line = d.Text, d.URL, d.LineNumber
			if d.Exception != nil && d.Exception.Description != "" {
				e.Text = d.Exception.Description
			}
		}
	default:
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = append(c.entries, e)
}

// Entries returns a copy of the console errors so far.
func (c *ConsoleLog) Entries() []record.ConsoleEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]record.ConsoleEntry(nil), c.entries...)
}

// HasWorkers tells whether the tab's page runs workers (dedicated, shared or
// service workers of its browser context), whose timers run on real time
// even when the page's clock is virtual. Unknown (the browser would not
// list its targets) counts as yes: a window then waits in real time.
func (t *Tab) HasWorkers(ctx context.Context) bool {
	c := chromedp.FromContext(t.Ctx)
	if c == nil {
		return true
	}
	ctx, cancel := t.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, vocab.Bound)
	defer cancelBound()
	infos, err := chromedp.Targets(ctx)
	if err != nil {
		return true
	}
	for _, info := range infos {
		if info.BrowserContextID == c.BrowserContextID && strings.Contains(string(info.Type), "worker") {
			return true
		}
	}
	return false
}

// AddInitScript makes the tab run source in every document it opens from
// now on, before any script of the page (Page.addScriptToEvaluateOnNewDocument).
// A scenario's attack is planted this way (scenarios/runner).
func (t *Tab) AddInitScript(ctx context.Context, source string) error {
	ctx, cancel := t.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, vocab.Bound)
	defer cancelBound()
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: source}); err != nil {
		return fmt.Errorf("Page.addScriptToEvaluateOnNewDocument: %w", err)
	}
	return nil
}
