package record

import (
	"reflect"
	"slices"
	"testing"
)

func TestMatch(t *testing.T) {
	req := func(method, path string) Request { return Request{Method: method, Path: path} }
	tests := []struct {
		name            string
		req             Request
		method, pattern string
		want            bool
	}{
		{"exact path", req("POST", "/api/registrations"), "POST", "/api/registrations", true},
		{"other path", req("POST", "/api/registrations/1"), "POST", "/api/registrations", false},
		{"pattern", req("POST", "/api/registrations/42/cancel"), "POST", "/api/registrations/*/cancel", true},
		{"pattern does not cross /", req("POST", "/api/registrations/4/2/cancel"), "POST", "/api/registrations/*/cancel", false},
		{"method is case-insensitive", req("post", "/api/tasks"), "POST", "/api/tasks", true},
		{"method is case-insensitive, other way", req("DELETE", "/api/tasks"), "delete", "/api/tasks", true},
		{"other method", req("GET", "/api/tasks"), "POST", "/api/tasks", false},
		{"empty method is any", req("PATCH", "/api/tasks"), "", "/api/tasks", true},
		{"bad pattern matches only itself", req("GET", "/a["), "", "/a[", true},
		{"bad pattern matches nothing else", req("GET", "/ab"), "", "/a[", false},
		{"star matches any one segment", req("GET", "/favicon.ico"), "GET", "/*", true},
	}
	for _, tt := range tests {
		if got := MatchRequest(tt.req.Method, tt.req.Path, tt.method, tt.pattern); got != tt.want {
			t.Errorf("%s: Match(%s %s, %q, %q) = %v, want %v", tt.name, tt.req.Method, tt.req.Path, tt.method, tt.pattern, got, tt.want)
		}
	}
}

// sampleLog is a small log for the counting helpers.
func sampleLog() Log {
	reqs := []struct{ method, path string }{
		{"GET", "/"},
		{"GET", "/api/events"},
		{"POST", "/api/registrations"},
		{"OPTIONS", "/api/registrations"},
		{"post", "/api/registrations"},
		{"POST", "/api/registrations/7/cancel"},
		{"HEAD", "/api/events"},
		{"DELETE", "/api/tasks/3"},
		{"PUT", "/api/tasks/3"},
	}
	l := make(Log, len(reqs))
	for i, r := range reqs {
		l[i] = Request{Seq: i + 1, Method: r.method, Path: r.path, Done: true}
	}
	return l
}

func seqs(l Log) []int {
	out := []int{}
	for _, r := range l {
		out = append(out, r.Seq)
	}
	return out
}

