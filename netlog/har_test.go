package netlog

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/netlog/har"
	"github.com/chromedp/cdproto/network"
)

var testInfo = har.HARInfo{Creator: "agentready", CreatorVersion: "test", Browser: "Chromium", BrowserVersion: "156"}

// harLogOf records the events and renders the HAR, which must pass CheckHAR.
func harLogOf(t *testing.T, l record.Log) map[string]any {
	t.Helper()
	raw, err := har.HAR(l, testInfo)
	if err != nil {
		t.Fatal(err)
	}
	if err := har.CheckHAR(raw); err != nil {
		t.Fatalf("HAR fails its own check: %v\n%s", err, raw)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// at answers the value at a dotted path such as "log.entries.0.request.method".
func at(doc any, path string) any {
	v := doc
	for _, k := range strings.Split(path, ".") {
		switch c := v.(type) {
		case map[string]any:
			v = c[k]
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i >= len(c) {
				return nil
			}
			v = c[i]
		default:
			return nil
		}
	}
	return v
}

func TestHAR(t *testing.T) {
	r := observed(
		// Observed in another order than they were sent: HAR sorts by SentAt.
		sent("2", "POST", "http://app.test/api/registrations?x=1&a=2", 101,
			network.Headers{"content-type": "application/json;charset=UTF-8"}, `{"event":"e1"}`),
		received("2", 101.020, 201, "application/json", network.Headers{"Content-Type": "application/json"}),
		finished("2", 101.0305, 64),
		sent("1", "GET", "http://app.test/", 100, network.Headers{"Accept": "text/html"}),
		received("1", 100.010, 200, "text/html", nil),
		finished("1", 100.015, 512),
		sent("3", "POST", "http://other.test/collect", 102, nil, "x=1"),
		failed("3", 102.5, "net::ERR_CONNECTION_REFUSED", false, ""),
		sent("4", "GET", "http://app.test/pending", 103, nil),
	)
	doc := harLogOf(t, r.Requests())

	if v := at(doc, "log.version"); v != "1.2" {
		t.Errorf("version %v", v)
	}
	if v := at(doc, "log.creator.name"); v != "agentready" {
		t.Errorf("creator %v", v)
	}
	entries, _ := at(doc, "log.entries").([]any)
	var urls []string
	for _, e := range entries {
		urls = append(urls, at(e, "request.url").(string))
	}
	wantURLs := []string{"http://app.test/", "http://app.test/api/registrations?x=1&a=2", "http://other.test/collect", "http://app.test/pending"}
	if !reflect.DeepEqual(urls, wantURLs) {
		t.Fatalf("entries in order %v, want by SentAt %v", urls, wantURLs)
	}

	for i, e := range entries {
		s, _ := at(e, "startedDateTime").(string)
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			t.Errorf("entry %d: startedDateTime %q is not RFC 3339: %v", i, s, err)
		}
	}
	if s := at(entries[0], "startedDateTime"); s != "2026-01-01T12:00:00.25Z" {
		t.Errorf("startedDateTime of the first entry %v", s)
	}

	get := entries[0]
	for path, want := range map[string]any{
		"response.status": 200.0, "response.content.mimeType": "text/html", "response.content.size": -1.0,
		"time": 15.0, "timings.wait": 10.0, "timings.receive": 5.0, "timings.send": 0.0,
		"request.headers.0.name": "Accept", "request.bodySize": 0.0, "request.httpVersion": "HTTP/1.1",
		"response.httpVersion": "HTTP/1.1", "_resourceType": "fetch", "_initiator.type": "script",
	} {
		if got := at(get, path); got != want {
			t.Errorf("GET %s = %v, want %v", path, got, want)
		}
	}
	if at(get, "request.postData") != nil {
		t.Error("a GET without a body has postData")
	}

	post := entries[1]
	for path, want := range map[string]any{
		"request.postData.mimeType": "application/json;charset=UTF-8", "request.postData.text": `{"event":"e1"}`,
		"request.bodySize": 14.0, "response.status": 201.0, "timings.wait": 20.0, "timings.receive": 10.5, "time": 30.5,
		"request.queryString.0.name": "a", "request.queryString.1.name": "x",
	} {
		if got := at(post, path); got != want {
			t.Errorf("POST %s = %v, want %v", path, got, want)
		}
	}

	refused := entries[2]
	for path, want := range map[string]any{
		"response.status": 0.0, "_error": "net::ERR_CONNECTION_REFUSED", "response.content.mimeType": "x-unknown",
		"timings.wait": 500.0, "request.postData.text": "x=1", "request.postData.mimeType": "",
	} {
		if got := at(refused, path); got != want {
			t.Errorf("failed request %s = %v, want %v", path, got, want)
		}
	}

	pending := entries[3]
	if at(pending, "response.status") != 0.0 || at(pending, "time") != 0.0 || at(pending, "timings.wait") != 0.0 || at(pending, "_error") != nil {
		t.Errorf("pending request: %v", pending)
	}
}

func TestHAREdgeCases(t *testing.T) {
	t.Run("empty log has an empty entries array", func(t *testing.T) {
		doc := harLogOf(t, nil)
		if e, ok := at(doc, "log.entries").([]any); !ok || len(e) != 0 {
			t.Errorf("entries = %#v", at(doc, "log.entries"))
		}
	})
	t.Run("same SentAt keeps Seq order", func(t *testing.T) {
		doc := harLogOf(t, record.Log{{Seq: 2, URL: "http://a/2", SentAt: 5}, {Seq: 1, URL: "http://a/1", SentAt: 5}, {Seq: 3, URL: "http://a/0", SentAt: 1}})
		var urls []any
		for _, e := range at(doc, "log.entries").([]any) {
			urls = append(urls, at(e, "request.url"))
		}
		if want := []any{"http://a/0", "http://a/1", "http://a/2"}; !reflect.DeepEqual(urls, want) {
			t.Errorf("order %v, want %v", urls, want)
		}
	})
	t.Run("no wall clock gives the epoch", func(t *testing.T) {
		doc := harLogOf(t, record.Log{{Seq: 1, Method: "GET", URL: "http://a/"}})
		if s := at(doc, "log.entries.0.startedDateTime"); s != "1970-01-01T00:00:00Z" {
			t.Errorf("startedDateTime %v", s)
		}
	})
	t.Run("body announced but not fetched keeps an empty postData", func(t *testing.T) {
		doc := harLogOf(t, record.Log{{Seq: 1, Method: "POST", URL: "http://a/", HasBody: true, RequestHeaders: map[string]string{"Content-Type": "text/plain"}}})
		if at(doc, "log.entries.0.request.postData.text") != "" || at(doc, "log.entries.0.request.postData.mimeType") != "text/plain" {
			t.Errorf("postData %v", at(doc, "log.entries.0.request.postData"))
		}
		if n := at(doc, "log.entries.0.request.bodySize"); n != -1.0 {
			t.Errorf("bodySize %v of a body the log does not hold, want -1 (unknown), not 0 (empty)", n)
		}
		kept := harLogOf(t, record.Log{{Seq: 1, Method: "POST", URL: "http://a/", HasBody: true, Body: "a=1"}})
		if n := at(kept, "log.entries.0.request.bodySize"); n != 3.0 {
			t.Errorf("bodySize %v of a kept 3-byte body", n)
		}
	})
	t.Run("redirect entry carries redirectURL, whatever the header's case", func(t *testing.T) {
		r := observed(
			sent("r1", "GET", "http://app.test/old", 100, nil),
			redirected("r1", "http://app.test/new", 100.2, 302, "/new"), // h2-style lower-case "location"
			received("r1", 100.3, 200, "text/html", nil),
			finished("r1", 100.4, 1000),
		)
		doc := harLogOf(t, r.Requests())
		if got := at(doc, "log.entries.0.response.redirectURL"); got != "/new" {
			t.Errorf("redirectURL of the redirect = %v, want /new", got)
		}
		if got := at(doc, "log.entries.1.response.redirectURL"); got != "" {
			t.Errorf("redirectURL of the final response = %v, want empty", got)
		}
		if got := at(doc, "log.entries.0.response.status"); got != 302.0 {
			t.Errorf("status of the redirect = %v", got)
		}
	})

}

// validHAR is a HAR with one entry of each kind, every optional part present.
func validHAR(t *testing.T) []byte {
	t.Helper()
	r := observed(
		sent("1", "POST", "http://app.test/api/registrations", 100, network.Headers{"Content-Type": "application/json"}, `{}`),
		received("1", 100.1, 201, "application/json", network.Headers{"Content-Type": "application/json"}),
		finished("1", 100.2, 10),
	)
	raw, err := har.HAR(r.Requests(), testInfo)
	if err != nil {
		t.Fatal(err)
	}
	if err := har.CheckHAR(raw); err != nil {
		t.Fatalf("the base HAR is not valid: %v", err)
	}
	return raw
}

// edit decodes raw, applies fn to the object that holds the last key of path,
// and encodes it again.
func edit(t *testing.T, raw []byte, path string, fn func(parent map[string]any, key string)) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	i := strings.LastIndex(path, ".")
	parent, ok := at(doc, path[:i]).(map[string]any)
	if !ok {
		t.Fatalf("no object at %s", path[:i])
	}
	fn(parent, path[i+1:])
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func remove(parent map[string]any, key string) { delete(parent, key) }
func set(v any) func(map[string]any, string) {
	return func(parent map[string]any, key string) { parent[key] = v }
}

func TestCheckHARFindsWhatIsWrong(t *testing.T) {
	base := validHAR(t)
	tests := []struct {
		path string
		fn   func(map[string]any, string)
		want string
	}{
		{"log.version", remove, "log.version is missing"},
		{"log.creator", remove, "log.creator is missing"},
		{"log.creator.name", remove, "log.creator.name is missing"},
		{"log.entries", remove, "log.entries is missing"},
		{"log.entries.0.startedDateTime", remove, "log.entries[0].startedDateTime is missing"},
		{"log.entries.0.time", remove, "log.entries[0].time is missing"},
		{"log.entries.0.cache", remove, "log.entries[0].cache is missing"},
		{"log.entries.0.request.method", remove, "log.entries[0].request.method is missing"},
		{"log.entries.0.request.url", remove, "log.entries[0].request.url is missing"},
		{"log.entries.0.request.headers", remove, "log.entries[0].request.headers is missing"},
		{"log.entries.0.request.headersSize", remove, "log.entries[0].request.headersSize is missing"},
		{"log.entries.0.request.postData.text", remove, "log.entries[0].request.postData.text is missing"},
		{"log.entries.0.response.status", remove, "log.entries[0].response.status is missing"},
		{"log.entries.0.response.content", remove, "log.entries[0].response.content is missing"},
		{"log.entries.0.response.content.mimeType", remove, "log.entries[0].response.content.mimeType is missing"},
		{"log.entries.0.response.redirectURL", remove, "log.entries[0].response.redirectURL is missing"},
		{"log.entries.0.timings", remove, "log.entries[0].timings is missing"},
		{"log.entries.0.timings.wait", remove, "log.entries[0].timings.wait is missing"},
		// Wrong types.
		{"log.version", set(1.2), "log.version is float64, want string"},
		{"log.entries", set(map[string]any{}), "log.entries is map[string]interface {}, want array"},
		{"log.entries.0.time", set("30"), "log.entries[0].time is string, want number"},
		{"log.entries.0.request.headers", set(map[string]any{"Accept": "*/*"}), "log.entries[0].request.headers is map[string]interface {}, want array"},
		{"log.entries.0.response.status", set("201"), "log.entries[0].response.status is string, want number"},
		{"log.entries.0.response.content", set("gzip"), "log.entries[0].response.content is string, want object"},
		{"log.entries.0.timings.wait", set(nil), "log.entries[0].timings.wait is <nil>, want number"},
		// Dates that are not ISO 8601.
		{"log.entries.0.startedDateTime", set("2026-01-01 12:00:00"), `log.entries[0].startedDateTime "2026-01-01 12:00:00" is not ISO 8601`},
		{"log.entries.0.startedDateTime", set("Thu, 01 Jan 2026 12:00:00 GMT"), "is not ISO 8601"},
		{"log.entries.0.startedDateTime", set("2026-01-01T12:00:00"), "is not ISO 8601"}, // no zone
		{"log.entries.0.startedDateTime", set(""), "is not ISO 8601"},
	}
	for _, tt := range tests {
		t.Run(tt.path+"/"+tt.want, func(t *testing.T) {
			err := har.CheckHAR(edit(t, base, tt.path, tt.fn))
			if err == nil {
				t.Fatalf("CheckHAR accepted a HAR with %s broken", tt.path)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestCheckHARDocumentLevel(t *testing.T) {
	tests := []struct{ name, raw, want string }{
		{"not JSON", `{"log":`, "not JSON"},
		{"no log", `{}`, "log is missing"},
		{"log not an object", `{"log":[]}`, "log is missing"},
		{"entry not an object", `{"log":{"version":"1.2","creator":{"name":"x","version":"1"},"entries":[42]}}`, "log.entries[0] is not an object"},
	}
	for _, tt := range tests {
		err := har.CheckHAR([]byte(tt.raw))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want one containing %q", tt.name, err, tt.want)
		}
	}
	minimal := `{"log":{"version":"1.2","creator":{"name":"x","version":"1"},"entries":[]}}`
	if err := har.CheckHAR([]byte(minimal)); err != nil {
		t.Errorf("minimal HAR: %v", err)
	}
	// Every problem is reported, not only the first.
	err := har.CheckHAR([]byte(`{"log":{"version":1,"entries":[]}}`))
	if err == nil || !strings.Contains(err.Error(), "log.version") || !strings.Contains(err.Error(), "log.creator") {
		t.Errorf("err = %v, want both log.version and log.creator", err)
	}
}
