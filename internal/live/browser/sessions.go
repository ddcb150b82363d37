package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// Child sessions (docs/decisions/2026-11-30-child-targets.md).
//
// Cross-site iframes and workers are targets of their own. With
// Target.setAutoAttach{flatten} the browser attaches them to the page's
// session and speaks to each on a session of its own, over the same
// connection. chromedp v0.23 routes a message by its session id to the
// targets it attached itself and drops the others, and it has no way to
// send a command on a session it did not make. So the suite wraps the
// connection (mux): it learns each child session from Target.attachedToTarget
// as it reads it, before any message of that session, and hands every
// message of a child session on to chromedp as a Target.receivedMessageFromTarget
// event of the page's session. chromedp puts it in the page's queue, in the
// order the browser sent it, and the tab's one listener sees the page's and
// the children's events as one ordered stream. Commands to a child session
// (Network.enable, Runtime.runIfWaitingForDebugger, Runtime.evaluate, …) go
// out on the wrapped connection with ids of their own; their answers never
// reach chromedp.

// muxIDBase is where the mux's command ids start: far above chromedp's
// (which count from 1), within the protocol's 32-bit ids.
const muxIDBase = 1 << 30

// mux wraps the browser's connection. Read runs on chromedp's reading
// goroutine only.
type mux struct {
	inner chromedp.Transport
	next  atomic.Int64

	mu       sync.Mutex
	pending  map[int64]*muxCall
	parent   map[target.SessionID]target.SessionID     // child session → the session it was attached to
	root     map[target.SessionID]target.SessionID     // child session → the chromedp session (a tab's page) it is reported to
	contexts map[cdp.BrowserContextID]target.SessionID // browser context → its tab's page session, for shared workers
	explicit map[target.ID]int                         // targets chromedp is attaching itself (Target.attachToTarget)
	released map[target.SessionID]bool                 // shared workers of no tab of ours, being let go
	adopted  map[target.SessionID]bool                 // shared workers handed to a tab, until the browser detaches them
	made     map[cdp.BrowserContextID]bool             // browser contexts this connection opened tabs in
	held     map[target.ID]chan struct{}               // windows of another client, closed when they start or go
	// onWindow, when set (a test), hears what the mux did with a window of
	// no tab of its own: windowReleased or windowYielded.
	onWindow func(id target.ID, what string)
	lost     error // set when the connection is gone
}

type muxCall struct {
	session target.SessionID
	done    chan *cdproto.Message // buffered; nil message: the session went away
}

func newMux() *mux {
	m := &mux{pending: map[int64]*muxCall{}, parent: map[target.SessionID]target.SessionID{},
		root: map[target.SessionID]target.SessionID{}, contexts: map[cdp.BrowserContextID]target.SessionID{},
		explicit: map[target.ID]int{}, released: map[target.SessionID]bool{}, adopted: map[target.SessionID]bool{},
		made: map[cdp.BrowserContextID]bool{}, held: map[target.ID]chan struct{}{}}
	m.next.Store(muxIDBase)
	return m
}

// dial is the chromedp.Dialer of a browser the suite starts: its websocket,
// wrapped.
func (m *mux) dial(ctx context.Context, wsURL string) (chromedp.Transport, error) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	conn, err := remote.DialContext(ctx, wsURL)
	if err != nil {
		return nil, err
	}
	m.inner = conn
	return m, nil
}

// SetDebugf passes chromedp's protocol logger on to the connection.
func (m *mux) SetDebugf(f func(string, ...any)) {
	if s, ok := m.inner.(interface{ SetDebugf(func(string, ...any)) }); ok {
		s.SetDebugf(f)
	}
}

func (m *mux) Close() error { return m.inner.Close() }

// Write sends chromedp's messages; it notes the targets chromedp attaches to
// itself, so that their attachment is not taken for an auto-attached child.
func (m *mux) Write(ctx context.Context, msg *cdproto.Message) error {
	if msg.Method == target.CommandCreateTarget && msg.SessionID == "" {
		var p struct {
			BrowserContextID cdp.BrowserContextID `json:"browserContextId"`
		}
		if json.Unmarshal(msg.Params, &p) == nil && p.BrowserContextID != "" {
			m.mu.Lock()
			m.made[p.BrowserContextID] = true
			m.mu.Unlock()
		}
	}
	if msg.Method == target.CommandAttachToTarget && msg.SessionID == "" {
		var p struct {
			TargetID target.ID `json:"targetId"`
		}
		if json.Unmarshal(msg.Params, &p) == nil && p.TargetID != "" {
			m.mu.Lock()
			m.explicit[p.TargetID]++
			m.mu.Unlock()
		}
	}
	return m.inner.Write(ctx, msg)
}

