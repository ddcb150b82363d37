package bundle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/vocab"
)

// The phone numbers, card numbers and IBANs the patterns must find, each
// planted whole in text around it.
var (
	plantedPhones = []string{
		"555-123-4567", "(555) 123-4567", "555.123.4567", "555 123 4567", "(555)123-4567", "1-800-555-0199",
		"+1 555 123 4567", "+1 (555) 123-4567", "+44 20 7946 0958", "+44 (0)20 7946 0958", "+49-30-1234567",
		"+33 1 23 45 67 89", "+4930123456", "020 7946 0958", "(020) 7946 0958", "06 12 34 56 78",
	}
	plantedCards = []string{"4111 1111 1111 1111", "5500-0000-0000-0004", "378282246310005", "4242424242424242", "3782 822463 10005"}
	plantedIBANs = []string{"DE89 3704 0044 0532 0130 00", "GB82WEST12345698765432", "FR14 2004 1010 0505 0001 3M02 606", "gb82 west 1234 5698 7654 32"}
)

// Strings that look like numbers of those kinds and are not personal data:
// the judge compares several of them, and the record must read them back.
var notPersonal = []string{
	"2026-03-14T09:26:53Z", "2026-03-14T09:26:53.123456789+01:00", "2026-03-14 09:26:53", "2026-03-14", "14.03.2026",
	"v1.2.3", "145.0.7632.116", "Chrome/145.0.7632.116", "10.0.19045.1234",
	"1000.7", "12345.67", "interception-job-12.0",
	"http://127.0.0.1:38291/events?id=1", "localhost:8080", "http://[::1]:5555/api/tasks/3",
	"HTTP 201 Created", "200", "status 409",
	"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "sha256:5551234567890123456789012345678901234567890123456789012345678901",
	"9F4C0C7E5B1A2D3E4F5061728394A5B6", "DE1234567890ABCDEF1234567890ABCD", "123e4567-e89b-12d3-a456-426614174000",
	"-4271846527391726312.1234567890123456789", "1773480413000", "1773480413123456789", "1773480413.123456",
	"192.168.100.200", "10.0.0.1", "evt-webmcp-intro", "s_" + strings.Repeat("0", 3), "+1", "8 of 8", "7 of 8",
	"x5551234567", "5551234567", "123-4567", "1,234,567.89", "1 234 567", "+1 2026-03-14", "0.5 123 456 789",
}

func TestPatternsFindPhonesCardsAndIBANs(t *testing.T) {
	for _, tc := range []struct {
		kind string
		want []string
	}{{"phone", plantedPhones}, {"card", plantedCards}, {"iban", plantedIBANs}} {
		for _, v := range tc.want {
			for _, around := range []string{"%s", "call %s now", "(tel: %s).", "「%s」", `{"v":"%s"}`, "a,%s,b", "/people/%s/x"} {
				s := fmt.Sprintf(around, v)
				if got := numbersFound(s); !slices.Contains(got[tc.kind], v) {
					t.Errorf("%s: %q not found in %q (found %v)", tc.kind, v, s, got)
				}
			}
		}
	}
}

func TestPatternsSpareWhatIsNotPersonal(t *testing.T) {
	for _, s := range notPersonal {
		for _, around := range []string{"%s", "at %s, ok", `{"v":"%s"}`} {
			if got := numbersFound(fmt.Sprintf(around, s)); len(got) > 0 {
				t.Errorf("%q is taken for %v", s, got)
			}
		}
	}
	// Near misses of the real thing: a failed Luhn or mod-97 check, a
	// number glued to more digits.
	for _, s := range []string{"4111 1111 1111 1112", "1111 1111 1111 1117", "DE88 3704 0044 0532 0130 00", "555-123-45678", "1555-123-4567x", "v555.123.4567"} {
		if got := numbersFound(s); len(got) > 0 {
			t.Errorf("%q is taken for %v", s, got)
		}
	}
}

// numbersFound runs the number patterns as NewRedaction does.
func numbersFound(s string) map[string][]string {
	out := map[string][]string{}
	for _, d := range decodings(s) {
		findNumbers(d, func(secret, kind string) { out[kind] = append(out[kind], secret) })
	}
	return out
}

