package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/agentready/agentready/internal/pagecheck/smoke"
	"github.com/agentready/agentready/internal/runs/play"
)

// smokeCmd is `agentready smoke URL [--allow-writes] [--json]`: each tool
// called with inputs derived from its schema, valid and invalid, on a fresh
// page each; exit 1 when the page and its schemas disagree.
func smokeCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("smoke", "agentready smoke [--allow-writes] [--tool NAME]... [--json] URL", stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	allowWrites := fs.Bool("allow-writes", false, "call tools not annotated read-only too (they may change your app's data)")
	page := pageOptions(fs) // read after parsing: a copy taken now would keep the defaults
	opts := smoke.Options{}
	fs.Func("tool", "call only this tool (repeatable); one the page does not offer is an error, and nothing is called", func(name string) error {
		opts.Tools = append(opts.Tools, name)
		return nil
	})
	if err := parseFlags(fs, args); err != nil {
		return flagExit(err)
	}
	opts.AllowWrites, opts.Page = *allowWrites, *page
	if err := opts.Page.Rule().Check(); err != nil {
		fmt.Fprintln(stderr, "agentready smoke:", err)
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: agentready smoke [--allow-writes] [--tool NAME]... [--json] URL")
		return 2
	}
	if err := play.CheckURL(fmt.Sprintf("the URL %q", fs.Arg(0)), fs.Arg(0)); err != nil {
		fmt.Fprintf(stderr, "agentready smoke: %v\n", err)
		return 2
	}
	u, _ := url.Parse(fs.Arg(0))
	ctx, stop := interruptible()
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	b, stopBrowser, ok := startBrowser(ctx, "smoke", stderr)
	if !ok {
		return 2
	}
	defer stopBrowser()
	rep, err := smoke.Run(ctx, b, u.String(), opts)
	if errors.Is(err, smoke.ErrNotOffered) {
		fmt.Fprintln(stderr, "agentready smoke: --tool", err)
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "agentready smoke:", err)
		return 1
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(rep)
	} else {
		for _, s := range rep.Skipped {
			fmt.Fprintln(stdout, "skipped  "+s)
		}
		for _, n := range rep.Notes {
			fmt.Fprintln(stdout, "note     "+n.Message)
		}
		for _, f := range rep.Findings {
			in, _ := json.Marshal(f.Case.Input)
			fmt.Fprintf(stdout, "%-17s %s\n                  input %s\n", f.Kind, f.Message, in)
		}
		for _, w := range rep.Writes {
			fmt.Fprintf(stdout, "wrote    %s (%s, %s)\n", strings.Join(w.Requests, ", "), w.Tool, w.Case)
		}
		for _, p := range rep.Popups {
			fmt.Fprintf(stdout, "opened   %s (%s, %s)\n", p.Popup.Describe(), p.Tool, p.Case)
		}
		fmt.Fprintf(stdout, "smoke: %d calls, %d findings%s\n", rep.Calls, len(rep.Findings), whyNoCalls(rep))
	}
	if len(rep.Findings) > 0 {
		return 1
	}
	return 0
}

// whyNoCalls says, after the count, why a smoke run called nothing: it
// checked nothing, and a person must not read that as a clean page.
func whyNoCalls(rep smoke.Report) string {
	switch {
	case rep.Calls > 0:
		return ""
	case rep.Offered == 0:
		return ": nothing was checked, the page offers no tools"
	case len(rep.Skipped) > 0:
		return fmt.Sprintf(": nothing was checked, each of the %d tool(s) was skipped (above); --allow-writes calls the tools not annotated read-only", len(rep.Skipped))
	}
	return ": nothing was checked"
}
