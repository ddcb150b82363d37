// Package netlog records a tab's network requests from CDP events, in the
// order the browser sent them, counts them for positive and negative
// assertions, and exports them as HAR 1.2.
package netlog

import (
	"context"
	"encoding/base64"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Recorder keeps the requests of one tab: its page's, and those of the
// other targets attached to it (iframes in other processes, workers), in one
// log. Observe and ObserveFrom are called from the tab's listener; the other
// methods from anywhere.
//
// A request id is unique in the browser, and one request can be reported by
// two sessions: a worker's script or a cross-site iframe's document starts
// on the page's session and finishes on the new target's. So entries are
// found by request id alone, whichever session reports the event.
//
// Bodies: the browser sends a request's body inline when it is small and
// made of bytes only; a larger one, or one that holds a blob or a file, is
// only announced, and must be asked for (Network.getRequestPostData) while
// the document that sent it is still there: once the page navigates, the
// renderer forgets it. So Run asks for each such body as soon as it is
// announced, and FillBodies asks again for any still missing. A body is
// kept only when it is whole: its length is checked against the
// Content-Length the browser sent (a form's navigation with a file is
// handed over without the file's content), and one over MaxBody is not
// kept. Unkept says which bodies are missing, and why.
type Recorder struct {
	mu       sync.Mutex
	reqs     []*record.Request
	current  map[string]int    // requestId → index of its latest entry (redirects make new entries)
	session  map[string]string // requestId → the session that reported it, when not the page's
	sessions func(id string) cdp.Session
	changed  chan struct{}
	// sent is the Content-Length each request was sent with, by request id
	// (Network.requestWillBeSentExtraInfo, which may come first).
	sent map[string]int64
	// unkept says why an entry's announced body is not in it, by index:
	// final (not asked again) or a failure to read it (asked again).
	unkept map[int]unkeptWhy
	keep   func(url string) bool // whose bodies are kept; nil: every request's
	wake   chan struct{}         // a body to ask for (Run)
	// loader is the document (loader id) that sent each request, by
	// request id: a request its document left unfinished ends with it.
	loader map[string]string
	// sockets are the WebSockets the page opened, by request id: each
	// message the page sends on one is an entry of the log (SocketMessage).
	sockets map[string]socket
	// owner is the session that first reported each request or socket id:
	// a service worker is attached twice (through the page and by the
	// browser), and a redirect's hop or a socket's handshake and messages
	// reported again by the second session would be entries twice.
	owner map[string]string
}

// socket is a WebSocket as its handshake said: its URL, and its clocks (the
// protocol's monotonic time and the wall time at the handshake) to date
// its messages by.
type socket struct {
	url        string
	sentAt     float64
	wall       time.Time
	target     *record.Target
	handshaken bool
}

type unkeptWhy struct {
	why   string
	final bool
}

// askBound limits one Network.getRequestPostData (a blob is read for it).
const askBound = 5 * time.Second

// MaxBody is the longest request body the log keeps: a longer one is left
// out (and Unkept says so), never cut.
const MaxBody = 1 << 20

// NewRecorder makes an empty log.
func NewRecorder() *Recorder {
	return &Recorder{current: map[string]int{}, session: map[string]string{}, changed: make(chan struct{}),
		sent: map[string]int64{}, unkept: map[int]unkeptWhy{}, wake: make(chan struct{}, 1), loader: map[string]string{}, sockets: map[string]socket{}, owner: map[string]string{}}
}

// KeepBodies says whose bodies the log keeps, by the request's URL: the
// body of a request keep rejects is neither kept nor asked for (its entry
// still says it had one). nil keeps every body.
func (r *Recorder) KeepBodies(keep func(url string) bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.keep = keep
	for i, e := range r.reqs {
		if e.HasBody && !r.keeps(e) {
			e.Body = ""
			delete(r.unkept, i)
		}
	}
}

func (r *Recorder) keeps(e *record.Request) bool { return r.keep == nil || r.keep(e.URL) }

// Source says which session reported an event: the tab's page (the zero
// Source) or another target attached to the tab.
type Source struct {
	Session string         // the CDP session id; "" for the page's own
	Target  *record.Target // the target behind the session; nil for the page
}

// SetSessions tells the recorder how to reach the sessions of other targets,
// for FillBodies: a request's body is asked of the session that reported it.
func (r *Recorder) SetSessions(f func(id string) cdp.Session) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sessions = f
}

