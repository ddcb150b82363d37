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
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentready/agentready/internal/data/signin"
	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/live/webmcp"
	"github.com/agentready/agentready/internal/reporters/results"
	"github.com/agentready/agentready/internal/runs/play"
	"github.com/agentready/agentready/scenarios"
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
	Apps func(n int) (app play.App, stop func(), err error)
	// Scenario, when given, is what each run is judged against: its start,
	// probes, a person's steps and expectations; the agent's transcript is
	// what the agent does. Without one a run is recorded, not judged.
	Scenario *scenarios.Scenario
	// ID names the runs' bundles when there is no scenario.
	ID string
	// SignIn is put in each run's fresh tab before its start page, on the
	// app --url names (--storage-state, --header).
	SignIn signin.Options
	// Settle is the rule each run waits for the catalog by (--settle,
	// --max-wait; webmcp.DefaultSettle when zero).
	Settle webmcp.SettleRule
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

// Report is what the server did, for the person running it.
type Report struct {
	Runs   []results.Row // a row per run, in order
	K      int           // runs asked for
	Judged bool          // against a scenario
}

// Passed counts the runs as meant: PASS, which a live agent means to reach.
func (r Report) Passed() int {
	n := 0
	for _, run := range r.Runs {
		if run.AsMeant {
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
		if r.Judged && run.NotAsMeant() {
			for _, line := range run.Why() {
				fmt.Fprintf(&b, "%14s%s\n", "", line)
			}
		}
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

// Server is an MCP server of a page's tools, its options checked.
type Server struct{ s *server }

// New checks the options: what cannot work is an error naming the flag,
// before any browser is started.
func New(o Options) (*Server, error) {
	s, err := newServer(o)
	if err != nil {
		return nil, err
	}
	return &Server{s}, nil
}

// CheckApp makes sure the app every run is on answers (and serves its
// observation endpoints, with a token), when --url names one; each run's
// own app (Apps) is checked when the run starts.
func (srv *Server) CheckApp(ctx context.Context) error {
	if srv.s.fixed == nil {
		return nil
	}
	return srv.s.fixed.Check(ctx)
}

// Serve runs the server on t until the client goes away, and answers the
// report. b is the suite's browser; each run gets a fresh tab of it.
func (srv *Server) Serve(ctx context.Context, b *browser.Browser, t mcp.Transport) (Report, error) {
	srv.s.b = b
	return srv.s.serve(ctx, t)
}

type server struct {
	b      *browser.Browser
	o      Options
	apps   func(n int) (play.App, func(), error)
	fixed  *play.App          // the app of every run, when --url names it
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

func newServer(o Options) (*server, error) {
	s := &server{o: o, log: cmp.Or[io.Writer](o.Log, io.Discard), changed: make(chan struct{}), published: map[string]string{}}
	if s.o.Runs <= 0 {
		s.o.Runs = 1
	}
	if o.Settle != (webmcp.SettleRule{}) {
		if err := o.Settle.Check(); err != nil {
			return nil, err
		}
	}
	page := ""
	if o.URL != "" {
		if err := play.CheckURL("--url "+o.URL, o.URL); err != nil {
			return nil, err
		}
		u, _ := url.Parse(o.URL)
		app := play.App{BaseURL: u.Scheme + "://" + u.Host, ObserverToken: o.ObserverToken, BaseURLFrom: "--url", TokenFrom: "--observer-token", SignIn: o.SignIn}
		s.fixed = &app
		s.apps = func(int) (play.App, func(), error) { return app, func() {}, nil }
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
			s.apps = func(int) (play.App, func(), error) { return play.App{}, func() {}, nil } // play.Start starts the reference app
		case o.URL != "" && page != "/" && page != s.base.Start:
			return nil, fmt.Errorf("--url %s opens %s, and the scenario starts on %s: give the app's base URL or that page", o.URL, page, s.base.Start)
		case o.URL != "" && s.base.Variant != "":
			return nil, fmt.Errorf("the scenario needs the reference app's variant %q: leave out --url (each run then starts the reference app with it)", s.base.Variant)
		}
		if o.Apps != nil {
			s.apps, s.fixed = o.Apps, nil
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
		return rep, fmt.Errorf("the first run ended before the agent could act: %s", r.Error)
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
