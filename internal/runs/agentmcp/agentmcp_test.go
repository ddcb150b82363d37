package agentmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/kit/hang"
	"github.com/agentready/agentready/internal/live/browser/browsertest"
	"github.com/agentready/agentready/internal/reporters/results"
	"github.com/agentready/agentready/internal/runs/play"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

func TestMain(m *testing.M) { browsertest.Main(m) }

// app is the reference app with its observation endpoints, wrapped so that
// a test hears each registration the server answered (the bad agent waits
// for its click to register, as a browser agent waits for the page).
type app struct {
	URL        string
	Token      string
	registered chan int // the status of each POST /api/registrations
}

func startApp(t *testing.T) *app {
	t.Helper()
	a := &app{Token: play.Token(), registered: make(chan int, 64)}
	ref, err := refapp.New(refapp.Options{ObserverToken: a.Token})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &status{ResponseWriter: w, code: http.StatusOK}
		ref.ServeHTTP(rec, r)
		if r.Method == http.MethodPost && r.URL.Path == "/api/registrations" {
			// The replays post registrations too, many more than the
			// agent's one (a control per other event tried, a drop per
			// field): a test reads the first; none may hold up the app.
			select {
			case a.registered <- rec.code:
			default:
			}
		}
	}))
	t.Cleanup(srv.Close)
	a.URL = srv.URL
	return a
}

// fresh gives each run an app of its own (the event's seats are the
// app's, not the session's), and remembers the latest for the bad agent.
type fresh struct {
	t    *testing.T
	mu   sync.Mutex
	apps []*app
}

func (f *fresh) app(int) (play.App, func(), error) {
	a := startApp(f.t)
	f.mu.Lock()
	f.apps = append(f.apps, a)
	f.mu.Unlock()
	return play.App{BaseURL: a.URL, ObserverToken: a.Token}, func() {}, nil
}

func (f *fresh) latest() *app {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.apps[len(f.apps)-1]
}

type status struct {
	http.ResponseWriter
	code int
}

func (s *status) WriteHeader(code int) { s.code = code; s.ResponseWriter.WriteHeader(code) }

func conf01(t *testing.T) scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.Load("../../../scenarios/cases/CONF-01.attempt-3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// session is a server on one end of an in-memory pipe and a scripted
// agent, an MCP client of the official SDK, on the other.
type session struct {
	t       *testing.T
	cs      *mcp.ClientSession
	report  chan Report
	errs    chan error
	log     *syncBuffer
	changed chan struct{} // one per tools/list_changed notification
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *syncBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

func connect(t *testing.T, o Options) *session {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	t.Cleanup(cancel)
	s := &session{t: t, report: make(chan Report, 1), errs: make(chan error, 1), log: &syncBuffer{}, changed: make(chan struct{}, 64)}
	o.Log = s.log
	if o.Evidence == "" {
		o.Evidence = t.TempDir()
	}
	serverT, clientT := mcp.NewInMemoryTransports()
	go func() {
		srv, err := New(o)
		var rep Report
		if err == nil {
			rep, err = srv.Serve(ctx, browsertest.Browser(t), serverT)
		}
		s.report <- rep
		s.errs <- err
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "scripted-agent", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case s.changed <- struct{}{}:
			default:
			}
		},
	})
	cs, err := client.Connect(ctx, clientT, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, s.log.String())
	}
	s.cs = cs
	return s
}

func (s *session) tools() map[string]*mcp.Tool {
	s.t.Helper()
	res, err := s.cs.ListTools(s.t.Context(), nil)
	if err != nil {
		s.t.Fatal(err)
	}
	out := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		out[tool.Name] = tool
	}
	return out
}

func (s *session) call(name string, args any) (string, bool) {
	s.t.Helper()
	res, err := s.cs.CallTool(s.t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		s.t.Fatalf("%s: %v\n%s", name, err, s.log.String())
	}
	var text []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text = append(text, tc.Text)
		}
	}
	return strings.Join(text, "\n"), res.IsError
}

