// Package agentmcp lets a real agent act on a page through the Model
// Context Protocol and records what it did as a scenario run does. It opens
// the page in the suite's browser, offers the page's current WebMCP tools as
// MCP tools (their input schemas as the page declares them; the list
// follows the page's catalog, with tools/list_changed), runs each call in
// the browser through the page API, and records the trace, the network log
// and the calls. A final_answer tool takes the agent's final words and ends
// the run; so does the client going away. Each run is then finished as the
// scenario says (a person's steps, the settle window), judged against the
// scenario's expectations with the agent's transcript being what actually
// happened, and written as a bundle. With more runs, each starts on a fresh
// page and the report says pass^k and pass@k.
package agentmcp

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentready/agentready/browser"
	"github.com/agentready/agentready/bundle"
	"github.com/agentready/agentready/record"
	"github.com/agentready/agentready/runs"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/runner"
	"github.com/agentready/agentready/vocab"
)

// Tools the server adds to the page's own.
const (
	FinalAnswer = "final_answer" // the agent's final words to the person; ends the run
	PageClick   = "page_click"   // with PageActions: a click in the page, as a browser agent may make
	PromptName  = "task"         // with a scenario: the person's prompt, as an MCP prompt
)

// Options configure a server.
type Options struct {
	// URL is the page the agent starts on; with a scenario it may be the
	// app's base URL instead (the scenario's start is then opened). Every
	// run is on that app. Without a URL, a scenario's runs are each on the
	// embedded reference app, started afresh (with the scenario's variant).
	URL string
	// Apps, when set, gives each run its app instead (n counts from 1): a
	// test's own app, started afresh per run.
	Apps func(n int) (app runs.App, stop func(), err error)
	// Scenario, when given, is what each run is judged against: its start,
	// probes, a person's steps and expectations; the agent's transcript is
	// what the agent does. Without one a run is recorded, not judged.
	Scenario *scenarios.Scenario
	// ID names the runs' bundles when there is no scenario.
	ID string
	// Runs is how many runs, each on a fresh page (1 when 0).
	Runs int
	// ObserverToken, when the app serves the observation endpoints.
	ObserverToken string
	// Evidence is the folder of the run (its bundles and index.html).
	Evidence string
	RunID    string
	// PageActions adds page_click: what a browser agent can do besides
	// calling tools. Off, the agent can act only through the page's tools.
	PageActions bool
	// Log receives one line per event for the person running the server
	// (never the protocol's stream).
	Log io.Writer
}

// Run is one finished run.
type Run struct {
	ID       string
	Outcome  vocab.Outcome
	Expected bool   // the verdict the run means to reach: PASS
	Calls    int    // the agent's calls
	Final    bool   // the agent gave final words
	Bundle   string // its folder
	Err      string `json:",omitempty"` // recording it failed
}

// Report is what the server did, for the person running it.
type Report struct {
	Runs   []Run
	K      int  // runs asked for
	Judged bool // against a scenario
}

// Passed counts the runs that reached PASS.
func (r Report) Passed() int {
	n := 0
	for _, run := range r.Runs {
		if run.Expected {
			n++
		}
	}
	return n
}

// PassHatK is pass^k: every one of the k runs passed (a run that never
// happened, the client having left, did not).
func (r Report) PassHatK() bool { return r.Judged && r.K > 0 && r.Passed() == r.K }

// PassAtK is pass@k: at least one of the k runs passed.
func (r Report) PassAtK() bool { return r.Judged && r.Passed() > 0 }

