// Package netlog records a tab's network requests from CDP events, in the
// order the browser sent them, counts them for positive and negative
// assertions, and exports them as HAR 1.2.
package netlog

import (
	"context"
	"math"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/agentready/agentready/record"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
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
type Recorder struct {
	mu       sync.Mutex
	reqs     []*record.Request
	current  map[string]int    // requestId → index of its latest entry (redirects make new entries)
	session  map[string]string // requestId → the session that reported it, when not the page's
	sessions func(id string) cdp.Session
	changed  chan struct{}
}

// NewRecorder makes an empty log.
func NewRecorder() *Recorder {
	return &Recorder{current: map[string]int{}, session: map[string]string{}, changed: make(chan struct{})}
}

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
		if src.Session != "" {
			r.session[id] = src.Session
		}
		for _, p := range ev.Request.PostDataEntries {
			req.Body += string(p.Bytes)
		}
		r.reqs = append(r.reqs, req)
		r.current[id] = len(r.reqs) - 1
	case *network.EventResponseReceived:
		if e := r.entry(string(ev.RequestID)); e != nil {
			e.Status, e.StatusText, e.MimeType = int(ev.Response.Status), ev.Response.StatusText, ev.Response.MimeType
			e.ResponseHeaders, e.Protocol, e.ResponseAt = headers(ev.Response.Headers), ev.Response.Protocol, float64(ev.Timestamp)
			e.FromSW = ev.Response.FromServiceWorker
		}
	case *network.EventLoadingFinished:
		if e := r.entry(string(ev.RequestID)); e != nil {
			e.FinishedAt, e.EncodedBytes, e.Done = float64(ev.Timestamp), int64(ev.EncodedDataLength), true
		}
	case *network.EventLoadingFailed:
		if e := r.entry(string(ev.RequestID)); e != nil {
			e.Failure, e.Canceled, e.Blocked = ev.ErrorText, ev.Canceled, string(ev.BlockedReason)
			e.FinishedAt, e.Done = float64(ev.Timestamp), true
		}
	default:
		return
	}
	close(r.changed)
	r.changed = make(chan struct{})
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

// WaitSettled waits until every request recorded so far has finished or
// failed, or ctx ends (a long poll never finishes: keep the bound short).
func (r *Recorder) WaitSettled(ctx context.Context) error {
	for {
		r.mu.Lock()
		open := slices.ContainsFunc(r.reqs, func(e *record.Request) bool { return !e.Done })
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

// FillBodies fetches, with Network.getRequestPostData on the session that
// reported each request, the bodies the browser announced but did not send
// inline. It must run while the tab (and the target) is open: ctx is bound
// to the tab's page.
func (r *Recorder) FillBodies(ctx context.Context) error {
	type ask struct {
		e       *record.Request
		session cdp.Session
	}
	r.mu.Lock()
	var missing []ask
	for _, e := range r.reqs {
		if e.HasBody && e.Body == "" {
			a := ask{e: e}
			if id := r.session[e.ID]; id != "" && r.sessions != nil {
				a.session = r.sessions(id)
			}
			missing = append(missing, a)
		}
	}
	r.mu.Unlock()
	for _, a := range missing {
		e, params := a.e, network.GetRequestPostDataParams{RequestID: network.RequestID(a.e.ID)}
		var res network.GetRequestPostDataResult
		var err error
		if a.session != nil {
			res, err = cdp.Call(ctx, a.session, network.GetRequestPostData, params)
		} else {
			res, err = chromedp.Call(ctx, network.GetRequestPostData, params)
		}
		if err != nil {
			continue // the browser no longer holds it: the entry keeps HasBody with no Body
		}
		r.mu.Lock()
		e.Body = string(res.PostData)
		r.mu.Unlock()
	}
	return nil
}

// EnableParams turn on the Network domain with room for request bodies, on
// the page and on every target attached to it.
var EnableParams = network.EnableParams{MaxPostDataSize: new(int64(64 << 10))}

// Enable turns on the Network domain of the page with EnableParams.
func Enable(ctx context.Context) error {
	_, err := chromedp.Call(ctx, network.Enable, EnableParams)
	return err
}
