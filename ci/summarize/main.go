// Command summarize reads `go test -json` streams and Ginkgo JSON reports and
// prints one closing line, "N passed, N failed, N skipped", that any CI can
// read; with --failures it lists what failed.
//
// For the e2e suite it does more (docs/decisions/2026-11-30-reports-in-ci.md):
//
//   - --scenarios prints a compact table of the scenarios' verdicts, failures
//     first, just before the closing line, from the report entries each
//     scenario spec records (bundle, outcome, as-meant, codes, meant, seconds,
//     and departs: the link of the recorded chain where a FAIL first departs);
//   - --junit FILE rewrites Ginkgo's JUnit report so that a scenario that
//     ended INCONCLUSIVE when it means to reach another verdict is an
//     <error type="INCONCLUSIVE"> with its codes, not a <failure>: the app
//     was not judged, which is not the same news as a FAIL;
//   - when GITHUB_STEP_SUMMARY is set, it appends the closing line (and,
//     with --scenarios, the table) as Markdown to that file.
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/reporters"
)

type tally struct{ passed, failed, skipped int }

// scenario is one scenario run, as its spec's report entries tell it.
type scenario struct {
	ID, Bundle, Outcome, Codes, Meant string
	Departs                           string // the link a FAIL departs at (the verdict's diagnosis); "" otherwise
	AsMeant                           bool
	Seconds                           float64
	Spec                              string // the spec's state
}

// bad: the scenario's spec did not pass. (A spec may run a scenario to
// assert its FAIL itself: then that verdict is the one expected.)
func (s scenario) bad() bool { return s.Spec != "passed" }

// expected: the verdict is the one the scenario means to reach, or the one
// its passing spec asserted.
func (s scenario) expected() bool { return s.AsMeant || !s.bad() }

// verdict is how the table words the outcome: a known-answer case that
// reached its answer reads "FAIL, as expected".
func (s scenario) verdict() string {
	switch {
	case !s.expected():
		return s.Outcome + " ✗ meant " + s.Meant
	case s.Outcome == "PASS":
		return s.Outcome
	case s.AsMeant:
		return s.Outcome + ", as expected"
	}
	return s.Outcome + ", as its spec expects"
}

