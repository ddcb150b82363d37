// Command summarize reads `go test -json` streams and Ginkgo JSON reports and
// prints one closing line, "N passed, N failed, N skipped", that any CI can
// read; with --failures it lists what failed.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
)

type tally struct{ passed, failed, skipped int }

func main() {
	label := flag.String("label", "", "word printed before the closing line")
	failures := flag.Bool("failures", false, "list the failed tests")
	flag.Parse()
	var t tally
	var failed []string
	for _, path := range flag.Args() {
		data, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "summarize:", err)
			os.Exit(2)
		}
		trimmed := bytes.TrimSpace(data)
		if len(trimmed) > 0 && trimmed[0] == '[' {
			failed = append(failed, ginkgo(trimmed, &t)...)
		} else {
			failed = append(failed, goTest(data, &t)...)
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
	fmt.Printf("%s%d passed, %d failed, %d skipped\n", prefix, t.passed, t.failed, t.skipped)
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

func ginkgo(data []byte, t *tally) []string {
	var suites []struct {
		SpecReports []struct {
			LeafNodeType            string
			LeafNodeText            string
			ContainerHierarchyTexts []string
			State                   string
		}
	}
	if err := json.Unmarshal(data, &suites); err != nil {
		fmt.Fprintln(os.Stderr, "summarize: not a Ginkgo report:", err)
		os.Exit(2)
	}
	var failed []string
	for _, s := range suites {
		for _, r := range s.SpecReports {
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
	return failed
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