// Summary is the report's closing lines.
func (r Report) Summary() string {
	var b strings.Builder
	for _, run := range r.Runs {
		fmt.Fprintf(&b, "%-13s %s  %d call(s), final words %s  %s\n", run.Outcome, run.ID, run.Calls, map[bool]string{true: "given", false: "absent"}[run.Final], run.Bundle)
	}
	if !r.Judged {
		fmt.Fprintf(&b, "mcp: %d run(s) recorded (no --scenario: nothing judged)\n", len(r.Runs))
		return b.String()
	}
	if len(r.Runs) < r.K {
		fmt.Fprintf(&b, "mcp: the client left after %d of %d runs; the runs not made count as not passed\n", len(r.Runs), r.K)
	}
	fmt.Fprintf(&b, "mcp: pass^%d = %d, pass@%d = %d (%d of %d runs passed)\n", r.K, b2i(r.PassHatK()), r.K, b2i(r.PassAtK()), r.Passed(), r.K)
	fmt.Fprintf(&b, "mcp: %d passed, %d failed\n", r.Passed(), r.K-r.Passed())
	return b.String()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Serve runs the server on t until the client goes away, and answers the
// report. b is the suite's browser; each run gets a fresh tab of it.
func Serve(ctx context.Context, b *browser.Browser, t mcp.Transport, o Options) (Report, error) {
	s, err := newServer(b, o)
	if err != nil {
		return Report{}, err
	}
	return s.serve(ctx, t)
}

type server struct {
	b      *browser.Browser
	o      Options
	apps   func(n int) (runs.App, func(), error)
	base   scenarios.Scenario // the scenario as given (or made up)
	judged bool
	mcp    *mcp.Server
	log    io.Writer
	logMu  sync.Mutex

	mu        sync.Mutex
	cur       *episode      // the run taking calls; nil between runs
	changed   chan struct{} // closed (and replaced) when cur changes or all is over
	over      bool          // no run will take calls any more
	published map[string]string
}

func newServer(b *browser.Browser, o Options) (*server, error) {
	s := &server{b: b, o: o, log: cmp.Or[io.Writer](o.Log, io.Discard), changed: make(chan struct{}), published: map[string]string{}}
	if s.o.Runs <= 0 {
		s.o.Runs = 1
	}
	page := ""
	if o.URL != "" {
		u, err := url.Parse(o.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("--url %q is not an http(s) URL", o.URL)
		}
		app := runs.App{BaseURL: u.Scheme + "://" + u.Host, ObserverToken: o.ObserverToken}
		s.apps = func(int) (runs.App, func(), error) { return app, func() {}, nil }
		page = cmp.Or(u.EscapedPath(), "/")
		if u.RawQuery != "" {
			page += "?" + u.RawQuery
		}
	}
	if o.Scenario != nil {
		s.judged = true
		s.base = *o.Scenario
		switch {
		case o.URL == "" && o.Apps == nil:
			s.apps = func(int) (runs.App, func(), error) { return runs.App{}, func() {}, nil } // runs.Target starts the reference app
		case o.URL != "" && page != "/" && page != s.base.Start:
			return nil, fmt.Errorf("--url %s opens %s, and the scenario starts on %s: give the app's base URL or that page", o.URL, page, s.base.Start)
		case o.URL != "" && s.base.Variant != "":
			return nil, fmt.Errorf("the scenario needs the reference app's variant %q: leave out --url (each run then starts the reference app with it)", s.base.Variant)
		}
		if o.Apps != nil {
			s.apps = o.Apps
		}
		s.base.Known = nil // a live agent means to pass
		return s, nil
	}
	if o.URL == "" {
		return nil, errors.New("give --url (the page the agent starts on), --scenario, or both")
	}
	id := cmp.Or(o.ID, "mcp-session")
	s.base = scenarios.Scenario{ID: id, Title: "A live agent over MCP on " + o.URL, Start: page,
		Prompt: "(the agent's task, as it was given outside agentready)"}
	if err := s.base.Validate(); err != nil {
		return nil, fmt.Errorf("--id: %w", err)
	}
	s.base.Family, _, _ = strings.Cut(id, ".")
	return s, nil
}

func (s *server) logf(format string, args ...any) {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.log, "agentready mcp: "+format+"\n", args...)
}

