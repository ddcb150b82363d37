package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/agentready/agentready/browser"
	"github.com/agentready/agentready/bundle"
	"github.com/agentready/agentready/evals"
	"github.com/agentready/agentready/runs"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/vocab"
)

// evalsCmd is `agentready evals FILE.json --url URL`: webmcp-evals eval
// cases in smoke mode. Each case's expected calls (the required ones, in
// the order written) are replayed on a fresh page and their results judged
// as webmcp-evals' matcher judges them; every case leaves a bundle, the run
// an index, and the run ends with "evals: N passed, N failed, N skipped".
// It exits 1 when a case fails or a bundle does not verify, 2 on bad usage
// or a file that does not load (nothing is run then).
func evalsCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("evals", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pageURL := fs.String("url", "", "the page every case starts on (a fresh tab each)")
	app := runs.App{ObserverToken: os.Getenv(runs.EnvObserverToken)}
	fs.StringVar(&app.ObserverToken, "observer-token", app.ObserverToken, "the token of your app's observation endpoints, if it has them")
	evidence, runID := runFlags(fs)
	if err := fs.Parse(reorder(args)); err != nil {
		return 2
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := app.Check(ctx); err != nil {
		fmt.Fprintln(stderr, "agentready evals:", strings.ReplaceAll(err.Error(), runs.EnvBaseURL+"=", "--url "))
		return 2
	}
	b, err := browser.Launch(browser.OptionsFromEnv())
	if err != nil {
		fmt.Fprintln(stderr, "agentready evals:", err)
		return 2
	}
	defer b.Close()
	runDir := filepath.Join(*evidence, *runID)
	var rows []runs.Row
	skipped := 0
	for _, p := range plans {
		if p.Skip != "" {
			skipped++
			fmt.Fprintf(stdout, "%-13s case %d (%s): %s\n", "SKIPPED", p.Case.Index, p.Case.Title(), p.Skip)
			continue
		}
		sc := p.Scenario
		row, err := runOne(ctx, b, app, sc, runDir, *runID)
		if err != nil {
			fmt.Fprintf(stderr, "agentready evals: %s: %v\n", sc.ID, err)
		}
		rows = append(rows, row)
		fmt.Fprintf(stdout, "%-13s %s  %s (%d call(s))\n", row.Outcome, sc.ID, sc.Title, len(sc.Agent.Calls))
		if row.Outcome != vocab.Pass {
			for _, line := range failedChecks(filepath.Join(runDir, sc.ID)) {
				fmt.Fprintln(stdout, "              "+line)
			}
		}
		if ctx.Err() != nil {
			break
		}
	}
	failed := 0
	for _, r := range rows {
		if !r.Expected {
			failed++
		}
	}
	verified := 0
	if len(rows) > 0 {
		runs.PrintVerdicts(stdout, runDir, rows)
		if err := runs.WriteIndex(runDir, *runID, rows); err != nil {
			fmt.Fprintln(stderr, "agentready evals: the run's index:", err)
		}
		verified = verify([]string{runDir}, stdout, stderr)
		fmt.Fprintf(stdout, "evidence: %s\n", filepath.Join(runDir, "index.html"))
	}
	fmt.Fprintf(stdout, "evals: %d passed, %d failed, %d skipped\n", len(rows)-failed, failed, skipped)
	if failed > 0 || verified != 0 {
		return 1
	}
	return 0
}

// failedChecks reads a bundle's verdict for the messages of its failed
// checks, to print under the case.
func failedChecks(dir string) []string {
	var v judge.Verdict
	data, err := os.ReadFile(filepath.Join(dir, bundle.VerdictFile))
	if err == nil {
		err = json.Unmarshal(data, &v)
	}
	if err != nil {
		return []string{"(no verdict: " + err.Error() + ")"}
	}
	var out []string
	for _, c := range v.Failed() {
		out = append(out, fmt.Sprintf("%s %s: %s", c.Code, c.ID, c.Message))
	}
	return out
}