// spellings are the ways a value can be written in a bundle's files: as it
// is, inside a JSON string, in HTML (html/template writes + as &#43;), and
// escaped for a URL query, path or form, or by encodeURIComponent.
func spellings(t *testing.T, v string) []string {
	out := []string{v}
	add := func(s string) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	j, _ := json.Marshal(v)
	add(string(j[1 : len(j)-1]))
	var page strings.Builder
	if err := template.Must(template.New("").Parse("{{.}}")).Execute(&page, v); err != nil {
		t.Fatal(err)
	}
	add(page.String())
	add(html.EscapeString(v))
	add(url.QueryEscape(v))
	add(url.PathEscape(v))
	add(encodeURIComponent(v))
	return out
}

// leaks greps every file of a bundle folder for every spelling of every
// value, and answers what it found where.
func leaks(t *testing.T, dir string, values []string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) == 0 {
		t.Fatalf("%s is empty", dir)
	}
	var found []string
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range values {
			for _, s := range spellings(t, v) {
				if bytes.Contains(data, []byte(s)) {
					found = append(found, fmt.Sprintf("%s holds %q (as %q)", e.Name(), v, s))
				}
			}
		}
	}
	return found
}

// matrixRecord is a run that plants each value in the prompt, a tool's
// input and output, the trace, a request's URL (escaped two ways), JSON
// body, form body and header, the page, a console message and the final
// words; its expectations compare the planted values, so that the judge
// shows that redaction kept them equal. It passes.
func matrixRecord(values []string, data map[string]scenarios.PromptValue) (scenarios.Scenario, *scenarios.Evidence) {
	t0 := time.Date(2026, 3, 14, 9, 26, 53, 123456789, time.UTC)
	input, output := map[string]any{}, map[string]any{"ok": true, "code": "FOUND"}
	for i, v := range values {
		input[fmt.Sprintf("q%d", i)] = v
		output[fmt.Sprintf("echo%d", i)] = v
	}
	out, _ := json.Marshal(output)
	in, _ := json.Marshal(input)
	joined := strings.Join(values, "; ")
	var prompt strings.Builder
	prompt.WriteString("Look these up: " + joined + ".")
	final := "Done: " + joined + "."
	for _, k := range slices.Sorted(maps.Keys(data)) {
		prompt.WriteString(" " + k + ": " + data[k].Value + " " + data[k].From + ".")
		final += " " + strings.ToUpper(data[k].Value) + "."
	}
	sc := scenarios.Scenario{
		ID: "matrix", Title: "Planted values", Start: "/lookup?ref=" + url.QueryEscape(values[0]), Prompt: prompt.String(), PromptData: data,
		Agent: scenarios.Agent{Calls: []scenarios.Call{{Tool: "lookup", Input: input,
			Expect: &scenarios.CallExpect{Status: vocab.Completed, Output: output}}}, Final: &final},
		Expect: scenarios.Expect{
			Calls:    &scenarios.CallsExpect{Exactly: []scenarios.CallSketch{{Tool: "lookup", Input: input}}},
			Requests: []scenarios.RequestExpect{{Method: "GET", Path: "/api/lookup", Phase: vocab.PhaseAgent, Count: len(values), Status: 200}},
			UI:       map[vocab.Phase][]scenarios.UI{vocab.PhaseAgent: {{Selector: "#q0", Value: &values[0], TextContains: values[len(values)-1]}}},
			Answer:   &scenarios.AnswerExpect{MustMention: []string{"done", values[0]}, MustNotClaim: []string{"failed"}},
		},
	}
	const base = "http://127.0.0.1:38291"
	ev := &scenarios.Evidence{
		ScenarioID: sc.ID, Env: scenarios.Env{BaseURL: base, Browser: "Chrome/145.0.7632.116", Protocol: "1.3"},
		Catalog: record.Catalog{{Name: "lookup", Description: "Look up a value", InputSchema: json.RawMessage(`{"type":"object"}`), FrameID: "9F4C0C7E5B1A2D3E4F5061728394A5B6"}},
		Calls: []scenarios.CallRecord{{Phase: vocab.PhaseAgent, Call: sc.Agent.Calls[0],
			Result:        record.Result{Tool: "lookup", Transport: vocab.PageAPI, InvocationID: "1000.7", Status: vocab.Completed, Output: out, Duration: 1234567},
			CatalogBefore: []string{"lookup"}, CatalogAfter: []string{"lookup"}}},
		Trace: []record.Event{
			{Seq: 1, Time: t0, Kind: record.ToolInvoked, ToolName: "lookup", FrameID: "9F4C0C7E5B1A2D3E4F5061728394A5B6", InvocationID: "1000.7", Input: in},
			{Seq: 2, Time: t0.Add(time.Millisecond), Kind: record.ToolResponded, ToolName: "lookup", InvocationID: "1000.7", Status: "Completed", Output: out},
		},
		UI:    map[vocab.Phase][]record.Element{vocab.PhaseAgent: {{Selector: "#q0", Present: true, Visible: true, Enabled: true, Value: values[0], Text: joined}}},
		Marks: map[vocab.Phase]scenarios.Mark{vocab.PhaseAgent: {}, vocab.PhaseHuman: {Trace: 2, Requests: 2 * len(values)}, vocab.PhaseEnd: {Trace: 2, Requests: 2 * len(values)}},
		Final: &final,
	}
	ev.Capture.Network = true
	for i, v := range values {
		ev.Requests = append(ev.Requests,
			record.Request{Seq: 2*i + 1, ID: fmt.Sprintf("1000.%d", 2*i+1), Method: "GET", Path: "/api/lookup",
				URL:            base + "/api/lookup?q=" + url.QueryEscape(v) + "&c=" + encodeURIComponent(v),
				RequestHeaders: map[string]string{"X-Note": v, "Accept": "application/json"}, Status: 200, StatusText: "OK",
				MimeType: "application/json", Started: t0.Add(time.Duration(i) * time.Second), SentAt: 1773480413.123456 + float64(i), Done: true},
			record.Request{Seq: 2*i + 2, ID: fmt.Sprintf("1000.%d", 2*i+2), Method: "POST", Path: "/api/notes",
				URL: base + "/api/notes", HasBody: true, Body: `{"note":` + string(must(json.Marshal(v))) + `,"form":"note=` + url.QueryEscape(v) + `"}`,
				RequestHeaders: map[string]string{"Content-Type": "application/json"}, Status: 201, StatusText: "Created",
				Started: t0.Add(time.Duration(i)*time.Second + time.Millisecond), SentAt: 1773480413.5 + float64(i), Done: true})
		ev.Console = append(ev.Console, record.ConsoleEntry{Type: "error", Text: "lookup failed at 2026-03-14T09:26:53Z for " + v, URL: base + "/lookup?v=" + url.PathEscape(v), Line: 42})
	}
	return sc, ev
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// The values the matrix plants: every pattern's, and prompt_data values that
// look like nothing personal (a city, in another case too) or say a value
// in other words (from).
var (
	matrixData = map[string]scenarios.PromptValue{
		"city":      {Value: "lyon"},
		"birthDate": {Value: "1990-05-17", From: "17 May 1990"},
	}
	matrixValues = slices.Concat(plantedPhones, plantedCards, plantedIBANs, []string{"Lyon", "lyon", "1990-05-17"})
	matrixHidden = slices.Concat(matrixValues, []string{"LYON", "17 May 1990"})
)

func sealMatrix(t *testing.T) (Bundle, string) {
	t.Helper()
	sc, ev := matrixRecord(matrixValues, matrixData)
	if v := judge.Judge(sc, ev); v.Outcome != vocab.Pass {
		t.Fatalf("the planted record must pass before redaction: %s\n%s", v.Outcome, judge.Explain(v))
	}
	b, err := Seal(Meta{RunID: "r", Start: time.Unix(0, 0).UTC(), End: time.Unix(1, 0).UTC(), BaseURL: ev.Env.BaseURL}, sc, ev)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "matrix")
	if err := Write(dir, b, testPage); err != nil {
		t.Fatal(err)
	}
	return b, dir
}