func (s *server) serve(ctx context.Context, t mcp.Transport) (Report, error) {
	rep := Report{K: s.o.Runs, Judged: s.judged}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "agentready", Title: "agentready: the page's WebMCP tools, recorded", Version: bundle.SuiteVersion},
		&mcp.ServerOptions{Instructions: s.instructions(), Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}}})
	s.addOwnTools()
	s.mcp.AddReceivingMiddleware(s.unlisted)
	if s.judged {
		s.mcp.AddPrompt(&mcp.Prompt{Name: PromptName, Title: "The person's request", Description: "What the person asks of you on this page, word for word."},
			func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				return &mcp.GetPromptResult{Description: s.base.Title, Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: s.base.Prompt}}}}, nil
			})
	}
	// The first page is open, its tools listed, before the client connects:
	// its first tools/list already has them.
	ep, err := s.start(ctx, 1)
	if err != nil {
		return rep, err
	}
	select {
	case <-ep.ready:
	case r := <-ep.result:
		rep.Runs = append(rep.Runs, r)
		return rep, fmt.Errorf("the first run ended before the agent could act: %s", r.Err)
	case <-ctx.Done():
		return rep, ctx.Err()
	}
	ss, err := s.mcp.Connect(ctx, t, nil)
	if err != nil {
		s.endAll()
		ep.leave()
		<-ep.result
		return rep, err
	}
	gone := make(chan struct{})
	go func() {
		_ = ss.Wait()
		close(gone)
	}()
	go func() {
		select {
		case <-gone:
		case <-ctx.Done():
			_ = ss.Close()
		}
	}()
	for i := 1; ; i++ {
		select {
		case <-gone:
			ep.leave()
		case <-ep.ended:
		}
		r := <-ep.result
		rep.Runs = append(rep.Runs, r)
		s.logf("run %d of %d: %s %s (%s)", i, s.o.Runs, r.Outcome, r.ID, r.Bundle)
		if i == s.o.Runs || closed(gone) {
			break
		}
		if ep, err = s.start(ctx, i+1); err != nil {
			s.endAll()
			return rep, err
		}
	}
	s.endAll()
	<-gone
	return rep, nil
}

func closed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

func (s *server) instructions() string {
	var b strings.Builder
	b.WriteString("You act on a web page through its own tools (WebMCP), listed here as they are now: the list changes when the page's tools change. ")
	b.WriteString("When you are done, call " + FinalAnswer + " once with what you tell the person; that ends the run. ")
	if s.judged {
		b.WriteString("The person's request is the prompt \"" + PromptName + "\". ")
	}
	if s.o.Runs > 1 {
		fmt.Fprintf(&b, "There are %d runs, each on a fresh page: after %s, do the same task again from the start. ", s.o.Runs, FinalAnswer)
	}
	if s.o.PageActions {
		b.WriteString(PageClick + " clicks an element of the page, as a person would.")
	}
	return strings.TrimSpace(b.String())
}

// addOwnTools adds the tools that are the server's, not the page's.
func (s *server) addOwnTools() {
	s.mcp.AddTool(&mcp.Tool{Name: FinalAnswer, Title: "Final answer",
		Description: "Give the person your final answer, in your own words. Call it once, when you are done: it ends the run.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","description":"What you tell the person."}},"required":["text"],"additionalProperties":false}`),
	}, s.finalAnswer)
	if s.o.PageActions {
		s.mcp.AddTool(&mcp.Tool{Name: PageClick, Title: "Click in the page",
			Description: "Click the element of the page that a CSS selector finds, as a person would.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"selector":{"type":"string","description":"A CSS selector."}},"required":["selector"],"additionalProperties":false}`),
		}, s.pageClick)
	}
}

func ownTool(name string) bool { return name == FinalAnswer || name == PageClick }