// Observe records ev, reported by the page's own session, when it is a
// network event. It returns fast and runs no command, as a chromedp listener
// must.
func (r *Recorder) Observe(ev any) { r.ObserveFrom(Source{}, ev) }

// ObserveFrom records ev, reported by src, when it is a network event. It
// returns fast and runs no command.
func (r *Recorder) ObserveFrom(src Source, ev any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if id, kind, ok := ownedID(ev); ok {
		o, seen := r.owner[id]
		switch {
		case !seen && kind == firstReport:
			r.owner[id] = src.Session
		case seen && o != src.Session && kind != idempotent:
			return // the same request or socket, reported by a second session
		}
	}
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		id := string(ev.RequestID)
		if _, seen := r.current[id]; seen && ev.RedirectResponse == nil {
			return // the same request, reported by a second session
		}
		if ev.RedirectResponse != nil {
			if e := r.entry(id); e != nil {
				e.Status, e.StatusText = int(ev.RedirectResponse.Status), ev.RedirectResponse.StatusText
				e.ResponseHeaders = headers(ev.RedirectResponse.Headers)
				e.ResponseAt, e.FinishedAt, e.Done = float64(ev.Timestamp), float64(ev.Timestamp), true
			}
		}
		req := &record.Request{Seq: len(r.reqs) + 1, ID: id, Method: ev.Request.Method, URL: ev.Request.URL, Path: pathOf(ev.Request.URL),
			ResourceType: string(ev.Type), RequestHeaders: headers(ev.Request.Headers), HasBody: ev.Request.HasPostData,
			SentAt: float64(ev.Timestamp)}
		if ev.WallTime > 0 {
			// Rounded to the microsecond: nanoseconds of a float64 near 1.7e9 s are noise.
			req.Started = time.UnixMicro(int64(math.Round(float64(ev.WallTime) * 1e6))).UTC()
		}
		if ev.Initiator != nil {
			req.Initiator = string(ev.Initiator.Type)
		}
		req.Target, req.FrameID = src.Target, string(ev.FrameID)
		if ev.LoaderID != "" {
			r.loader[id] = string(ev.LoaderID)
		}
		if src.Session != "" {
			r.session[id] = src.Session
		}
		r.reqs = append(r.reqs, req)
		r.current[id] = len(r.reqs) - 1
		if req.HasBody && r.keeps(req) {
			var body strings.Builder
			for _, p := range ev.Request.PostDataEntries {
				body.Write(p.Bytes)
			}
			r.setBody(len(r.reqs)-1, body.String())
			if req.Body == "" {
				select { // Run asks for it
				case r.wake <- struct{}{}:
				default:
				}
			}
		}
	case *network.EventRequestWillBeSentExtraInfo:
		for k, v := range ev.Headers {
			if s, ok := v.(string); ok && strings.EqualFold(k, "Content-Length") {
				if n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
					id := string(ev.RequestID)
					r.sent[id] = n
					for i, e := range r.reqs { // a redirect's hops share the id
						if e.ID == id {
							r.check(i)
						}
					}
				}
			}
		}
		return // changes nothing a waiter waits for
	case *network.EventResponseReceived:
		if e := r.entry(string(ev.RequestID)); e != nil {
			e.Status, e.StatusText, e.MimeType = int(ev.Response.Status), ev.Response.StatusText, ev.Response.MimeType
			e.ResponseHeaders, e.Protocol, e.ResponseAt = headers(ev.Response.Headers), ev.Response.Protocol, float64(ev.Timestamp)
			e.FromSW = ev.Response.FromServiceWorker
		}
	case *network.EventLoadingFinished:
		if e := r.entry(string(ev.RequestID)); e != nil {
			e.FinishedAt, e.EncodedBytes, e.Done = float64(ev.Timestamp), int64(ev.EncodedDataLength), true
			if e.Failure == ReplacedDocument { // the browser did finish it after all
				e.Failure, e.Canceled = "", false
			}
		}
	case *network.EventLoadingFailed:
		if e := r.entry(string(ev.RequestID)); e != nil {
			e.Failure, e.Canceled, e.Blocked = ev.ErrorText, ev.Canceled, string(ev.BlockedReason)
			e.FinishedAt, e.Done = float64(ev.Timestamp), true
		}
	case *network.EventWebSocketCreated:
		r.sockets[string(ev.RequestID)] = socket{url: ev.URL, target: src.Target}
		return
	case *network.EventWebSocketWillSendHandshakeRequest:
		s, ok := r.sockets[string(ev.RequestID)]
		if !ok {
			return
		}
		s.sentAt, s.handshaken = float64(ev.Timestamp), true
		if ev.WallTime > 0 {
			s.wall = time.UnixMicro(int64(math.Round(float64(ev.WallTime) * 1e6))).UTC()
		}
		r.sockets[string(ev.RequestID)] = s
		// The handshake is an HTTP GET the app receives (and journals, if it
		// keeps a journal): an entry of the log, as the witnesses must agree.
		req := &record.Request{Seq: len(r.reqs) + 1, ID: string(ev.RequestID), Method: "GET", URL: s.url, Path: pathOf(s.url),
			ResourceType: "WebSocket", Target: s.target, SentAt: float64(ev.Timestamp), Started: s.wall}
		if ev.Request != nil {
			req.RequestHeaders = headers(ev.Request.Headers)
		}
		r.reqs = append(r.reqs, req)
		r.current[string(ev.RequestID)] = len(r.reqs) - 1
	case *network.EventWebSocketHandshakeResponseReceived:
		if e := r.entry(string(ev.RequestID)); e != nil && ev.Response != nil {
			e.Status, e.StatusText = int(ev.Response.Status), ev.Response.StatusText
			e.ResponseHeaders, e.ResponseAt, e.FinishedAt, e.Done = headers(ev.Response.Headers), float64(ev.Timestamp), float64(ev.Timestamp), true
		}
	case *network.EventWebSocketFrameError:
		if e := r.entry(string(ev.RequestID)); e != nil && !e.Done {
			e.Failure, e.FinishedAt, e.Done = ev.ErrorMessage, float64(ev.Timestamp), true
		}
	case *network.EventWebSocketClosed:
		if e := r.entry(string(ev.RequestID)); e != nil && !e.Done {
			e.Failure, e.FinishedAt, e.Done = "the socket closed before its handshake was answered", float64(ev.Timestamp), true
		}
	case *network.EventWebSocketFrameSent:
		s, ok := r.sockets[string(ev.RequestID)]
		if !ok || ev.Response == nil {
			return
		}
		req := &record.Request{Seq: len(r.reqs) + 1, ID: string(ev.RequestID), Method: record.SocketMessage, URL: s.url, Path: pathOf(s.url),
			ResourceType: "WebSocket", Target: s.target, HasBody: len(ev.Response.PayloadData) > 0, SentAt: float64(ev.Timestamp), FinishedAt: float64(ev.Timestamp), Done: true}
		if s.handshaken && !s.wall.IsZero() {
			req.Started = s.wall.Add(time.Duration((float64(ev.Timestamp) - s.sentAt) * float64(time.Second))).Truncate(time.Microsecond)
		}
		r.reqs = append(r.reqs, req)
		if r.keeps(req) {
			payload := string(ev.Response.PayloadData)
			if ev.Response.Opcode != 1 { // binary: kept as base64, as the protocol sends it
				payload = base64.StdEncoding.EncodeToString(ev.Response.PayloadData)
			}
			r.setBody(len(r.reqs)-1, payload)
		}
	case *page.EventFrameNavigated:
		if !r.endReplaced(ev.Frame) {
			return
		}
	default:
		return
	}
	close(r.changed)
	r.changed = make(chan struct{})
}