// Read hands chromedp the next message it is to see.
func (m *mux) Read(ctx context.Context, msg *cdproto.Message) error {
	for {
		*msg = cdproto.Message{}
		if err := m.inner.Read(ctx, msg); err != nil {
			m.fail(err)
			return err
		}
		if msg.Method == "" {
			if m.answer(msg) {
				continue
			}
			return nil
		}
		if m.route(msg) {
			return nil
		}
	}
}

// answer delivers the answer to one of the mux's own commands.
func (m *mux) answer(msg *cdproto.Message) bool {
	if msg.ID < muxIDBase {
		return false
	}
	m.mu.Lock()
	c := m.pending[msg.ID]
	delete(m.pending, msg.ID)
	m.mu.Unlock()
	if c != nil {
		// msg is chromedp's, and Read reuses it: hand on a copy.
		answer := &cdproto.Message{ID: msg.ID, SessionID: msg.SessionID, Result: bytes.Clone(msg.Result), Error: msg.Error}
		c.done <- answer
	}
	return true
}

type attached struct {
	SessionID          target.SessionID `json:"sessionId"`
	WaitingForDebugger bool             `json:"waitingForDebugger"`
	TargetInfo         struct {
		TargetID         target.ID            `json:"targetId"`
		Type             string               `json:"type"`
		BrowserContextID cdp.BrowserContextID `json:"browserContextId"`
		OpenerID         target.ID            `json:"openerId"`
	} `json:"targetInfo"`
}

type detached struct {
	SessionID target.SessionID `json:"sessionId"`
}

// route learns sessions from attach and detach events and readdresses every
// message of a child session to its tab's page session. It answers false
// for a message chromedp is not to see.
func (m *mux) route(msg *cdproto.Message) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	from := msg.SessionID
	root, child := m.root[from]
	if msg.Method == cdproto.EventTargetTargetInfoChanged || msg.Method == cdproto.EventTargetTargetDestroyed {
		m.startedWindow(msg) // reported to each tab's page session (chromedp discovers targets there)
	}
	switch {
	case m.released[from]:
		return false
	case from == "":
		// Browser-level: shared and service workers, which the browser's
		// own auto-attach reaches (a service worker outlives the page that
		// it served), and the detach of any session.
		switch msg.Method {
		case cdproto.EventTargetAttachedToTarget:
			var ev attached
			if json.Unmarshal(msg.Params, &ev) != nil {
				return true
			}
			if n := m.explicit[ev.TargetInfo.TargetID]; n > 0 && !ev.WaitingForDebugger {
				m.explicit[ev.TargetInfo.TargetID] = n - 1
				return true // chromedp's own
			}
			page, ok := m.contexts[ev.TargetInfo.BrowserContextID]
			switch ev.TargetInfo.Type {
			case "shared_worker", "service_worker":
			case "page":
				if !ok && ev.TargetInfo.OpenerID != "" && !m.made[ev.TargetInfo.BrowserContextID] && ev.TargetInfo.BrowserContextID != "" {
					// A window a page opened in a browser context another
					// client made (another process of the suite attached
					// to the same browser): its owner runs it once it
					// records it. (A tab another client opens is run at
					// once, as before: held unrun, its own navigations
					// stalled that client's page clock.)
					m.released[ev.SessionID] = true
					started := make(chan struct{})
					m.held[ev.TargetInfo.TargetID] = started
					go m.yieldWindow(ev.SessionID, ev.TargetInfo.TargetID, ev.TargetInfo.BrowserContextID, started)
					return false
				}
				if !ok {
					break // a tab of ours being opened, or the person's: let it run
				}
				// A window a tab's page opened (popups.go): the tab's, as
				// a shared worker is.
				m.parent[ev.SessionID], m.root[ev.SessionID] = page, page
				m.adopted[ev.SessionID] = true
				msg.SessionID = page
				return true
			default:
				return true
			}
			if !ok {
				// No tab of ours: let it run, unobserved.
				m.released[ev.SessionID] = true
				go func() { m.release(ev.SessionID); m.heard(ev.TargetInfo.TargetID, windowReleased) }()
				return false
			}
			m.parent[ev.SessionID], m.root[ev.SessionID] = page, page
			m.adopted[ev.SessionID] = true
			msg.SessionID = page
		case cdproto.EventTargetDetachedFromTarget:
			var ev detached
			if json.Unmarshal(msg.Params, &ev) != nil {
				return true
			}
			if m.released[ev.SessionID] {
				delete(m.released, ev.SessionID)
				return false
			}
			if m.adopted[ev.SessionID] {
				// One of ours, which chromedp does not know: to its tab,
				// unless the tab is gone already.
				delete(m.adopted, ev.SessionID)
				r, ok := m.root[ev.SessionID]
				m.forgetSession(ev.SessionID)
				msg.SessionID = r
				return ok
			}
			m.forgetSession(ev.SessionID) // a tab's page: its children go with it
		}
	case child:
		m.track(msg, from, root)
		inner, _ := json.Marshal(struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params,omitempty"`
		}{string(msg.Method), json.RawMessage(msg.Params)})
		params, _ := json.Marshal(struct {
			SessionID target.SessionID `json:"sessionId"`
			Message   string           `json:"message"`
		}{from, string(inner)})
		*msg = cdproto.Message{SessionID: root, Method: cdproto.EventTargetReceivedMessageFromTarget, Params: params}
	default:
		// A session chromedp attached (a tab's page): its children.
		m.track(msg, from, from)
	}
	return true
}