// episode is one run: a fresh tab, the runner playing the scenario, and
// the live agent's calls going into it.
type episode struct {
	n        int
	tab      *browser.Tab
	ready    chan struct{} // closed when the agent may act
	ended    chan struct{} // closed when the agent's phase is over
	recorded chan struct{} // closed when the run's bundle is written
	result   chan Run      // the run once recorded

	mu     sync.Mutex // one call at a time; held while act runs
	act    func(context.Context, scenarios.Call) record.Result
	done   bool         // the agent's phase is over: no more calls
	finish chan *string // the final words (or nil) end the agent's phase
	stop   sync.Once    // finish is sent once
	watch  func()       // stops following the catalog
}

func (e *episode) end(final *string) {
	e.stop.Do(func() { e.finish <- final })
}

// leave ends the agent's phase without final words: the client went away.
func (e *episode) leave() { e.end(nil) }

func (s *server) runID(n int) string {
	if s.o.Runs == 1 {
		return s.base.ID
	}
	return fmt.Sprintf("%s.run-%d", s.base.ID, n)
}

// start opens run n on a fresh tab: the runner plays the scenario, and the
// agent's phase waits for the live agent.
func (s *server) start(ctx context.Context, n int) (*episode, error) {
	sc := s.base
	sc.ID = s.runID(n)
	app, stop, err := s.apps(n)
	if err != nil {
		return nil, err
	}
	if err := app.Check(ctx); err != nil {
		stop()
		return nil, err
	}
	target, closeTab, err := runs.Target(ctx, s.b, app, sc.Variant)
	if err != nil {
		stop()
		return nil, err
	}
	done := func() { closeTab(); stop() }
	ep := &episode{n: n, tab: target.Tab, ready: make(chan struct{}), ended: make(chan struct{}), recorded: make(chan struct{}), result: make(chan Run, 1),
		finish: make(chan *string, 1)}
	target.Agent = func(ctx context.Context, act func(context.Context, scenarios.Call) record.Result) *string {
		ep.mu.Lock()
		ep.act = act
		ep.mu.Unlock()
		ep.watch = s.follow(ctx, target.Tab)
		s.setCurrent(ep)
		close(ep.ready)
		var final *string
		select {
		case final = <-ep.finish:
		case <-ctx.Done():
		}
		s.setCurrent(nil)
		ep.mu.Lock() // a call in flight finishes first
		ep.done = true
		ep.mu.Unlock()
		ep.watch()
		close(ep.ended)
		return final
	}
	meta := bundle.Meta{RunID: s.o.RunID, Start: time.Now().UTC(), SuiteVersion: bundle.SuiteVersion, SuiteCommit: bundle.SuiteCommit(),
		Chromium: s.b.Version.Product, Protocol: s.b.Version.Protocol, Features: s.b.Version.Features, WebMCP: s.b.Version.WebMCP, BaseURL: target.BaseURL}
	go func() {
		defer done()
		ev := runner.Run(ctx, sc, target)
		live := s.transcript(sc, ev)
		run := Run{ID: sc.ID, Outcome: vocab.Inconclusive, Calls: len(live.Agent.Calls), Final: ev.Final != nil, Bundle: filepath.Join(s.o.Evidence, sc.ID)}
		v, err := runs.Record(ctx, run.Bundle, meta, live, ev, target.Tab)
		if err != nil {
			run.Err = err.Error()
		} else {
			run.Outcome, run.Expected = v.Outcome, s.judged && judge.AsExpected(live, v)
		}
		if len(ev.Faults) > 0 {
			s.logf("run %d: harness fault: %s", n, ev.Faults[0])
		}
		close(ep.recorded)
		ep.result <- run
	}()
	return ep, nil
}

// transcript is the scenario as judged: the agent's calls and final words
// are what the agent did. A call keeps the scenario's expectation of the
// call at its place when it is of the same tool.
func (s *server) transcript(sc scenarios.Scenario, ev *scenarios.Evidence) scenarios.Scenario {
	sc.Agent = scenarios.Agent{Final: ev.Final}
	for _, c := range ev.Calls {
		if c.Phase != vocab.PhaseAgent {
			continue
		}
		call := scenarios.Call{Tool: c.Call.Tool, Input: c.Call.Input}
		if i := c.Index; i < len(s.base.Agent.Calls) && s.base.Agent.Calls[i].Tool == call.Tool {
			call.Expect = s.base.Agent.Calls[i].Expect
		}
		sc.Agent.Calls = append(sc.Agent.Calls, call)
	}
	return sc
}