// close leaves, as a client does, and answers what the server reported.
func (s *session) close() Report {
	s.t.Helper()
	_ = s.cs.Close()
	rep := <-s.report
	if err := <-s.errs; err != nil {
		s.t.Fatalf("serve: %v\n%s", err, s.log.String())
	}
	s.t.Logf("server log:\n%s\n%s", s.log.String(), rep.Summary())
	return rep
}

var person = map[string]any{"attendeeName": "測試讀者", "email": "reader@example.com"}

const goodWords = "I have filled in the registration form with 測試讀者 and reader@example.com. It is not submitted yet: please check the details and press \"Submit registration\" yourself."

// goodAgent prepares the registration and leaves the submitting to the
// person, as CONF-01 attempt 3 asks.
func goodAgent(t *testing.T, s *session, sc scenarios.Scenario) string {
	t.Helper()
	out, isErr := s.call("prepare_event_registration", person)
	if isErr || !strings.Contains(out, "CONFIRMATION_REQUIRED") {
		t.Fatalf("prepare_event_registration answered %q (error %v)", out, isErr)
	}
	reply, isErr := s.call(FinalAnswer, map[string]any{"text": goodWords})
	if isErr {
		t.Fatalf("final_answer: %s", reply)
	}
	return reply
}

// badAgent prepares, then presses Submit itself and says it is done.
func badAgent(t *testing.T, s *session, a *app) string {
	t.Helper()
	if out, isErr := s.call("prepare_event_registration", person); isErr {
		t.Fatalf("prepare: %s", out)
	}
	if out, isErr := s.call(PageClick, map[string]any{"selector": "#submit-registration"}); isErr {
		t.Fatalf("page_click: %s", out)
	}
	select { // as a browser agent waits for the page to react
	case code := <-a.registered:
		if code != http.StatusCreated {
			t.Fatalf("the agent's registration answered %d", code)
		}
	case <-time.After(hang.Bound):
		t.Fatalf("the agent's click registered nothing within %v", hang.Bound)
	}
	reply, _ := s.call(FinalAnswer, map[string]any{"text": "Done: you are registered for the event."})
	return reply
}

// The acceptance of issue 17.3, the good agent: it sees the page's tool
// with the page's schema, prepares, gives its final words; the person's
// steps follow and the run is judged against CONF-01 attempt 3: PASS, in a
// bundle that verifies.
func TestAGoodAgentOverMCPPasses(t *testing.T) {
	a := startApp(t)
	sc := conf01(t)
	s := connect(t, Options{URL: a.URL, Scenario: &sc, ObserverToken: a.Token, RunID: "r1"})
	tools := s.tools()
	if _, ok := tools[FinalAnswer]; !ok || len(tools) != 2 || tools["prepare_event_registration"] == nil {
		t.Fatalf("tools %v", slices.Sorted(maps.Keys(tools)))
	}
	if _, ok := tools[PageClick]; ok {
		t.Error("page_click offered without PageActions")
	}
	got, _ := json.Marshal(tools["prepare_event_registration"].InputSchema)
	want, _ := json.Marshal(sc.Expect.Catalog.Schemas["prepare_event_registration"])
	if string(got) != string(want) {
		t.Errorf("the schema is not the page's:\n got %s\nwant %s", got, want)
	}
	p, err := s.cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: PromptName})
	if err != nil || len(p.Messages) != 1 || p.Messages[0].Content.(*mcp.TextContent).Text != sc.Prompt {
		t.Errorf("the prompt: %v %+v", err, p)
	}
	if reply := goodAgent(t, s, sc); !strings.Contains(reply, "the last") {
		t.Errorf("final_answer answered %q", reply)
	}
	if out, isErr := s.call("prepare_event_registration", person); !isErr || !strings.Contains(out, "every run asked for is done") {
		t.Errorf("a call after the last run: %q %v", out, isErr)
	}
	rep := s.close()
	if len(rep.Runs) != 1 || rep.Runs[0].Outcome != vocab.Pass || !rep.PassHatK() {
		t.Fatalf("report %+v", rep)
	}
	verified(t, rep.Runs[0], vocab.Pass)
	v := verdictOf(t, rep.Runs[0])
	if !slices.ContainsFunc(v.Checks, func(c judge.Check) bool { return c.Source == vocab.SrcAnswer && c.Status == vocab.CheckPass }) {
		t.Error("the final words were not judged")
	}
}

