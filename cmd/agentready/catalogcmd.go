package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/data/signin"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/pagecheck/toollist"
	"github.com/agentready/agentready/internal/reporters/results"
	"github.com/agentready/agentready/internal/runs/play"
)

// catalogCmd is `agentready catalog URL [--json]`: the tools a page offers,
// across its frames, read in the suite's browser.
func catalogCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("catalog", "agentready catalog [--json] [--update-contract FILE] URL", stderr)
	asJSON := fs.Bool("json", false, "print JSON (with input schemas) instead of a table")
	contract := fs.String("update-contract", "", "write (or rewrite, on purpose) the page's tool contract to this file")
	opts := pageOptions(fs)
	if err := parseFlags(fs, args); err != nil {
		return flagExit(err)
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: agentready catalog [--json] [--settle 300ms] [--max-wait 5s] URL")
		return 2
	}
	l, code := readPage("catalog", fs.Arg(0), *opts, stderr)
	if code != 0 {
		return code
	}
	if *contract != "" {
		u, _ := url.Parse(l.URL)
		data, err := json.MarshalIndent(record.ContractOf(u.Path, l.Catalog()), "", "  ")
		if err == nil {
			err = os.WriteFile(*contract, append(data, '\n'), 0o644)
		}
		if err != nil {
			fmt.Fprintln(stderr, "agentready catalog:", err)
			return 1
		}
		fmt.Fprintf(stdout, "wrote %s: the contract of %d tool(s) of %s\n", *contract, len(l.Tools), l.URL)
		return 0
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(l)
		return 0
	}
	printListing(stdout, l)
	return 0
}

// pageOptions adds the flags every command that reads a page shares.
func pageOptions(fs *flag.FlagSet) *toollist.Options {
	o := toollist.DefaultOptions
	settleFlags(fs, &o.Settle, &o.MaxWait)
	signInFlags(fs, func(in signin.Options) {
		o.Prepare = func(ctx context.Context, tab *browser.Tab) error { return tab.SignIn(ctx, in) }
	})
	return &o
}

// settleFlags adds --settle and --max-wait, the bounds of the suite's one
// settle rule (webmcp.SettleRule), to every command that opens pages: the
// same flags, words and defaults for each. A command checks the rule
// (SettleRule.Check) before it opens a page: exit 2 saying why.
func settleFlags(fs *flag.FlagSet, quiet, max *time.Duration) {
	fs.Var((*positiveDuration)(quiet), "settle", "how long the catalog must stay unchanged after a load, a navigation and before a call (tools registered later are waited for)")
	fs.Var((*positiveDuration)(max), "max-wait", "the longest wait for the catalog to settle")
}

// positiveDuration is a duration flag that refuses 0 and less as it is
// read, saying why: a wait of no time cannot be waited by.
type positiveDuration time.Duration

func (d *positiveDuration) String() string { return time.Duration(*d).String() }

func (d *positiveDuration) Set(s string) error {
	v, err := time.ParseDuration(s)
	switch {
	case err != nil:
		return fmt.Errorf("not a duration such as 300ms or 5s")
	case v <= 0:
		return fmt.Errorf("%s: a wait must be more than 0 (e.g. 300ms)", v)
	}
	*d = positiveDuration(v)
	return nil
}

// signInFlags adds --storage-state FILE and --header (repeatable) to fs;
// set is called with the sign-in as each flag is read. A bad file or
// header is a flag error: exit 2, saying which and why.
func signInFlags(fs *flag.FlagSet, set func(signin.Options)) {
	var in signin.Options
	fs.Func("storage-state", "sign in first: a Playwright storageState JSON file (cookies, each origin's localStorage) applied before the page opens", func(path string) error {
		s, err := signin.Load(path)
		if err != nil {
			return err
		}
		in.State = s
		set(in)
		return nil
	})
	fs.Func("header", "an extra HTTP header sent with every request of the page, 'Name: value' (repeatable)", func(raw string) error {
		if err := in.AddHeader(raw); err != nil {
			return err
		}
		set(in)
		return nil
	})
}