// ReplacedDocument is the failure of a request whose answer had come when
// its document was replaced, before the browser said it had finished.
const ReplacedDocument = "its document was replaced before it finished"

// endReplaced ends the requests a frame's document sent, answered but
// unfinished, when another document of the frame commits. Chromium 156
// says nothing more of them (measured on the page's virtual clock, in the
// top document and in a cross-site frame: a fetch whose redirect was
// answered and whose body the page never read, before it went to the
// answer's URL; internal/live/browser/replaced_test.go),
// so a wait for the log to settle would wait out its bound at every mark.
// They end as canceled by the navigation, as Chromium reports the requests
// it does cancel. One not answered yet is left to the browser.
func (r *Recorder) endReplaced(frame *cdp.Frame) bool {
	if frame == nil || frame.LoaderID == "" {
		return false
	}
	ended := false
	for id, loader := range r.loader {
		if loader == string(frame.LoaderID) {
			continue
		}
		if e := r.entry(id); e != nil && !e.Done && e.Status > 0 && e.FrameID == string(frame.ID) {
			e.Failure, e.Canceled, e.Done = ReplacedDocument, true, true
			ended = true
		}
	}
	return ended
}

// setBody keeps body as entry i's, when it is whole and not too long.
func (r *Recorder) setBody(i int, body string) {
	e := r.reqs[i]
	switch {
	case body == "":
		return
	case len(body) > MaxBody:
		e.Body = ""
		r.unkept[i] = unkeptWhy{fmt.Sprintf("its %d bytes are over the capture limit of %d", len(body), MaxBody), true}
		return
	}
	e.Body = body
	delete(r.unkept, i)
	r.check(i)
}