// track keeps the tree of sessions as from reports its children: one
// attached gets from as its parent and root as its tab's page; one
// detached is forgotten.
func (m *mux) track(msg *cdproto.Message, from, root target.SessionID) {
	switch msg.Method {
	case cdproto.EventTargetAttachedToTarget:
		var ev attached
		if json.Unmarshal(msg.Params, &ev) == nil {
			m.parent[ev.SessionID], m.root[ev.SessionID] = from, root
		}
	case cdproto.EventTargetDetachedFromTarget:
		var ev detached
		if json.Unmarshal(msg.Params, &ev) == nil {
			m.forgetSession(ev.SessionID)
		}
	}
}

// forgetSession drops a session, its descendants and, for a tab's page, its
// browser context; calls waiting on them end. m.mu is held.
func (m *mux) forgetSession(s target.SessionID) {
	gone := map[target.SessionID]bool{s: true}
	for changed := true; changed; {
		changed = false
		for c, p := range m.parent {
			if gone[p] && !gone[c] {
				gone[c], changed = true, true
			}
		}
	}
	for c := range gone {
		delete(m.parent, c)
		delete(m.root, c)
	}
	for bc, page := range m.contexts {
		if gone[page] {
			delete(m.contexts, bc)
		}
	}
	for id, c := range m.pending {
		if gone[c.session] {
			delete(m.pending, id)
			c.done <- nil
		}
	}
}

// fail ends every waiting call once the connection is gone.
func (m *mux) fail(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.lost == nil {
		m.lost = err
	}
	for id, c := range m.pending {
		delete(m.pending, id)
		c.done <- nil
	}
}

// adopt reports the shared workers of a browser context to the tab whose
// page session is page.
func (m *mux) adopt(bc cdp.BrowserContextID, page target.SessionID) {
	if bc == "" {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.contexts[bc] = page
}

// disown stops reporting a browser context's shared workers.
func (m *mux) disown(bc cdp.BrowserContextID) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.contexts, bc)
}

// release resumes a shared worker no tab of ours watches and detaches it.
func (m *mux) release(s target.SessionID) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = m.call(ctx, s, runtime.CommandRunIfWaitingForDebugger, nil, nil)
	_ = m.call(ctx, "", target.CommandDetachFromTarget, target.DetachFromTargetParams{SessionID: s}, nil)
}

// What the mux did with a window of no tab of its own (mux.onWindow).
const (
	windowReleased = "released" // run and let go: the person's, or no owner holds it
	windowYielded  = "yielded"  // let go once its owner ran it
)

