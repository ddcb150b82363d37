package netlog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
)

// testWait bounds the waits that are expected to succeed.
const testWait = 5 * time.Second

// wallStart is the wall clock of the first request of the test events.
const wallStart = 1767268800.25 // 2026-01-01T12:00:00.25Z

// Builders of the CDP events the recorder reads. ts is the protocol's
// monotonic timestamp in seconds.

func sent(id, method, url string, ts float64, headers network.Headers, body ...string) *network.EventRequestWillBeSent {
	ev := &network.EventRequestWillBeSent{
		RequestID: network.RequestID(id), LoaderID: "L1", DocumentURL: "http://app.test/",
		Request:   &network.Request{URL: url, Method: method, Headers: headers},
		Timestamp: cdp.MonotonicTime(ts), WallTime: cdp.TimeSinceEpoch(wallStart + ts - 100),
		Initiator: &network.Initiator{Type: network.InitiatorTypeScript}, Type: network.ResourceTypeFetch,
	}
	for _, b := range body {
		ev.Request.HasPostData = true
		ev.Request.PostDataEntries = append(ev.Request.PostDataEntries, &network.PostDataEntry{Bytes: []byte(b)})
	}
	return ev
}

func redirected(id, url string, ts float64, status int64, location string) *network.EventRequestWillBeSent {
	ev := sent(id, "GET", url, ts, nil)
	ev.RedirectResponse = &network.Response{URL: "http://app.test/old", Status: status, StatusText: "Found",
		Headers: network.Headers{"location": location}}
	return ev
}

func received(id string, ts float64, status int64, mime string, headers network.Headers) *network.EventResponseReceived {
	return &network.EventResponseReceived{RequestID: network.RequestID(id), Timestamp: cdp.MonotonicTime(ts), Type: network.ResourceTypeFetch,
		Response: &network.Response{Status: status, StatusText: "OK", MimeType: mime, Headers: headers, Protocol: "http/1.1"}}
}

func finished(id string, ts, bytes float64) *network.EventLoadingFinished {
	return &network.EventLoadingFinished{RequestID: network.RequestID(id), Timestamp: cdp.MonotonicTime(ts), EncodedDataLength: bytes}
}

func failed(id string, ts float64, text string, canceled bool, blocked network.BlockedReason) *network.EventLoadingFailed {
	return &network.EventLoadingFailed{RequestID: network.RequestID(id), Timestamp: cdp.MonotonicTime(ts), Type: network.ResourceTypeFetch,
		ErrorText: text, Canceled: canceled, BlockedReason: blocked}
}

func observed(events ...any) *Recorder {
	r := NewRecorder()
	for _, ev := range events {
		r.Observe(ev)
	}
	return r
}

