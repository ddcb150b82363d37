package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/reporters/results"
	"github.com/agentready/agentready/internal/runs/play"
	"github.com/agentready/agentready/scenarios"
)

// runFlags declares --evidence and --run-id, the same for every command
// that writes a run (<evidence>/<run-id>/), with their environment
// defaults (the ones make exports).
func runFlags(fs *flag.FlagSet) (evidence, runID *string) {
	evidence = fs.String("evidence", cmp.Or(os.Getenv("AGENTREADY_EVIDENCE"), "evidence"), "where runs are written: <evidence>/<run-id>/")
	runID = fs.String("run-id", cmp.Or(os.Getenv("AGENTREADY_RUN_ID"), play.NewID()), "the run's id")
	return evidence, runID
}

// given tells whether a flag was set on the command line (not left at its
// default, which may come from the environment).
func given(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// interruptible is a command's context: it ends on Ctrl-C or SIGTERM, and
// every wait of the command with it (the bundle of a scenario cut short is
// still sealed).
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// startBrowser starts the browser of a command the one way every command
// (and the Ginkgo suite, and the bench) does, browser.LaunchFromEnv: a
// grid's at AGENTREADY_GRID_URL, the one at AGENTREADY_BROWSER_URL, or a
// local Chromium, each through the preflight. It says why not on stderr,
// and the command exits 2; stop ends the browser (a grid session deleted).
func startBrowser(ctx context.Context, cmd string, stderr io.Writer) (b *browser.Browser, stop func(), ok bool) {
	b, release, err := browser.LaunchFromEnv(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "agentready %s: %v\n", cmd, err)
		return nil, nil, false
	}
	return b, func() {
		if err := release(); err != nil {
			fmt.Fprintf(stderr, "agentready %s: %v\n", cmd, err)
		}
	}, true
}

// lockRun claims a run folder for a command (play.LockRun), saying so on
// stderr when it cannot or when it takes over a stale lock.
func lockRun(dir, cmd string, stderr io.Writer) (*play.Lock, bool) {
	lock, err := play.LockRun(dir, "agentready "+cmd)
	if err != nil {
		fmt.Fprintf(stderr, "agentready %s: %v\n", cmd, err)
		return nil, false
	}
	if lock.Stale != nil {
		fmt.Fprintf(stderr, "agentready %s: %s: the lock left by %s, which has ended, was taken over\n", cmd, dir, lock.Stale)
	}
	return lock, true
}

// startRun readies a run of scenarios as every command that plays them
// does, before anything is played: the app checked (check), the browser
// started (startBrowser) and the run folder claimed (lockRun); each failure
// is said on stderr, and the command exits 2. end lets them all go.
func startRun(ctx context.Context, cmd, dir string, check func(context.Context) error, stderr io.Writer) (b *browser.Browser, end func(), ok bool) {
	if err := check(ctx); err != nil {
		fmt.Fprintf(stderr, "agentready %s: %v\n", cmd, err)
		return nil, nil, false
	}
	b, stopBrowser, ok := startBrowser(ctx, cmd, stderr)
	if !ok {
		return nil, nil, false
	}
	lock, ok := lockRun(dir, cmd, stderr)
	if !ok {
		stopBrowser()
		return nil, nil, false
	}
	return b, func() {
		if err := lock.Release(); err != nil {
			fmt.Fprintf(stderr, "agentready %s: %v\n", cmd, err)
		}
		stopBrowser()
	}, true
}

// perScenario bounds one scenario of `run` and `evals`.
const perScenario = 2 * time.Minute

// playOne plays a scenario to its end and seals its bundle; a problem on
// the way (a bundle not written, a harness fault) is said on stderr.
func playOne(ctx context.Context, cmd string, sc scenarios.Scenario, o play.Options, stderr io.Writer) results.Row {
	ctx, cancel := context.WithTimeout(ctx, perScenario)
	defer cancel()
	s, err := play.Scenario(ctx, sc, o)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "agentready %s: %s: %v\n", cmd, sc.ID, err)
	case len(s.Row.Faults) > 0:
		fmt.Fprintf(stderr, "agentready %s: %s: harness fault: %s\n", cmd, sc.ID, s.Row.Faults[0])
	}
	return s.Row
}

// closeRun ends a run of scenarios as every command that plays them does:
// the table (the ones not as meant first, each with why), the run's page,
// verify on every bundle, the page's path. It answers how many rows are
// not as meant and whether every bundle verified.
func closeRun(cmd, dir, runID string, rows []results.Row, stdout, stderr io.Writer) (failed int, verified bool) {
	return closeRuns(cmd, dir, runID, rows, 1, stdout, stderr)
}

// closeRuns is closeRun for a run that played each scenario k times:
// after the table, each scenario's pass^k and pass@k and the spread of
// its verdicts across the runs, and for one under a planted attack its
// utility and attack success, also on the run's page.
func closeRuns(cmd, dir, runID string, rows []results.Row, k int, stdout, stderr io.Writer) (failed int, verified bool) {
	failed, verified, _ = closeCovered(cmd, dir, runID, rows, k, stdout, stderr)
	return failed, verified
}

// closeCovered is closeRuns answering the run's coverage too.
func closeCovered(cmd, dir, runID string, rows []results.Row, k int, stdout, stderr io.Writer) (failed int, verified bool, cov results.Coverage) {
	results.PrintTable(stdout, rows)
	page := results.Page{RunID: runID, Rows: rows, Runs: k}
	results.PrintRepeats(stdout, page.Repeats())
	results.PrintAttacks(stdout, page.Attacks())
	if err := page.Write(dir); err != nil {
		fmt.Fprintf(stderr, "agentready %s: the run's page: %v\n", cmd, err)
	}
	cov = page.Coverage()
	fmt.Fprintln(stdout, cov.Line())
	verified = verify([]string{dir}, stdout, stderr) == 0
	fmt.Fprintf(stdout, "evidence: %s\n", filepath.Join(dir, results.PageFile))
	return len(results.NotAsMeant(rows)), verified, cov
}