func TestRedactionLeavesNoPlantedValueInAnyFileOfTheBundle(t *testing.T) {
	b, dir := sealMatrix(t)
	if b.Verdict.Outcome != vocab.Pass {
		t.Errorf("the redacted record must still pass: %s\n%s", b.Verdict.Outcome, judge.Explain(b.Verdict))
	}
	if rep := Verify(dir); !rep.OK {
		t.Errorf("the bundle does not verify: %+v", rep.Problems)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	for _, want := range []string{ScenarioFile, RunFile, TraceFile, RequestsFile, HARFile, ConsoleFile, UIFile, VerdictFile, IndexFile, ManifestFile} {
		if !slices.Contains(names, want) {
			t.Errorf("the bundle lacks %s, so it was not checked: %v", want, names)
		}
	}
	for _, l := range leaks(t, dir, matrixHidden) {
		t.Error(l)
	}
	for _, kind := range []string{"PHONE", "CARD", "IBAN", "PERSONAL"} {
		if !slices.ContainsFunc(b.Meta.Redacted, func(p string) bool { return strings.HasPrefix(p, "REDACTED-"+kind+"-") }) {
			t.Errorf("no %s placeholder in %v", kind, b.Meta.Redacted)
		}
	}
}

func TestTheLeakCheckFindsEveryValueInAnUnredactedBundle(t *testing.T) {
	// Known bad: the same record written without redaction. Every planted
	// value must be found, so that the check above is armed for each; the
	// HAR must show the values the request URLs hold only escaped.
	sc, ev := matrixRecord(matrixValues, matrixData)
	dir := filepath.Join(t.TempDir(), "raw")
	if err := Write(dir, Bundle{Meta: Meta{Format: Format, ScenarioID: sc.ID}, Scenario: sc, Evidence: ev, Verdict: judge.Judge(sc, ev)}, testPage); err != nil {
		t.Fatal(err)
	}
	found := leaks(t, dir, matrixHidden)
	for _, v := range matrixHidden {
		if !slices.ContainsFunc(found, func(l string) bool { return strings.Contains(l, fmt.Sprintf("%q (as", v)) }) {
			t.Errorf("the leak check does not find %q in the unredacted bundle", v)
		}
	}
	har, err := os.ReadFile(filepath.Join(dir, HARFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"+44 20 7946 0958", "(555) 123-4567"} {
		j, _ := json.Marshal(v)
		if !bytes.Contains(har, j) {
			t.Errorf("the unredacted HAR does not decode %s from the query: the check would miss a HAR leak", j)
		}
	}
}

func TestRedactionKeepsWhatIsNotPersonal(t *testing.T) {
	sc, ev := matrixRecord([]string{"+44 20 7946 0958"}, nil)
	// Plant the look-alikes where the secrets are.
	for i, s := range notPersonal {
		ev.Console = append(ev.Console, record.ConsoleEntry{Type: "warning", Text: s})
		ev.Calls[0].Call.Input[fmt.Sprintf("n%d", i)] = s
	}
	sc.Agent.Calls[0].Input = ev.Calls[0].Call.Input
	ev.Requests[0].URL = "http://127.0.0.1:38291/api/lookup?at=2026-03-14T09%3A26%3A53Z&v=145.0.7632.116"
	r, err := NewRedaction(sc, ev)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Placeholders(); !slices.Equal(got, []string{"REDACTED-PHONE-1"}) {
		t.Errorf("only the planted phone is a secret, got %v", got)
	}
	b, err := Seal(Meta{RunID: "r"}, sc, ev)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range notPersonal {
		if got := b.Evidence.Console[len(b.Evidence.Console)-len(notPersonal)+i].Text; got != s {
			t.Errorf("%q became %q", s, got)
		}
		if got := b.Evidence.Calls[0].Call.Input[fmt.Sprintf("n%d", i)]; got != s {
			t.Errorf("tool input %q became %q", s, got)
		}
	}
	if got := b.Evidence.Requests[0]; got.URL != ev.Requests[0].URL || got.ID != "1000.1" || got.Status != 200 || !got.Started.Equal(ev.Requests[0].Started) {
		t.Errorf("the request's URL, id, status or time changed: %+v", got)
	}
	if got := b.Evidence.Trace[0]; !got.Time.Equal(ev.Trace[0].Time) || got.FrameID != ev.Trace[0].FrameID || got.InvocationID != "1000.7" {
		t.Errorf("the trace's time or ids changed: %+v", got)
	}
}

func TestRedactionKeepsNumbersDigitForDigit(t *testing.T) {
	sc, ev := matrixRecord([]string{"555-123-4567"}, nil)
	raw := `{"ok":true,"code":"FOUND","echo0":"555-123-4567","big":12345678901234567890,"exact":1.10,"neg":-0.0}`
	ev.Calls[0].Result.Output = json.RawMessage(raw)
	ev.Trace[1].Output = json.RawMessage(raw)
	b, err := Seal(Meta{RunID: "r"}, sc, ev)
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range []json.RawMessage{b.Evidence.Calls[0].Result.Output, b.Evidence.Trace[1].Output} {
		var out bytes.Buffer
		if err := json.Compact(&out, raw); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{`"big":12345678901234567890`, `"exact":1.10`, `"neg":-0.0`, `"echo0":"REDACTED-PHONE-1"`} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s lacks %s", out.String(), want)
			}
		}
	}
}