func TestObserveBuildsTheLog(t *testing.T) {
	jsonCT := network.Headers{"Content-Type": "application/json"}
	r := observed(
		sent("1", "GET", "http://app.test/api/events?from=2026", 100, network.Headers{"Accept": "*/*"}),
		received("1", 100.010, 200, "application/json", jsonCT),
		finished("1", 100.015, 512),
		sent("2", "POST", "http://app.test/api/registrations", 101, jsonCT, `{"event":`, `"e1"}`),
		received("2", 101.020, 201, "application/json", jsonCT),
		finished("2", 101.030, 64),
		sent("3", "POST", "http://other.test/collect", 102, nil, "x=1"),
		failed("3", 102.5, "net::ERR_CONNECTION_REFUSED", false, ""),
		sent("4", "GET", "http://app.test/slow", 103, nil),
		failed("4", 103.1, "net::ERR_ABORTED", true, ""),
		sent("5", "GET", "http://ads.test/pixel.gif", 104, nil),
		failed("5", 104.01, "net::ERR_BLOCKED_BY_CLIENT", false, network.BlockedReasonInspector),
		sent("6", "GET", "http://app.test/pending", 105, nil),
		// Not network events, or for an unknown request: ignored.
		received("nope", 106, 500, "", nil),
		finished("nope", 106, 1),
		"not an event",
		nil,
	)
	log := r.Requests()
	if len(log) != 6 || r.Len() != 6 {
		t.Fatalf("got %d requests (Len %d), want 6", len(log), r.Len())
	}
	for i, req := range log {
		if req.Seq != i+1 {
			t.Errorf("request %d has Seq %d", i, req.Seq)
		}
	}

	get := log[0]
	if get.ID != "1" || get.Method != "GET" || get.Path != "/api/events" || get.Status != 200 || get.MimeType != "application/json" ||
		get.Protocol != "http/1.1" || get.EncodedBytes != 512 || !get.Done || get.ResourceType != "Fetch" || get.Initiator != "script" ||
		get.RequestHeaders["Accept"] != "*/*" || get.ResponseHeaders["Content-Type"] != "application/json" {
		t.Errorf("GET: %+v", get)
	}
	if get.SentAt != 100 || get.ResponseAt != 100.010 || get.FinishedAt != 100.015 {
		t.Errorf("GET times: sent %v response %v finished %v", get.SentAt, get.ResponseAt, get.FinishedAt)
	}
	if want := time.Unix(1767268800, 250e6).UTC(); !get.Started.Equal(want) || get.Started.Location() != time.UTC {
		t.Errorf("Started = %v, want %v", get.Started, want)
	}

	post := log[1]
	if !post.HasBody || post.Body != `{"event":"e1"}` || post.Status != 201 || !post.Done {
		t.Errorf("POST: body %q HasBody %v status %d done %v", post.Body, post.HasBody, post.Status, post.Done)
	}

	for _, tt := range []struct {
		req      record.Request
		failure  string
		canceled bool
		blocked  string
	}{
		{log[2], "net::ERR_CONNECTION_REFUSED", false, ""},
		{log[3], "net::ERR_ABORTED", true, ""},
		{log[4], "net::ERR_BLOCKED_BY_CLIENT", false, "inspector"},
	} {
		if tt.req.Failure != tt.failure || tt.req.Canceled != tt.canceled || tt.req.Blocked != tt.blocked || !tt.req.Done || tt.req.Status != 0 || tt.req.FinishedAt == 0 {
			t.Errorf("%s: %+v; want failure %q canceled %v blocked %q, done, status 0", tt.req.Path, tt.req, tt.failure, tt.canceled, tt.blocked)
		}
	}
	if p := log[5]; p.Done || p.Status != 0 {
		t.Errorf("a request without an answer should be pending: %+v", p)
	}

	// Requests is a copy.
	log[0].Status = 999
	if r.Requests()[0].Status != 200 {
		t.Error("Requests() shares its entries with the recorder")
	}
}

func TestObserveRedirectMakesASecondEntry(t *testing.T) {
	r := observed(
		sent("r1", "GET", "http://app.test/old", 100, nil),
		redirected("r1", "http://app.test/new", 100.2, 302, "/new"),
		received("r1", 100.3, 200, "text/html", nil),
		finished("r1", 100.4, 1000),
	)
	log := r.Requests()
	if len(log) != 2 {
		t.Fatalf("got %d entries, want 2: %+v", len(log), log)
	}
	first, second := log[0], log[1]
	if first.Path != "/old" || first.Status != 302 || first.StatusText != "Found" || !first.Done ||
		first.ResponseAt != 100.2 || first.FinishedAt != 100.2 || first.ResponseHeaders["location"] != "/new" {
		t.Errorf("first entry is not closed with the redirect: %+v", first)
	}
	if first.EncodedBytes != 0 || first.MimeType != "" {
		t.Errorf("the final response leaked into the redirect entry: %+v", first)
	}
	if second.ID != "r1" || second.Seq != 2 || second.Path != "/new" || second.Status != 200 || !second.Done || second.FinishedAt != 100.4 || second.EncodedBytes != 1000 {
		t.Errorf("second entry: %+v", second)
	}
}

