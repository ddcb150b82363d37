package browser

import (
	"context"
	"encoding/json"
	"github.com/chromedp/cdproto/audits"
	"strings"
	"sync"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	cdpwebmcp "github.com/chromedp/cdproto/webmcp"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/netlog"
	"github.com/agentready/agentready/scenarios/vocab"
)

// A tab's children: the targets attached to its page (cross-site iframes,
// dedicated and service workers, and the shared workers of its browser
// context), and theirs, recursively. Each one is paused by the browser
// until the tab has turned its Network domain on, so that none of its
// requests is missed; then it runs (Runtime.runIfWaitingForDebugger).

// autoAttach pauses every new child until it is told to run. A service
// worker is attached here (its script's load is reported on this session)
// and by the browser's auto-attach too (browser.go), which keeps it past
// the page; the log takes a request two sessions report once (netlog).
var autoAttach = target.SetAutoAttachParams{AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: new(true)}

// child is one target attached to the tab.
type child struct {
	session target.SessionID
	id      target.ID
	typ     string
	parent  target.SessionID // "" when attached to the page itself
	source  netlog.Source
	ready   chan struct{} // closed once it runs with the network recorded
	err     error         // what went wrong setting it up, if anything (read after ready)
}

// children are a tab's attached targets, by session.
type children struct {
	mu        sync.Mutex
	bySession map[target.SessionID]*child
	gone      map[target.SessionID]bool
}

func (k *children) get(s target.SessionID) *child {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.gone[s] {
		return nil
	}
	return k.bySession[s]
}

// list answers the children that are still attached, in no order.
func (k *children) list() []*child {
	k.mu.Lock()
	defer k.mu.Unlock()
	var out []*child
	for s, c := range k.bySession {
		if !k.gone[s] {
			out = append(out, c)
		}
	}
	return out
}

// observe is the tab's one listener: the page's events and, unwrapped, its
// children's, in the order the browser sent them. It returns fast and runs
// no command.
func (t *Tab) observe(ev any) {
	switch ev := ev.(type) {
	case *target.EventAttachedToTarget:
		t.attached("", ev)
		return
	case *target.EventDetachedFromTarget:
		t.detached(ev.SessionID)
		return
	case *target.EventReceivedMessageFromTarget:
		t.fromChild(ev)
		return
	case *inspector.EventTargetCrashed:
		if t.crash != nil {
			t.crash.crashed()
		}
		return
	case *target.EventTargetCreated:
		t.popupTarget(ev.TargetInfo)
		return
	case *target.EventTargetInfoChanged:
		t.popupInfo(ev.TargetInfo)
		return
	case *target.EventTargetDestroyed:
		t.popupGone(ev.TargetID)
		return
	case *page.EventJavascriptDialogOpening:
		t.pageDialog(ev)
	}
	if !t.swappedOut(ev) {
		t.Trace.Observe(ev)
	}
	t.Net.Observe(ev)
	t.Console.observe(ev)
	t.Issues.observe("", ev)
	t.loading.observe(ev)
}

// fromChild reads one message of a child session (see mux).
func (t *Tab) fromChild(ev *target.EventReceivedMessageFromTarget) {
	c := t.kids.get(ev.SessionID)
	if c == nil {
		return
	}
	var m struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal([]byte(ev.Message), &m) != nil {
		return
	}
	if f := t.onChildEvent.Load(); f != nil {
		(*f)(c, m.Method, m.Params)
	}
	if t.childTools(c, m.Method, m.Params) {
		return
	}
	switch {
	case m.Method == target.AttachedToTarget.Method:
		var a target.EventAttachedToTarget
		if jsonv2.Unmarshal(m.Params, &a, chromedp.DefaultUnmarshalOptions) == nil {
			t.attached(c.session, &a)
		}
	case m.Method == target.DetachedFromTarget.Method:
		var d target.EventDetachedFromTarget
		if jsonv2.Unmarshal(m.Params, &d, chromedp.DefaultUnmarshalOptions) == nil {
			t.detached(d.SessionID)
		}
	case m.Method == string(cdproto.EventPageJavascriptDialogOpening):
		t.childDialog(c, m.Params)
	case m.Method == string(cdproto.EventAuditsIssueAdded) && c.typ == "iframe": // a cross-site frame's forms
		v, err := cdproto.UnmarshalMessage(&cdproto.Message{Method: cdproto.MethodType(m.Method), Params: jsonv2.Value(m.Params)}, chromedp.DefaultUnmarshalOptions)
		if err == nil {
			t.Issues.observe(c.session, v)
		}
	case strings.HasPrefix(m.Method, "Network."):
		v, err := cdproto.UnmarshalMessage(&cdproto.Message{Method: cdproto.MethodType(m.Method), Params: jsonv2.Value(m.Params)}, chromedp.DefaultUnmarshalOptions)
		if err == nil {
			t.Net.ObserveFrom(c.source, v)
		}
	case c.typ == "page" && (strings.HasPrefix(m.Method, "WebMCP.") || m.Method == string(cdproto.EventPageFrameNavigated) || m.Method == string(cdproto.EventPageFrameDetached)):
		// A popup's tools, and its documents coming and going.
		v, err := cdproto.UnmarshalMessage(&cdproto.Message{Method: cdproto.MethodType(m.Method), Params: jsonv2.Value(m.Params)}, chromedp.DefaultUnmarshalOptions)
		if trace := t.Popups.trace(string(c.id)); err == nil && trace != nil {
			trace.Observe(v)
		}
		if err == nil && m.Method == string(cdproto.EventPageFrameNavigated) {
			t.Net.ObserveFrom(c.source, v) // what its last document left unfinished ends (netlog)
		}
	}
}