func TestCountFilterSinceWrites(t *testing.T) {
	l := sampleLog()
	tests := []struct {
		method, pattern string
		want            []int
	}{
		{"POST", "/api/registrations", []int{3, 5}},
		{"", "/api/registrations", []int{3, 4, 5}},
		{"POST", "/api/registrations/*/cancel", []int{6}},
		{"", "/api/tasks/*", []int{8, 9}},
		{"GET", "/nothing", []int{}},
		{"", "/*", []int{1}}, // path.Match: * may be empty, so "/*" matches "/", and never crosses a "/"
	}
	for _, tt := range tests {
		got := l.Filter(tt.method, tt.pattern)
		if !reflect.DeepEqual(seqs(got), tt.want) {
			t.Errorf("Filter(%q, %q) = %v, want %v", tt.method, tt.pattern, seqs(got), tt.want)
		}
		if n := l.Count(tt.method, tt.pattern); n != len(tt.want) {
			t.Errorf("Count(%q, %q) = %d, want %d", tt.method, tt.pattern, n, len(tt.want))
		}
	}
	if !reflect.DeepEqual(seqs(l), []int{1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Errorf("Filter changed the log: %v", seqs(l))
	}

	if got := seqs(l.Writes()); !reflect.DeepEqual(got, []int{3, 5, 6, 8, 9}) {
		t.Errorf("Writes() = %v, want the POST, post, POST, DELETE and PUT", got)
	}
	if !reflect.DeepEqual(seqs(l), []int{1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Errorf("Writes changed the log: %v", seqs(l))
	}

	for _, tt := range []struct {
		mark int
		want []int
	}{{0, seqs(l)}, {7, []int{8, 9}}, {9, []int{}}, {50, []int{}}} {
		if got := seqs(l.Since(tt.mark)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Since(%d) = %v, want %v", tt.mark, got, tt.want)
		}
	}
	if n := l.Since(7).Writes().Count("", "/api/tasks/*"); n != 2 {
		t.Errorf("chained count = %d, want 2", n)
	}
}

// A space in a path is written %20 in a line (the log's paths are
// decoded, and a space ends the line's path).
func TestAPathWithASpaceIsNamedByPercentTwenty(t *testing.T) {
	if !MatchRequest("GET", "/files/my notes.txt", "GET", "/files/my%20notes.txt") || !MatchRequest("GET", "/files/my notes.txt", "GET", "/files/my%20*") {
		t.Error("%20 does not name a decoded space")
	}
	if MatchRequest("GET", "/files/my notes.txt", "GET", "/files/my%2Fnotes.txt") {
		t.Error("%2F named a space")
	}
}

func TestIsWriteAndSplitRequest(t *testing.T) {
	for m, want := range map[string]bool{"GET": false, "head": false, "Options": false, "POST": true, "put": true, "PATCH": true, "DELETE": true} {
		if IsWrite(m) != want {
			t.Errorf("IsWrite(%q) = %v, want %v", m, !want, want)
		}
	}
	for _, tt := range []struct {
		in, method, path string
		ok               bool
	}{
		{"post /api/x", "POST", "/api/x", true},
		{"  GET   /a/*  ", "GET", "/a/*", true},
		{"POST api/x", "POST", "api/x", false},
		{"/api/x", "", "", false},
		// words after the path make a line that would match nothing
		{`WS /live/hold {"hold":"10:00"}`, "WS", `/live/hold {"hold":"10:00"}`, false},
		{"POST /api/x\tx", "POST", "/api/x\tx", false},
	} {
		m, p, ok := SplitRequest(tt.in)
		if ok != tt.ok || (ok && (m != tt.method || p != tt.path)) {
			t.Errorf("SplitRequest(%q) = %q %q %v, want %q %q %v", tt.in, m, p, ok, tt.method, tt.path, tt.ok)
		}
	}
}

func TestJournalUsesTheSameRules(t *testing.T) {
	j := Journal{{Method: "POST", Path: "/api/registrations/7/cancel"}, {Method: "get", Path: "/api/events"}, {Method: "delete", Path: "/api/tasks/3"}}
	if n := j.Count("post", "/api/registrations/*/cancel"); n != 1 {
		t.Errorf("Count by pattern = %d, want 1", n)
	}
	if n := len(j.Writes()); n != 2 {
		t.Errorf("Writes = %d entries, want 2", n)
	}
}

// A web font service's sheet hides nothing; every other style that did not
// load could, whether a <link>, an @import or CSS a script fetched.
func TestUnloadedStylesLeaveOutWebFontSheetsOnly(t *testing.T) {
	l := Log{
		{Seq: 1, URL: "https://fonts.googleapis.com/css2?family=Inter&display=swap", ResourceType: "Stylesheet", Failure: "net::ERR_NAME_NOT_RESOLVED"},
		{Seq: 2, URL: "http://127.0.0.1:9/css2?family=Roboto:wght@400;700&display=swap", ResourceType: "Stylesheet", Failure: "net::ERR_CONNECTION_REFUSED"},
		{Seq: 3, URL: "https://use.typekit.net/abc.css", ResourceType: "Stylesheet", Status: 404},
		{Seq: 4, URL: "https://cdn.example/site.css", ResourceType: "Stylesheet", Status: 503},
		{Seq: 5, URL: "https://cdn.example/theme.CSS?v=2", ResourceType: "Fetch", Failure: "net::ERR_FAILED"},
		{Seq: 6, URL: "https://cdn.example/data.json", ResourceType: "Fetch", Failure: "net::ERR_FAILED"},
		{Seq: 7, URL: "https://cdn.example/ok.css", ResourceType: "Stylesheet", Status: 200},
		{Seq: 8, URL: "https://cdn.example/left.css", ResourceType: "Stylesheet", Canceled: true, Failure: "net::ERR_ABORTED"},
		{Seq: 9, URL: "https://fonts.example/css?family=Inter", ResourceType: "XHR", Status: 500},
		{Seq: 10, URL: "https://cdn.example/api/css", ResourceType: "Stylesheet", Status: 404},
	}
	var got []int
	for _, r := range l.UnloadedStyles() {
		got = append(got, r.Seq)
	}
	if want := []int{4, 5, 10}; !slices.Equal(got, want) {
		t.Fatalf("UnloadedStyles = %v, want %v", got, want)
	}
}