// windowOwnerBound is how long a window of another client's browser
// context is held for its owner to run it before the mux runs it itself:
// a client that made the context without holding its windows never would.
const windowOwnerBound = 10 * time.Second

// yieldWindow lets another client's window go without running it.
// Measured on Chromium 156 (docs/decisions/2026-12-07-a-hang-bound.md): a
// window two clients hold starts as soon as either runs it, and stays
// paused while any holds it unrun. Running it here would let it send its
// first requests before its owner has the network on (SIGNIN-01's POST
// missing from an attached run's log); detaching at once would leave it
// paused for good when the owner does not hold windows. So the mux holds
// it, unrun, until it starts (its URL is set: the owner ran it) or goes,
// and detaches then; a context no client made (the person's, Chromium's
// default) is run at once, as before; one whose owner never runs it is
// run after windowOwnerBound.
func (m *mux) yieldWindow(s target.SessionID, id target.ID, bc cdp.BrowserContextID, started chan struct{}) {
	defer func() {
		m.mu.Lock()
		delete(m.held, id)
		m.mu.Unlock()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), windowOwnerBound)
	defer cancel()
	var contexts target.GetBrowserContextsResult
	if err := m.call(ctx, "", target.CommandGetBrowserContexts, nil, &contexts); err != nil || !slices.Contains(contexts.BrowserContextIDs, bc) {
		m.release(s)
		m.heard(id, windowReleased)
		return
	}
	select {
	case <-started:
		m.heard(id, windowYielded)
		detach, stop := context.WithTimeout(context.Background(), 10*time.Second)
		defer stop()
		_ = m.call(detach, "", target.CommandDetachFromTarget, target.DetachFromTargetParams{SessionID: s}, nil)
	case <-ctx.Done():
		m.release(s)
		m.heard(id, windowReleased)
	}
}

func (m *mux) heard(id target.ID, what string) {
	m.mu.Lock()
	f := m.onWindow
	m.mu.Unlock()
	if f != nil {
		f(id, what)
	}
}

// startedWindow closes a held window's channel once it has a document or
// is gone. m.mu is held.
func (m *mux) startedWindow(msg *cdproto.Message) {
	var ev struct {
		TargetID   target.ID `json:"targetId"`
		TargetInfo struct {
			TargetID target.ID `json:"targetId"`
			URL      string    `json:"url"`
		} `json:"targetInfo"`
	}
	if json.Unmarshal(msg.Params, &ev) != nil {
		return
	}
	id := ev.TargetID
	if msg.Method == cdproto.EventTargetTargetInfoChanged {
		if id = ev.TargetInfo.TargetID; ev.TargetInfo.URL == "" || ev.TargetInfo.URL == "about:blank" {
			return
		}
	}
	if c, ok := m.held[id]; ok {
		close(c)
		delete(m.held, id)
	}
}

// errSessionGone answers a call whose session detached before it answered.
var errSessionGone = errors.New("the target's session is gone (the frame or worker went away)")

// send writes one command on a session (or the browser's, for "") and
// answers the call to wait on. Several sends before their waits go out in
// order: a target that waits for the debugger answers some commands only
// after Runtime.runIfWaitingForDebugger.
func (m *mux) send(s target.SessionID, method string, params any) (*muxCall, int64, error) {
	var buf []byte
	if params != nil {
		var err error
		if buf, err = jsonv2.Marshal(params, chromedp.DefaultMarshalOptions); err != nil {
			return nil, 0, err
		}
	}
	id := m.next.Add(1)
	c := &muxCall{session: s, done: make(chan *cdproto.Message, 1)}
	m.mu.Lock()
	if m.lost != nil {
		m.mu.Unlock()
		return nil, 0, fmt.Errorf("lost the connection to the browser: %w", m.lost)
	}
	if _, known := m.root[s]; s != "" && !known && !m.released[s] {
		m.mu.Unlock()
		return nil, 0, errSessionGone
	}
	m.pending[id] = c
	m.mu.Unlock()
	if err := m.inner.Write(context.Background(), &cdproto.Message{ID: id, SessionID: s, Method: cdproto.MethodType(method), Params: buf}); err != nil {
		m.mu.Lock()
		delete(m.pending, id)
		m.mu.Unlock()
		return nil, 0, err
	}
	return c, id, nil
}

