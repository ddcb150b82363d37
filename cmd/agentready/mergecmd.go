package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/agentready/agentready/internal/reporters/results"
	"github.com/agentready/agentready/internal/reporters/shard"
)

// mergeCmd is `agentready merge RUN...`: the run folders of the N shards of
// one run (make e2e SHARD=k/N, or agentready run --shard k/N) combined into
// one run folder: the bundles, the run page, and the Ginkgo reports when
// the shards have them. It then verifies every bundle, and ends with
// "merge: N passed, N failed" (specs when the shards ran the Ginkgo suite,
// scenarios otherwise). Exit 1 when a spec or scenario failed, a bundle
// does not verify, or a verdict judged again differs from its shard's;
// 2 on bad usage or shards that do not make one run (nothing is written).
func mergeCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("merge", "agentready merge [--evidence DIR] [--run-id ID] [--reports DIR] RUN-FOLDER...", stderr)
	evidence := fs.String("evidence", cmp.Or(os.Getenv("AGENTREADY_EVIDENCE"), "evidence"), "where the merged run is written: <evidence>/<run-id>/")
	runID := fs.String("run-id", "", "the merged run's id (default: the shards' run, e.g. X for X.1-of-2 and X.2-of-2)")
	reports := fs.String("reports", "", "also copy the merged e2e.json and e2e.junit.xml into this folder (e.g. reports)")
	if err := parseFlags(fs, args); err != nil {
		return flagExit(err)
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: agentready merge [--evidence DIR] [--run-id ID] [--reports DIR] RUN-FOLDER...  (one per shard, all N of them)")
		return 2
	}
	id := *runID
	if id == "" {
		var err error
		if id, err = commonRun(fs.Args()); err != nil {
			fmt.Fprintln(stderr, "agentready merge:", err)
			return 2
		}
	}
	res, err := shard.Merge(fs.Args(), filepath.Join(*evidence, id), id)
	if err != nil {
		fmt.Fprintln(stderr, "agentready merge:", err)
		return 2
	}
	results.PrintTable(stdout, res.Rows)
	results.PrintAttacks(stdout, results.Attacks(res.Rows, 0))
	failed := 0
	for _, m := range res.Mismatch {
		fmt.Fprintln(stdout, "MISMATCH", m)
	}
	verified := 0
	if len(res.Rows) > 0 {
		verified = verify([]string{res.Dir}, stdout, stderr)
	}
	if res.Reports && *reports != "" {
		if err := copyReports(res.Dir, *reports); err != nil {
			fmt.Fprintln(stderr, "agentready merge:", err)
			return 1
		}
	}
	fmt.Fprintln(stdout, results.CoverageOf(res.Rows).Line())
	fmt.Fprintf(stdout, "evidence: %s\n", filepath.Join(res.Dir, "index.html"))
	fmt.Fprintf(stdout, "merged %d shards into %s\n", res.Shards, res.Dir)
	if res.Reports {
		failed = res.Specs.Failed
		if !res.SuiteSucceeded && failed == 0 {
			failed = 1 // a suite node failed, or the suite was interrupted
		}
		fmt.Fprintf(stdout, "merge: %d passed, %d failed, %d skipped\n", res.Specs.Passed, failed, res.Specs.Skipped)
	} else {
		// Shards of agentready run carry no Ginkgo report: the JUnit report
		// is the rows'.
		failed = len(results.NotAsMeant(res.Rows))
		if err := results.WriteRowsJUnit(res.Rows, filepath.Join(res.Dir, shard.JUnitReport)); err != nil {
			fmt.Fprintln(stderr, "agentready merge:", err)
			return 1
		}
		fmt.Fprintf(stdout, "junit: %s\n", filepath.Join(res.Dir, shard.JUnitReport))
		fmt.Fprintf(stdout, "merge: %d passed, %d failed\n", len(res.Rows)-failed, failed)
	}
	// GitHub's job summary: the closing line and the table, when it asks.
	if path := os.Getenv("GITHUB_STEP_SUMMARY"); path != "" {
		closing := fmt.Sprintf("merge: %d passed, %d failed", len(res.Rows)-len(results.NotAsMeant(res.Rows)), len(results.NotAsMeant(res.Rows)))
		if err := appendTo(path, results.Markdown(closing, res.Rows)); err != nil {
			fmt.Fprintln(stderr, "agentready merge: GITHUB_STEP_SUMMARY:", err)
			return 1
		}
	}
	if failed > 0 || verified != 0 || len(res.Mismatch) > 0 {
		return 1
	}
	return 0
}

// commonRun is the run the shards' folders belong to, from their records.
func commonRun(dirs []string) (string, error) {
	run := ""
	for _, d := range dirs {
		rec, _, err := shard.ReadRecord(d)
		if err != nil {
			return "", err
		}
		if run != "" && rec.Run != run {
			return "", fmt.Errorf("the shards belong to different runs (%s and %s): name the merged run with --run-id", run, rec.Run)
		}
		run = rec.Run
	}
	return run, nil
}

func copyReports(from, to string) error {
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	var errs []error
	for _, name := range []string{shard.JSONReport, shard.JUnitReport} {
		data, err := os.ReadFile(filepath.Join(from, name))
		if err == nil {
			err = os.WriteFile(filepath.Join(to, name), data, 0o644)
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

func appendTo(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	return errors.Join(err, f.Close())
}
