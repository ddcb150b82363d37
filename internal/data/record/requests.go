package record

import (
	"net/url"
	"path"
	"slices"
	"strings"
	"time"
)

// Request is one request and what became of it. Times are the protocol's
// monotonic timestamps in seconds; Started is the wall clock.
//
// Target is the browser target that reported the request when it is not the
// tab's page itself (an iframe in another process, a worker); FrameID is the
// frame the request belongs to, when it belongs to one (a worker's requests
// do not). FromSW says that a service worker answered it: if the
// worker fetched from the network to do so, its own request is in the log
// too, with the service worker as its Target.
type Request struct {
	Seq             int               `json:"seq"`
	ID              string            `json:"requestId"`
	Method          string            `json:"method"`
	URL             string            `json:"url"`
	Path            string            `json:"path"`
	ResourceType    string            `json:"resourceType,omitempty"`
	Initiator       string            `json:"initiator,omitempty"`
	Target          *Target           `json:"target,omitempty"`
	FrameID         string            `json:"frameId,omitempty"`
	RequestHeaders  map[string]string `json:"requestHeaders,omitempty"`
	HasBody         bool              `json:"hasBody,omitempty"`
	Body            string            `json:"body,omitempty"`
	Status          int               `json:"status,omitempty"`
	StatusText      string            `json:"statusText,omitempty"`
	MimeType        string            `json:"mimeType,omitempty"`
	ResponseHeaders map[string]string `json:"responseHeaders,omitempty"`
	Protocol        string            `json:"protocol,omitempty"`
	FromSW          bool              `json:"fromServiceWorker,omitempty"`
	Failure         string            `json:"failure,omitempty"`
	Canceled        bool              `json:"canceled,omitempty"`
	Blocked         string            `json:"blocked,omitempty"`
	Started         time.Time         `json:"started"`
	SentAt          float64           `json:"sentAt"`
	ResponseAt      float64           `json:"responseAt,omitempty"`
	FinishedAt      float64           `json:"finishedAt,omitempty"`
	EncodedBytes    int64             `json:"encodedBytes,omitempty"`
	Done            bool              `json:"done"`
}

// Counted tells whether r is one of the app's requests as the server got
// them: not one the harness sent to read the state, and not the page's side
// of a request a service worker answered. If the worker fetched from the
// network, its own request is in the log too, and counting both would count
// one request twice; if it answered from its cache, the server never saw it.
func (r Request) Counted() bool { return !r.IsProbe() && !r.FromSW }

// Streams reports whether r is a stream, whose response never ends by
// design: an EventSource, or a text/event-stream response. A wait for the
// page's requests to finish does not wait for one.
func (r Request) Streams() bool {
	return r.ResourceType == "EventSource" || strings.HasPrefix(r.MimeType, "text/event-stream")
}

// Target is a browser target other than the tab's page: a cross-site iframe
// (which runs in a process of its own), a dedicated, shared or service
// worker, or a window the page opened (a popup, type page).
type Target struct {
	Type string `json:"type"` // as the protocol says: iframe, worker, shared_worker, service_worker, page, …
	ID   string `json:"id"`   // the protocol's target id; an iframe's is its frame id
	// Window is the popup (its target id, as in the run's popups) the
	// target belongs to: the popup itself or a frame or worker of it; ""
	// for the tab's own page.
	Window string `json:"window,omitempty"`
}

// Log is an ordered list of requests.
type Log []Request

// Count is how many requests of the log match method and pattern, whatever
// their outcome: an attempt counts even when it failed or was blocked.
func (l Log) Count(method, pattern string) int { return len(l.Filter(method, pattern)) }

// Filter keeps the requests that match.
func (l Log) Filter(method, pattern string) Log {
	return slices.DeleteFunc(slices.Clone(l), func(r Request) bool { return !MatchRequest(r.Method, r.Path, method, pattern) })
}

// Since keeps the requests after a mark.
func (l Log) Since(mark int) Log { return l[min(mark, len(l)):] }

// Writes keeps the requests whose method can change state on the server.
func (l Log) Writes() Log {
	return slices.DeleteFunc(slices.Clone(l), func(r Request) bool { return !IsWrite(r.Method) })
}