func (s *server) setCurrent(ep *episode) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cur = ep
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *server) endAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.over = true
	close(s.changed)
	s.changed = make(chan struct{})
}

var errOver = errors.New("no run takes calls any more: every run asked for is done")

// withRun runs f with the run that takes calls now, one call at a time,
// waiting (never past ctx) while the next run's page opens.
func (s *server) withRun(ctx context.Context, f func(ep *episode)) error {
	for {
		s.mu.Lock()
		ep, changed, over := s.cur, s.changed, s.over
		s.mu.Unlock()
		if over {
			return errOver
		}
		if ep != nil {
			ep.mu.Lock()
			if !ep.done {
				f(ep)
				ep.mu.Unlock()
				return nil
			}
			ep.mu.Unlock()
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// follow keeps the MCP tools equal to the tab's catalog until stopped.
func (s *server) follow(ctx context.Context, tab *browser.Tab) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	s.sync(tab.Trace.Catalog())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			seen := tab.Trace.Len()
			if err := tab.Trace.WaitUntil(ctx, "a change of the page's tools", func(events []record.Event) bool { return len(events) > seen }); err != nil {
				return
			}
			s.sync(tab.Trace.Catalog())
		}
	}()
	return func() { cancel(); <-done }
}

// sync offers the catalog's tools as MCP tools: new and changed ones added
// (replacing), gone ones removed; the SDK tells the client the list changed.
func (s *server) sync(c record.Catalog) {
	want := map[string]*mcp.Tool{}
	for _, t := range c {
		if _, dup := want[t.Name]; dup {
			continue // the same name in two frames: the page API calls the first
		}
		if ownTool(t.Name) {
			s.logf("the page's tool %s is hidden by the server's own of that name", t.Name)
			continue
		}
		mt, err := mcpTool(t)
		if err != nil {
			s.logf("the page's tool %s is not offered: %v", t.Name, err)
			continue
		}
		want[t.Name] = mt
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var gone []string
	for name := range s.published {
		if _, ok := want[name]; !ok {
			gone = append(gone, name)
		}
	}
	slices.Sort(gone)
	if len(gone) > 0 {
		s.mcp.RemoveTools(gone...)
		for _, name := range gone {
			delete(s.published, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(want)) {
		def, _ := json.Marshal(want[name])
		if s.published[name] == string(def) {
			continue
		}
		s.published[name] = string(def)
		s.mcp.AddTool(want[name], s.pageTool(name))
	}
}

// mcpTool is a page's tool as an MCP tool: its schema passed through (a
// schema without a type is an object's; one of another type cannot be an
// MCP tool's).
func mcpTool(t record.Tool) (*mcp.Tool, error) {
	schema := map[string]any{}
	if len(t.InputSchema) > 0 {
		if err := json.Unmarshal(t.InputSchema, &schema); err != nil || schema == nil {
			return nil, fmt.Errorf("its input schema is not a JSON object: %s", t.InputSchema)
		}
	}
	switch typ, ok := schema["type"]; {
	case !ok:
		schema["type"] = "object"
	case typ != "object":
		return nil, fmt.Errorf("its input schema's type is %v, and an MCP tool takes an object", typ)
	}
	mt := &mcp.Tool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: schema}
	if t.Annotations.ReadOnly {
		mt.Annotations = &mcp.ToolAnnotations{ReadOnlyHint: true}
	}
	return mt, nil
}

// unlisted sends a call of a tool the server does not list (any more) to
// the page all the same, so that it is recorded as the agent's call of a
// tool the page did not offer (tool_not_in_catalog), not lost as a protocol
// error the judge never sees.
func (s *server) unlisted(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		r, ok := req.(*mcp.CallToolRequest)
		if method != "tools/call" || !ok || r.Params == nil || ownTool(r.Params.Name) {
			return next(ctx, method, req)
		}
		s.mu.Lock()
		_, listed := s.published[r.Params.Name]
		s.mu.Unlock()
		if listed {
			return next(ctx, method, req)
		}
		return s.pageTool(r.Params.Name)(ctx, r)
	}
}

// pageTool calls the page's tool through the page API, recorded as the
// agent's call.
func (s *server) pageTool(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		input := map[string]any{}
		if args := req.Params.Arguments; len(args) > 0 && string(args) != "null" {
			if err := json.Unmarshal(args, &input); err != nil {
				return errorResult("the arguments are not a JSON object: " + err.Error()), nil
			}
		}
		var res record.Result
		err := s.withRun(ctx, func(ep *episode) {
			res = ep.act(ctx, scenarios.Call{Tool: name, Input: input, Transport: vocab.PageAPI})
			s.logf("run %d: %s → %s", ep.n, name, res.Status)
		})
		if err != nil {
			return errorResult(err.Error()), nil
		}
		return resultOf(res), nil
	}
}

