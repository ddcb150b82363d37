package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/agentready/agentready/internal/evidence/bundle"
)

// versionCmd prints what a bug report needs: the suite's version and
// commit, the DevTools protocol the suite was built against, and the
// Chromium it would run (started as every command starts it, so that the
// version is the one that runs); --no-browser leaves the browser out. It
// exits 1 when the browser cannot be started.
func versionCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("version", "agentready version [--no-browser]", stderr)
	noBrowser := fs.Bool("no-browser", false, "print the suite's versions only, without starting Chromium")
	if err := parseFlags(fs, args); err != nil {
		return flagExit(err)
	}
	fmt.Fprintf(stdout, "agentready %s %s (bundle format %s)\n", bundle.SuiteVersion, bundle.SuiteCommit(), bundle.Format)
	fmt.Fprintf(stdout, "protocol: github.com/chromedp/cdproto %s\n", moduleVersion("github.com/chromedp/cdproto"))
	if *noBrowser {
		return 0
	}
	ctx, stop := interruptible()
	defer stop()
	b, end, ok := startBrowser(ctx, "version", stderr)
	if !ok {
		fmt.Fprintln(stdout, "chromium: not started (see above)")
		return 1
	}
	defer end()
	fmt.Fprintf(stdout, "chromium: %s, DevTools protocol %s\n", b.Version.Product, b.Version.Protocol)
	return 0
}

// moduleVersion is the version of a module the binary was built with.
func moduleVersion(path string) string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	for _, m := range info.Deps {
		if m.Path == path {
			if m.Replace != nil {
				return m.Replace.Version
			}
			return m.Version
		}
	}
	return "(unknown)"
}