// MatchRequest is the one rule for "this request is METHOD /path", used for
// the network log, the journal, waits and expectations alike: the method
// (any, when method is "") in any case, and a path equal to pattern or
// matching it as a path.Match pattern such as "/api/registrations/*/cancel".
func MatchRequest(gotMethod, gotPath, method, pattern string) bool {
	if method != "" && !strings.EqualFold(gotMethod, method) {
		return false
	}
	// The log's paths are decoded; a line writes a space as %20 (a space
	// ends the line's path).
	if strings.Contains(pattern, "%") {
		if p, err := url.PathUnescape(pattern); err == nil {
			pattern = p
		}
	}
	if gotPath == pattern {
		return true
	}
	ok, err := path.Match(pattern, gotPath)
	return err == nil && ok
}

// IsWrite is the one rule for "this request can change state on the
// server": any method but GET, HEAD and OPTIONS, in any case.
func IsWrite(method string) bool {
	switch strings.ToUpper(method) {
	case "GET", "HEAD", "OPTIONS", SocketMessage:
		return false
	}
	return true
}

// SocketMessage is the method of a log entry that is a message the page
// sent on a WebSocket: its URL is the socket's, its body the message (base64
// when binary), and it has no answer. It is named "WS /path" in requests and
// guarded; it is no HTTP write (whether it writes, only the app knows), and
// the app's journal, which records HTTP requests, never holds it.
const SocketMessage = "WS"

// IsSocketMessage tells whether r is a message sent on a WebSocket.
func (r Request) IsSocketMessage() bool { return r.Method == SocketMessage }

// SplitRequest reads "METHOD /path" (method in any case).
func SplitRequest(s string) (method, path string, ok bool) {
	method, path, ok = strings.Cut(strings.TrimSpace(s), " ")
	path = strings.TrimSpace(path)
	// Words after the path would make a line that matches nothing, so it
	// is no line; a space in a path is written %20 (MatchRequest).
	return strings.ToUpper(method), path, ok && method != "" && strings.HasPrefix(path, "/") && !strings.ContainsAny(path, " \t")
}

// UnloadedStyles lists the styles of the page that did not load and could
// have changed what is visible: stylesheets (linked, imported or inserted
// by script) and CSS a script fetched itself (a .css file read by fetch or
// XHR, as pages that build a <style> from it do). A web font service's
// sheet (FontSheet) is left out: it holds @font-face rules, which hide
// nothing; without it the text shows in a fallback font.
func (l Log) UnloadedStyles() []Request {
	var out []Request
	for _, r := range l.Unloaded("Stylesheet", "Fetch", "XHR") {
		if r.ResourceType != "Stylesheet" && !cssPath(r.URL) {
			continue
		}
		if !FontSheet(r.URL) {
			out = append(out, r)
		}
	}
	return out
}

// fontServices serve stylesheets of @font-face rules only.
var fontServices = []string{"fonts.googleapis.com", "fonts.bunny.net", "use.typekit.net", "p.typekit.net",
	"fonts.cdnfonts.com", "api.fontshare.com", "fonts.font.im", "fonts.loli.net", "fonts.googleapis.cn"}

// FontSheet tells whether a stylesheet's URL is a web font service's: one
// of the services above, or the Google Fonts API's shape on any host
// (/css or /css2 with a family, as self-hosted proxies of it keep), which
// answers @font-face rules only.
func FontSheet(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	if slices.Contains(fontServices, strings.ToLower(u.Hostname())) {
		return true
	}
	if !strings.HasSuffix(u.Path, "/css") && !strings.HasSuffix(u.Path, "/css2") {
		return false
	}
	// Not u.Query(): Google Fonts' values hold ";" (wght@400;700), and Go's
	// query parser drops a pair that holds one.
	for _, pair := range strings.Split(u.RawQuery, "&") {
		if k, _, _ := strings.Cut(pair, "="); k == "family" {
			return true
		}
	}
	return false
}

func cssPath(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && strings.HasSuffix(strings.ToLower(u.Path), ".css")
}

// Unloaded lists the requests of the given resource types (as the protocol
// names them: Stylesheet, Script, Font, …) that did not load: failed (a
// host unreachable, blocked) or answered 400 or above. A request canceled
// by a navigation is not one.
func (l Log) Unloaded(types ...string) []Request {
	var out []Request
	for _, r := range l {
		if !slices.Contains(types, r.ResourceType) || r.Canceled {
			continue
		}
		if r.Failure != "" || r.Blocked != "" || r.Status >= 400 {
			out = append(out, r)
		}
	}
	return out
}
