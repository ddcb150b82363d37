// Command summarize reads `go test -json` streams and Ginkgo JSON reports and
// prints one closing line, "N passed, N failed, N skipped", that any CI can
// read; with --failures it lists what failed.
//
// For the e2e suite it does more (docs/decisions/2026-11-30-reports-in-ci.md),
// every part of it a reporter of package results, a function of the one
// row each scenario spec records (results.EntryName):
//
//   - --scenarios prints the table of the scenarios' verdicts, the ones not
//     as meant first, each of those with its first failed checks and its
//     bundle, just before the closing line (results.PrintTable);
//   - --junit FILE rewrites Ginkgo's JUnit report so that a scenario that
//     ended INCONCLUSIVE when it means to reach another verdict is an
//     <error type="INCONCLUSIVE"> with its codes, not a <failure>: the app
//     was not judged, which is not the same news as a FAIL (results.FixJUnit);
//   - --bundles RUN_DIR says whether the run folder had to hold bundles:
//     a report whose specs ran no scenario (make scenario ID=smoke-calls)
//     wrote none, and that is said, not failed; a report that records a
//     scenario's row while the folder holds no bundle fails (bundleCheck);
//   - when GITHUB_STEP_SUMMARY is set, it appends the closing line (and,
//     with --scenarios, the table) as Markdown to that file (results.Markdown).
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/reporters/results"
)

type tally struct{ passed, failed, skipped int }

func main() {
	label := flag.String("label", "", "word printed before the closing line")
	failures := flag.Bool("failures", false, "list the failed tests")
	table := flag.Bool("scenarios", false, "print the scenarios' verdicts as a table before the closing line")
	junit := flag.String("junit", "", "Ginkgo's JUnit report to rewrite: an INCONCLUSIVE scenario is an error with its codes, not a failure")
	bundles := flag.String("bundles", "", "the run folder: fail when the specs ran scenarios and it holds no bundle; say so when they ran none")
	gaps := flag.String("coverage-gaps", "", "the known gaps of the run's coverage of the agent surface: fail when the run leaves another (coverage lost) or covers a listed one (the list must shrink)")
	gapsOf := flag.String("coverage-of", "scenarios/cases/", "with --coverage-gaps: count only the rows of scenario files under this folder (our own app's)")
	writeGaps := flag.Bool("write-gaps", false, "with --coverage-gaps: write the run's gaps to that file instead of holding the run to it")
	flag.Parse()
	var t tally
	var failed []string
	var rows []results.Row
	for _, path := range flag.Args() {
		data, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "summarize:", err)
			os.Exit(2)
		}
		trimmed := bytes.TrimSpace(data)
		if len(trimmed) > 0 && trimmed[0] == '[' {
			f, r := ginkgo(trimmed, &t)
			failed, rows = append(failed, f...), append(rows, r...)
		} else {
			failed = append(failed, goTest(data, &t)...)
		}
	}
	if *junit != "" {
		n, err := results.FixJUnit(*junit)
		switch {
		case os.IsNotExist(err):
		case err != nil:
			fmt.Fprintln(os.Stderr, "summarize: the JUnit report:", err)
			os.Exit(2)
		case n > 0:
			fmt.Printf("junit: %d INCONCLUSIVE scenario(s) written as errors in %s\n", n, *junit)
		}
	}
	bundlesOK := true
	if *bundles != "" {
		var line string
		line, bundlesOK = bundleCheck(rows, *bundles)
		fmt.Println(line)
	}
	coverageOK := true
	if *gaps != "" {
		coverageOK = coverageGate(rowsOf(rows, *gapsOf), *gaps, *writeGaps)
	}
	if *failures || t.failed > 0 {
		for _, f := range failed {
			fmt.Println("FAILED:", f)
		}
	}
	prefix := ""
	if *label != "" {
		prefix = *label + ": "
	}
	closing := fmt.Sprintf("%s%d passed, %d failed, %d skipped", prefix, t.passed, t.failed, t.skipped)
	if !*table {
		rows = nil
	}
	if len(rows) > 0 {
		results.PrintTable(os.Stdout, rows)
		results.PrintAttacks(os.Stdout, results.Attacks(rows, 0))
	}
	fmt.Println(closing)
	if path := os.Getenv("GITHUB_STEP_SUMMARY"); path != "" {
		if err := appendFile(path, results.Markdown(closing, rows)); err != nil {
			fmt.Fprintln(os.Stderr, "summarize: GITHUB_STEP_SUMMARY:", err)
		}
	}
	if t.failed > 0 || !bundlesOK || !coverageOK {
		os.Exit(1)
	}
}

// gapsHeader heads a list of known gaps.
const gapsHeader = `The reference app's gaps in its coverage of the agent surface (issue 44):
what make e2e's scenarios leave unexercised, one per line. make e2e fails
when a run leaves a gap not listed here (coverage lost) or covers one that
is (delete its line). Rewrite it with make coverage-gaps; the goal is none.`

