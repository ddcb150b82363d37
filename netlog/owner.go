package netlog

import "github.com/chromedp/cdproto/network"

// One request, two sessions: a service worker is attached through the page
// and by the browser, and both report its events (Recorder.owner).

// How an event relates to the session that owns its request id.
const (
	firstReport = iota // claims the id for its session
	repeated           // taken from the owner only
	idempotent         // taken from any session (it sets what it sets)
)

// ownedID answers the request or socket id an event is about, and how
// the owner rule treats it.
func ownedID(ev any) (string, int, bool) {
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		if ev.RedirectResponse != nil {
			return string(ev.RequestID), repeated, true
		}
		return string(ev.RequestID), firstReport, true
	case *network.EventWebSocketCreated:
		return string(ev.RequestID), firstReport, true
	case *network.EventWebSocketWillSendHandshakeRequest:
		return string(ev.RequestID), repeated, true
	case *network.EventWebSocketHandshakeResponseReceived:
		return string(ev.RequestID), repeated, true
	case *network.EventWebSocketFrameSent:
		return string(ev.RequestID), repeated, true
	case *network.EventWebSocketFrameError:
		return string(ev.RequestID), repeated, true
	case *network.EventWebSocketClosed:
		return string(ev.RequestID), repeated, true
	}
	return "", 0, false
}

// SessionGone hands the ids a session owned to the next session that
// reports them: a service worker's page-side session ends with the page,
// and its browser-side one goes on.
func (r *Recorder) SessionGone(session string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, o := range r.owner {
		if o == session {
			delete(r.owner, id)
		}
	}
}
