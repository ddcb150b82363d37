package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentready/agentready/internal/data/signin"
	"github.com/agentready/agentready/internal/reporters/results"
	"github.com/agentready/agentready/internal/runs/attack"
	"github.com/agentready/agentready/internal/runs/play"
	"github.com/agentready/agentready/scenarios/vocab"
)

// attackCmd is `agentready attack embed URL`: a page of another origin (a
// second loopback name) frames the app's page at URL, with allow="tools"
// and without, and an agent on it calls every tool of the app it is
// offered; each framing is a bundle judged for embedder_tools_visible and
// embedder_write. It exits 0 when both pass and every bundle verifies, 1
// when one fails or is inconclusive, 2 on bad usage or a browser that does
// not start.
func attackCmd(args []string, stdout, stderr io.Writer) int {
	const usageLine = "usage: agentready attack embed [--observer-token T] [--storage-state FILE] [--evidence DIR] [--run-id ID] URL"
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		fmt.Fprintln(stderr, usageLine)
		fmt.Fprintln(stderr, "\nattacks:\n  embed    another origin frames the page (allow=\"tools\" and not) and calls the tools it is offered\n\nagentready attack embed -h lists its flags")
		return 0
	}
	if len(args) == 0 || args[0] != "embed" {
		fmt.Fprintln(stderr, usageLine)
		if len(args) > 0 {
			fmt.Fprintf(stderr, "agentready attack: %q is not an attack (there is one: embed)\n", args[0])
		}
		return 2
	}
	fs := newFlags("attack embed", strings.TrimPrefix(usageLine, "usage: "), stderr)
	var o attack.Options
	fs.StringVar(&o.ObserverToken, "observer-token", os.Getenv(play.EnvObserverToken), "the token of your app's observation endpoints, if it has them: its state before and after the attack")
	signInFlags(fs, func(in signin.Options) { o.SignIn = in })
	evidence, runID := runFlags(fs)
	if err := parseFlags(fs, args[1:]); err != nil {
		return flagExit(err)
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, usageLine)
		return 2
	}
	o.AppURL = fs.Arg(0)
	if err := play.CheckURL(fmt.Sprintf("the URL %q", o.AppURL), o.AppURL); err != nil {
		fmt.Fprintf(stderr, "agentready attack embed: %v\n", err)
		return 2
	}
	o.RunID, o.Dir = *runID, filepath.Join(*evidence, *runID)
	ctx, stop := interruptible()
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	b, end, ok := startRun(ctx, "attack embed", o.Dir, func(context.Context) error { return nil }, stderr)
	if !ok {
		return 2
	}
	defer end()
	o.Browser = b
	sealed, err := attack.Embed(ctx, o)
	if err != nil {
		fmt.Fprintln(stderr, "agentready attack embed:", err)
	}
	var rows []results.Row
	failed := err != nil
	for _, s := range sealed {
		rows = append(rows, s.Row)
		fmt.Fprintf(stdout, "%-18s %-12s %s\n", s.Row.ID, s.Verdict.Outcome, codesOf(s.Verdict.Codes))
		for _, c := range s.Verdict.Checks {
			if strings.HasPrefix(c.ID, "embedder.") {
				fmt.Fprintf(stdout, "  %-16s %s\n", c.ID, c.Message)
			}
		}
		failed = failed || s.Verdict.Outcome != vocab.Pass
	}
	if len(rows) == 0 {
		return 2
	}
	if err := (results.Page{RunID: o.RunID, Rows: rows}).Write(o.Dir); err != nil {
		fmt.Fprintln(stderr, "agentready attack embed: the run's page:", err)
	}
	verified := verify([]string{o.Dir}, stderr, stderr)
	fmt.Fprintf(stderr, "evidence: %s\n", filepath.Join(o.Dir, results.PageFile))
	if failed || verified != 0 {
		return 1
	}
	return 0
}

// codesOf words a verdict's codes, "-" for none.
func codesOf(codes []vocab.Code) string {
	if len(codes) == 0 {
		return "-"
	}
	out := make([]string, len(codes))
	for i, c := range codes {
		out[i] = string(c)
	}
	return strings.Join(out, " ")
}