// attached registers a new child and, when the tab follows its children,
// sets it up in the background (a listener runs no command).
func (t *Tab) attached(parent target.SessionID, ev *target.EventAttachedToTarget) {
	if ev.TargetInfo == nil {
		return
	}
	c := &child{session: ev.SessionID, id: ev.TargetInfo.TargetID, typ: ev.TargetInfo.Type, parent: parent, ready: make(chan struct{})}
	c.source = netlog.Source{Session: string(c.session), Target: &record.Target{Type: c.typ, ID: string(c.id)}}
	switch p := t.kids.get(parent); {
	case c.typ == "page": // a popup (popups.go)
		c.source.Target.Window = string(c.id)
		t.popupTarget(ev.TargetInfo)
	case p != nil:
		c.source.Target.Window = p.source.Target.Window
	}
	t.kids.mu.Lock()
	t.kids.bySession[c.session] = c
	t.kids.mu.Unlock()
	if !t.followChildren {
		close(c.ready)
		return
	}
	go t.setUp(c)
}

func (t *Tab) detached(s target.SessionID) {
	t.kids.mu.Lock()
	c, known := t.kids.bySession[s]
	if known {
		t.kids.gone[s] = true
	}
	t.kids.mu.Unlock()
	if known && c.typ == "page" {
		t.Net.EndSession(string(s), "the window closed before it finished")
	}
	if known {
		t.Net.SessionGone(string(s))
		t.childGone(s)
	}
}

// setUp turns a paused child's Network domain on, asks for its own
// children (an iframe's or a worker's), and lets it run. The commands go out
// together and in order: a paused service worker answers Network.enable
// only once it runs, and the browser applies them in the order sent.
func (t *Tab) setUp(c *child) {
	defer close(c.ready)
	if c.typ == "page" {
		defer t.popupReady(c)
	}
	ctx, cancel := context.WithTimeout(t.Ctx, vocab.Bound)
	defer cancel()
	m := t.browser.mux
	type sent struct {
		call   *muxCall
		id     int64
		method string
	}
	var calls []sent
	send := func(method string, params any) {
		call, id, err := m.send(c.session, method, params)
		if err != nil {
			if c.err == nil {
				c.err = err
			}
			return
		}
		calls = append(calls, sent{call, id, method})
	}
	send(network.CommandEnable, netlog.EnableParams)
	if c.typ == "iframe" || c.typ == "page" {
		send(page.CommandEnable, nil) // its dialogs are reported on its own session (dialogs.go)
		// Its tools (a cross-site iframe's, a popup's) are reported on its
		// own session only, and only to a WebMCP domain on before its
		// document loads (frametools.go, popups.go).
		send(cdpwebmcp.CommandEnable, nil)
	}
	if c.typ == "iframe" {
		send(audits.CommandEnable, nil) // its forms' issues (issues.go)
	}
	if c.typ == "iframe" || c.typ == "worker" || c.typ == "page" {
		send(target.CommandSetAutoAttach, autoAttach)
	}
	send(runtime.CommandRunIfWaitingForDebugger, nil)
	for _, s := range calls {
		if err := m.wait(ctx, s.call, s.id, s.method, nil); err != nil && c.err == nil {
			c.err = err
		}
	}
}

// childSession answers a child's session for commands, by its session id.
func (t *Tab) childSession(id string) cdp.Session {
	return session{m: t.browser.mux, id: target.SessionID(id)}
}

// Target is a target attached to a tab, for tests and diagnostics.
type Target struct {
	Type, ID string
	Session  cdp.Session
}

// Targets answers the targets attached to the tab now, those being set up
// included.
func (t *Tab) Targets() []Target {
	var out []Target
	for _, c := range t.kids.list() {
		out = append(out, Target{Type: c.typ, ID: string(c.id), Session: t.childSession(string(c.session))})
	}
	return out
}