func TestPathOf(t *testing.T) {
	tests := []struct{ url, want string }{
		{"http://app.test/api/events?from=1#top", "/api/events"},
		{"http://app.test/", "/"},
		{"http://app.test", ""},
		{"http://app.test/a%20b/c", "/a b/c"},
		{"http://app.test/api/registrations/42/cancel", "/api/registrations/42/cancel"},
		{"data:text/plain;base64,aGk=", "data:"},
		{"blob:http://app.test/1234", ""},
		{"http://[::1", "http://[::1"}, // not a URL: kept as it is
	}
	for _, tt := range tests {
		if got := pathOf(tt.url); got != tt.want {
			t.Errorf("pathOf(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
}

func TestWaitForReturnsOnlyDoneRequests(t *testing.T) {
	r := observed(
		sent("1", "POST", "http://app.test/api/registrations", 100, nil, "{}"),
		received("1", 100.1, 201, "application/json", nil),
	)
	isPost := func(q record.Request) bool {
		return record.MatchRequest(q.Method, q.Path, "POST", "/api/registrations")
	}

	// Answered but not finished: not done yet.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if got, err := r.WaitFor(ctx, 0, isPost); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitFor on a pending request = %+v, %v; want DeadlineExceeded", got, err)
	}

	type result struct {
		req record.Request
		err error
	}
	done := make(chan result, 1)
	ctx, cancel = context.WithTimeout(context.Background(), testWait)
	defer cancel()
	go func() {
		req, err := r.WaitFor(ctx, 0, isPost)
		done <- result{req, err}
	}()
	r.Observe(finished("1", 100.2, 10))
	got := <-done
	if got.err != nil || !got.req.Done || got.req.Status != 201 || got.req.ID != "1" {
		t.Fatalf("WaitFor = %+v, %v; want the finished POST", got.req, got.err)
	}

	// A mark skips what came before.
	mark := r.Len()
	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := r.WaitFor(ctx, mark, isPost); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitFor after the mark found an older request: %v", err)
	}
	// A canceled context ends it at once.
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if _, err := r.WaitFor(ctx, mark, isPost); !errors.Is(err, context.Canceled) {
		t.Fatalf("canceled: err = %v", err)
	}
}

func TestWaitSettledWaitsForOpenRequestsWithABound(t *testing.T) {
	r := NewRecorder()
	r.Observe(&network.EventRequestWillBeSent{RequestID: "1", Request: &network.Request{Method: "GET", URL: "http://a.test/x"}})
	short, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := r.WaitSettled(short); err == nil {
		t.Fatal("an open request counted as settled")
	}
	go r.Observe(&network.EventLoadingFinished{RequestID: "1"})
	long, cancel2 := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel2()
	if err := r.WaitSettled(long); err != nil {
		t.Fatal(err)
	}
}

// WaitOpen waits only for the open requests its match names: a stream that
// was answered and never ends does not hold a wait for unanswered ones.
func TestWaitOpenWaitsOnlyForTheRequestsItNames(t *testing.T) {
	r := NewRecorder()
	unanswered := func(q record.Request) bool { return q.ResponseAt == 0 }
	r.Observe(&network.EventRequestWillBeSent{RequestID: "s", Type: network.ResourceTypeEventSource, Request: &network.Request{Method: "GET", URL: "http://a.test/live"}})
	r.Observe(&network.EventResponseReceived{RequestID: "s", Timestamp: cdp.MonotonicTime(101), Response: &network.Response{Status: 200, MimeType: "text/event-stream"}})
	r.Observe(&network.EventRequestWillBeSent{RequestID: "w", Request: &network.Request{Method: "POST", URL: "http://a.test/save"}})
	short, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := r.WaitOpen(short, unanswered); err == nil {
		t.Fatal("a POST without its answer counted as answered")
	}
	go r.Observe(&network.EventResponseReceived{RequestID: "w", Timestamp: cdp.MonotonicTime(102), Response: &network.Response{Status: 201}})
	long, cancel2 := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel2()
	if err := r.WaitOpen(long, unanswered); err != nil {
		t.Fatalf("the open stream held the wait: %v", err)
	}
	if r.WaitSettled(short) == nil {
		t.Fatal("WaitSettled took two open requests for settled")
	}
}

// TestObserveFromOtherTargets: one log for the page and the targets attached
// to it. A worker's script starts on the page's session and finishes on the
// worker's; the worker's own POST names the worker; a second report of a
// request already in the log (no redirect) adds nothing.
func TestObserveFromOtherTargets(t *testing.T) {
	worker := Source{Session: "S-W", Target: &record.Target{Type: "worker", ID: "W1"}}
	frame := Source{Session: "S-F", Target: &record.Target{Type: "iframe", ID: "F2"}}
	script := sent("10", "GET", "http://app.test/worker.js", 100, nil)
	script.FrameID = "F1"
	post := sent("11", "POST", "http://app.test/api/from-worker", 100.2, nil, "w=1")
	framePost := sent("12", "POST", "http://other.test/api/from-frame", 100.3, nil, "f=1")
	framePost.FrameID = "F2"
	answered := received("13", 100.5, 200, "application/json", nil)
	answered.Response.FromServiceWorker = true
	r := NewRecorder()
	r.Observe(script)
	r.ObserveFrom(worker, received("10", 100.1, 200, "text/javascript", nil))
	r.ObserveFrom(worker, finished("10", 100.15, 100))
	r.ObserveFrom(worker, post)
	r.ObserveFrom(worker, sent("11", "POST", "http://app.test/api/from-worker", 100.2, nil, "w=1")) // reported twice
	r.ObserveFrom(frame, framePost)
	r.ObserveFrom(worker, finished("11", 100.25, 10))
	r.ObserveFrom(frame, failed("12", 100.4, "net::ERR_FAILED", false, ""))
	r.Observe(sent("13", "POST", "http://app.test/api/through-sw", 100.45, nil, "s=1"))
	r.Observe(answered)
	r.Observe(finished("13", 100.6, 1))

	log := r.Requests()
	if len(log) != 4 {
		t.Fatalf("want 4 entries (one per request), got %d: %+v", len(log), log)
	}
	if e := log[0]; e.Target != nil || e.FrameID != "F1" || !e.Done || e.Status != 200 {
		t.Errorf("the worker's script, begun on the page and finished on the worker: %+v", e)
	}
	if e := log[1]; e.Target == nil || *e.Target != (record.Target{Type: "worker", ID: "W1"}) || e.FrameID != "" || !e.Done || e.Body != "w=1" || e.Seq != 2 {
		t.Errorf("the worker's POST: %+v", e)
	}
	if e := log[2]; e.Target == nil || e.Target.Type != "iframe" || e.FrameID != "F2" || !e.Done || e.Failure != "net::ERR_FAILED" {
		t.Errorf("the cross-site frame's POST: %+v", e)
	}
	if e := log[3]; e.Target != nil || !e.FromSW {
		t.Errorf("a request the service worker answered: %+v", e)
	}
}

// fakeSession answers Network.getRequestPostData with its own name.
type fakeSession struct {
	name  string
	asked []string
}

func (s *fakeSession) Call(_ context.Context, method string, params, res any) error {
	p := params.(network.GetRequestPostDataParams)
	s.asked = append(s.asked, method+" "+string(p.RequestID))
	res.(*network.GetRequestPostDataResult).PostData = []byte("body from " + s.name)
	return nil
}

func (s *fakeSession) Subscribe(string) (<-chan jsonv2.Value, func()) { return nil, func() {} }

// TestFillBodiesAsksTheSessionThatReported: a body the browser did not send
// inline is asked of the worker's session for the worker's request.
func TestFillBodiesAsksTheSessionThatReported(t *testing.T) {
	w := &fakeSession{name: "worker"}
	r := NewRecorder()
	r.SetSessions(func(id string) cdp.Session {
		if id != "S-W" {
			t.Errorf("asked for session %q", id)
		}
		return w
	})
	big := sent("20", "POST", "http://app.test/api/upload", 100, nil)
	big.Request.HasPostData = true // announced, not inline
	r.ObserveFrom(Source{Session: "S-W", Target: &record.Target{Type: "worker", ID: "W1"}}, big)
	if err := r.FillBodies(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := r.Requests()[0].Body; got != "body from worker" {
		t.Errorf("body %q", got)
	}
	if len(w.asked) != 1 || w.asked[0] != "Network.getRequestPostData 20" {
		t.Errorf("asked %v", w.asked)
	}
}

// extra is the event with the headers the browser sent a request with.
func extra(id string, contentLength string) *network.EventRequestWillBeSentExtraInfo {
	return &network.EventRequestWillBeSentExtraInfo{RequestID: network.RequestID(id), Headers: network.Headers{"Content-Length": contentLength}}
}

// bodyScript answers Network.getRequestPostData from a table, or fails.
type bodyScript struct {
	mu     sync.Mutex
	bodies map[string]string // request id → body; absent: the browser no longer holds it
	asked  []string
	asking chan string // each id asked for, when set
}

func (s *bodyScript) Call(_ context.Context, _ string, params, res any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := string(params.(network.GetRequestPostDataParams).RequestID)
	s.asked = append(s.asked, id)
	if s.asking != nil {
		s.asking <- id
	}
	b, ok := s.bodies[id]
	if !ok {
		return errors.New("No resource with given id was found (-32000)")
	}
	res.(*network.GetRequestPostDataResult).PostData = []byte(b)
	return nil
}

func (s *bodyScript) Subscribe(string) (<-chan jsonv2.Value, func()) { return nil, func() {} }

func (s *bodyScript) askedFor() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.asked)
}