func TestPromptDataIsHiddenWithItsWordsAndInEveryCase(t *testing.T) {
	sc, ev := tinyRecord("Booked in LYON for the person born 17 May 1990.", nil, []string{"lyon"})
	sc.Prompt = "Book in Lyon; I was born 17 May 1990. Level: beginner, code ab."
	sc.PromptData = map[string]scenarios.PromptValue{
		"city":  {Value: "Lyon"},
		"birth": {Value: "1990-05-17", From: "17 May 1990"},
		"level": {Value: "beginner"},
		"code":  {Value: "ab"},                     // too short to hide
		"seats": {Value: "500"},                    // a plain small number: never hidden
		"optIn": {Value: "true", From: "yes"},      // a JSON literal: never hidden (found by PROFILE-01)
		"phone": {Value: "5551234567"},             // a number, but a phone's digits
		"when":  {Value: "ninth", From: "the 9th"}, // from words that do not hold the value
	}
	sc.Prompt += " Call 5551234567 on the 9th."
	b, err := Seal(Meta{RunID: "r"}, sc, ev)
	if err != nil {
		t.Fatal(err)
	}
	got := b.Scenario.Prompt + " | " + *b.Evidence.Final
	for _, leak := range []string{"Lyon", "LYON", "lyon", "17 May 1990", "1990-05-17", "beginner", "5551234567", "the 9th"} {
		if strings.Contains(got, leak) {
			t.Errorf("%q leaks: %s", leak, got)
		}
	}
	for _, kept := range []string{"code ab", "Call"} {
		if !strings.Contains(got, kept) {
			t.Errorf("%q should stay: %s", kept, got)
		}
	}
	if b.Verdict.Outcome != vocab.Pass {
		t.Errorf("must_mention lyon still finds LYON once both are hidden: %s %v", b.Verdict.Outcome, b.Verdict.Codes)
	}
	lyon := b.Scenario.PromptData["city"].Value
	if upper := strings.Fields(*b.Evidence.Final)[2]; upper == lyon || !strings.EqualFold(upper, lyon) {
		t.Errorf("Lyon and LYON must get placeholders equal but for case: %q, %q", lyon, upper)
	}
	if v := b.Scenario.PromptData["seats"].Value; v != "500" {
		t.Errorf("a small number is not hidden: %q", v)
	}
	if v := b.Scenario.PromptData["optIn"].Value; v != "true" {
		t.Errorf("a JSON literal is not hidden (it would rewrite every boolean of every body): %q", v)
	}
}

