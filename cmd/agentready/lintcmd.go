package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/pagecheck/lint"
)

const lintUsage = "usage: agentready lint [--format text|json|sarif] [--scope tool|page] [--fail-on error|warning|info] [--rule ID=off|on|error|warning|info]... [--settle 300ms] [--max-wait 5s] URL..."

// lintCmd is `agentready lint URL...`: the lint rules on each page's tools,
// read in the suite's browser. Exit 1 when a finding is at least as grave as
// --fail-on (error by default) or a page cannot be read, 0 on clean pages,
// 2 on bad input.
func lintCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("lint", strings.TrimPrefix(lintUsage, "usage: "), stderr)
	format := fs.String("format", "text", "text (one finding a line: ID severity tool: message), json, or sarif (SARIF 2.1.0, for code scanning)")
	failOn := fs.String("fail-on", string(lint.Error), "exit 1 when a finding is at least this grave: error, warning or info")
	scope := fs.String("scope", "", "run only the rules that judge one tool alone (tool) or the page's tools together (page); default both")
	config := lint.Config{}
	fs.Func("rule", "turn a rule off or on, or set its severity: ID=off|on|error|warning|info (repeatable; on turns on a rule that is off by default)", config.ParseSetting)
	opts := pageOptions(fs)
	if err := parseFlags(fs, args); err != nil {
		return flagExit(err)
	}
	at := lint.Severity(*failOn)
	switch {
	case fs.NArg() == 0:
		fmt.Fprintln(stderr, lintUsage)
		return 2
	case *format != "text" && *format != "json" && *format != "sarif":
		fmt.Fprintf(stderr, "agentready lint: --format %q is not text, json or sarif\n", *format)
		return 2
	case at.Rank() == 0:
		fmt.Fprintf(stderr, "agentready lint: --fail-on %q is not error, warning or info\n", *failOn)
		return 2
	case *scope != "" && *scope != string(lint.ScopeTool) && *scope != string(lint.ScopePage):
		fmt.Fprintf(stderr, "agentready lint: --scope %q is not tool or page\n", *scope)
		return 2
	}
	listings, errs, code := readPages("lint", fs.Args(), *opts, stderr)
	if code != 0 {
		return code
	}
	reports := make([]lint.Report, len(listings))
	for i, l := range listings {
		if errs[i] != nil {
			fmt.Fprintf(stderr, "agentready lint: %s: %v\n", l.URL, errs[i])
			reports[i] = lint.Report{URL: l.URL, Findings: []lint.Finding{}, Error: errs[i].Error()}
			continue
		}
		reports[i] = lint.Report{URL: l.URL, Findings: lint.CheckScoped(l, config, lint.Scope(*scope)), FramesUnread: l.FramesUnread}
	}
	var err error
	switch *format {
	case "json":
		err = lint.WriteJSON(stdout, reports)
	case "sarif":
		err = lint.WriteSARIF(stdout, reports, bundle.SuiteVersion)
	default:
		err = lint.WriteText(stdout, reports)
	}
	if err != nil {
		fmt.Fprintln(stderr, "agentready lint:", err)
		return 1
	}
	if lint.Fails(reports, at) {
		return 1
	}
	return 0
}
