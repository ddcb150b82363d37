package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/pagecheck/crawl"
	"github.com/agentready/agentready/internal/pagecheck/lint"
	"github.com/agentready/agentready/internal/runs/play"
)

const crawlUsage = "usage: agentready crawl [--max-pages 25] [--max-time 3m] [--format text|json|sarif] [--html FILE] [--fail-on error|warning|info] [--rule ID=…]... [--storage-state FILE] [--header 'Name: value'] [--settle 300ms] [--max-wait 5s] URL"

// crawlCmd is `agentready crawl URL`: the site's pages from URL, same
// origin, breadth-first, each listed and linted, and the tools that drift
// from page to page. Exit 1 when a finding is at least as grave as
// --fail-on, a tool drifts or a page could not be read; 2 on bad input.
func crawlCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("crawl", strings.TrimPrefix(crawlUsage, "usage: "), stderr)
	maxPages := fs.Int("max-pages", crawl.DefaultMaxPages, "read this many pages at most")
	maxTime := positiveDuration(crawl.DefaultMaxTime)
	fs.Var(&maxTime, "max-time", "the whole crawl at most")
	format := fs.String("format", "text", "text, json (every page's tools, findings and readiness, the drift and the site's readiness), or sarif (SARIF 2.1.0: lint's findings and tool-drift, each at its page)")
	htmlOut := fs.String("html", "", "also write the crawl as one HTML page to this file (readiness, drift, each page)")
	failOn := fs.String("fail-on", string(lint.Error), "exit 1 when a finding is at least this grave: error, warning or info")
	config := lint.Config{}
	fs.Func("rule", "turn a lint rule off or on, or set its severity: ID=off|on|error|warning|info (repeatable)", config.ParseSetting)
	opts := pageOptions(fs)
	if err := parseFlags(fs, args); err != nil {
		return flagExit(err)
	}
	at := lint.Severity(*failOn)
	switch {
	case fs.NArg() != 1:
		fmt.Fprintln(stderr, crawlUsage)
		return 2
	case *maxPages < 1:
		fmt.Fprintf(stderr, "agentready crawl: --max-pages %d: read at least 1 page\n", *maxPages)
		return 2
	case *format != "text" && *format != "json" && *format != "sarif":
		fmt.Fprintf(stderr, "agentready crawl: --format %q is not text, json or sarif\n", *format)
		return 2
	case at.Rank() == 0:
		fmt.Fprintf(stderr, "agentready crawl: --fail-on %q is not error, warning or info\n", *failOn)
		return 2
	}
	if err := play.CheckURL("the start URL", fs.Arg(0)); err != nil {
		fmt.Fprintln(stderr, "agentready crawl:", err)
		return 2
	}
	if err := opts.Rule().Check(); err != nil {
		fmt.Fprintln(stderr, "agentready crawl:", err)
		return 2
	}
	ctx, stop := interruptible()
	defer stop()
	b, stopBrowser, ok := startBrowser(ctx, "crawl", stderr)
	if !ok {
		return 2
	}
	defer stopBrowser()
	rep, err := crawl.Site(ctx, b, fs.Arg(0), crawl.Options{MaxPages: *maxPages, MaxTime: time.Duration(maxTime), Listing: *opts, Lint: config})
	if err != nil {
		fmt.Fprintln(stderr, "agentready crawl:", err)
		return 2
	}
	reports := rep.Reports() // drift is a tool-drift error at each page it is met on
	switch *format {
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(rep)
	case "sarif":
		err = lint.WriteSARIFWith(stdout, reports, bundle.SuiteVersion, "agentready crawl", []lint.Rule{crawl.DriftRule})
	default:
		printCrawl(stdout, rep)
	}
	if err == nil && *htmlOut != "" {
		var page bytes.Buffer
		if err = crawl.WriteHTML(&page, rep); err == nil {
			err = os.WriteFile(*htmlOut, page.Bytes(), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "agentready crawl:", err)
		return 1
	}
	if lint.Fails(reports, at) {
		return 1
	}
	for _, p := range rep.Pages {
		if p.Error != "" {
			return 1
		}
	}
	return 0
}

func printCrawl(w io.Writer, rep crawl.Report) {
	for _, p := range rep.Pages {
		if p.Error != "" {
			fmt.Fprintf(w, "%s: not read: %s\n", p.URL, p.Error)
			continue
		}
		names := make([]string, len(p.Tools))
		for i, t := range p.Tools {
			names[i] = t.Name
		}
		fmt.Fprintf(w, "%s: %d tool(s) %s; %d of %d lint rules clean\n", p.URL, len(p.Tools), strings.Join(names, " "),
			p.Readiness.RulesClean, p.Readiness.RulesRun)
		for _, f := range p.Findings {
			tool := ""
			if f.Tool != "" {
				tool = f.Tool + ": "
			}
			fmt.Fprintf(w, "  %s %s %s%s\n", f.Rule, f.Severity, tool, f.Message)
		}
	}
	for _, d := range rep.Drift {
		fmt.Fprintf(w, "drift: %s has %d different %s across pages:\n", d.Tool, len(d.Variants), d.What)
		for _, v := range d.Variants {
			fmt.Fprintf(w, "  %q on %s\n", v.Value, strings.Join(v.Pages, ", "))
		}
	}
	fmt.Fprintf(w, "crawl: %d page(s) read", len(rep.Pages))
	if rep.Stopped != "" {
		fmt.Fprintf(w, "; stopped at %s, %d page(s) found and not read", rep.Stopped, len(rep.Left))
	}
	fmt.Fprintf(w, "\nreadiness: %s\n", rep.Readiness)
}
