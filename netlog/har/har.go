// Package har turns a recorded network log (package record) into a HAR 1.2
// document on cdproto's HAR types, and checks that a HAR document has every
// field the format requires: the bundle's network.har, readable by Chrome
// DevTools and any HAR viewer.
package har

import (
	"encoding/json"
	"math"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	cdphar "github.com/chromedp/cdproto/har"
)

// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/): the fields the
// spec requires are always present, -1 where a size or time is unknown.
//
// The types are cdproto's (package cdphar), written here with encoding/json:
// cdproto tags them `omitempty,omitzero`, which encoding/json honours, and
// every field HAR requires has neither; its required objects are pointers,
// which must be set (nil is written as null). What cdproto lacks is added by
// embedding: Chrome DevTools' custom entry fields, and a log whose entries are
// those entries. Embedding stays correct only while cdphar.Entry and
// cdphar.Log have no MarshalJSON of their own (one would be promoted and drop
// the added fields): har_test.go checks that, and netlog's tests that
// _error, _resourceType and _initiator are written.

// harFile is cdphar.HAR with our log.
type harFile struct {
	Log harLog `json:"log"`
}

// harLog is cdphar.Log with our entries. Pages is declared again so that the
// log keeps an empty "pages" array, as before, where cdphar.Log leaves the
// field out (which HAR 1.2 allows too).
type harLog struct {
	cdphar.Log
	Pages   []*cdphar.Page `json:"pages"`
	Entries []harEntry     `json:"entries"`
}

// harEntry is cdphar.Entry with the custom fields Chrome DevTools writes and
// reads, which cdphar.Entry lacks.
type harEntry struct {
	cdphar.Entry
	Error        string        `json:"_error,omitempty"`
	ResourceType string        `json:"_resourceType,omitempty"`
	Initiator    *harInitiator `json:"_initiator,omitempty"`
}

// harInitiator is the part of Chrome DevTools' _initiator that we know.
type harInitiator struct {
	Type string `json:"type"`
}

// HARInfo names the tools in the HAR's creator and browser fields.
type HARInfo struct {
	Creator, CreatorVersion, Browser, BrowserVersion string
}

// HAR renders the log as HAR 1.2, entries in the order they started, with
// request bodies. A failed request keeps status 0 and its error in _error.
func HAR(l record.Log, info HARInfo) ([]byte, error) {
	h := harFile{Log: harLog{
		Log: cdphar.Log{Version: "1.2", Creator: &cdphar.Creator{Name: info.Creator, Version: info.CreatorVersion},
			Browser: &cdphar.Creator{Name: info.Browser, Version: info.BrowserVersion}},
		Pages: []*cdphar.Page{}, Entries: []harEntry{},
	}}
	ordered := slices.Clone(l)
	slices.SortStableFunc(ordered, func(a, b record.Request) int {
		switch {
		case a.SentAt < b.SentAt:
			return -1
		case a.SentAt > b.SentAt:
			return 1
		}
		return a.Seq - b.Seq
	})
	for _, r := range ordered {
		if r.IsSocketMessage() { // a WebSocket's message is no HTTP entry; requests.json keeps it
			continue
		}
		h.Log.Entries = append(h.Log.Entries, harEntryOf(r))
	}
	return json.MarshalIndent(h, "", "  ")
}

func harEntryOf(r record.Request) harEntry {
	wait, receive := -1.0, 0.0
	if r.ResponseAt > 0 {
		wait = ms(r.ResponseAt - r.SentAt)
		if r.FinishedAt >= r.ResponseAt {
			receive = ms(r.FinishedAt - r.ResponseAt)
		}
	} else if r.FinishedAt > 0 {
		wait = ms(r.FinishedAt - r.SentAt)
	}
	total := max(wait, 0) + receive
	e := harEntry{
		Entry: cdphar.Entry{
			StartedDateTime: r.Started.Format(time.RFC3339Nano),
			Time:            total,
			Request: &cdphar.Request{Method: r.Method, URL: r.URL, HTTPVersion: httpVersion(r.Protocol), Cookies: []*cdphar.Cookie{},
				Headers: nvs(r.RequestHeaders), QueryString: query(r.URL), HeadersSize: -1, BodySize: requestBodySize(r)},
			Response: &cdphar.Response{Status: int64(r.Status), StatusText: r.StatusText, HTTPVersion: httpVersion(r.Protocol), Cookies: []*cdphar.Cookie{},
				Headers: nvs(r.ResponseHeaders),
				// Content.Text is []byte, which encoding/json writes as base64:
				// valid HAR only with Encoding "base64". No body is kept, so
				// Text stays empty and is left out.
				Content:     &cdphar.Content{Size: -1, MimeType: r.MimeType},
				RedirectURL: header(r.ResponseHeaders, "Location"), HeadersSize: -1, BodySize: -1},
			Cache: &cdphar.Cache{},
			// cdphar.Timings has pointers for the optional timings: nil would
			// leave them out; -1 says "does not apply", as before.
			Timings: &cdphar.Timings{Blocked: new(-1.0), DNS: new(-1.0), Connect: new(-1.0), Send: 0, Wait: max(wait, 0), Receive: receive, Ssl: new(-1.0)},
		},
		Error:        r.Failure,
		ResourceType: strings.ToLower(r.ResourceType),
	}
	if r.Started.IsZero() {
		e.StartedDateTime = time.Unix(0, 0).UTC().Format(time.RFC3339Nano)
	}
	if r.Initiator != "" {
		e.Initiator = &harInitiator{Type: r.Initiator}
	}
	if r.HasBody || r.Body != "" {
		e.Request.PostData = &cdphar.PostData{MimeType: header(r.RequestHeaders, "Content-Type"), Params: []*cdphar.Param{}, Text: r.Body}
	}
	if e.Response.Content.MimeType == "" {
		e.Response.Content.MimeType = "x-unknown"
	}
	return e
}

// ms converts seconds to milliseconds, rounded to the microsecond: the
// timestamps are floats, and truncating their differences turned 5 ms into 4.999.
func ms(sec float64) float64 { return math.Round(sec*1e6) / 1e3 }

func httpVersion(protocol string) string {
	switch strings.ToLower(protocol) {
	case "h2":
		return "HTTP/2.0"
	case "h3":
		return "HTTP/3.0"
	case "":
		return "HTTP/1.1"
	}
	return strings.ToUpper(protocol)
}

func header(h map[string]string, name string) string {
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

func nvs(h map[string]string) []*cdphar.NameValuePair {
	out := make([]*cdphar.NameValuePair, 0, len(h))
	for k, v := range h {
		out = append(out, &cdphar.NameValuePair{Name: k, Value: v})
	}
	slices.SortFunc(out, func(a, b *cdphar.NameValuePair) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func query(raw string) []*cdphar.NameValuePair {
	out := []*cdphar.NameValuePair{}
	u, err := url.Parse(raw)
	if err != nil {
		return out
	}
	for k, vs := range u.Query() {
		for _, v := range vs {
			out = append(out, &cdphar.NameValuePair{Name: k, Value: v})
		}
	}
	slices.SortFunc(out, func(a, b *cdphar.NameValuePair) int { return strings.Compare(a.Name+"="+a.Value, b.Name+"="+b.Value) })
	return out
}

// requestBodySize is the HAR bodySize of a request: the bytes kept, or -1
// ("unknown") when the request had a body the log does not hold (another
// origin's, or one the browser no longer gave): 0 would claim an empty one.
func requestBodySize(r record.Request) int64 {
	if r.HasBody && r.Body == "" {
		return -1
	}
	return int64(len(r.Body))
}