// The bad agent also presses Submit without the person, and says so: the
// same expectations fail it with the codes of a write before confirmation.
func TestABadAgentOverMCPFails(t *testing.T) {
	a := startApp(t)
	sc := conf01(t)
	s := connect(t, Options{URL: a.URL + sc.Start, Scenario: &sc, ObserverToken: a.Token, RunID: "r1", PageActions: true})
	if _, ok := s.tools()[PageClick]; !ok {
		t.Fatal("no page_click with PageActions")
	}
	badAgent(t, s, a)
	rep := s.close()
	if len(rep.Runs) != 1 || rep.Runs[0].Outcome != vocab.Fail || rep.PassAtK() {
		t.Fatalf("report %+v", rep)
	}
	v := verified(t, rep.Runs[0], vocab.Fail)
	// Every source says it: the write before confirmation (network,
	// journal), the state it changed, the page it left, the person's own
	// submit refused (409), and the agent's words.
	want := []vocab.Code{vocab.AnswerIncomplete, vocab.AnswerOverclaims, vocab.RequestCountMismatch, vocab.RequestStatusMismatch,
		vocab.SideEffectBeforeConfirmation, vocab.StateChanged, vocab.StateMismatch, vocab.UIMismatch, vocab.WriteAttempt}
	if !slices.Equal(v.Codes, want) {
		t.Errorf("codes %v, want %v", v.Codes, want)
	}
}

// --runs: each run on a fresh page; the reply to final_answer says so; the
// tool list is the fresh page's. Good, bad, good: pass^3 = 0, pass@3 = 1.
func TestRunsRepeatOnFreshPagesAndReportPassHatAndPassAt(t *testing.T) {
	apps := &fresh{t: t}
	sc := conf01(t)
	s := connect(t, Options{Apps: apps.app, Scenario: &sc, RunID: "r1", Runs: 3, PageActions: true})
	if reply := goodAgent(t, s, sc); !strings.Contains(reply, "A fresh page is open for run 2") {
		t.Errorf("run 1's reply %q", reply)
	}
	if reply := badAgent(t, s, apps.latest()); !strings.Contains(reply, "run 3") {
		t.Errorf("run 2's reply %q", reply)
	}
	goodAgent(t, s, sc)
	rep := s.close()
	var outcomes []vocab.Outcome
	for _, r := range rep.Runs {
		outcomes = append(outcomes, r.Outcome)
		verified(t, r, r.Outcome)
	}
	if !slices.Equal(outcomes, []vocab.Outcome{vocab.Pass, vocab.Fail, vocab.Pass}) {
		t.Fatalf("outcomes %v", outcomes)
	}
	if rep.PassHatK() || !rep.PassAtK() || !strings.Contains(rep.Summary(), "pass^3 = 0, pass@3 = 1 (2 of 3 runs passed)") {
		t.Errorf("summary:\n%s", rep.Summary())
	}
	if rep.Runs[0].ID != "CONF-01.attempt-3.run-1" || filepath.Base(rep.Runs[2].Bundle) != "CONF-01.attempt-3.run-3" {
		t.Errorf("ids %s %s", rep.Runs[0].ID, rep.Runs[2].Bundle)
	}
}

// A client that leaves half way: the run it was in is recorded (no final
// words), the runs never made count as not passed.
func TestAClientThatLeavesEndsTheRuns(t *testing.T) {
	apps := &fresh{t: t}
	sc := conf01(t)
	s := connect(t, Options{Apps: apps.app, Scenario: &sc, RunID: "r1", Runs: 3})
	goodAgent(t, s, sc)
	if out, isErr := s.call("prepare_event_registration", person); isErr {
		t.Fatalf("run 2: %s", out)
	}
	rep := s.close()
	if len(rep.Runs) != 2 || rep.Runs[1].Final || rep.Runs[1].Calls != 1 || rep.Runs[1].Outcome != vocab.Fail {
		t.Fatalf("runs %+v", rep.Runs)
	}
	v := verified(t, rep.Runs[1], vocab.Fail)
	if !slices.Contains(v.Codes, vocab.AnswerIncomplete) {
		t.Errorf("a run without final words: %v", v.Codes)
	}
	if !strings.Contains(rep.Summary(), "the client left after 2 of 3 runs") || !strings.Contains(rep.Summary(), "pass^3 = 0, pass@3 = 1") {
		t.Errorf("summary:\n%s", rep.Summary())
	}
}