func TestRedactionIsStable(t *testing.T) {
	first, dir1 := sealMatrix(t)
	_, dir2 := sealMatrix(t)
	for _, name := range []string{ScenarioFile, RunFile, RequestsFile, HARFile, IndexFile, ManifestFile} {
		a, _ := os.ReadFile(filepath.Join(dir1, name))
		b, _ := os.ReadFile(filepath.Join(dir2, name))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two seals of the same record", name)
		}
	}
	// One value, one placeholder, wherever and however it was written: the
	// phone planted escaped in the start page's query, in the HAR decoded
	// and in the final words is the same placeholder everywhere.
	sc, ev := matrixRecord(matrixValues, matrixData)
	r, err := NewRedaction(sc, ev)
	if err != nil {
		t.Fatal(err)
	}
	uk := r.String("+44 20 7946 0958")
	for _, s := range spellings(t, "+44 20 7946 0958") {
		if got := r.String("<" + s + ">"); got != "<"+uk+">" {
			t.Errorf("%q became %q, want <%s>", s, got, uk)
		}
	}
	want := r.String(plantedPhones[0])
	if !strings.Contains(first.Scenario.Start, want) || !strings.Contains(*first.Evidence.Final, want) {
		t.Errorf("the start page and the final words do not both say %s: %q, %q", want, first.Scenario.Start, *first.Evidence.Final)
	}
	// Mixed and lower-case escapes too, as a HAR would decode them.
	for _, s := range []string{"%2b44%2020%207946%200958", "%2B44+20+7946+0958", "+44%20%32%30%207946%200958"} {
		if got := r.String("q=" + s); strings.Contains(unescape(got, true), "7946") {
			t.Errorf("%q became %q", s, got)
		}
	}
}

