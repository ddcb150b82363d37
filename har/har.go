package har

import (
	"encoding/json"
	"math"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/agentready/agentready/record"
)

// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/): the fields the
// spec requires are always present, -1 where a size or time is unknown.

type harFile struct {
	Log harLog `json:"log"`
}

type harLog struct {
	Version string     `json:"version"`
	Creator harNameVer `json:"creator"`
	Browser harNameVer `json:"browser"`
	Pages   []harPage  `json:"pages"`
	Entries []harEntry `json:"entries"`
}

type harNameVer struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type harPage struct {
	StartedDateTime string         `json:"startedDateTime"`
	ID              string         `json:"id"`
	Title           string         `json:"title"`
	PageTimings     map[string]int `json:"pageTimings"`
}

type harEntry struct {
	PageRef         string         `json:"pageref,omitempty"`
	StartedDateTime string         `json:"startedDateTime"`
	Time            float64        `json:"time"`
	Request         harRequest     `json:"request"`
	Response        harResponse    `json:"response"`
	Cache           struct{}       `json:"cache"`
	Timings         harTimings     `json:"timings"`
	Error           string         `json:"_error,omitempty"`
	ResourceType    string         `json:"_resourceType,omitempty"`
	Initiator       map[string]any `json:"_initiator,omitempty"`
}

type harNV struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type harRequest struct {
	Method      string       `json:"method"`
	URL         string       `json:"url"`
	HTTPVersion string       `json:"httpVersion"`
	Cookies     []harNV      `json:"cookies"`
	Headers     []harNV      `json:"headers"`
	QueryString []harNV      `json:"queryString"`
	PostData    *harPostData `json:"postData,omitempty"`
	HeadersSize int          `json:"headersSize"`
	BodySize    int          `json:"bodySize"`
}

type harPostData struct {
	MimeType string  `json:"mimeType"`
	Params   []harNV `json:"params"`
	Text     string  `json:"text"`
}

type harResponse struct {
	Status      int        `json:"status"`
	StatusText  string     `json:"statusText"`
	HTTPVersion string     `json:"httpVersion"`
	Cookies     []harNV    `json:"cookies"`
	Headers     []harNV    `json:"headers"`
	Content     harContent `json:"content"`
	RedirectURL string     `json:"redirectURL"`
	HeadersSize int        `json:"headersSize"`
	BodySize    int        `json:"bodySize"`
}

type harContent struct {
	Size     int    `json:"size"`
	MimeType string `json:"mimeType"`
}

type harTimings struct {
	Blocked float64 `json:"blocked"`
	DNS     float64 `json:"dns"`
	Connect float64 `json:"connect"`
	Send    float64 `json:"send"`
	Wait    float64 `json:"wait"`
	Receive float64 `json:"receive"`
	SSL     float64 `json:"ssl"`
}

// HARInfo names the tools in the HAR's creator and browser fields.
type HARInfo struct {
	Creator, CreatorVersion, Browser, BrowserVersion string
}

// HAR renders the log as HAR 1.2, entries in the order they started, with
// request bodies. A failed request keeps status 0 and its error in _error.
func HAR(l record.Log, info HARInfo) ([]byte, error) {
	h := harFile{Log: harLog{Version: "1.2", Creator: harNameVer{info.Creator, info.CreatorVersion},
		Browser: harNameVer{info.Browser, info.BrowserVersion}, Pages: []harPage{}, Entries: []harEntry{}}}
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
		StartedDateTime: r.Started.Format(time.RFC3339Nano),
		Time:            total,
		Request: harRequest{Method: r.Method, URL: r.URL, HTTPVersion: httpVersion(r.Protocol), Cookies: []harNV{},
			Headers: nvs(r.RequestHeaders), QueryString: query(r.URL), HeadersSize: -1, BodySize: len(r.Body)},
		Response: harResponse{Status: r.Status, StatusText: r.StatusText, HTTPVersion: httpVersion(r.Protocol), Cookies: []harNV{},
			Headers: nvs(r.ResponseHeaders), Content: harContent{Size: -1, MimeType: r.MimeType},
			RedirectURL: header(r.ResponseHeaders, "Location"), HeadersSize: -1, BodySize: -1},
		Timings:      harTimings{Blocked: -1, DNS: -1, Connect: -1, Send: 0, Wait: max(wait, 0), Receive: receive, SSL: -1},
		Error:        r.Failure,
		ResourceType: strings.ToLower(r.ResourceType),
	}
	if r.Started.IsZero() {
		e.StartedDateTime = time.Unix(0, 0).UTC().Format(time.RFC3339Nano)
	}
	if r.Initiator != "" {
		e.Initiator = map[string]any{"type": r.Initiator}
	}
	if r.HasBody || r.Body != "" {
		e.Request.PostData = &harPostData{MimeType: header(r.RequestHeaders, "Content-Type"), Params: []harNV{}, Text: r.Body}
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

func nvs(h map[string]string) []harNV {
	out := make([]harNV, 0, len(h))
	for k, v := range h {
		out = append(out, harNV{k, v})
	}
	slices.SortFunc(out, func(a, b harNV) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func query(raw string) []harNV {
	out := []harNV{}
	u, err := url.Parse(raw)
	if err != nil {
		return out
	}
	for k, vs := range u.Query() {
		for _, v := range vs {
			out = append(out, harNV{k, v})
		}
	}
	slices.SortFunc(out, func(a, b harNV) int { return strings.Compare(a.Name+"="+a.Value, b.Name+"="+b.Value) })
	return out
}
