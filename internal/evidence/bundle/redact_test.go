package bundle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/evidence/redact"
	"github.com/agentready/agentready/internal/evidence/redact/redacttest"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

// The values the matrix plants: numbers found by their patterns alone, and
// prompt_data values declared personal that look like nothing personal (a
// city, in another case too) or say a value in other words (from).
var (
	matrixPhones = []string{"555-123-4567", "(555) 123-4567", "+1 555 123 4567", "+44 20 7946 0958", "+49-30-1234567", "020 7946 0958"}
	matrixCards  = []string{"4111 1111 1111 1111", "378282246310005"}
	matrixIBANs  = []string{"DE89 3704 0044 0532 0130 00", "GB82WEST12345698765432"}
	matrixData   = map[string]scenarios.PromptValue{
		"city":      {Value: "lyon", Personal: true},
		"birthDate": {Value: "1990-05-17", From: "17 May 1990", Personal: true},
	}
	matrixValues = slices.Concat(matrixPhones, matrixCards, matrixIBANs, []string{"Lyon", "lyon", "1990-05-17", "canary.quokka@example.org"})
	matrixHidden = slices.Concat(matrixValues, []string{"LYON", "17 May 1990"})
)

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
		j, _ := json.Marshal(v)
		ev.Requests = append(ev.Requests,
			record.Request{Seq: 2*i + 1, ID: fmt.Sprintf("1000.%d", 2*i+1), Method: "GET", Path: "/api/lookup",
				URL:            base + "/api/lookup?q=" + url.QueryEscape(v) + "&c=" + url.PathEscape(v),
				RequestHeaders: map[string]string{"X-Note": v, "Accept": "application/json"}, Status: 200, StatusText: "OK",
				MimeType: "application/json", Started: t0.Add(time.Duration(i) * time.Second), SentAt: 1773480413.123456 + float64(i), Done: true},
			record.Request{Seq: 2*i + 2, ID: fmt.Sprintf("1000.%d", 2*i+2), Method: "POST", Path: "/api/notes",
				URL: base + "/api/notes", HasBody: true, Body: `{"note":` + string(j) + `,"form":"note=` + url.QueryEscape(v) + `"}`,
				RequestHeaders: map[string]string{"Content-Type": "application/json"}, Status: 201, StatusText: "Created",
				Started: t0.Add(time.Duration(i)*time.Second + time.Millisecond), SentAt: 1773480413.5 + float64(i), Done: true})
		ev.Console = append(ev.Console, record.ConsoleEntry{Type: "error", Text: "lookup failed at 2026-03-14T09:26:53Z for " + v, URL: base + "/lookup?v=" + url.PathEscape(v), Line: 42})
	}
	return sc, ev
}