// fromWorker is a Source whose session is a bodyScript's.
var fromWorker = Source{Session: "S-W", Target: &record.Target{Type: "worker", ID: "W1"}}

func scripted(bodies map[string]string) (*Recorder, *bodyScript) {
	s := &bodyScript{bodies: bodies}
	r := NewRecorder()
	r.SetSessions(func(string) cdp.Session { return s })
	return r, s
}

func announced(id, method, url string) *network.EventRequestWillBeSent {
	ev := sent(id, method, url, 100, nil)
	ev.Request.HasPostData = true
	return ev
}

// TestKeepBodiesKeepsOnlyTheAppsBodies: a body sent to another origin is
// neither kept nor asked for; its entry still says it had one.
func TestKeepBodiesKeepsOnlyTheAppsBodies(t *testing.T) {
	r, s := scripted(map[string]string{"2": "big from the tracker"})
	r.KeepBodies(func(url string) bool { return strings.HasPrefix(url, "http://app.test/") })
	r.ObserveFrom(fromWorker, sent("1", "POST", "http://app.test/api/save", 100, nil, `{"email":"ann@example.org"}`))
	r.ObserveFrom(fromWorker, sent("3", "POST", "http://tracker.test/collect", 101, nil, "email=ann%40example.org"))
	r.ObserveFrom(fromWorker, announced("2", "POST", "http://tracker.test/big"))
	_ = r.FillBodies(t.Context())
	log := r.Requests()
	if log[0].Body != `{"email":"ann@example.org"}` {
		t.Errorf("the app's body: %q", log[0].Body)
	}
	for _, e := range log[1:] {
		if e.Body != "" || !e.HasBody {
			t.Errorf("%s: body %q, hasBody %v: want no body kept, hasBody true", e.URL, e.Body, e.HasBody)
		}
	}
	if got := s.askedFor(); len(got) != 0 {
		t.Errorf("asked the browser for %v: a third party's body is not ours to fetch", got)
	}
	if u := r.Unkept(); len(u) != 0 {
		t.Errorf("unkept %+v: bodies not meant to be kept are not missing", u)
	}
	// Set after the fact, it drops what was kept.
	r.KeepBodies(func(string) bool { return false })
	if b := r.Requests()[0].Body; b != "" {
		t.Errorf("after KeepBodies(none) the body is %q", b)
	}
}

