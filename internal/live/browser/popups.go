package browser

import (
	"context"
	"errors"
	"fmt"
	"sync"

	cdptarget "github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/live/webmcp"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Popups are the windows a tab's page opened (docs/decisions/2026-12-04-popups.md).
//
// Measured on Chromium 156: a window the page opens with window.open is held
// before its first navigation by the browser-wide auto-attach with
// waitForDebuggerOnStart (the suite's, for shared workers), even when its
// filter leaves pages out: unattached, it never loads, and window.open, a
// synchronous call in the opener, never returns — the tool that called it
// never answers, with or without the page clock. A target=_blank link's
// window (noopener) is not held: it loads at once. So the browser-wide
// auto-attach takes pages too; the mux hands a page of a tab's browser
// context to that tab as a child (sessions.go), whose Network, Page and
// WebMCP domains are turned on before it runs (Runtime.runIfWaitingForDebugger).
type Popups struct {
	mu      sync.Mutex
	phase   vocab.Phase
	entries []record.Popup
	byID    map[string]*popupState
	changed chan struct{}
}

type popupState struct {
	index int
	trace *webmcp.Recorder // the window's own tool events
	ctx   context.Context  // a chromedp context for steps in it, made on first use
}

func newPopups() *Popups {
	return &Popups{phase: vocab.PhaseSetup, byID: map[string]*popupState{}, changed: make(chan struct{})}
}

// SetPhase sets the phase later popups are recorded in.
func (p *Popups) SetPhase(ph vocab.Phase) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.phase = ph
}

// Entries answers a copy of the popups so far, in the order they opened,
// each with the tools its documents registered.
func (p *Popups) Entries() []record.Popup {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]record.Popup, len(p.entries))
	copy(out, p.entries)
	for _, s := range p.byID {
		out[s.index].Tools = s.trace.Catalog()
	}
	return out
}

// update changes a popup's entry under the lock and wakes the waiters.
func (p *Popups) update(id string, f func(e *record.Popup)) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.byID[id]
	if !ok {
		return false
	}
	f(&p.entries[s.index])
	close(p.changed)
	p.changed = make(chan struct{})
	return true
}

// created records a new window; false when it was recorded already.
func (p *Popups) created(info *cdptarget.Info) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	id := string(info.TargetID)
	if _, ok := p.byID[id]; ok {
		return false
	}
	p.byID[id] = &popupState{index: len(p.entries), trace: webmcp.NewRecorder()}
	p.entries = append(p.entries, record.Popup{Target: id, URL: documentURL(info.URL), Opener: string(info.OpenerID),
		OpenerReach: info.CanAccessOpener, Phase: p.phase})
	close(p.changed)
	p.changed = make(chan struct{})
	return true
}

func documentURL(u string) string {
	if u == "about:blank" {
		return ""
	}
	return u
}

func (p *Popups) trace(id string) *webmcp.Recorder {
	p.mu.Lock()
	defer p.mu.Unlock()
	if s, ok := p.byID[id]; ok {
		return s.trace
	}
	return nil
}

// WaitOpen waits, never past ctx, until a popup is open that was not among
// the first `after`, and answers its target id.
func (p *Popups) WaitOpen(ctx context.Context, after int) (string, error) {
	for {
		p.mu.Lock()
		for i := len(p.entries) - 1; i >= after && i >= 0; i-- {
			if e := p.entries[i]; !e.Closed && e.Error == "" {
				p.mu.Unlock()
				return e.Target, nil
			}
		}
		changed := p.changed
		p.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return "", fmt.Errorf("no popup is open: %w", ctx.Err())
		}
	}
}

// Len is how many popups opened so far.
func (p *Popups) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.entries)
}

// popupTarget notes a page target of the tab's browser context: a window
// the page (or one of its popups) opened. The browser-wide auto-attach has
// attached it, held, and the mux hands its session to the tab (attached,
// children.go), which sets it up and lets it run.
func (t *Tab) popupTarget(info *cdptarget.Info) {
	if info == nil || info.Type != "page" || !t.followChildren || t.browserContext == "" ||
		info.BrowserContextID != t.browserContext || string(info.TargetID) == t.loading.pageID() {
		return
	}
	t.Popups.created(info)
}

// popupInfo notes a window's new URL or its end.
func (t *Tab) popupInfo(info *cdptarget.Info) {
	if info == nil || info.Type != "page" {
		return
	}
	t.Popups.update(string(info.TargetID), func(e *record.Popup) {
		if e.URL == "" {
			e.URL = documentURL(info.URL)
		}
	})
}

func (t *Tab) popupGone(id cdptarget.ID) {
	t.Popups.update(string(id), func(e *record.Popup) {
		if !e.Closed {
			e.Closed = true
			if e.ClosedBy == "" { // a close_popup step names itself first
				e.ClosedBy = record.ClosedByPage
			}
		}
	})
}

// popupReady notes how setting a window up went.
func (t *Tab) popupReady(c *child) {
	if c.err == nil {
		return
	}
	t.Popups.update(string(c.id), func(e *record.Popup) {
		if e.Error == "" && !e.Closed {
			e.Error = "set it up: " + c.err.Error()
		}
	})
}

// ErrNoPopup answers a step in a popup when none is open.
var ErrNoPopup = errors.New("no popup is open")

// BindPopup is Bind for the popup opened last that is still open (waiting
// for one, never past ctx): chromedp actions run in the popup's window.
func (t *Tab) BindPopup(ctx context.Context) (context.Context, context.CancelFunc, error) {
	id, err := t.Popups.WaitOpen(ctx, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrNoPopup, err)
	}
	base, err := t.popupContext(id)
	if err != nil {
		return nil, nil, err
	}
	bound, cancel := bindTo(base, ctx)
	return bound, cancel, nil
}

// popupContext answers a chromedp context attached to the popup, made on
// first use. chromedp attaches on a context's first Run and keeps the
// target's loop on that Run's context: it is the long-lived one here, so
// that a step's ending does not end the popup's.
func (t *Tab) popupContext(id string) (context.Context, error) {
	t.Popups.mu.Lock()
	defer t.Popups.mu.Unlock()
	s := t.Popups.byID[id]
	if s.ctx != nil {
		return s.ctx, nil
	}
	ctx, cancel := chromedp.NewContext(t.alive(), chromedp.WithTargetID(cdptarget.ID(id)))
	if err := within(vocab.Bound, cancel, func() error { return chromedp.Do(ctx) }); err != nil {
		cancel()
		return nil, fmt.Errorf("attach to the popup: %w", err)
	}
	s.ctx = ctx
	return ctx, nil
}

// ClosePopup closes the popup opened last that is still open, as a person
// closes a window, and waits (bounded by ctx) until it is gone.
func (t *Tab) ClosePopup(ctx context.Context) error {
	id, err := t.Popups.WaitOpen(ctx, 0)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNoPopup, err)
	}
	t.Popups.update(id, func(e *record.Popup) { e.ClosedBy = record.ClosedByScenario })
	if err := t.browser.mux.call(ctx, "", cdptarget.CommandCloseTarget, cdptarget.CloseTargetParams{TargetID: cdptarget.ID(id)}, nil); err != nil {
		return fmt.Errorf("close the popup: %w", err)
	}
	for {
		t.Popups.mu.Lock()
		closed, changed := t.Popups.entries[t.Popups.byID[id].index].Closed, t.Popups.changed
		t.Popups.mu.Unlock()
		if closed {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("the popup did not close: %w", ctx.Err())
		}
	}
}
