package scenarios

import (
	"os"
	"strings"
	"testing"
)

// answered_in is refused, with its line, where the suite could not leave
// the call pending for the person's steps: another phase's word, no human
// steps, a cancel_after that cancels it, a probe, a step's own call.
func TestAPendingCallIsCheckedAtLoad(t *testing.T) {
	data, err := os.ReadFile("cases/CONF-01.person-answers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	good := string(data)
	sc, err := Parse("CONF-01.person-answers.yaml", data)
	if err != nil {
		t.Fatalf("as written: %v", err)
	}
	if x := sc.Agent.Calls[0].Expect; x == nil || x.AnsweredIn != "human" {
		t.Fatalf("answered_in did not load: %+v", x)
	}
	for _, tt := range []struct{ name, from, to, want string }{
		{"agent", "        answered_in: human", "        answered_in: agent", "answered_in: agent is where every call is answered"},
		{"another word", "        answered_in: human", "        answered_in: person", `"person" is not human`},
		{"no human steps", "human:\n  - click: \"#submit-registration\"\n  - wait_request: POST /api/registrations\n  - wait_for: '#registration-result[data-code=\"REGISTERED\"]'\n", "", "the scenario has no human steps"},
		{"cancel_after", "      expect:\n        answered_in: human", "      cancel_after: 1s\n      expect:\n        answered_in: human", "cancel_after cancels it"},
		{"a step's call", "  - click: \"#submit-registration\"", "  - call: {tool: prepare_event_registration, expect: {answered_in: human}}", "only an agent's call"},
	} {
		refusedAtLoad(t, "CONF-01.person-answers.yaml", good, tt.name, tt.from, tt.to, tt.want)
	}
}

// A send's csrf says where the token is with exactly one of meta, cookie or
// from, and code_at is a JSONPath; each mistake is refused with its line.
func TestACSRFSourceAndACodeFieldAreCheckedAtLoad(t *testing.T) {
	data, err := os.ReadFile("../fixtures/realpages/scenarios/CSRF-01.yaml")
	if err != nil {
		t.Fatal(err)
	}
	good := string(data)
	if _, err := Parse("CSRF-01.yaml", data); err != nil {
		t.Fatalf("as written: %v", err)
	}
	for _, tt := range []struct{ name, from, to, want string }{
		{"two sources", "csrf: {cookie: XSRF-TOKEN, header: X-XSRF-Token}", "csrf: {cookie: XSRF-TOKEN, meta: csrf, header: X-XSRF-Token}", "exactly one of meta"},
		{"no source", "csrf: {cookie: XSRF-TOKEN, header: X-XSRF-Token}", "csrf: {header: X-XSRF-Token}", "exactly one of meta"},
		{"no header", "csrf: {cookie: XSRF-TOKEN, header: X-XSRF-Token}", "csrf: {cookie: XSRF-TOKEN}", "header"},
		{"a path that is no JSONPath", "path: $.csrfToken}", "path: csrfToken}", "not an RFC 9535 JSONPath"},
		{"a code_at that is no JSONPath", "code_at: $.error}", "code_at: error}", "code_at"},
	} {
		refusedAtLoad(t, "CSRF-01.yaml", good, tt.name, tt.from, tt.to, tt.want)
	}
}

// message is a regular expression for a WebSocket line only; each mistake
// is refused with its line. A space in a line's path is read as %20, with
// a deprecation warning.
func TestASocketMessagePatternIsCheckedAtLoad(t *testing.T) {
	data, err := os.ReadFile("../fixtures/realpages/scenarios/LIVE-01.yaml")
	if err != nil {
		t.Fatal(err)
	}
	good := string(data)
	sc, err := Parse("LIVE-01.yaml", data)
	if err != nil {
		t.Fatalf("as written: %v", err)
	}
	if got := sc.Expect.Requests[2].Message; got != `"hold":"10:00"` {
		t.Fatalf("message did not load: %q", got)
	}
	line := `{request: WS /live/hold, phase: human, count: 1, message: '"hold":"10:00"'}`
	for _, tt := range []struct{ name, to, want string }{
		{"not a socket", `{request: POST /live/api/bookings, phase: human, count: 1, message: hold}`, "not of POST"},
		{"no RE2", `{request: WS /live/hold, phase: human, count: 1, message: '(hold'}`, "not a regular expression"},
	} {
		refusedAtLoad(t, "LIVE-01.yaml", good, tt.name, line, tt.to, tt.want)
	}
	// Words after the path once loaded as part of it (a space in the
	// path): they still load, read as %20, with the deprecation's warning.
	words, err := Parse("LIVE-01.yaml", []byte(strings.Replace(good, line, `{request: WS /live/hold hold, phase: human, count: 1}`, 1)))
	if err != nil || words.Expect.Requests[2].Path != "/live/hold%20hold" || len(words.Deprecated) != 1 || !strings.Contains(words.Deprecated[0].Error(), "request-path-space") {
		t.Errorf("words after the path: %v, path %q, warnings %v; want it read as %%20 with the request-path-space warning", err, words.Expect.Requests[2].Path, words.Deprecated)
	}
}

// refusedAtLoad edits a good case file (from → to, once) and wants Parse to
// refuse it with an error at a line of the file that says want.
func refusedAtLoad(t *testing.T, file, good, name, from, to, want string) {
	t.Helper()
	src := strings.Replace(good, from, to, 1)
	if src == good {
		t.Fatalf("%s: the case file no longer holds %q", name, from)
	}
	_, err := Parse(file, []byte(src))
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), file+":") {
		t.Errorf("%s: %v, want a located error saying %q", name, err, want)
	}
}