// TestABodyNotTheLengthSentIsNotKept: a body whose length is not the
// Content-Length the browser sent has a part missing; it is dropped and
// Unkept says so, whichever event comes first. One of the right length is
// kept.
func TestABodyNotTheLengthSentIsNotKept(t *testing.T) {
	r := observed(
		extra("1", "459"), // before its request, as the browser may send it
		sent("1", "POST", "http://app.test/signup", 100, nil, "name=Ann&cv="),
		sent("2", "POST", "http://app.test/other", 101, nil, "name=Bob&cv="),
		extra("2", "500"), // after
		sent("3", "POST", "http://app.test/ok", 102, nil, "a=1"),
		extra("3", "3"),
		extra("4", "9"), // a GET's extra info: nothing to check
		sent("4", "GET", "http://app.test/page", 103, nil),
		// A form's POST answered 303: the GET that follows shares its id,
		// and the POST's extra info may come after it.
		sent("5", "POST", "http://app.test/form", 104, nil, "a=12"),
		redirected("5", "http://app.test/done", 104.1, 303, "/done"),
		extra("5", "9"),
	)
	log := r.Requests()
	if log[0].Body != "" || log[1].Body != "" || log[2].Body != "a=1" {
		t.Errorf("bodies %q %q %q, want the two short ones dropped and a=1 kept", log[0].Body, log[1].Body, log[2].Body)
	}
	u := r.Unkept()
	if len(u) != 3 || u[0].Seq != 1 || u[1].Seq != 2 || u[2].Seq != 5 || u[0].Method != "POST" || u[0].URL != "http://app.test/signup" {
		t.Fatalf("unkept %+v", u)
	}
	if want := "the browser handed over 12 of the 459 bytes sent"; !strings.HasPrefix(u[0].Why, want) {
		t.Errorf("why %q, want it to start %q", u[0].Why, want)
	}
}

