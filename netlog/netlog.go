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
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// Recorder keeps the requests of one tab. Observe is called from the tab's
// listener; the other methods from anywhere.
type Recorder struct {
	mu      sync.Mutex
	reqs    []*record.Request
	current map[string]int // requestId → index of its latest entry (redirects make new entries)
	changed chan struct{}
}

// NewRecorder makes an empty log.
func NewRecorder() *Recorder {
	return &Recorder{current: map[string]int{}, changed: make(chan struct{})}
}

// Observe records ev when it is a network event. It returns fast and runs no
// command, as a chromedp listener must.
func (r *Recorder) Observe(ev any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		id := string(ev.RequestID)
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
		for _, p := range ev.Request.PostDataEntries {
			req.Body += string(p.Bytes)
		}
		r.reqs = append(r.reqs, req)
		r.current[id] = len(r.reqs) - 1
	case *network.EventResponseReceived:
		if e := r.entry(string(ev.RequestID)); e != nil {
			e.Status, e.StatusText, e.MimeType = int(ev.Response.Status), ev.Response.StatusText, ev.Response.MimeType
			e.ResponseHeaders, e.Protocol, e.ResponseAt = headers(ev.Response.Headers), ev.Response.Protocol, float64(ev.Timestamp)
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

// FillBodies fetches, with Network.getRequestPostData, the bodies the browser
// announced but did not send inline. It must run while the tab is open.
func (r *Recorder) FillBodies(ctx context.Context) error {
	r.mu.Lock()
	var missing []*record.Request
	for _, e := range r.reqs {
		if e.HasBody && e.Body == "" {
			missing = append(missing, e)
		}
	}
	r.mu.Unlock()
	for _, e := range missing {
		res, err := chromedp.Call(ctx, network.GetRequestPostData, network.GetRequestPostDataParams{RequestID: network.RequestID(e.ID)})
		if err != nil {
			continue // the browser no longer holds it: the entry keeps HasBody with no Body
		}
		r.mu.Lock()
		e.Body = string(res.PostData)
		r.mu.Unlock()
	}
	return nil
}

// Enable turns on the Network domain with room for request bodies.
func Enable(ctx context.Context) error {
	_, err := chromedp.Call(ctx, network.Enable, network.EnableParams{MaxPostDataSize: new(int64(64 << 10))})
	return err
}