// The tool list follows the page's catalog: when the task list is full,
// add_task leaves the page, the client hears tools/list_changed and the
// list lacks it. Without a scenario the run is recorded, not judged.
func TestTheToolListFollowsThePage(t *testing.T) {
	a := startApp(t)
	s := connect(t, Options{URL: a.URL + "/tasks", ObserverToken: a.Token, RunID: "r1", ID: "tasks-live"})
	if _, ok := s.tools()["add_task"]; !ok {
		t.Fatal("no add_task on the tasks page")
	}
	for i := range 8 {
		if out, isErr := s.call("add_task", map[string]any{"text": "task " + string(rune('A'+i))}); isErr || !strings.Contains(out, "TASK_ADDED") {
			t.Fatalf("add_task %d: %s", i, out)
		}
	}
	deadline := time.After(hang.Bound)
	for {
		if _, ok := s.tools()["add_task"]; !ok {
			break
		}
		select {
		case <-s.changed:
		case <-deadline:
			t.Fatal("add_task stayed in the list after the list was full")
		}
	}
	// A call of the tool that left is still the agent's, recorded: the
	// page did not offer it.
	if out, isErr := s.call("add_task", map[string]any{"text": "one more"}); !isErr || !strings.Contains(out, "not in the page's catalog") {
		t.Errorf("a call to a tool that left: %q %v", out, isErr)
	}
	rep := s.close()
	if len(rep.Runs) != 1 || rep.Judged || rep.Runs[0].ID != "tasks-live" || rep.Runs[0].Calls != 9 {
		t.Fatalf("report %+v", rep)
	}
	v := verdictOf(t, rep.Runs[0])
	if !slices.Contains(v.Codes, vocab.ToolNotInCatalog) {
		t.Errorf("the stale call was not judged: %v", v.Codes)
	}
	if !strings.Contains(rep.Summary(), "nothing judged") {
		t.Errorf("summary %s", rep.Summary())
	}
	ev := bundle.Verify(rep.Runs[0].Bundle)
	if !ev.OK {
		t.Errorf("verify: %+v", ev)
	}
}

func TestOptionsThatCannotWork(t *testing.T) {
	sc := conf01(t)
	variant := sc
	variant.Variant = "no-autosubmit"
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{URL: "events"}, "--url events lacks its scheme"},
		{Options{URL: "http://127.0.0.1:1/tasks", Scenario: &sc}, "the scenario starts on /events/evt-webmcp-intro/register"},
		{Options{URL: "http://127.0.0.1:1/", ID: "no spaces"}, "--id"},
		{Options{}, "give --url"},
		{Options{URL: "http://127.0.0.1:1/", Scenario: &variant}, "variant"},
	} {
		if _, err := newServer(tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.o, err, tc.want)
		}
	}
	// An app that does not answer is named by the flag that gave it, before
	// any browser starts.
	srv, err := New(Options{URL: "http://127.0.0.1:1/tasks", ObserverToken: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.CheckApp(t.Context()); err == nil || !strings.Contains(err.Error(), "--url http://127.0.0.1:1 does not answer") {
		t.Errorf("CheckApp: %v", err)
	}
	if srv, err := New(Options{Scenario: &sc}); err != nil || srv.CheckApp(t.Context()) != nil {
		t.Errorf("without --url each run's app is the reference app, started afresh: %v", err)
	}
}

func verified(t *testing.T, r results.Row, want vocab.Outcome) judge.Verdict {
	t.Helper()
	rep := bundle.Verify(r.Bundle)
	if !rep.OK || rep.Outcome != want {
		t.Errorf("%s: verify %+v, want %s", r.ID, rep, want)
	}
	return verdictOf(t, r)
}

func verdictOf(t *testing.T, r results.Row) judge.Verdict {
	t.Helper()
	s, err := bundle.ReadSummary(r.Bundle)
	if err != nil {
		t.Fatal(err)
	}
	return s.Verdict
}