func main() {
	label := flag.String("label", "", "word printed before the closing line")
	failures := flag.Bool("failures", false, "list the failed tests")
	table := flag.Bool("scenarios", false, "print the scenarios' verdicts as a table before the closing line")
	junit := flag.String("junit", "", "Ginkgo's JUnit report to rewrite: an INCONCLUSIVE scenario is an error with its codes, not a failure")
	flag.Parse()
	var t tally
	var failed []string
	var scs []scenario
	for _, path := range flag.Args() {
		data, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "summarize:", err)
			os.Exit(2)
		}
		trimmed := bytes.TrimSpace(data)
		if len(trimmed) > 0 && trimmed[0] == '[' {
			f, s := ginkgo(trimmed, &t)
			failed, scs = append(failed, f...), append(scs, s...)
		} else {
			failed = append(failed, goTest(data, &t)...)
		}
	}
	if *junit != "" {
		n, err := fixJUnit(*junit)
		switch {
		case os.IsNotExist(err):
		case err != nil:
			fmt.Fprintln(os.Stderr, "summarize: the JUnit report:", err)
			os.Exit(2)
		case n > 0:
			fmt.Printf("junit: %d INCONCLUSIVE scenario(s) written as errors in %s\n", n, *junit)
		}
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
	if *table && len(scs) > 0 {
		printTable(os.Stdout, scs)
	}
	fmt.Println(closing)
	if path := os.Getenv("GITHUB_STEP_SUMMARY"); path != "" {
		if err := appendMarkdown(path, closing, scs, *table); err != nil {
			fmt.Fprintln(os.Stderr, "summarize: GITHUB_STEP_SUMMARY:", err)
		}
	}
	if t.failed > 0 {
		os.Exit(1)
	}
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

type entry struct {
	Name  string
	Value struct{ AsJSON string }
}

func ginkgo(data []byte, t *tally) ([]string, []scenario) {
	var suites []struct {
		SpecReports []struct {
			LeafNodeType            string
			LeafNodeText            string
			ContainerHierarchyTexts []string
			State                   string
			ReportEntries           []entry
		}
	}
	if err := json.Unmarshal(data, &suites); err != nil {
		fmt.Fprintln(os.Stderr, "summarize: not a Ginkgo report:", err)
		os.Exit(2)
	}
	var failed []string
	var scs []scenario
	for _, s := range suites {
		for _, r := range s.SpecReports {
			scs = append(scs, scenariosOf(r.ReportEntries, r.State)...)
			if r.LeafNodeType != "It" {
				if r.State != "passed" && r.State != "skipped" && r.State != "pending" {
					t.failed++
					failed = append(failed, r.LeafNodeType+" "+r.State)
				}
				continue
			}
			switch r.State {
			case "passed":
				t.passed++
			case "skipped", "pending":
				t.skipped++
			default:
				t.failed++
				failed = append(failed, strings.Join(append(r.ContainerHierarchyTexts, r.LeafNodeText), " ")+" ("+r.State+")")
			}
		}
	}
	return failed, scs
}

// scenariosOf reads the scenarios a spec recorded: each "bundle" entry
// starts one, the entries after it describe it.
func scenariosOf(entries []entry, state string) []scenario {
	var out []scenario
	for _, e := range entries {
		var s string
		var f float64
		var b bool
		switch e.Name {
		case "bundle":
			_ = json.Unmarshal([]byte(e.Value.AsJSON), &s)
			out = append(out, scenario{Bundle: s, ID: s[strings.LastIndexAny(s, `/\`)+1:], Spec: state})
			continue
		}
		if len(out) == 0 {
			continue
		}
		cur := &out[len(out)-1]
		switch e.Name {
		case "outcome":
			_ = json.Unmarshal([]byte(e.Value.AsJSON), &s)
			cur.Outcome = s
		case "as-meant":
			_ = json.Unmarshal([]byte(e.Value.AsJSON), &b)
			cur.AsMeant = b
		case "codes":
			_ = json.Unmarshal([]byte(e.Value.AsJSON), &s)
			cur.Codes = s
		case "meant":
			_ = json.Unmarshal([]byte(e.Value.AsJSON), &s)
			cur.Meant = s
		case "seconds":
			_ = json.Unmarshal([]byte(e.Value.AsJSON), &f)
			cur.Seconds = f
		case "departs":
			_ = json.Unmarshal([]byte(e.Value.AsJSON), &s)
			cur.Departs = s
		}
	}
	return out
}

// sorted are the scenarios, failures first, then by ID.
func sorted(scs []scenario) []scenario {
	scs = slices.Clone(scs)
	slices.SortStableFunc(scs, func(a, b scenario) int {
		if a.bad() != b.bad() {
			if a.bad() {
				return -1
			}
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	return scs
}

// totals words the verdicts: "30 PASS, 20 FAIL (20 as expected), 1
// INCONCLUSIVE (0 as expected); 1 not as meant".
func totals(scs []scenario) string {
	count := func(o string) (n, meant int) {
		for _, s := range scs {
			if s.Outcome == o {
				n++
				if s.expected() {
					meant++
				}
			}
		}
		return n, meant
	}
	pass, _ := count("PASS")
	fail, failMeant := count("FAIL")
	inc, incMeant := count("INCONCLUSIVE")
	bad := 0
	for _, s := range scs {
		if s.bad() {
			bad++
		}
	}
	return fmt.Sprintf("%d PASS, %d FAIL (%d as expected), %d INCONCLUSIVE (%d as expected); %d not as meant", pass, fail, failMeant, inc, incMeant, bad)
}

// printTable prints one line per scenario, failures first.
func printTable(w io.Writer, scs []scenario) {
	rows := sorted(scs)
	idW, vW, dW := len("scenario"), len("verdict"), len("departs")
	for _, s := range rows {
		idW, vW, dW = max(idW, len(s.ID)), max(vW, len([]rune(s.verdict()))), max(dW, len(s.Departs))
	}
	fmt.Fprintf(w, "\n%-*s  %-*s  %6s  %-*s  %s\n", idW, "scenario", vW, "verdict", "time", dW, "departs", "codes")
	for _, s := range rows {
		v := s.verdict()
		fmt.Fprintf(w, "%-*s  %s%s  %5.1fs  %-*s  %s\n", idW, s.ID, v, strings.Repeat(" ", vW-len([]rune(v))), s.Seconds, dW, cmp.Or(s.Departs, "-"), cmp.Or(s.Codes, "-"))
	}
	fmt.Fprintf(w, "scenarios: %s\n", totals(scs))
}

// appendMarkdown adds the run to GitHub's job summary.
func appendMarkdown(path, closing string, scs []scenario, table bool) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### %s\n\n", closing)
	if table && len(scs) > 0 {
		fmt.Fprintf(&b, "Scenarios: %s.\n\n", totals(scs))
		var bad, good []scenario
		for _, s := range sorted(scs) {
			if s.bad() {
				bad = append(bad, s)
			} else {
				good = append(good, s)
			}
		}
		row := func(s scenario) {
			codes := "—"
			if s.Codes != "" {
				codes = "`" + strings.ReplaceAll(s.Codes, " ", "` `") + "`"
			}
			departs := "—"
			if s.Departs != "" {
				departs = "`" + mdEscape(s.Departs) + "`"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %.1f s | %s |\n", mdEscape(s.ID), mdEscape(s.verdict()), mdEscape(s.Meant), codes, s.Seconds, departs)
		}
		head := "| scenario | verdict | meant to reach | codes | time | departs at |\n| --- | --- | --- | --- | --- | --- |\n"
		if len(bad) > 0 {
			b.WriteString("**Not as meant** (evidence: the bundle's `index.html`):\n\n" + head)
			for _, s := range bad {
				row(s)
			}
			b.WriteString("\n")
		}
		if len(good) > 0 {
			fmt.Fprintf(&b, "<details><summary>%d scenario(s) as meant</summary>\n\n%s", len(good), head)
			for _, s := range good {
				row(s)
			}
			b.WriteString("\n</details>\n\n")
		}
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "\n", " ").Replace(s)
}

// fixJUnit rewrites Ginkgo's JUnit report: a scenario spec that failed
// because its verdict was INCONCLUSIVE (when it means to reach another)
// becomes an <error type="INCONCLUSIVE"> whose message names the codes, and
// the counts follow. A spec that panicked (a harness fault) is an error
// already. It answers how many it rewrote.
func fixJUnit(path string) (int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	var suites reporters.JUnitTestSuites
	if err := xml.Unmarshal(data, &suites); err != nil {
		return 0, err
	}
	n := 0
	for si := range suites.TestSuites {
		suite := &suites.TestSuites[si]
		for ci := range suite.TestCases {
			tc := &suite.TestCases[ci]
			if tc.Failure == nil || tc.Properties == nil {
				continue
			}
			var entries []entry
			for _, p := range tc.Properties.Properties {
				e := entry{Name: p.Name}
				e.Value.AsJSON = p.Value
				entries = append(entries, e)
			}
			scs := scenariosOf(entries, tc.Status)
			k := slices.IndexFunc(scs, func(s scenario) bool { return s.Outcome == "INCONCLUSIVE" && !s.AsMeant })
			if k < 0 {
				continue
			}
			s := scs[k]
			msg := fmt.Sprintf("INCONCLUSIVE %s: %s was not judged (meant %s); the evidence: %s", cmp.Or(s.Codes, "-"), s.ID, s.Meant, s.Bundle)
			tc.Error = &reporters.JUnitError{Type: "INCONCLUSIVE", Message: msg, Description: msg + "\n\n" + tc.Failure.Description}
			tc.Failure = nil
			suite.Failures--
			suite.Errors++
			suites.Failures--
			suites.Errors++
			n++
		}
	}
	if n == 0 {
		return 0, nil
	}
	var out bytes.Buffer
	out.WriteString(xml.Header)
	enc := xml.NewEncoder(&out)
	enc.Indent("  ", "    ")
	if err := enc.Encode(suites); err != nil {
		return 0, err
	}
	return n, os.WriteFile(path, out.Bytes(), 0o644)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