// wait waits for the answer of a call sent with send and decodes it into res.
func (m *mux) wait(ctx context.Context, c *muxCall, id int64, method string, res any) error {
	select {
	case msg := <-c.done:
		switch {
		case msg == nil:
			m.mu.Lock()
			lost := m.lost
			m.mu.Unlock()
			if lost != nil {
				return fmt.Errorf("%s: lost the connection to the browser: %w", method, lost)
			}
			return fmt.Errorf("%s: %w", method, errSessionGone)
		case msg.Error != nil:
			return fmt.Errorf("%s: %w", method, msg.Error)
		case res != nil && len(msg.Result) > 0:
			return jsonv2.Unmarshal(msg.Result, res, chromedp.DefaultUnmarshalOptions)
		}
		return nil
	case <-ctx.Done():
		m.mu.Lock()
		delete(m.pending, id)
		m.mu.Unlock()
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// call sends a command on a session and waits for its answer.
func (m *mux) call(ctx context.Context, s target.SessionID, method string, params, res any) error {
	c, id, err := m.send(s, method, params)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	return m.wait(ctx, c, id, method, res)
}

// session is a child target's session, as a cdp.Session for cdp.Call. Its
// events reach the tab's listener, not Subscribe.
type session struct {
	m  *mux
	id target.SessionID
}

// Call satisfies cdp.Session.
func (s session) Call(ctx context.Context, method string, params, res any) error {
	return s.m.call(ctx, s.id, method, params, res)
}

// Subscribe satisfies cdp.Session; a child's events come through the tab's
// one listener, so the channel is closed at once.
func (s session) Subscribe(string) (<-chan jsonv2.Value, func()) {
	ch := make(chan jsonv2.Value)
	close(ch)
	return ch, func() {}
}

// attachAllocator attaches to a running browser (AGENTREADY_BROWSER_URL)
// through the mux, as remote.Allocator does through a bare connection.
type attachAllocator struct {
	url    string
	header http.Header
	mux    *mux
	wg     sync.WaitGroup
}

// Allocate satisfies chromedp.Allocator.
func (a *attachAllocator) Allocate(ctx context.Context, opts ...chromedp.BrowserOption) (*chromedp.Browser, error) {
	if chromedp.FromContext(ctx) == nil {
		return nil, chromedp.ErrInvalidContext
	}
	wsURL := a.url
	if len(a.header) == 0 && !strings.Contains(wsURL, "/devtools/browser/") {
		var err error
		if wsURL, err = browserWebSocket(ctx, wsURL); err != nil {
			return nil, fmt.Errorf("find the browser's websocket at %s: %w", a.url, err)
		}
	}
	// The websocket outlives ctx until the tabs are closed, as remote's.
	wctx, cancel := context.WithCancel(context.Background())
	a.wg.Go(func() {
		<-ctx.Done()
		chromedp.Cancel(ctx)
		cancel()
	})
	dialCtx, dialCancel := context.WithTimeout(wctx, 20*time.Second)
	defer dialCancel()
	var dialOpts []remote.DialOption
	if len(a.header) > 0 {
		dialOpts = append(dialOpts, remote.WithConnHTTPHeader(a.header))
	}
	conn, err := remote.DialContext(dialCtx, wsURL, dialOpts...)
	if err != nil {
		return nil, fmt.Errorf("could not dial %q: %w", wsURL, err)
	}
	a.mux.inner = conn
	return chromedp.NewBrowserTransport(wctx, a.mux, opts...)
}

// Wait satisfies chromedp.Allocator.
func (a *attachAllocator) Wait() { a.wg.Wait() }

// Attaches satisfies chromedp.Attacher: the browser runs already.
func (a *attachAllocator) Attaches() bool { return true }

// browserWebSocket reads the browser's websocket address from
// http://host:port/json/version, for an address without one.
func browserWebSocket(ctx context.Context, raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	switch u.Scheme {
	case "ws":
		u.Scheme = "http"
	case "wss":
		u.Scheme = "https"
	}
	u.Path, u.RawQuery = "/json/version", ""
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var v struct {
		WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		return "", err
	}
	if v.WebSocketDebuggerURL == "" {
		return "", errors.New("no webSocketDebuggerUrl in /json/version")
	}
	return v.WebSocketDebuggerURL, nil
}