// pictures are a screenshot and a filmstrip frame as Chromium writes them
// (a PNG and a JPEG of the page): pixels, with no text of the page in their
// bytes.
func pictures(t *testing.T) (shot, frame []byte) {
	img := image.NewRGBA(image.Rect(0, 0, 32, 16))
	for x := range 32 {
		img.Set(x, x%16, color.RGBA{R: 200, A: 255})
	}
	var p, j bytes.Buffer
	if err := png.Encode(&p, img); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&j, img, nil); err != nil {
		t.Fatal(err)
	}
	return p.Bytes(), j.Bytes()
}

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
	shot, frame := pictures(t)
	b.Screenshot, b.Failure = shot, shot
	b.Frames = []Frame{{Phase: vocab.PhaseAgent, Image: frame}, {Phase: vocab.PhaseEnd, Image: frame}}
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
	for _, want := range []string{ScenarioFile, RunFile, TraceFile, RequestsFile, HARFile, ConsoleFile, UIFile, VerdictFile, IndexFile, ManifestFile,
		ScreenshotFile, FailureFile, FrameFile(vocab.PhaseAgent), FrameFile(vocab.PhaseEnd)} {
		if !slices.Contains(names, want) {
			t.Errorf("the bundle lacks %s, so it was not checked: %v", want, names)
		}
	}
	leaks, err := redacttest.Leaks(dir, matrixHidden)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range leaks {
		t.Error(l)
	}
	for _, kind := range []redact.Kind{redact.Phone, redact.Card, redact.IBAN, redact.Email, redact.Personal, redact.Date} {
		if !slices.ContainsFunc(b.Meta.Redacted, func(p string) bool { return strings.HasPrefix(p, string(kind)+": ") }) {
			t.Errorf("no %s stand-in in %v", kind, b.Meta.Redacted)
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
	found, err := redacttest.Leaks(dir, matrixHidden)
	if err != nil {
		t.Fatal(err)
	}
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
	// And it looks into pictures: a value in a picture's bytes is found.
	if err := os.WriteFile(filepath.Join(dir, FrameFile(vocab.PhaseAgent)), []byte("JFIF canary.quokka@example.org"), 0o644); err != nil {
		t.Fatal(err)
	}
	found, _ = redacttest.Leaks(dir, []string{"canary.quokka@example.org"})
	if !slices.ContainsFunc(found, func(l string) bool { return strings.HasPrefix(l, FrameFile(vocab.PhaseAgent)) }) {
		t.Errorf("the leak check does not look into the frames: %v", found)
	}
}

// What the trials saw rewritten: an airport code, an enum value and an id
// given in prompt_data reach every file of the bundle unchanged, and the
// bundle verifies at the raw record's verdict.
func TestAirportCodesEnumValuesAndIDsSurviveTheBundle(t *testing.T) {
	sc, err := scenarios.Parse("HOTEL-09.yaml", []byte(`id: HOTEL-09
title: a hotel by id at a branch, then flights
start: /book?hotel=hotel-1-budget
prompt: Book hotel-1-budget at the main branch for Ada Baker and find flights from SFO to NRT.
prompt_data:
  hotelId: hotel-1-budget
  branch: main
  from: SFO
  to: NRT
  guest: {value: Ada Baker, personal: true}
agent:
  calls:
    - tool: book_room
      input: {hotelId: hotel-1-budget, branch: main, from: SFO, to: NRT, guest: Ada Baker}
      expect: {output: {ok: true, hotelId: hotel-1-budget}}
  final: Booked hotel-1-budget at main for Ada Baker.
expect:
  calls:
    exactly:
      - tool: book_room
        input: {hotelId: hotel-1-budget, branch: main, from: SFO, to: NRT, guest: Ada Baker}
  answer:
    must_mention: [hotel-1-budget, Ada Baker]
`))
	if err != nil {
		t.Fatal(err)
	}
	schema := json.RawMessage(`{"type":"object","properties":{"hotelId":{"type":"string","pattern":"^hotel-[0-9]+-(budget|deluxe)$"},` +
		`"branch":{"type":"string","enum":["main","develop"]},"from":{"type":"string","pattern":"^[A-Z]{3}$"},"to":{"type":"string","pattern":"^[A-Z]{3}$"},` +
		`"guest":{"type":"string","pattern":"^[A-Z][a-z]+ [A-Z][a-z]+$"}},"required":["hotelId","branch","from","to","guest"]}`)
	tool := record.Tool{Name: "book_room", Description: "Book a room at a branch.", InputSchema: schema, FrameID: "F1"}
	ev := &scenarios.Evidence{ScenarioID: sc.ID, Catalog: record.Catalog{tool}, PageTools: []record.PageTool{{Name: tool.Name, Description: tool.Description, InputSchema: schema}},
		Trace: []record.Event{}, Console: []record.ConsoleEntry{}, Final: sc.Agent.Final}
	ev.Calls = []scenarios.CallRecord{{Phase: vocab.PhaseAgent, Call: sc.Agent.Calls[0], CatalogBefore: []string{"book_room"}, CatalogAfter: []string{"book_room"},
		Result: record.Result{Tool: "book_room", Status: vocab.Completed, Output: json.RawMessage(`{"ok":true,"hotelId":"hotel-1-budget","guest":"Ada Baker"}`)}}}
	raw := judge.Judge(sc, ev)
	if raw.Outcome != vocab.Pass || !slices.ContainsFunc(raw.Checks, func(c judge.Check) bool { return strings.HasSuffix(c.ID, ".input") && c.Status == vocab.CheckPass }) {
		t.Fatalf("the raw record must pass, its input checked against the schema: %s\n%s", raw.Outcome, judge.Explain(raw))
	}
	b, err := Seal(Meta{RunID: "r"}, sc, ev)
	if err != nil {
		t.Fatal(err)
	}
	if b.Verdict.Outcome != vocab.Pass || b.Meta.RawVerdict == nil || b.Meta.RawVerdict.Outcome != vocab.Pass {
		t.Fatalf("sealed %s (raw %+v), want PASS: the guest's stand-in must still fit the pattern\n%s", b.Verdict.Outcome, b.Meta.RawVerdict, judge.Explain(b.Verdict))
	}
	dir := filepath.Join(t.TempDir(), sc.ID)
	if err := Write(dir, b, testPage); err != nil {
		t.Fatal(err)
	}
	if rep := Verify(dir); !rep.OK {
		t.Fatalf("verify: %+v", rep.Problems)
	}
	for name, kept := range map[string][]string{
		ScenarioFile: {"hotel-1-budget", `"main"`, `"SFO"`, `"NRT"`},
		RunFile:      {"hotel-1-budget", `"main"`, `"SFO"`, `"NRT"`},
		CatalogFile:  {`"main"`, "^hotel-[0-9]+-(budget|deluxe)$"},
	} {
		data, _ := os.ReadFile(filepath.Join(dir, name))
		for _, k := range kept {
			if !bytes.Contains(data, []byte(k)) {
				t.Errorf("%s lost %s", name, k)
			}
		}
	}
	if leaks, _ := redacttest.Leaks(dir, []string{"Ada Baker", "Ada", "Baker"}); len(leaks) > 0 {
		t.Errorf("the declared guest leaks: %v", leaks)
	}
}

// The property on one record: Seal records the raw record's verdict; when
// redaction would change it (an expectation quotes part of a declared
// value), the bundle says so as a harness fault, is INCONCLUSIVE, and
// verify names the difference, so that make test fails.
func TestSealHoldsTheBundlesVerdictToTheRawRecords(t *testing.T) {
	sc, ev := tinyRecord("Dear Canary Quokka, done.", nil, []string{"canary quokka"})
	sc.Personal = []string{"Canary Quokka"}
	b, err := Seal(Meta{RunID: "r"}, sc, ev)
	if err != nil {
		t.Fatal(err)
	}
	if b.Verdict.Outcome != vocab.Pass || b.Meta.RawVerdict == nil || b.Meta.RawVerdict.Outcome != vocab.Pass || len(b.Evidence.Faults) > 0 {
		t.Fatalf("quoted whole in another case, the name keeps the verdict: %s, raw %+v, faults %v", b.Verdict.Outcome, b.Meta.RawVerdict, b.Evidence.Faults)
	}
	// Known bad: the expectation quotes part of the name.
	sc, ev = tinyRecord("Dear Canary Quokka, done.", nil, []string{"ary quo"})
	sc.Personal = []string{"Canary Quokka"}
	b, err = Seal(Meta{RunID: "r"}, sc, ev)
	if err != nil {
		t.Fatal(err)
	}
	if b.Meta.RawVerdict == nil || b.Meta.RawVerdict.Outcome != vocab.Pass {
		t.Fatalf("the raw verdict is not recorded: %+v", b.Meta.RawVerdict)
	}
	// The fault is the harness's: INCONCLUSIVE with harness_fault (faults
	// come first), never the PASS the redacted record alone would not bear
	// out, nor a FAIL against the app.
	if b.Verdict.Outcome != vocab.Inconclusive || !slices.Contains(b.Verdict.Codes, vocab.HarnessFault) || len(b.Evidence.Faults) != 1 ||
		!strings.Contains(b.Evidence.Faults[0].Text, "redaction would change the verdict from PASS [] to FAIL [answer_incomplete]") {
		t.Fatalf("a verdict redaction changed must carry that cause: %s %v, faults %q", b.Verdict.Outcome, b.Verdict.Codes, b.Evidence.Faults)
	}
	dir := filepath.Join(t.TempDir(), "flip")
	if err := Write(dir, b, testPage); err != nil {
		t.Fatal(err)
	}
	rep := Verify(dir)
	if rep.OK || len(rep.Problems) != 1 || rep.Problems[0].File != ManifestFile || !strings.Contains(rep.Problems[0].Problem, "redaction changed the verdict") {
		t.Errorf("verify must fail on a bundle whose verdict is not the raw record's: %+v", rep)
	}
	if leaks, _ := redacttest.Leaks(dir, []string{"Canary Quokka", "Quokka"}); len(leaks) > 0 {
		t.Errorf("the fault leaks the value: %v", leaks)
	}
}

// The property over every scenario the repository plays: the suite's
// (scenarios/cases, the drafts included), the real pages', and Little
// Oven's. Each is judged on a record built from its own transcript (its
// calls as made, each answered as its inline expectation says, the final
// words, the UI and page as expected), raw and redacted: the verdicts and
// codes must be the same. Real runs hold the same property on real
// evidence: Seal checks it, the manifest records it and verify holds every
// bundle of make test to it.
func TestEveryScenarioOfTheRepositoryKeepsItsVerdictThroughRedaction(t *testing.T) {
	var files []string
	for _, dir := range []string{"../../../" + scenarios.DefaultDir, "../../../fixtures/realpages/scenarios", "../../../fixtures/plainapp/scenarios"} {
		err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) && d.Name() != scenarios.FolderFile {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 40 {
		t.Fatalf("only %d scenario files: the walk lost some", len(files))
	}
	declared, replays, hidden := 0, 0, 0
	for _, f := range files {
		sc, err := scenarios.Load(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		ev := transcriptRecord(sc)
		replayed := transcriptReplays(sc, ev)
		raw := judge.Judge(sc, ev)
		b, err := Seal(Meta{RunID: "r"}, sc, ev)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		if !sameVerdict(raw, b.Verdict) || len(b.Evidence.Faults) > 0 {
			t.Errorf("%s: raw %s %v, redacted %s %v (%v)", filepath.Base(f), raw.Outcome, raw.Codes, b.Verdict.Outcome, b.Verdict.Codes, b.Evidence.Faults)
		}
		if !replayed {
			continue
		}
		// Its replays were judged, every way (pass, replay_accepted,
		// replay_second_effect), and verify judges the written bundle to
		// the same bytes.
		replays++
		kept, _ := json.Marshal(b.Evidence.Replays)
		for _, pv := range sc.PromptData {
			if pv.Personal {
				hidden++
			}
			if pv.Personal && strings.Contains(string(kept), pv.Value) {
				t.Errorf("%s: the replays keep the person's %q", filepath.Base(f), pv.Value)
			}
		}
		for _, code := range []vocab.Code{vocab.ReplayAccepted, vocab.ReplaySecondEffect} {
			if !slices.Contains(b.Verdict.Codes, code) {
				t.Errorf("%s: the replays were not judged: %s %v", filepath.Base(f), b.Verdict.Outcome, b.Verdict.Codes)
			}
		}
		dir := filepath.Join(t.TempDir(), sc.ID)
		if err := Write(dir, b, testPage); err != nil {
			t.Fatal(err)
		}
		if rep := Verify(dir); !rep.OK {
			t.Errorf("%s: verify: %v", filepath.Base(f), rep.Problems)
		}
		for _, pv := range sc.PromptData {
			if pv.Personal {
				declared++
			}
		}
	}
	if declared == 0 {
		t.Error("no scenario declares a value personal: the property never meets a declared value")
	}
	t.Logf("%d scenarios replay a write, %d personal values in their replays", replays, hidden)
	if replays < 3 || hidden == 0 {
		t.Errorf("%d scenarios replay a write, %d personal values in them: the property hardly meets replays", replays, hidden)
	}
}

// transcriptReplays gives ev the record of the scenario's replay plan, as
// a run sends it: each kind's request carrying the person's values (every
// prompt_data value) in its body and its answer, the state before and
// after each holding them too, and a control accepted. no_session was
// accepted (replay_accepted), again left a second effect
// (replay_second_effect), every other kind was refused and left the state
// as it was. False when the scenario replays nothing.
func transcriptReplays(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	// An entry turned off is not replayed: a record of its replays would
	// be judged as nothing the run did.
	plan := sc.Expect.ReplayPlan()
	if !slices.ContainsFunc(plan, func(e scenarios.ReplayExpect) bool { return e.Off == "" }) {
		return false
	}
	values := map[string]string{}
	for k, pv := range sc.PromptData {
		values[k] = pv.Value
	}
	body, _ := json.Marshal(values)
	state := func(n int) *record.Snapshot {
		var rows []map[string]string
		for range n {
			rows = append(rows, values)
		}
		doc, _ := json.Marshal(map[string]any{"rows": rows})
		return &record.Snapshot{Docs: map[string]json.RawMessage{"items": doc}}
	}
	send := func(method, path string, status int) scenarios.ReplaySend {
		answer, _ := json.Marshal(map[string]any{"code": fmt.Sprintf("ANSWER_%d", status), "echo": values})
		return scenarios.ReplaySend{Method: method, Path: path, Status: status, Body: string(body), Answer: answer,
			Headers: map[string]string{"Content-Type": "application/json", "Referer": "http://127.0.0.1:1/" + sc.PromptData["customerName"].Value}}
	}
	ev.Replays = &scenarios.Replays{Base: state(1), Runs: []scenarios.ReplayRun{}}
	for i, entry := range plan {
		if entry.Off != "" {
			continue
		}
		method, path, _ := entry.Request.Split()
		path = strings.ReplaceAll(path, "*", "x")
		ev.Replays.Controls = append(ev.Replays.Controls, scenarios.ReplayRun{Entry: i, Request: entry.Request, Phase: entry.PhaseOrDefault(),
			Kind: vocab.ReplayControl, Fresh: true, Sent: []scenarios.ReplaySend{send(method, path, 201)}})
		for _, kind := range vocab.ReplayKinds {
			run := scenarios.ReplayRun{Entry: i, Request: entry.Request, Phase: entry.PhaseOrDefault(), Kind: kind, Fresh: kind != vocab.ReplayAgain,
				Changes: []string{"/name a new value of its shape"}, After: state(1)}
			switch kind {
			case vocab.ReplayNoSession:
				run.Sent = []scenarios.ReplaySend{send(method, path, 201)}
			case vocab.ReplayAgain:
				run.Sent, run.After = []scenarios.ReplaySend{send(method, path, 200)}, state(2)
			case vocab.ReplayRace:
				run.Sent = []scenarios.ReplaySend{send(method, path, 403), send(method, path, 403)}
			default:
				run.Sent = []scenarios.ReplaySend{send(method, path, 403)}
			}
			ev.Replays.Runs = append(ev.Replays.Runs, run)
		}
	}
	return true
}

// transcriptRecord is the evidence a scenario's own transcript implies:
// each agent call completed with the output its inline expectation names,
// the final words, and the UI and page its expectations describe.
func transcriptRecord(sc scenarios.Scenario) *scenarios.Evidence {
	ev := &scenarios.Evidence{ScenarioID: sc.ID, Final: sc.Agent.Final, Calls: []scenarios.CallRecord{}, Trace: []record.Event{}, Console: []record.ConsoleEntry{},
		UI: map[vocab.Phase][]record.Element{}, Pages: map[vocab.Phase]string{}}
	for i, c := range sc.Agent.Calls {
		res := record.Result{Tool: c.Tool, Transport: c.Transport.OrDefault(), Status: vocab.Completed}
		if e := c.Expect; e != nil {
			switch {
			case e.Output != nil:
				res.Output, _ = json.Marshal(e.Output)
			case e.OutputJSON != nil:
				res.Output = e.OutputJSON
			case e.OutputText != nil:
				res.OutputText = *e.OutputText
			case e.OutputContains != nil:
				res.OutputText = "… " + *e.OutputContains + " …"
			}
			if e.Status != "" {
				res.Status = e.Status
			}
		}
		ev.Calls = append(ev.Calls, scenarios.CallRecord{Phase: vocab.PhaseAgent, Index: i, Call: c, Result: res})
	}
	for phase, uis := range sc.Expect.UI {
		for _, u := range uis {
			el := record.Element{Selector: u.Selector, Frame: u.Frame, Present: true, Visible: true, Enabled: true, Count: 1, Text: u.TextContains}
			if u.Value != nil {
				el.Value = *u.Value
			}
			if s, ok := u.Text.(string); ok {
				el.Text = s
			}
			ev.UI[phase] = append(ev.UI[phase], el)
		}
	}
	for phase, p := range sc.Expect.Page {
		if s, ok := p.Path.(string); ok {
			ev.Pages[phase] = "http://127.0.0.1:1" + s
		}
	}
	return ev
}

// reviewRecord is a sign-up run (seed 003): the assistant fills in the form
// with a typo in the email, the person types the right one, the review at
// their click holds the form and the texts shown, and the form's POST
// carries the same values form-encoded (the email %40-escaped, the name's
// space as +); a multipart copy and a JSON save carry them too.
func reviewRecord() (scenarios.Scenario, *scenarios.Evidence) {
	const base = "http://127.0.0.1:38291"
	sc := scenarios.Scenario{
		ID: "SIGNUP-01", Title: "Sign-up reviewed", Start: "/signup", Prompt: "Sign me up as a patron.", Personal: []string{"Ann Example"},
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
// file of the bundle; and each value becomes the same stand-in wherever it
// is, so that "the request carried what was reviewed" reads the same on the
// redacted record. The typo stays a different value; "patron" and the
// form's id, which are no one's data, stay.
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
	leaks, err := redacttest.Leaks(dir, []string{"ann@example.org", "ann@exmaple.org", "Ann Example", "club-desk@riverside.example"})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range leaks {
		t.Error(l)
	}
	red := b.Evidence
	form := map[string]string{}
	for _, f := range red.Reviews[0].Form {
		form[f.Name] = f.Value
	}
	email, name := form["email"], form["name"]
	if email == "ann@example.org" || !strings.Contains(email, "@") || len(name) != len("Ann Example") || name == "Ann Example" ||
		form["plan"] != "patron" || form["form_id"] != "signup-v2" {
		t.Fatalf("the redacted review's form: %+v", red.Reviews[0].Form)
	}
	if got := red.Reviews[0].Seen["#summary"]; got != name+" joins as Patron." {
		t.Errorf("seen #summary %q, want the name's stand-in %s in it", got, name)
	}
	if got := red.Reviews[0].Seen["#contact"]; got == "" || strings.Contains(got, "club-desk") {
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
		t.Errorf("the multipart body %q does not carry the review's stand-ins", red.Requests[1].Body)
	}
	var saved map[string]string
	if err := json.Unmarshal([]byte(red.Requests[2].Body), &saved); err != nil {
		t.Fatalf("the redacted JSON body %q: %v", red.Requests[2].Body, err)
	}
	if saved["email"] != email || saved["name"] != name || saved["draft"] == email || !strings.Contains(saved["draft"], "@") {
		t.Errorf("the JSON body reads %v; the review has email %s, name %s; the typo must stay another value", saved, email, name)
	}
}

// Stand-ins are stable within a bundle (one value, one stand-in, however it
// is written) and unrelated between two bundles of the same record, so that
// a guess of a value cannot be tested across bundles.
func TestStandInsAreStableWithinABundleOnly(t *testing.T) {
	first, dir1 := sealMatrix(t)
	second, _ := sealMatrix(t)
	if slices.Equal(first.Meta.Redacted, second.Meta.Redacted) {
		t.Error("two bundles of one record share their stand-ins")
	}
	uk := ""
	for i, v := range matrixValues {
		if v == "+44 20 7946 0958" {
			uk = first.Evidence.Calls[0].Call.Input[fmt.Sprintf("q%d", i)].(string)
		}
	}
	if uk == "" || uk == "+44 20 7946 0958" {
		t.Fatalf("the phone's stand-in: %q", uk)
	}
	har, _ := os.ReadFile(filepath.Join(dir1, HARFile))
	final := *first.Evidence.Final
	if !strings.Contains(final, uk) || !bytes.Contains(har, []byte(uk)) || !strings.Contains(first.Evidence.Console[3].Text, uk) {
		t.Errorf("the phone is not %s in the final words, the HAR and the console alike", uk)
	}
	want := first.Evidence.Calls[0].Call.Input["q0"].(string)
	if !strings.Contains(first.Scenario.Start, url.QueryEscape(want)) {
		t.Errorf("the start page %q does not hold %s escaped as it was", first.Scenario.Start, want)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// The demo scenarios of fixtures/realpages, sealed and written: their
// airport codes, ids and enum values, and the typed user name that is a
// word of the page, are in the bundle as the files wrote them; what they
// declare personal is not.
func TestTheDemoScenariosKeepTheirCodesAndIDs(t *testing.T) {
	for file, want := range map[string]struct{ kept, gone []string }{
		"TRIPS-01.yaml":   {[]string{`"SFO"`, `"NRT"`, "from SFO to NRT on"}, []string{"ada.baker@example.org"}},
		"HOTEL-01.yaml":   {[]string{`"hotel-1-budget"`, `"double"`, "Booked hotel-1-budget (double) for "}, []string{"Ada Baker", "+44 20 7946 0958"}},
		"LIBRARY-01.yaml": {[]string{`"library"`, "Opening hours of the library", "Signed in as library."}, []string{"correct-horse-9"}},
	} {
		sc, err := scenarios.Load(filepath.Join("..", "..", "..", "fixtures", "realpages", "scenarios", file))
		if err != nil {
			t.Fatal(err)
		}
		b, err := Seal(Meta{RunID: "r"}, sc, transcriptRecord(sc))
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), sc.ID)
		if err := Write(dir, b, testPage); err != nil {
			t.Fatal(err)
		}
		if rep := Verify(dir); !rep.OK {
			t.Errorf("%s: verify: %+v", file, rep.Problems)
		}
		data, err := os.ReadFile(filepath.Join(dir, ScenarioFile))
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range want.kept {
			if !bytes.Contains(data, []byte(k)) {
				t.Errorf("%s: scenario.json lost %s", file, k)
			}
		}
		leaks, err := redacttest.Leaks(dir, want.gone)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range leaks {
			t.Errorf("%s: %s", file, l)
		}
	}
}