// rowsOf are the rows of scenario files under dir.
func rowsOf(rows []results.Row, dir string) []results.Row {
	var out []results.Row
	for _, r := range rows {
		if strings.Contains(filepath.ToSlash(r.File), dir) {
			out = append(out, r)
		}
	}
	return out
}

// coverageGate holds the run's coverage to the list of known gaps at path
// (or writes the list), saying what it found.
func coverageGate(rows []results.Row, path string, write bool) bool {
	cov := results.CoverageOf(rows)
	fmt.Println(cov.Line())
	if write {
		if err := cov.WriteGaps(path, gapsHeader); err != nil {
			fmt.Fprintln(os.Stderr, "summarize:", err)
			return false
		}
		fmt.Printf("coverage gaps: %d written to %s\n", len(cov.Uncovered()), path)
		return true
	}
	known, err := results.ReadGaps(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "summarize: --coverage-gaps:", err)
		return false
	}
	lost, closed := cov.Ratchet(known)
	for _, it := range lost {
		fmt.Printf("COVERAGE LOST: %s (closest: %s: %s)\n", it.GapLine(), it.Closest, it.Why)
	}
	for _, k := range closed {
		fmt.Printf("NO LONGER A GAP (covered now, or no longer found), delete its line from %s: %s\n", path, k)
	}
	if len(lost)+len(closed) > 0 {
		fmt.Printf("coverage gate: %d gap(s) not in %s, %d listed gap(s) no longer open (make coverage-gaps rewrites the list)\n", len(lost), path, len(closed))
		return false
	}
	fmt.Printf("coverage gate: the run leaves exactly the %d gap(s) %s lists\n", len(known), path)
	return true
}

func goTest(data []byte, t *tally) []string {
	var failed []string
	pkgOutput := map[string]string{}
	failedTests := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var ev struct{ Action, Package, Test, Output string }
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		if ev.Test == "" {
			// A package that fails outside any test (a build error, TestMain)
			// is a failure too, and its output says why.
			switch {
			case ev.Action == "output":
				pkgOutput[ev.Package] += ev.Output
			case ev.Action == "fail" && !failedTests[ev.Package]:
				t.failed++
				failed = append(failed, ev.Package+" (outside any test):\n"+lastLines(pkgOutput[ev.Package], 15))
			}
			continue
		}
		switch ev.Action {
		case "pass":
			t.passed++
		case "fail":
			t.failed++
			failedTests[ev.Package] = true
			failed = append(failed, ev.Package+" "+ev.Test)
		case "skip":
			t.skipped++
		}
	}
	return failed
}

// ginkgo counts the specs of Ginkgo JSON reports and answers the failed
// ones and the rows of the scenarios they ran.
func ginkgo(data []byte, t *tally) ([]string, []results.Row) {
	var suites []types.Report
	if err := json.Unmarshal(data, &suites); err != nil {
		fmt.Fprintln(os.Stderr, "summarize: not a Ginkgo report:", err)
		os.Exit(2)
	}
	var failed []string
	var rows []results.Row
	for _, s := range suites {
		specs := results.Tally(s)
		t.passed, t.failed, t.skipped = t.passed+specs.Passed, t.failed+specs.Failed, t.skipped+specs.Skipped
		for _, r := range s.SpecReports {
			rows = append(rows, results.FromSpec(r)...)
			switch {
			case r.State.Is(types.SpecStatePassed | types.SpecStateSkipped | types.SpecStatePending):
			case r.LeafNodeType != types.NodeTypeIt:
				failed = append(failed, r.LeafNodeType.String()+" "+r.State.String())
			default:
				failed = append(failed, r.FullText()+" ("+r.State.String()+")")
			}
		}
	}
	return failed, rows
}

// bundleCheck answers whether the run folder dir holds what the report's
// rows say was played: a scenario's row (one that is no unsealed row's
// error) means a bundle must be there; no row means only specs ran, which
// write none. ok is false when rows need bundles and the folder has none,
// the case a verify of the folder would otherwise not see.
func bundleCheck(rows []results.Row, dir string) (line string, ok bool) {
	found, _ := filepath.Glob(filepath.Join(dir, "*", bundle.ManifestFile))
	sealed := 0
	for _, r := range rows {
		if r.Error == "" {
			sealed++
		}
	}
	switch {
	case len(found) > 0:
		return fmt.Sprintf("bundles: %d in %s", len(found), dir), true
	case sealed > 0:
		return fmt.Sprintf("bundles: %d scenario(s) ran and %s holds no bundle", sealed, dir), false
	}
	return "bundles: no scenario ran (only specs), so no bundle was written to verify", true
}

// appendFile adds text to the end of a file (GitHub's job summary).
func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