// readPage starts the browser (startBrowser) and lists the page's tools: exit code 2 on bad input, 1 when the page cannot be read.
func readPage(cmd, raw string, opts toollist.Options, stderr io.Writer) (toollist.Listing, int) {
	ls, errs, code := readPages(cmd, []string{raw}, opts, stderr)
	if code != 0 {
		return toollist.Listing{}, code
	}
	if errs[0] != nil {
		fmt.Fprintf(stderr, "agentready %s: %v\n", cmd, errs[0])
		return toollist.Listing{}, 1
	}
	return ls[0], 0
}

// readPages checks every URL first (exit code 2 and nothing read when one is
// not an http(s) URL, or the browser does not start), then reads the pages
// one after the other in one browser. A page that cannot be read has its
// error at its index; the others are read all the same.
func readPages(cmd string, raws []string, opts toollist.Options, stderr io.Writer) ([]toollist.Listing, []error, int) {
	if err := opts.Rule().Check(); err != nil {
		fmt.Fprintf(stderr, "agentready %s: %v\n", cmd, err)
		return nil, nil, 2
	}
	urls := make([]string, len(raws))
	for i, raw := range raws {
		if err := play.CheckURL(fmt.Sprintf("the URL %q", raw), raw); err != nil {
			fmt.Fprintf(stderr, "agentready %s: %v\n", cmd, err)
			return nil, nil, 2
		}
		u, _ := url.Parse(raw)
		urls[i] = u.String()
	}
	ctx, stop := interruptible()
	defer stop()
	b, stopBrowser, ok := startBrowser(ctx, cmd, stderr)
	if !ok {
		return nil, nil, 2
	}
	defer stopBrowser()
	listings, errs := make([]toollist.Listing, len(urls)), make([]error, len(urls))
	for i, u := range urls {
		pageCtx, cancel := context.WithTimeout(ctx, opts.MaxWait+browser.NavigateTimeout+10*time.Second)
		listings[i], errs[i] = toollist.Read(pageCtx, b, u, opts)
		cancel()
		if errs[i] != nil {
			listings[i].URL = u
		}
	}
	return listings, errs, 0
}

func printListing(w io.Writer, l toollist.Listing) {
	if l.FinalURL != "" {
		fmt.Fprintf(w, "%s went to %s, which offers %d tool(s)\n", l.URL, l.FinalURL, len(l.Tools))
		if len(l.Tools) == 0 {
			fmt.Fprintln(w, "a page behind a sign-in? sign in first: --storage-state FILE or --header 'Name: value'")
		}
	} else {
		fmt.Fprintf(w, "%s offers %d tool(s)\n", l.URL, len(l.Tools))
	}
	if len(l.Tools) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tKIND\tANNOTATIONS\tFRAME\tDESCRIPTION")
	for _, t := range l.Sorted() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", t.Name, t.Kind, hints(t), frameLabel(l.URL, t.FrameURL), results.OneLine(t.Description, 70))
	}
	_ = tw.Flush()
	if l.Disagreement != "" {
		fmt.Fprintf(w, "\nthe protocol and getTools() disagree:\n%s\n", l.Disagreement)
	}
}

func hints(t toollist.Tool) string {
	var h []string
	a := t.Annotations
	for _, x := range []struct {
		on   bool
		name string
	}{{a.ReadOnly, "read-only"}, {a.UntrustedContent, "untrusted-content"}, {a.Autosubmit, "autosubmit"}, {a.Consequential, "consequential"}, {a.Debugging, "debugging"}} {
		if x.on {
			h = append(h, x.name)
		}
	}
	if len(h) == 0 {
		return "-"
	}
	return strings.Join(h, ",")
}

func frameLabel(page, frame string) string {
	if frame == "" || frame == page {
		return "top"
	}
	return frame
}