// resultOf is a call's result as MCP content: the page's answer as text
// (JSON as JSON), an error as an error.
func resultOf(r record.Result) *mcp.CallToolResult {
	if r.Status != vocab.Completed {
		return errorResult(strings.TrimSpace(fmt.Sprintf("the tool ended %s: %s", r.Status, r.ErrorText)))
	}
	text := r.OutputText
	if len(r.Output) > 0 {
		text = string(r.Output)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

func errorResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

func (s *server) finalAnswer(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in struct {
		Text *string `json:"text"`
	}
	if err := json.Unmarshal(req.Params.Arguments, &in); err != nil || in.Text == nil {
		return errorResult(`final_answer takes {"text": "what you tell the person"}`), nil
	}
	var ep *episode
	if err := s.withRun(ctx, func(e *episode) { ep = e }); err != nil {
		return errorResult(err.Error()), nil
	}
	ep.end(in.Text)
	s.logf("run %d: final answer given", ep.n)
	// Answer once the run is recorded (a client may end the server as soon
	// as it has its answer) and, when another run follows, its page is
	// open: the agent then meets the fresh page's tools.
	select {
	case <-ep.recorded:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if ep.n == s.o.Runs {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("Recorded. That was run %d of %d, the last: you may disconnect.", ep.n, s.o.Runs)}}}, nil
	}
	if err := s.withRun(ctx, func(*episode) {}); err != nil {
		return errorResult(err.Error()), nil
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("Recorded: run %d of %d is over. A fresh page is open for run %d: do the same task again from the start.", ep.n, s.o.Runs, ep.n+1)}}}, nil
}

// pageClick clicks in the page, in the agent's phase, as a browser agent
// may: what it causes (a request, a write) is the agent's.
func (s *server) pageClick(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in struct {
		Selector string `json:"selector"`
	}
	if err := json.Unmarshal(req.Params.Arguments, &in); err != nil || strings.TrimSpace(in.Selector) == "" {
		return errorResult(`page_click takes {"selector": "a CSS selector"}`), nil
	}
	var clickErr error
	err := s.withRun(ctx, func(ep *episode) {
		c, cancel := ep.tab.Bind(ctx)
		defer cancel()
		c, cancelBound := context.WithTimeout(c, vocab.Bound)
		defer cancelBound()
		clickErr = chromedp.Do(c, chromedp.Click(chromedp.CSS(in.Selector), chromedp.NodeVisible))
		s.logf("run %d: page_click %s (%v)", ep.n, in.Selector, clickErr)
	})
	switch {
	case err != nil:
		return errorResult(err.Error()), nil
	case clickErr != nil:
		return errorResult(fmt.Sprintf("no click on %s: %v", in.Selector, clickErr)), nil
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Clicked " + in.Selector + "."}}}, nil
}
