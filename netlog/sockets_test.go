package netlog

import (
	"slices"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"

	"github.com/agentready/agentready/internal/data/record"
)

// A message the page sends on a WebSocket is an entry of the log: method
// WS, the socket's URL and path, the message as its body (base64 when
// binary), dated from the handshake's clocks; received messages are not
// entries, and nothing is recorded of a socket the log never saw open.
func TestASocketsSentMessagesAreEntries(t *testing.T) {
	r := NewRecorder()
	r.Observe(&network.EventWebSocketCreated{RequestID: "ws1", URL: "ws://a.test/live/hold"})
	r.Observe(&network.EventWebSocketWillSendHandshakeRequest{RequestID: "ws1", Timestamp: cdp.MonotonicTime(100), WallTime: cdp.TimeSinceEpoch(wallStart)})
	r.Observe(&network.EventWebSocketFrameSent{RequestID: "ws1", Timestamp: cdp.MonotonicTime(101.5), Response: &network.WebSocketFrame{Opcode: 1, PayloadData: []byte(`{"hold":"10:00"}`)}})
	r.Observe(&network.EventWebSocketFrameReceived{RequestID: "ws1", Timestamp: cdp.MonotonicTime(101.6), Response: &network.WebSocketFrame{Opcode: 1, PayloadData: []byte(`{"held":"10:00"}`)}})
	r.Observe(&network.EventWebSocketFrameSent{RequestID: "ws1", Timestamp: cdp.MonotonicTime(102), Response: &network.WebSocketFrame{Opcode: 2, PayloadData: []byte{0, 1}}})
	r.Observe(&network.EventWebSocketFrameSent{RequestID: "unseen", Timestamp: cdp.MonotonicTime(103), Response: &network.WebSocketFrame{Opcode: 1, PayloadData: []byte("x")}})
	log := r.Requests()
	if len(log) != 3 {
		t.Fatalf("the log holds %d entries, want the handshake and the 2 sent messages: %+v", len(log), log)
	}
	hand, text, bin := log[0], log[1], log[2]
	if hand.Method != "GET" || hand.Path != "/live/hold" || hand.Done || hand.IsSocketMessage() {
		t.Errorf("the handshake, unanswered: %+v", hand)
	}
	if !text.IsSocketMessage() || text.Path != "/live/hold" || text.Body != `{"hold":"10:00"}` || !text.Done || record.IsWrite(text.Method) {
		t.Errorf("the text message: %+v", text)
	}
	if want := time.UnixMicro(int64(wallStart * 1e6)).UTC().Add(1500 * time.Millisecond); !text.Started.Equal(want) {
		t.Errorf("the text message is dated %s, want %s", text.Started, want)
	}
	if bin.Body != "AAE=" {
		t.Errorf("the binary message's body %q, want base64", bin.Body)
	}
	if !record.SameOrigin("http://a.test", text.URL) {
		t.Error("a ws:// socket to the app's host is not of the app's origin")
	}
}

// A WebSocket's handshake is the GET the app receives (an app that journals
// every request journals it): an entry of the log, answered 101, or failed
// when the socket ends before its answer.
func TestASocketsHandshakeIsAnEntry(t *testing.T) {
	r := NewRecorder()
	for _, id := range []network.RequestID{"ok", "refused"} {
		r.Observe(&network.EventWebSocketCreated{RequestID: id, URL: "ws://a.test/live/" + string(id)})
		r.Observe(&network.EventWebSocketWillSendHandshakeRequest{RequestID: id, Timestamp: cdp.MonotonicTime(100), WallTime: cdp.TimeSinceEpoch(wallStart),
			Request: &network.WebSocketRequest{Headers: network.Headers{"Upgrade": "websocket"}}})
	}
	r.Observe(&network.EventWebSocketHandshakeResponseReceived{RequestID: "ok", Timestamp: cdp.MonotonicTime(100.01), Response: &network.WebSocketResponse{Status: 101, StatusText: "Switching Protocols"}})
	r.Observe(&network.EventWebSocketClosed{RequestID: "refused", Timestamp: cdp.MonotonicTime(100.02)})
	log := r.Requests()
	if len(log) != 2 {
		t.Fatalf("the log holds %d entries, want the 2 handshakes: %+v", len(log), log)
	}
	if ok := log[0]; ok.Method != "GET" || ok.Status != 101 || !ok.Done || ok.Failure != "" || ok.RequestHeaders["Upgrade"] != "websocket" || !ok.Counted() {
		t.Errorf("the answered handshake: %+v", ok)
	}
	if refused := log[1]; !refused.Done || refused.Failure == "" || refused.Status != 0 {
		t.Errorf("the handshake the socket closed before: %+v", refused)
	}
}

// A service worker is reported by two sessions (through the page and by
// the browser): its redirect hops and its socket's handshake and messages
// are entries once; when the first session goes, the second one's reports
// are taken.
func TestARequestTwoSessionsReportIsOneEntry(t *testing.T) {
	r := NewRecorder()
	sw1 := Source{Session: "page-side", Target: &record.Target{Type: "service_worker", ID: "sw"}}
	sw2 := Source{Session: "browser-side", Target: &record.Target{Type: "service_worker", ID: "sw"}}
	post := &network.EventRequestWillBeSent{RequestID: "r1", Timestamp: cdp.MonotonicTime(100), Request: &network.Request{Method: "POST", URL: "http://a.test/book"}}
	hop := &network.EventRequestWillBeSent{RequestID: "r1", Timestamp: cdp.MonotonicTime(100.1), Request: &network.Request{Method: "GET", URL: "http://a.test/done"},
		RedirectResponse: &network.Response{Status: 303}}
	for _, src := range []Source{sw1, sw2} {
		r.ObserveFrom(src, post)
	}
	for _, src := range []Source{sw1, sw2} {
		r.ObserveFrom(src, hop)
	}
	created := &network.EventWebSocketCreated{RequestID: "ws", URL: "ws://a.test/hold"}
	hand := &network.EventWebSocketWillSendHandshakeRequest{RequestID: "ws", Timestamp: cdp.MonotonicTime(101), WallTime: cdp.TimeSinceEpoch(wallStart)}
	sent := &network.EventWebSocketFrameSent{RequestID: "ws", Timestamp: cdp.MonotonicTime(102), Response: &network.WebSocketFrame{Opcode: 1, PayloadData: []byte("hold")}}
	for _, ev := range []any{created, hand, sent} {
		r.ObserveFrom(sw1, ev)
		r.ObserveFrom(sw2, ev)
	}
	r.SessionGone("page-side")
	r.ObserveFrom(sw2, &network.EventWebSocketFrameSent{RequestID: "ws", Timestamp: cdp.MonotonicTime(103), Response: &network.WebSocketFrame{Opcode: 1, PayloadData: []byte("again")}})
	var got []string
	for _, q := range r.Requests() {
		got = append(got, q.Method+" "+q.Path+" "+q.Body)
	}
	want := []string{"POST /book ", "GET /done ", "GET /hold ", "WS /hold hold", "WS /hold again"}
	if !slices.Equal(got, want) {
		t.Errorf("the log: %q, want %q", got, want)
	}
}