// TestABodyOverTheLimitIsNotKept: a body longer than MaxBody is left out,
// said so, and not asked for again.
func TestABodyOverTheLimitIsNotKept(t *testing.T) {
	r, s := scripted(map[string]string{"1": strings.Repeat("x", MaxBody+1), "2": strings.Repeat("y", MaxBody)})
	r.ObserveFrom(fromWorker, announced("1", "PUT", "http://app.test/api/upload"))
	r.ObserveFrom(fromWorker, announced("2", "PUT", "http://app.test/api/upload2"))
	_ = r.FillBodies(t.Context())
	_ = r.FillBodies(t.Context())
	log := r.Requests()
	if log[0].Body != "" || len(log[1].Body) != MaxBody {
		t.Errorf("body lengths %d and %d, want 0 and %d", len(log[0].Body), len(log[1].Body), MaxBody)
	}
	u := r.Unkept()
	if len(u) != 1 || u[0].Seq != 1 || u[0].Why != fmt.Sprintf("its %d bytes are over the capture limit of %d", MaxBody+1, MaxBody) {
		t.Errorf("unkept %+v", u)
	}
	if got := s.askedFor(); !slices.Equal(got, []string{"1", "2"}) {
		t.Errorf("asked %v, want 1 and 2 once each", got)
	}
}

// TestRunAsksForABodyAsSoonAsItIsAnnounced: Run fetches an announced body
// without waiting for FillBodies; one the browser no longer holds is said
// so, and FillBodies asks once more.
func TestRunAsksForABodyAsSoonAsItIsAnnounced(t *testing.T) {
	r, s := scripted(map[string]string{"1": "blob body"})
	s.asking = make(chan string, 4)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	r.ObserveFrom(fromWorker, announced("1", "POST", "http://app.test/api/beacon"))
	r.ObserveFrom(fromWorker, finished("1", 100.1, 10))
	wait, stop := context.WithTimeout(t.Context(), testWait)
	defer stop()
	if _, err := r.WaitFor(wait, 0, func(q record.Request) bool { return q.Body == "blob body" }); err != nil {
		t.Fatalf("Run never fetched the body (%v); asked %v", err, s.askedFor())
	}
	r.ObserveFrom(fromWorker, announced("2", "POST", "http://app.test/api/gone"))
	for id := ""; id != "2"; {
		select {
		case id = <-s.asking:
		case <-wait.Done():
			t.Fatalf("Run never asked for the second body; asked %v", s.askedFor())
		}
	}
	cancel()
	<-done
	u := r.Unkept()
	if len(u) != 1 || u[0].Seq != 2 || u[0].Why != "the browser did not hand it over: No resource with given id was found (-32000)" {
		t.Errorf("unkept %+v", u)
	}
	_ = r.FillBodies(t.Context())
	if got := s.askedFor(); !slices.Equal(got, []string{"1", "2", "2"}) {
		t.Errorf("asked %v, want FillBodies to ask for the missing one again, and only it", got)
	}
}

