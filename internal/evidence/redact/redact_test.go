package redact

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/evidence/redact/redacttest"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

var key = WithKey([]byte("the tests' key"))

const (
	guest, email, phone = "Ada Baker", "ada.baker@example.org", "+44 20 7946 0958"
	password, csrf      = "correct-horse-battery", "Zx9fQ2kLm8Rt"
	session, renewed    = "s8f7d6a5b4c3d2e1", "n3w5e55i0n1234567"
	bearer              = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlLXZhbHVl"
	accessToken, apiKey = "tok_abcdef123456", "ak-77f1e2d3c4b5"
	cardNumber          = "4111 1111 1111 1111"
	intent              = "int_0123456789abcdef0123456789abcdef"
)

// demoRecord is a run of the kind new users recorded on public demos: a
// flight search with airport codes and a schema pattern, a hotel booking by
// id with an enum, and a login whose typed user name ("library") is a word
// of the page's text. It names the person, and carries credentials every
// way a page sends them.
func demoRecord() (scenarios.Scenario, *scenarios.Evidence) {
	const base = "http://127.0.0.1:38291"
	input := map[string]any{"hotelId": "hotel-1-budget", "guest": guest, "email": email, "branch": "main", "from": "SFO", "to": "NRT"}
	sc := scenarios.Scenario{
		ID: "DEMO-01", Title: "a booking", Start: "/book?hotel=hotel-1-budget",
		Prompt: "Book hotel-1-budget for Ada Baker (" + email + ", " + phone + ") at the main branch, and find flights from SFO to NRT.",
		PromptData: map[string]scenarios.PromptValue{
			"from": {Value: "SFO"}, "to": {Value: "NRT"}, "hotelId": {Value: "hotel-1-budget"}, "branch": {Value: "main"},
			"guest": {Value: guest, Personal: true}, "email": {Value: email},
		},
		Agent:  scenarios.Agent{Calls: []scenarios.Call{{Tool: "book_room", Input: input}}},
		Human:  []scenarios.Step{{Fill: map[string]string{"#username": "library", "#password": password}}, {Click: "#login"}},
		Expect: scenarios.Expect{UI: map[vocab.Phase][]scenarios.UI{vocab.PhaseHuman: {{Selector: "#hours", TextContains: "library"}}}},
	}
	schema := json.RawMessage(`{"type":"object","properties":{"hotelId":{"type":"string","pattern":"^hotel-[0-9]+-(budget|deluxe)$"},` +
		`"branch":{"type":"string","enum":["main","develop"]},"from":{"type":"string","pattern":"^[A-Z]{3}$"},"to":{"type":"string","pattern":"^[A-Z]{3}$"},` +
		`"guest":{"type":"string"},"email":{"type":"string","format":"email"}}}`)
	tool := record.Tool{Name: "book_room", Description: "Book a room at one of our hotels (hotel-1-budget, hotel-2-deluxe) at a branch.", InputSchema: schema, FrameID: "F1"}
	in, _ := json.Marshal(input)
	ev := &scenarios.Evidence{
		ScenarioID: sc.ID, Env: scenarios.Env{BaseURL: base},
		Catalog: record.Catalog{tool}, PageTools: []record.PageTool{{Name: tool.Name, Description: tool.Description, InputSchema: schema}},
		Calls: []scenarios.CallRecord{{Phase: vocab.PhaseAgent, Call: sc.Agent.Calls[0],
			Result: record.Result{Tool: "book_room", Status: vocab.Completed, Output: json.RawMessage(`{"ok":true,"hotelId":"hotel-1-budget","guest":"Ada Baker","token":"` + accessToken + `"}`)}}},
		Trace: []record.Event{{Seq: 1, Kind: record.ToolsAdded, Tools: []record.Tool{tool}}, {Seq: 2, Kind: record.ToolInvoked, ToolName: "book_room", Input: in}},
		UI: map[vocab.Phase][]record.Element{vocab.PhaseHuman: {
			{Selector: "#hours", Present: true, Text: "Opening hours of the library: 9 to 17"},
			{Selector: "#username", Present: true, Value: "library"},
			{Selector: "#password-field", Present: true, Value: password, Attributes: map[string]string{"type": "password"}},
		}},
		Reviews: []scenarios.Review{{Phase: vocab.PhaseHuman, Index: 1, Click: "#login", Form: []scenarios.FormField{
			{Name: "username", Value: "library"}, {Name: "password", Value: password}, {Name: "csrf_token", Value: csrf, Hidden: true}}}},
		Requests: record.Log{
			{Seq: 1, ID: "1.1", Method: "POST", Path: "/login", URL: base + "/login", HasBody: true,
				Body:            "username=library&password=" + url.QueryEscape(password) + "&csrf_token=" + csrf,
				RequestHeaders:  map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Cookie": "ar_session=" + session + "; theme=dark", "X-CSRF-Token": csrf},
				ResponseHeaders: map[string]string{"Set-Cookie": "ar_session=" + renewed + "; Path=/; HttpOnly"}, Status: 303},
			{Seq: 2, ID: "1.2", Method: "GET", Path: "/api/flights", URL: base + "/api/flights?from=SFO&to=NRT&access_token=" + accessToken,
				RequestHeaders: map[string]string{"Authorization": "Bearer " + bearer}, Status: 200},
			{Seq: 3, ID: "1.3", Method: "POST", Path: "/api/bookings", URL: base + "/api/bookings", HasBody: true,
				Body:           `{"guest":"Ada Baker","email":"` + email + `","hotelId":"hotel-1-budget","branch":"main","card":"` + cardNumber + `"}`,
				RequestHeaders: map[string]string{"Content-Type": "application/json"}, Status: 201},
			{Seq: 4, ID: "1.4", Method: "POST", Path: "/api/upload", URL: base + "/api/upload", HasBody: true,
				Body:           "--B\r\nContent-Disposition: form-data; name=\"api_key\"\r\n\r\n" + apiKey + "\r\n--B\r\nContent-Disposition: form-data; name=\"branch\"\r\n\r\nmain\r\n--B--\r\n",
				RequestHeaders: map[string]string{"Content-Type": "multipart/form-data; boundary=B"}, Status: 201},
		},
		Console: []record.ConsoleEntry{{Type: "log", Text: "booked hotel-1-budget for " + email + ", call " + phone + ", intent " + intent}},
		Marks:   map[vocab.Phase]scenarios.Mark{vocab.PhaseAgent: {}, vocab.PhaseHuman: {}, vocab.PhaseEnd: {Requests: 4}},
	}
	return sc, ev
}

