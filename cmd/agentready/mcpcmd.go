package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentready/agentready/internal/data/signin"
	"github.com/agentready/agentready/internal/live/webmcp"
	"github.com/agentready/agentready/internal/reporters/results"
	"github.com/agentready/agentready/internal/runs/agentmcp"
	"github.com/agentready/agentready/internal/runs/play"
	"github.com/agentready/agentready/scenarios"
)

// mcpCmd is `agentready mcp [--url URL] [--scenario FILE] [--evidence DIR]
// [--runs k]`: an MCP server over stdio through which a real agent acts on
// a page with the page's own WebMCP tools, recorded (and, with a scenario,
// judged) as a scenario run is. Standard output is the protocol's: every
// word for the person goes to standard error. It exits 0 once the client
// has gone and every run reached PASS (or, without a scenario, was
// recorded) and every bundle verifies; 1 otherwise; 2 on bad usage, an
// app that does not answer, a browser that does not start, or a run
// folder another run is writing.
func mcpCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("mcp", "agentready mcp [--url URL] [--scenario FILE] [--runs k] [--evidence DIR] [--page-actions]", stderr)
	var o agentmcp.Options
	fs.StringVar(&o.URL, "url", "", "the page the agent starts on (with --scenario: the app's base URL, or that page; without it, each run starts the reference app afresh)")
	scenarioFile := fs.String("scenario", "", "a scenario file: its start page, a person's steps and expectations judge each run; the agent's transcript is what it does")
	fs.IntVar(&o.Runs, "runs", 1, "how many runs, each on a fresh page (final_answer ends one); the report gives pass^k and pass@k")
	fs.StringVar(&o.ID, "id", "mcp-session", "the bundles' id without --scenario")
	fs.BoolVar(&o.PageActions, "page-actions", false, "also offer page_click, as a browser agent that clicks in the page")
	fs.StringVar(&o.ObserverToken, "observer-token", os.Getenv(play.EnvObserverToken), "the token of your app's observation endpoints, if it has them")
	signInFlags(fs, func(in signin.Options) { o.SignIn = in })
	o.Settle = webmcp.DefaultSettle
	settleFlags(fs, &o.Settle.Quiet, &o.Settle.Max)
	evidence, runID := runFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return flagExit(err)
	}
	o.RunID = *runID
	if fs.NArg() > 0 || o.Runs < 1 || (o.URL == "" && *scenarioFile == "") {
		fmt.Fprintln(stderr, "usage: agentready mcp [--url URL] [--scenario FILE] [--runs k] [--evidence DIR] [--page-actions]")
		return 2
	}
	if *scenarioFile != "" {
		sc, err := scenarios.Load(*scenarioFile)
		if err != nil {
			fmt.Fprintln(stderr, "agentready mcp: --scenario:", err)
			return 2
		}
		for _, w := range scenarios.DeprecatedIn([]scenarios.Scenario{sc}) {
			fmt.Fprintln(stderr, "agentready mcp: warning:", w)
		}
		o.Scenario = &sc
		if note := signInOverridden([]scenarios.Scenario{sc}, o.SignIn); note != "" {
			fmt.Fprintln(stderr, "agentready mcp:", note)
		}
	}
	o.Evidence = filepath.Join(*evidence, o.RunID)
	o.Log = stderr
	srv, err := agentmcp.New(o)
	if err != nil {
		fmt.Fprintln(stderr, "agentready mcp:", err)
		return 2
	}
	ctx, stop := interruptible()
	defer stop()
	b, end, ok := startRun(ctx, "mcp", o.Evidence, srv.CheckApp, stderr)
	if !ok {
		return 2
	}
	defer end()
	rep, err := srv.Serve(ctx, b, &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopCloser{stdout}})
	if err != nil {
		fmt.Fprintln(stderr, "agentready mcp:", err)
		if len(rep.Runs) == 0 {
			return 2
		}
	}
	verified := 0
	if len(rep.Runs) > 0 {
		if err := (results.Page{RunID: o.RunID, Rows: rep.Runs}).Write(o.Evidence); err != nil {
			fmt.Fprintln(stderr, "agentready mcp: the run's page:", err)
		}
		verified = verify([]string{o.Evidence}, stderr, stderr)
		fmt.Fprintf(stderr, "evidence: %s\n", filepath.Join(o.Evidence, results.PageFile))
	}
	fmt.Fprint(stderr, rep.Summary())
	if err != nil || verified != 0 || (rep.Judged && !rep.PassHatK()) {
		return 1
	}
	return 0
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
