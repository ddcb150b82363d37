package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/agentready/agentready/internal/data/signin"
	"github.com/agentready/agentready/internal/live/webmcp"
	"github.com/agentready/agentready/internal/reporters/results"
	"github.com/agentready/agentready/internal/runs/play"
	"github.com/agentready/agentready/internal/sources/evals"
)

// evalsCmd is `agentready evals FILE.json --url URL`: webmcp-evals eval
// cases in smoke mode. Each case's expected calls (the required ones, in
// the order written) are replayed on a fresh page and their results judged
// as webmcp-evals' matcher judges them; every case leaves a bundle, the run
// a page and the table (each case not as meant with its failed checks),
// and the run ends with "evals: N passed, N failed, N skipped".
// It exits 1 when a case fails or a bundle does not verify, 2 on bad usage
// or a file that does not load (nothing is run then).
func evalsCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("evals", "agentready evals FILE.json --url URL [--evidence DIR] [--run-id ID]", stderr)
	pageURL := fs.String("url", "", "the page every case starts on (a fresh tab each)")
	app := play.App{ObserverToken: os.Getenv(play.EnvObserverToken), BaseURLFrom: "--url"}
	fs.StringVar(&app.ObserverToken, "observer-token", app.ObserverToken, "the token of your app's observation endpoints, if it has them")
	signInFlags(fs, func(in signin.Options) { app.SignIn = in })
	app.Settle = webmcp.DefaultSettle
	settleFlags(fs, &app.Settle.Quiet, &app.Settle.Max)
	evidence, runID := runFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return flagExit(err)
	}
	if given(fs, "observer-token") {
		app.TokenFrom = "--observer-token"
	}
	if fs.NArg() != 1 || *pageURL == "" {
		fmt.Fprintln(stderr, "usage: agentready evals FILE.json --url URL [--evidence DIR] [--run-id ID] [--observer-token T]")
		return 2
	}
	file := fs.Arg(0)
	cases, err := evals.Load(file)
	if err != nil {
		fmt.Fprintf(stderr, "agentready evals: the eval file does not load; nothing was run:\n%v\n", err)
		return 2
	}
	plans, err := evals.Smoke(file, cases, *pageURL)
	if err != nil {
		fmt.Fprintf(stderr, "agentready evals: smoke mode cannot replay these cases as written; nothing was run:\n%v\n", err)
		return 2
	}
	if app.BaseURL, err = evals.Origin(*pageURL); err != nil {
		fmt.Fprintln(stderr, "agentready evals:", err)
		return 2
	}
	ctx, stop := interruptible()
	defer stop()
	runDir := filepath.Join(*evidence, *runID)
	b, end, ok := startRun(ctx, "evals", runDir, app.Check, stderr)
	if !ok {
		return 2
	}
	defer end()
	o := play.Options{Browser: b, App: app, RunID: *runID, Dir: runDir}
	var rows []results.Row
	skipped := 0
	for _, p := range plans {
		if p.Skip != "" {
			skipped++
			fmt.Fprintf(stdout, "%-13s case %d (%s): %s\n", "SKIPPED", p.Case.Index, p.Case.Title(), p.Skip)
			continue
		}
		sc := p.Scenario
		row := playOne(ctx, "evals", sc, o, stderr)
		rows = append(rows, row)
		fmt.Fprintf(stdout, "%-13s %s  %s (%d call(s))\n", row.Outcome, sc.ID, sc.Title, len(sc.Agent.Calls))
		if ctx.Err() != nil {
			break
		}
	}
	failed, verified := 0, true
	if len(rows) > 0 {
		failed, verified = closeRun("evals", runDir, *runID, rows, stdout, stderr)
	}
	fmt.Fprintf(stdout, "evals: %d passed, %d failed, %d skipped\n", len(rows)-failed, failed, skipped)
	if failed > 0 || !verified {
		return 1
	}
	return 0
}