func TestRecordTimesSurviveADateThatIsASecret(t *testing.T) {
	// A date the prompt gives is hidden wherever it is written, but the
	// record's own times, on the same day, are the run's: they stay, and
	// read back as times.
	sc, ev := matrixRecord([]string{"2026-03-14"}, map[string]scenarios.PromptValue{"day": {Value: "2026-03-14"}})
	b, err := Seal(Meta{RunID: "r"}, sc, ev)
	if err != nil {
		t.Fatal(err)
	}
	if !b.Evidence.Trace[0].Time.Equal(ev.Trace[0].Time) || !b.Evidence.Requests[0].Started.Equal(ev.Requests[0].Started) {
		t.Error("the record's times changed")
	}
	if strings.Contains(b.Scenario.Prompt, "2026-03-14") || strings.Contains(b.Evidence.Console[0].Text, "2026-03-14T") {
		t.Errorf("the date is hidden in text, a timestamp in text included: %q, %q", b.Scenario.Prompt, b.Evidence.Console[0].Text)
	}
}

func TestEveryScenarioOfTheSuiteStillSeals(t *testing.T) {
	// Every prompt_data value is hidden now: none of the suite's scenarios
	// may have an expectation that quotes part of one, which would make Seal
	// refuse its record. The evidence here is the transcript alone.
	files, err := filepath.Glob(filepath.Join("..", scenarios.DefaultDir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, f := range files {
		sc, err := scenarios.Load(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		ev := &scenarios.Evidence{ScenarioID: sc.ID, Final: sc.Agent.Final, Calls: []scenarios.CallRecord{}}
		for i, c := range sc.Agent.Calls {
			ev.Calls = append(ev.Calls, scenarios.CallRecord{Phase: vocab.PhaseAgent, Index: i, Call: c, Result: record.Result{Tool: c.Tool, Status: vocab.Completed}})
		}
		if _, err := Seal(Meta{RunID: "r"}, sc, ev); err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
		}
	}
}

// reviewRecord is a sign-up run (seed 003): the assistant fills in the form
// with a typo in the email, the person types the right one, the review at
// their click holds the form and the texts shown, and the form's POST
// carries the same values form-encoded (the email %40-escaped, the name's
// space as +); a multipart copy and a JSON save carry them too.
func reviewRecord() (scenarios.Scenario, *scenarios.Evidence) {
	const base = "http://127.0.0.1:38291"
	sc := scenarios.Scenario{
		ID: "SIGNUP-01", Title: "Sign-up reviewed", Start: "/signup", Prompt: "Sign me up as a patron.",
		Agent: scenarios.Agent{Calls: []scenarios.Call{{Tool: "fill_signup",
			Input: map[string]any{"name": "Ann Example", "email": "ann@exmaple.org", "plan": "patron"}}}},
		Human: []scenarios.Step{{Fill: map[string]string{"#email": "ann@example.org"}}, {Click: "#join"}},
		Expect: scenarios.Expect{Submitted: []scenarios.SubmittedExpect{{Request: "POST /signup",
			Fields: map[string]string{"/summary": "#summary", "/contact": "#contact"}}}},
	}
	multipart := "--XyZ\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nAnn Example\r\n" +
		"--XyZ\r\nContent-Disposition: form-data; name=\"email\"\r\n\r\nann@example.org\r\n--XyZ--\r\n"
	ev := &scenarios.Evidence{
		ScenarioID: sc.ID, Env: scenarios.Env{BaseURL: base},
		Calls: []scenarios.CallRecord{{Phase: vocab.PhaseAgent, Call: sc.Agent.Calls[0],
			Result: record.Result{Tool: "fill_signup", Status: vocab.Completed, OutputText: "Filled in."}}},
		Reviews: []scenarios.Review{{Phase: vocab.PhaseHuman, Index: 1, Click: "#join", Requests: 0,
			Form: []scenarios.FormField{
				{Name: "form_id", Value: "signup-v2", Hidden: true},
				{Name: "name", Value: "Ann Example"},
				{Name: "email", Value: "ann@example.org"},
				{Name: "plan", Value: "patron"},
			},
			Seen: map[string]string{"#summary": "Ann Example joins as Patron.", "#contact": "Questions? club-desk@riverside.example"}}},
		Requests: record.Log{
			{Seq: 1, ID: "9.1", Method: "POST", Path: "/signup", URL: base + "/signup", HasBody: true, ResourceType: "Document",
				Body:           "form_id=signup-v2&name=Ann+Example&email=ann%40example.org&plan=patron",
				RequestHeaders: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, Status: 303, Done: true},
			{Seq: 2, ID: "9.2", Method: "POST", Path: "/api/copy", URL: base + "/api/copy", HasBody: true, Body: multipart,
				RequestHeaders: map[string]string{"Content-Type": "multipart/form-data; boundary=XyZ"}, Status: 201, Done: true},
			{Seq: 3, ID: "9.3", Method: "PUT", Path: "/api/profile", URL: base + "/api/profile", HasBody: true,
				Body: `{"name":"Ann Example","email":"ann@example.org","draft":"ann@exmaple.org"}`, Status: 200, Done: true},
		},
		Marks: map[vocab.Phase]scenarios.Mark{vocab.PhaseAgent: {}, vocab.PhaseHuman: {}, vocab.PhaseEnd: {Requests: 3}},
	}
	ev.Capture.Network = true
	return sc, ev
}

// TestReviewsAndBodiesAreRedactedAndStayEqual: what a person typed or was
// shown, in the reviews and in the bodies the app's writes carried
// (form-encoded with %40 and +, multipart, JSON), leaves no trace in any
// file of the bundle; and each value becomes the same placeholder wherever
// it is, so that "the request carried what was reviewed" reads the same on
// the redacted record. The typo stays a different value.
func TestReviewsAndBodiesAreRedactedAndStayEqual(t *testing.T) {
	sc, ev := reviewRecord()
	b, err := Seal(Meta{RunID: "r", Start: time.Unix(0, 0).UTC(), End: time.Unix(1, 0).UTC(), BaseURL: ev.Env.BaseURL}, sc, ev)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "signup")
	if err := Write(dir, b, testPage); err != nil {
		t.Fatal(err)
	}
	secrets := []string{"ann@example.org", "ann@exmaple.org", "Ann Example", "club-desk@riverside.example"}
	for _, l := range leaks(t, dir, secrets) {
		t.Error(l)
	}
	red := b.Evidence
	form := map[string]string{}
	for _, f := range red.Reviews[0].Form {
		form[f.Name] = f.Value
	}
	email, name := form["email"], form["name"]
	if !strings.HasPrefix(email, "REDACTED-EMAIL-") || !strings.HasPrefix(name, "REDACTED-") || form["plan"] != "patron" || form["form_id"] != "signup-v2" {
		t.Fatalf("the redacted review's form: %+v", red.Reviews[0].Form)
	}
	if got := red.Reviews[0].Seen["#summary"]; got != name+" joins as Patron." {
		t.Errorf("seen #summary %q, want the name's placeholder %s in it", got, name)
	}
	if got := red.Reviews[0].Seen["#contact"]; got == "" || strings.Contains(got, "@") {
		t.Errorf("seen #contact %q: the address the page showed must be hidden", got)
	}
	posted, err := url.ParseQuery(red.Requests[0].Body)
	if err != nil {
		t.Fatalf("the redacted form body %q does not parse: %v", red.Requests[0].Body, err)
	}
	if posted.Get("email") != email || posted.Get("name") != name || posted.Get("plan") != "patron" {
		t.Errorf("the form body reads %v; the review has email %s, name %s", posted, email, name)
	}
	if want := "\r\n\r\n" + name + "\r\n"; !strings.Contains(red.Requests[1].Body, want) || !strings.Contains(red.Requests[1].Body, "\r\n\r\n"+email+"\r\n") {
		t.Errorf("the multipart body %q does not carry the review's placeholders", red.Requests[1].Body)
	}
	var saved map[string]string
	if err := json.Unmarshal([]byte(red.Requests[2].Body), &saved); err != nil {
		t.Fatalf("the redacted JSON body %q: %v", red.Requests[2].Body, err)
	}
	if saved["email"] != email || saved["name"] != name || saved["draft"] == email || !strings.HasPrefix(saved["draft"], "REDACTED-EMAIL-") {
		t.Errorf("the JSON body reads %v; the review has email %s, name %s; the typo must stay another value", saved, email, name)
	}
}