// check drops entry i's body when it is not the length the browser sent:
// a part is missing, and a body with a part missing is a wrong body.
func (r *Recorder) check(i int) {
	e := r.reqs[i]
	n, ok := r.sent[e.ID]
	if !ok || e.Body == "" || int64(len(e.Body)) == n {
		return
	}
	r.unkept[i] = unkeptWhy{fmt.Sprintf("the browser handed over %d of the %d bytes sent (Chromium leaves a file's content out of a form's navigation)", len(e.Body), n), true}
	e.Body = ""
}

func (r *Recorder) entry(id string) *record.Request {
	if i, ok := r.current[id]; ok {
		return r.reqs[i]
	}
	return nil
}

func headers(h network.Headers) map[string]string {
	if len(h) == 0 {
		return nil
	}
	out := make(map[string]string, len(h))
	for k, v := range h {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

func pathOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	if u.Scheme == "data" {
		return "data:"
	}
	return u.Path // decoded, as a server's journal records it
}

// Requests returns a copy of the log.
func (r *Recorder) Requests() record.Log {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(record.Log, len(r.reqs))
	for i, e := range r.reqs {
		out[i] = *e
	}
	return out
}

// Len is the number of requests so far: a mark to count after.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.reqs)
}

// WaitFor waits until a request after mark satisfies match and is done, or
// ctx ends.
func (r *Recorder) WaitFor(ctx context.Context, mark int, match func(record.Request) bool) (record.Request, error) {
	for {
		r.mu.Lock()
		for _, e := range r.reqs[min(mark, len(r.reqs)):] {
			if e.Done && match(*e) {
				r.mu.Unlock()
				return *e, nil
			}
		}
		changed := r.changed
		r.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return record.Request{}, ctx.Err()
		}
	}
}

// Find answers the first finished request after mark that match accepts,
// without waiting.
func (r *Recorder) Find(mark int, match func(record.Request) bool) (record.Request, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.reqs[min(mark, len(r.reqs)):] {
		if e.Done && match(*e) {
			return *e, true
		}
	}
	return record.Request{}, false
}

// Open answers the positions in the log of the requests still open (sent,
// not yet answered or failed), in log order.
func (r *Recorder) Open() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []int
	for i, e := range r.reqs {
		if !e.Done {
			out = append(out, i)
		}
	}
	return out
}

