package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/agentready/agentready/internal/pagecheck/crawl"
	"github.com/agentready/agentready/internal/pagecheck/lint"
	"github.com/agentready/agentready/internal/runs/play"
)

const crawlUsage = "usage: agentready crawl [--max-pages 25] [--max-time 3m] [--format text|json] [--fail-on error|warning|info] [--rule ID=…]... [--storage-state FILE] [--header 'Name: value'] [--settle 300ms] [--max-wait 5s] URL"

// crawlCmd is `agentready crawl URL`: the site's pages from URL, same
// origin, breadth-first, each listed and linted, and the tools that drift
// from page to page. Exit 1 when a finding is at least as grave as
// --fail-on, a tool drifts or a page could not be read; 2 on bad input.
func crawlCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("crawl", strings.TrimPrefix(crawlUsage, "usage: "), stderr)
	maxPages := fs.Int("max-pages", crawl.DefaultMaxPages, "read this many pages at most")
	maxTime := positiveDuration(crawl.DefaultMaxTime)
	fs.Var(&maxTime, "max-time", "the whole crawl at most")
	format := fs.String("format", "text", "text, or json (every page's tools and findings, and the drift)")
	failOn := fs.String("fail-on", string(lint.Error), "exit 1 when a finding is at least this grave: error, warning or info")
	config := lint.Config{}
	fs.Func("rule", "turn a lint rule off or on, or set its severity: ID=off|on|error|warning|info (repeatable)", config.ParseSetting)
	opts := pageOptions(fs)
	if err := parseFlags(fs, args); err != nil {
		return 2
	}
	at := lint.Severity(*failOn)
	switch {
	case fs.NArg() != 1:
		fmt.Fprintln(stderr, crawlUsage)
		return 2
	case *maxPages < 1:
		fmt.Fprintf(stderr, "agentready crawl: --max-pages %d: read at least 1 page\n", *maxPages)
		return 2
	case *format != "text" && *format != "json":
		fmt.Fprintf(stderr, "agentready crawl: --format %q is not text or json\n", *format)
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
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(rep)
	} else {
		printCrawl(stdout, rep)
	}
	reports := make([]lint.Report, len(rep.Pages))
	failed := len(rep.Drift) > 0
	for i, p := range rep.Pages {
		reports[i] = lint.Report{URL: p.URL, Findings: p.Findings, Error: p.Error}
		failed = failed || p.Error != ""
	}
	if failed || lint.Fails(reports, at) {
		return 1
	}
	return 0
}

func printCrawl(w io.Writer, rep crawl.Report) {
	withTools := 0
	for _, p := range rep.Pages {
		switch {
		case p.Error != "":
			fmt.Fprintf(w, "%s: not read: %s\n", p.URL, p.Error)
			continue
		case len(p.Tools) > 0:
			withTools++
		}
		names := make([]string, len(p.Tools))
		for i, t := range p.Tools {
			names[i] = t.Name
		}
		counts := lint.Report{Findings: p.Findings}.Counts()
		fmt.Fprintf(w, "%s: %d tool(s) %s; %d error(s), %d warning(s), %d info\n", p.URL, len(p.Tools), strings.Join(names, " "),
			counts[lint.Error], counts[lint.Warning], counts[lint.Info])
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
	fmt.Fprintf(w, "crawl: %d page(s) read, %d with tools, %d drifting tool part(s)", len(rep.Pages), withTools, len(rep.Drift))
	if rep.Stopped != "" {
		fmt.Fprintf(w, "; stopped at %s, %d page(s) found and not read", rep.Stopped, len(rep.Left))
	}
	fmt.Fprintln(w)
}