// TestEndSessionEndsOnlyThatSessionsOpenRequests: a popup that closed with
// its favicon on the way ends that request (nothing else would), and
// nothing of another session or already done.
func TestEndSessionEndsOnlyThatSessionsOpenRequests(t *testing.T) {
	popup := Source{Session: "S-P", Target: &record.Target{Type: "page", ID: "P1", Window: "P1"}}
	r := NewRecorder()
	r.ObserveFrom(popup, sent("1", "POST", "http://auth.test/session", 100, nil, "a=1"))
	r.ObserveFrom(popup, finished("1", 100.1, 10))
	r.ObserveFrom(popup, sent("2", "GET", "http://auth.test/favicon.ico", 100.2, nil))
	r.Observe(sent("3", "GET", "http://app.test/slow", 100.3, nil))
	r.EndSession("S-P", "the window closed before it finished")
	log := r.Requests()
	if e := log[0]; !e.Done || e.Failure != "" {
		t.Errorf("a finished request changed: %+v", e)
	}
	if e := log[1]; !e.Done || e.Failure != "the window closed before it finished" {
		t.Errorf("the closed window's open request: %+v", e)
	}
	if e := log[2]; e.Done {
		t.Errorf("the page's open request was ended: %+v", e)
	}
}

// A fetch answered (here after a redirect) whose body the page never read
// before it went to another document is never finished by Chromium: it
// ends when the frame's next document commits, canceled as a navigation
// cancels, so that the marks' waits for the log to settle do not run out
// (SIGNUP-01.stale waited 1 s at each mark). What was not answered yet,
// a request of another frame, and the new document's own are left open.
func TestAnAnsweredRequestEndsWithItsDocument(t *testing.T) {
	inFrame := func(ev *network.EventRequestWillBeSent, frame, loader string) *network.EventRequestWillBeSent {
		ev.FrameID, ev.LoaderID = cdp.FrameID(frame), cdp.LoaderID(loader)
		return ev
	}
	r := observed(
		inFrame(sent("1", "POST", "http://app.test/signup", 100, nil, "email=a"), "F", "L1"),
		inFrame(redirected("1", "http://app.test/signup/welcome", 100.01, 303, "/signup/welcome"), "F", "L1"),
		received("1", 100.02, 200, "text/html", nil),
		inFrame(sent("2", "GET", "http://app.test/slow", 100.03, nil), "F", "L1"),
		inFrame(sent("3", "GET", "http://app.test/widget", 100.04, nil), "G", "L9"),
		received("3", 100.05, 200, "text/html", nil),
		inFrame(sent("4", "GET", "http://app.test/signup/welcome", 100.06, nil), "F", "L2"),
		received("4", 100.07, 200, "text/html", nil),
	)
	short, cancel := context.WithTimeout(t.Context(), 10*time.Millisecond)
	defer cancel()
	if r.WaitSettled(short) == nil {
		t.Fatal("the log settled before the new document committed")
	}
	r.Observe(&page.EventFrameNavigated{Frame: &cdp.Frame{ID: "F", LoaderID: "L2"}})
	log := r.Requests()
	hop := log[1] // the redirect's second hop, answered 200
	if !hop.Done || !hop.Canceled || hop.Failure != ReplacedDocument {
		t.Errorf("the answered fetch of the old document: %+v", hop)
	}
	for _, i := range []int{2, 3, 4} {
		if log[i].Done {
			t.Errorf("request %s (%s) ended with another frame's or its own document: %+v", log[i].ID, log[i].URL, log[i])
		}
	}
	// Should the browser finish it after all, it finished.
	r.Observe(finished("1", 100.2, 10))
	if hop := r.Requests()[1]; !hop.Done || hop.Canceled || hop.Failure != "" || hop.EncodedBytes != 10 {
		t.Errorf("finished after its document was replaced: %+v", hop)
	}
}