// redacted answers the record redacted, as JSON text.
func redacted(t *testing.T, r *Redaction, sc scenarios.Scenario, ev *scenarios.Evidence) string {
	t.Helper()
	rsc, err := r.Scenario(sc)
	if err != nil {
		t.Fatal(err)
	}
	rev, err := r.Evidence(ev)
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal([]any{rsc, rev})
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func holds(text, v string) bool {
	return slices.ContainsFunc(redacttest.Spellings(v), func(s string) bool {
		j, _ := json.Marshal(s)
		return strings.Contains(text, s) || strings.Contains(text, string(j[1:len(j)-1]))
	})
}

func TestWhatIsPersonalGoesAndWhatLooksPersonalStays(t *testing.T) {
	sc, ev := demoRecord()
	r, err := New(sc, ev, key)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal([]any{sc, ev})
	got := redacted(t, r, sc, ev)
	gone := []string{guest, email, phone, password, csrf, session, renewed, bearer, accessToken, apiKey, cardNumber, intent}
	for _, v := range gone {
		if !holds(string(raw), v) {
			t.Fatalf("the raw record does not hold %q: the check below proves nothing", v)
		}
		if holds(got, v) {
			t.Errorf("%q is personal and stays in the bundle", v)
		}
	}
	for _, v := range []string{"SFO", "NRT", "hotel-1-budget", `"main"`, `"develop"`, `"value":"library"`, "hours of the library", "theme=dark", `"pattern":"^[A-Z]{3}$"`} {
		if !strings.Contains(got, v) {
			t.Errorf("%s is not personal and was rewritten", v)
		}
	}
	rev, err := r.Evidence(ev)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := json.Marshal([]any{ev.Catalog, ev.PageTools, ev.Trace[0].Tools})
	after, _ := json.Marshal([]any{rev.Catalog, rev.PageTools, rev.Trace[0].Tools})
	if string(before) != string(after) {
		t.Errorf("the page's tools were rewritten:\n%s\n%s", before, after)
	}
	var kinds []Kind
	for _, p := range r.Placeholders() {
		kinds = append(kinds, p.Kind)
		if strings.Contains(string(raw), p.Value) {
			t.Errorf("the stand-in %q is a value of the record", p.Value)
		}
	}
	for _, want := range []Kind{Credential, Token, Email, Card, Phone, Personal} {
		if !slices.Contains(kinds, want) {
			t.Errorf("no %s among %v", want, r.Placeholders())
		}
	}
	// One stand-in per value, wherever it was: the name in the prompt, the
	// input, the output and the JSON body; the password typed, reviewed, in
	// the UI and in the form body.
	for _, v := range []string{guest, password, email} {
		if n := strings.Count(got, r.String(v)); n < 3 {
			t.Errorf("%q's stand-in %q is in %d places", v, r.String(v), n)
		}
	}
}

// Each value that the trials saw rewritten, alone in prompt_data as a new
// user writes it: it survives the bundle unchanged.
func TestValuesThatLookPersonalStay(t *testing.T) {
	for _, tc := range []struct{ name, key, value, where string }{
		{"an airport code", "departureAirport", "SFO", `"departureAirport":"SFO"`},
		{"an enum value", "branch", "main", `"enum":["main","develop"]`},
		{"an id", "hotelId", "hotel-1-budget", "/book?hotel=hotel-1-budget"},
		{"a word of the page a person typed", "username", "library", "Opening hours of the library"},
		{"a date", "date", "2026-12-08", `"date":"2026-12-08"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, ev := demoRecord()
			sc.PromptData = map[string]scenarios.PromptValue{tc.key: {Value: tc.value}}
			sc.Prompt += " " + tc.value
			ev.Calls[0].Call.Input = map[string]any{tc.key: tc.value}
			r, err := New(sc, ev, key)
			if err != nil {
				t.Fatal(err)
			}
			got := redacted(t, r, sc, ev)
			if !strings.Contains(got, tc.where) || strings.Count(got, tc.value) < 2 {
				t.Errorf("%q was rewritten: %s", tc.value, got)
			}
		})
	}
}

func TestADeclaredValueGoesInEveryCaseAndSpelling(t *testing.T) {
	sc := scenarios.Scenario{ID: "x", Prompt: "Name 李 & <Ann>, born 17 May 1990, city Lyon",
		PromptData: map[string]scenarios.PromptValue{
			"attendeeName": {Value: "李 & <Ann>", Personal: true},
			"born":         {Value: "1990-05-17", From: "17 May 1990", Personal: true},
			"city":         {Value: "Lyon", Personal: true},
		}}
	ev := &scenarios.Evidence{Final: new("Booked in LYON for 李 & <Ann> (1990-05-17)."),
		Console: []record.ConsoleEntry{{Text: `json "李 \u0026 \u003cAnn\u003e" url %E6%9D%8E%20%26%20%3CAnn%3E and lyon`}}}
	r, err := New(sc, ev, key)
	if err != nil {
		t.Fatal(err)
	}
	got := redacted(t, r, sc, ev)
	for _, leak := range []string{"李", "Ann", "Lyon", "LYON", "lyon", "17 May 1990", "1990-05-17", "%E6%9D%8E"} {
		if strings.Contains(got, leak) {
			t.Errorf("%q leaks in %s", leak, got)
		}
	}
	lyon, upper := r.String("Lyon"), r.String("LYON")
	if lyon == upper || !strings.EqualFold(lyon, upper) {
		t.Errorf("Lyon and LYON must get stand-ins equal but for case: %q, %q", lyon, upper)
	}
	if born := r.String("1990-05-17"); !dateRE.MatchString(born) {
		t.Errorf("a declared date's stand-in %q is no date", born)
	}
	for _, s := range redacttest.Spellings("李 & <Ann>") {
		if got, want := r.String("<"+s+">"), "<"+spellingLike(s, "李 & <Ann>", r.String("李 & <Ann>"))+">"; got != want {
			t.Errorf("%q became %q, want %q", s, got, want)
		}
	}
	// Mixed and lower-case escapes too, as a HAR would decode them.
	for _, s := range []string{"%e6%9d%8e%20%26%20%3cAnn%3e", "%E6%9D%8E+%26+<Ann>"} {
		if got := r.String("q=" + s); strings.Contains(unescape(got, true), "Ann") {
			t.Errorf("%q became %q", s, got)
		}
	}
}

// spellingLike spells standIn the way s spells secret (one of
// redacttest.Spellings).
func spellingLike(s, secret, standIn string) string {
	for _, spell := range spellings {
		if spell(secret) == s {
			return spell(standIn)
		}
	}
	if s == strings.ReplaceAll(url.PathEscape(secret), "+", "%2B") {
		return strings.ReplaceAll(url.PathEscape(standIn), "+", "%2B")
	}
	return "(a spelling String does not know: " + s + ")"
}

func TestAShortValueGoesOnlyWhereItStandsAlone(t *testing.T) {
	sc := scenarios.Scenario{ID: "x", Prompt: "For Ann and 王芳.", Personal: []string{"Ann", "王芳"}}
	ev := &scenarios.Evidence{Final: new("Annual report for Ann; planned by ANN; 王芳您好.")}
	r, err := New(sc, ev, key)
	if err != nil {
		t.Fatal(err)
	}
	got := r.String(*ev.Final)
	if !strings.HasPrefix(got, "Annual report for ") || !strings.Contains(got, "planned by ") || strings.Contains(got, " Ann;") ||
		strings.Contains(got, "ANN") || strings.Contains(got, "王芳") {
		t.Errorf("%q became %q: Ann goes where it stands alone, 王芳 wherever it is (Han has no spaces)", *ev.Final, got)
	}
}

// What the page's tools show is the app's: a declared value that is also
// an enum value of a tool is kept, everywhere, so that the input still
// fits the schema.
func TestTheToolsOfThePageArePublic(t *testing.T) {
	sc, ev := demoRecord()
	sc.PromptData["branch"] = scenarios.PromptValue{Value: "main", Personal: true}
	sc.Personal = []string{"hotel-2-deluxe"}
	r, err := New(sc, ev, key)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.String("main and hotel-2-deluxe"); got != "main and hotel-2-deluxe" {
		t.Errorf("a value the page's tools show was rewritten: %q", got)
	}
	if got := r.String(guest); got == guest {
		t.Error("the declared guest is kept: the test proves nothing")
	}
}

func TestAStandInIsNeverAValueOfTheRecord(t *testing.T) {
	k := standIns{key: []byte("k")}
	first := k.make(Personal, "ada", 0)
	r := build(map[string]Kind{"ada": Personal}, "ada\x00"+first, k)
	if got := r.String("ada"); got == first || got == "ada" || len(got) != 3 {
		t.Errorf("the stand-in %q is the first draw %q, which the record holds", got, first)
	}
	if r := build(map[string]Kind{"ada": Personal}, "ada", k); r.String("ada") != first {
		t.Error("without a collision the first draw is kept: the case above proves nothing")
	}
}

func TestNamesOfCredentials(t *testing.T) {
	for name, want := range map[string]Kind{
		"X-CSRF-Token": Credential, "csrfToken": Credential, "user[password]": Credential, "#new-pin": Credential,
		"api_key": Credential, "Authorization": Credential, "Set-Cookie": Credential, "session_id": Credential,
		"X-Api-Key": Credential, "authenticity_token": Credential, "#pw": "", "ssn": Account, "passportNumber": Account,
		"author": "", "shipping": "", "sessionTitle": "", "description": "", "passenger": "", "spinner": "",
		"signature": "", "departureAirport": "", "hotelId": "", "username": "", "email": "",
	} {
		if got := nameKind(name); got != want {
			t.Errorf("%q is %q, want %q", name, got, want)
		}
	}
	got := headerSecrets("Set-Cookie", "ar_session=s_secret; Path=/; HttpOnly; SameSite=Strict")
	if len(got) != 1 || got[0] != "s_secret" {
		t.Errorf("set-cookie: %q", got)
	}
	got = headerSecrets("Authorization", "Bearer abcdef")
	if len(got) != 2 || got[0] != "abcdef" {
		t.Errorf("authorization: %q", got)
	}
}

func TestRedactionKeepsNumbersKeysAndTimes(t *testing.T) {
	t0 := time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)
	sc := scenarios.Scenario{ID: "x", Prompt: "call 555-123-4567 on 2026-03-14",
		PromptData: map[string]scenarios.PromptValue{"day": {Value: "2026-03-14", Personal: true}}}
	raw := `{"ok":true,"555-123-4567":"555-123-4567","big":12345678901234567890,"exact":1.10,"neg":-0.0}`
	ev := &scenarios.Evidence{Trace: []record.Event{{Seq: 1, Time: t0, Output: json.RawMessage(raw)}},
		Console: []record.ConsoleEntry{{Text: "at 2026-03-14T09:26:53Z"}}}
	r, err := New(sc, ev, key)
	if err != nil {
		t.Fatal(err)
	}
	var rev scenarios.Evidence
	if err := r.Apply(ev, &rev); err != nil {
		t.Fatal(err)
	}
	out := string(rev.Trace[0].Output)
	for _, want := range []string{`"big":12345678901234567890`, `"exact":1.10`, `"neg":-0.0`, `"555-123-4567":"` + r.String("555-123-4567") + `"`} {
		if !strings.Contains(strings.ReplaceAll(out, " ", ""), want) {
			t.Errorf("%s lacks %s", out, want)
		}
	}
	if !rev.Trace[0].Time.Equal(t0) || strings.Contains(rev.Console[0].Text, "2026-03-14") {
		t.Errorf("the record's time must stay and the declared day go from text: %v, %q", rev.Trace[0].Time, rev.Console[0].Text)
	}
	if fmt.Sprint(r.String("555-123-4567")) == "555-123-4567" {
		t.Error("the phone stayed")
	}
}

// The expectations name places: a JSON pointer and the selector that showed
// it ("/password" → "#password-field") are no credential, though the pointer is named
// like one; the value the person saw there is.
func TestSelectorsAndPointersAreNoSecrets(t *testing.T) {
	sc, ev := demoRecord()
	sc.Expect.Submitted = []scenarios.SubmittedExpect{{Request: "POST /login", Click: "#login",
		Fields: map[string]string{"/password": "#password-field", "/username": "#username"}}}
	ev.Reviews[0].Seen = map[string]string{"#password-field": password, "#username": "library"}
	r, err := New(sc, ev, key)
	if err != nil {
		t.Fatal(err)
	}
	rsc, err := r.Scenario(sc)
	if err != nil {
		t.Fatal(err)
	}
	rev, err := r.Evidence(ev)
	if err != nil {
		t.Fatal(err)
	}
	if got := rsc.Expect.Submitted[0].Fields["/password"]; got != "#password-field" {
		t.Errorf("the selector became %q", got)
	}
	if got, ok := rev.Reviews[0].Seen["#password-field"]; !ok || got == password || got != r.String(password) {
		t.Errorf("what the person saw at #pw: %q", got)
	}
}