// WaitOpen waits until no open request (sent, not yet answered or failed)
// is one that match accepts, or ctx ends.
func (r *Recorder) WaitOpen(ctx context.Context, match func(record.Request) bool) error {
	for {
		r.mu.Lock()
		open := slices.ContainsFunc(r.reqs, func(e *record.Request) bool { return !e.Done && match(*e) })
		changed := r.changed
		r.mu.Unlock()
		if !open {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// At answers a copy of the request at position i of the log.
func (r *Recorder) At(i int) (record.Request, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if i < 0 || i >= len(r.reqs) {
		return record.Request{}, false
	}
	return *r.reqs[i], true
}

// WaitSettled waits until every request recorded so far has finished or
// failed, or ctx ends (a long poll never finishes: keep the bound short).
func (r *Recorder) WaitSettled(ctx context.Context) error {
	return r.WaitOpen(ctx, func(record.Request) bool { return true })
}

// FillBodies fetches, with Network.getRequestPostData on the session that
// reported each request, the bodies the browser announced but did not send
// inline and that are still missing (Run asks for most of them earlier).
// It must run while the tab (and the target) is open: ctx is bound to the
// tab's page.
func (r *Recorder) FillBodies(ctx context.Context) error {
	r.fill(ctx, true)
	return nil
}

// Run asks for each body the browser announces without sending it, as soon
// as it is announced, until ctx ends: the renderer forgets a body when its
// document goes. ctx is bound to the tab's page.
func (r *Recorder) Run(ctx context.Context) {
	for {
		select {
		case <-r.wake:
			r.fill(ctx, false)
		case <-ctx.Done():
			return
		}
	}
}

// fill asks for the missing bodies; again (last) asks also for those that
// could not be read before.
func (r *Recorder) fill(ctx context.Context, again bool) {
	type ask struct {
		i       int
		id      string
		session cdp.Session
	}
	r.mu.Lock()
	var missing []ask
	for i, e := range r.reqs {
		why, noted := r.unkept[i]
		if !e.HasBody || e.Body != "" || !r.keeps(e) || why.final || noted && !again {
			continue
		}
		a := ask{i: i, id: e.ID}
		if id := r.session[e.ID]; id != "" && r.sessions != nil {
			a.session = r.sessions(id)
		}
		missing = append(missing, a)
	}
	r.mu.Unlock()
	for _, a := range missing {
		params := network.GetRequestPostDataParams{RequestID: network.RequestID(a.id)}
		var res network.GetRequestPostDataResult
		var err error
		asking, cancel := context.WithTimeout(ctx, askBound)
		if a.session != nil {
			res, err = cdp.Call(asking, a.session, network.GetRequestPostData, params)
		} else {
			res, err = chromedp.Call(asking, network.GetRequestPostData, params)
		}
		cancel()
		r.mu.Lock()
		switch e := r.reqs[a.i]; {
		case e.Body != "" || r.unkept[a.i].final:
		case err != nil:
			r.unkept[a.i] = unkeptWhy{"the browser did not hand it over: " + err.Error(), false}
		case len(res.PostData) == 0:
			r.unkept[a.i] = unkeptWhy{"the browser handed over an empty body", true}
		default:
			r.setBody(a.i, string(res.PostData))
		}
		close(r.changed) // a waiter may wait for a body
		r.changed = make(chan struct{})
		r.mu.Unlock()
	}
}

// Unkept is a request whose body the log does not hold, and why.
type Unkept struct {
	Seq    int    // the entry's place in the log, from 1
	Method string // the request's
	URL    string
	Why    string
}

// Unkept lists the requests that had a body the log does not hold, among
// those whose bodies it keeps (KeepBodies), in log order.
func (r *Recorder) Unkept() []Unkept {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Unkept
	for i, e := range r.reqs {
		if !e.HasBody || e.Body != "" || !r.keeps(e) {
			continue
		}
		why, ok := r.unkept[i]
		if !ok {
			why.why = "the browser was never asked for it"
		}
		out = append(out, Unkept{Seq: e.Seq, Method: e.Method, URL: e.URL, Why: why.why})
	}
	return out
}

// EnableParams turn on the Network domain with room for request bodies, on
// the page and on every target attached to it: a body of bytes up to
// MaxBody comes inline with its request, so that none of those can be lost
// to a navigation before it is asked for (Run asks for the others).
var EnableParams = network.EnableParams{MaxPostDataSize: new(int64(MaxBody))}

// Enable turns on the Network domain of the page with EnableParams.
func Enable(ctx context.Context) error {
	_, err := chromedp.Call(ctx, network.Enable, EnableParams)
	return err
}

// EndSession ends the requests a session reported that are still open when
// its target is gone (a popup that closed itself while its favicon was on
// its way): nothing will finish them, and a wait for the log to settle
// would otherwise wait out its bound.
func (r *Recorder) EndSession(session, why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ended := false
	for id, s := range r.session {
		if s != session {
			continue
		}
		if e := r.entry(id); e != nil && !e.Done {
			e.Done, e.Failure = true, why
			ended = true
		}
	}
	if ended {
		close(r.changed)
		r.changed = make(chan struct{})
	}
}
