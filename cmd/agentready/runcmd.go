package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/agentready/agentready/browser"
	"github.com/agentready/agentready/bundle"
	"github.com/agentready/agentready/runs"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/runner"
	"github.com/agentready/agentready/shard"
)

// runScenarios is `agentready run`: a user's scenarios against their app
// (or the suite's own against the embedded app), for people who do not use
// make or Ginkgo. It writes one bundle per scenario and the run's index,
// verifies every bundle, and ends with "run: N passed, N failed". It exits 1
// when a scenario does not reach the verdict it means to, or a bundle does
// not verify; 2 on bad usage or input (nothing is run then).
func runScenarios(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	app := runs.AppFromEnv()
	fs.StringVar(&app.BaseURL, "base-url", app.BaseURL, "your app (default $"+runs.EnvBaseURL+"); without it, the embedded reference app")
	fs.StringVar(&app.ObserverToken, "observer-token", app.ObserverToken, "the token of your app's observation endpoints, if it has them")
	fs.StringVar(&app.StatePath, "observer-state", app.StatePath, "the state endpoint's path")
	fs.StringVar(&app.JournalPath, "observer-journal", app.JournalPath, "the journal endpoint's path")
	dir := fs.String("scenarios", cmp.Or(os.Getenv("AGENTREADY_SCENARIOS"), scenarios.DefaultDir), "a folder of scenario files (read recursively, *.yaml and *.yml)")
	evidence, runID := runFlags(fs)
	var only idList
	fs.Var(&only, "id", "run only this scenario ID or family (repeatable)")
	part := fs.String("shard", os.Getenv(shard.Env), "run only shard k/N of the scenarios (by a stable hash of their IDs), into <run-id>.k-of-N; `agentready merge` joins the shards")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	sh, err := shard.Parse(*part)
	if err != nil {
		fmt.Fprintln(stderr, "agentready run: --shard:", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "agentready run: unexpected arguments %v\n", fs.Args())
		return 2
	}
	all, err := scenarios.LoadDir(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "agentready run: scenario files do not load; nothing was run:\n%v\n", err)
		return 2
	}
	picked := only.pick(all)
	if len(picked) == 0 {
		fmt.Fprintf(stderr, "agentready run: no scenario in %s matches %v\n", *dir, []string(only))
		return 2
	}
	picked = slices.DeleteFunc(picked, func(sc scenarios.Scenario) bool { return !sh.Has(sc.ID) })
	if len(picked) == 0 {
		fmt.Fprintf(stderr, "agentready run: shard %s has none of the %d scenarios in %s: use fewer shards\n", sh, len(only.pick(all)), *dir)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := app.Check(ctx); err != nil {
		fmt.Fprintln(stderr, "agentready run:", err)
		return 2
	}
	b, release, err := browser.LaunchFromEnv()
	if err != nil {
		fmt.Fprintln(stderr, "agentready run:", err)
		return 2
	}
	defer func() {
		if err := release(); err != nil {
			fmt.Fprintln(stderr, "agentready run:", err)
		}
	}()
	runDir := filepath.Join(*evidence, shard.RunID(*runID, sh))
	var rows []runs.Row
	for _, sc := range picked {
		row, err := runOne(ctx, b, app, sc, runDir, filepath.Base(runDir))
		if err != nil {
			fmt.Fprintf(stderr, "agentready run: %s: %v\n", sc.ID, err)
		}
		rows = append(rows, row)
		fmt.Fprintf(stdout, "%-13s %s\n", row.Outcome, sc.ID)
		if ctx.Err() != nil {
			break
		}
	}
	runs.PrintVerdicts(stdout, runDir, rows)
	if err := runs.WriteIndex(runDir, filepath.Base(runDir), rows); err != nil {
		fmt.Fprintln(stderr, "agentready run: the run's index:", err)
	}
	if sh.On() {
		if err := shard.WriteRecord(runDir, sh, shard.KindRun, app.BaseURL, rows); err != nil {
			fmt.Fprintln(stderr, "agentready run: the shard's record:", err)
		}
	}
	failed := 0
	for _, r := range rows {
		if !r.Expected {
			failed++
		}
	}
	verified := verify([]string{runDir}, stdout, stderr)
	fmt.Fprintf(stdout, "evidence: %s\n", filepath.Join(runDir, "index.html"))
	fmt.Fprintf(stdout, "run: %d passed, %d failed\n", len(rows)-failed, failed)
	if failed > 0 || verified != 0 {
		return 1
	}
	return 0
}

// runOne plays one scenario in a fresh tab and writes its bundle.
func runOne(ctx context.Context, b *browser.Browser, app runs.App, sc scenarios.Scenario, runDir, runID string) (runs.Row, error) {
	row := runs.Row{ID: sc.ID, Outcome: "INCONCLUSIVE"}
	target, done, err := runs.Target(ctx, b, app, sc.Variant)
	if err != nil {
		return row, err
	}
	defer done()
	meta := bundle.Meta{RunID: runID, Start: time.Now().UTC(), SuiteVersion: bundle.SuiteVersion, SuiteCommit: bundle.SuiteCommit(),
		Chromium: b.Version.Product, Protocol: b.Version.Protocol, Features: b.Version.Features, WebMCP: b.Version.WebMCP, Variant: sc.Variant, BaseURL: target.BaseURL}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	ev := runner.Run(ctx, sc, target)
	v, err := runs.Record(ctx, filepath.Join(runDir, sc.ID), meta, sc, ev, target.Tab)
	if err != nil {
		return row, err
	}
	row.Outcome, row.Expected = v.Outcome, judge.AsExpected(sc, v)
	if len(ev.Faults) > 0 {
		return row, errors.New("harness fault: " + ev.Faults[0])
	}
	return row, nil
}

// idList is the repeatable --id flag.
type idList []string

func (l *idList) String() string     { return fmt.Sprint([]string(*l)) }
func (l *idList) Set(s string) error { *l = append(*l, s); return nil }

// pick keeps the scenarios whose labels (ID, family, area) hold one of the
// ids; all of them without ids.
func (l idList) pick(all []scenarios.Scenario) []scenarios.Scenario {
	if len(l) == 0 {
		return all
	}
	return slices.DeleteFunc(slices.Clone(all), func(sc scenarios.Scenario) bool {
		return !slices.ContainsFunc(sc.Labels(), func(label string) bool { return slices.Contains(l, label) })
	})
}
