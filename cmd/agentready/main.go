// Command agentready serves the reference app and works with evidence.
//
//	agentready catalog [--json] URL
//	agentready init --id ID [--out FILE] URL
//	agentready import inspector TRACE.json --start URL --id ID [--out FILE]
//	agentready import model BUNDLE [--id ID] [--out FILE]
//	agentready evals FILE.json --url URL [--evidence DIR] [--run-id ID]
//	agentready mcp [--url URL] [--scenario FILE] [--runs k] [--evidence DIR] [--page-actions]
//	agentready smoke [--allow-writes] [--json] URL
//	agentready attack embed [--observer-token T] [--evidence DIR] [--run-id ID] URL
//	agentready lint [--format text|json|sarif] [--fail-on error|warning|info] [--rule ID=SETTING]... URL...
//	agentready run [--base-url URL | --embedded] [--scenarios DIR] [--id ID]... [--observer-token T] [--shard k/N]
//	agentready merge [--evidence DIR] [--run-id ID] [--reports DIR] RUN-FOLDER...
//	agentready serve [--app events|plain|lint] [--addr 127.0.0.1:8080] [--variant NAME] [--observer-token T]
//	agentready variants
//	agentready verify [--json] BUNDLE|RUN-FOLDER...
//	agentready check [--json] DIR|FILE...
//	agentready version [--no-browser]
package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/agentready/agentready/fixtures/lintpages"
	"github.com/agentready/agentready/fixtures/plainapp"
	"github.com/agentready/agentready/fixtures/refapp"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: agentready <command> [flags]

commands:
  catalog    list the tools a page offers (every frame), as a table or --json
  init       write a scenario with a page's real catalog pinned, to fill in
  import     turn a Model Context Tool Inspector "Copy trace" (import inspector TRACE.json) or a model's recorded run (import model BUNDLE) into a scenario
  evals      run webmcp-evals eval cases in smoke mode against a page: expected calls replayed, results matched
  mcp        an MCP server over stdio: a real agent acts with the page's WebMCP tools, recorded and judged
  smoke      call each tool with inputs derived from its schema; report where page and schema disagree
  attack     attack your app as a hostile site would (attack embed URL: another origin frames the page and its
             agent calls the tools it is offered), with evidence
  lint       check pages' tools against the lint rules (README "Lint rules"); text, --format json or sarif
  crawl      a whole site from one URL (same-origin links and GET forms, breadth-first, bounded): each page's
             tools and lint findings, and the tools that drift from page to page
  run        run scenario files against your app (--base-url), the app the folder's agentready.yaml starts, or the
             embedded one, with evidence (--shard k/N: a part)
  merge      combine the run folders of a run's N shards into one run folder (bundles, reports, run page)
  serve      run the reference app for a person to click through
  variants   list the deliberate defects the reference app can be started with
  verify     check evidence bundles offline: hashes, then the judge again to the same bytes
  check      load and validate scenario files without a browser: every problem, as file:line:col
  version    the suite's version, its DevTools protocol, and the Chromium it runs

Flags go before or after a command's arguments; agentready <command> -h lists them.
`

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "run":
		return runScenarios(args[1:], stdout, stderr)
	case "merge":
		return mergeCmd(args[1:], stdout, stderr)
	case "catalog":
		return catalogCmd(args[1:], stdout, stderr)
	case "init":
		return initCmd(args[1:], stdout, stderr)
	case "import":
		return importCmd(args[1:], stdout, stderr)
	case "evals":
		return evalsCmd(args[1:], stdout, stderr)
	case "mcp":
		return mcpCmd(args[1:], os.Stdin, stdout, stderr)
	case "smoke":
		return smokeCmd(args[1:], stdout, stderr)
	case "attack":
		return attackCmd(args[1:], stdout, stderr)
	case "lint":
		return lintCmd(args[1:], stdout, stderr)
	case "crawl":
		return crawlCmd(args[1:], stdout, stderr)
	case "serve":
		return serve(args[1:], stdout, stderr)
	case "verify":
		return verify(args[1:], stdout, stderr)
	case "check":
		return checkCmd(args[1:], stdout, stderr)
	case "version", "--version":
		return versionCmd(args[1:], stdout, stderr)
	case "variants":
		fs := newFlags("variants", "agentready variants", stderr)
		if err := parseFlags(fs, args[1:]); err != nil {
			return flagExit(err)
		}
		for _, v := range refapp.Variants() {
			info, _ := v.Info()
			fmt.Fprintf(stdout, "%-24s caught by %-32s %s\n", v, info.CaughtBy, info.Intent)
		}
		return 0
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "agentready: unknown command %q\n\n%s", args[0], usage)
	return 2
}

func serve(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("serve", "agentready serve [--app events|plain|lint] [--addr HOST:PORT] [--variant NAME]", stderr)
	which := fs.String("app", "events", "which app: events (the reference app, AgentReady Events), plain (Little Oven, an app with no observation endpoints) or lint (a known-bad page per lint rule)")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	variant := fs.String("variant", "", "start with this deliberate defect (see agentready variants)")
	token := fs.String("observer-token", "", "turn on the observation endpoints for this bearer token (events only)")
	if err := parseFlags(fs, args); err != nil {
		return flagExit(err)
	}
	var closeApp func() error
	switch *which {
	case "events":
		srv, err := refapp.Listen(*addr, refapp.Options{Variant: refapp.Variant(*variant), ObserverToken: *token})
		if err != nil {
			fmt.Fprintln(stderr, "agentready serve:", err)
			return 1
		}
		closeApp = srv.Close
		fmt.Fprintf(stdout, "AgentReady Events at %s/events (variant %q)\n", srv.URL, *variant)
		if *token != "" {
			fmt.Fprintf(stdout, "observer: %s/__agentready/state and /__agentready/journal with Authorization: Bearer <token>\n", srv.URL)
		}
	case "plain":
		if *token != "" {
			fmt.Fprintln(stderr, "agentready serve: the plain app has no observation endpoints (--observer-token)")
			return 2
		}
		if _, ok := plainapp.Variant(*variant).Info(); *variant != "" && !ok {
			fmt.Fprintf(stderr, "agentready serve: the plain app has no variant %q\n", *variant)
			return 2
		}
		srv, err := plainapp.Listen(*addr, plainapp.Options{Variant: plainapp.Variant(*variant)})
		if err != nil {
			fmt.Fprintln(stderr, "agentready serve:", err)
			return 1
		}
		closeApp = srv.Close
		fmt.Fprintf(stdout, "Little Oven at %s/menu (variant %q)\n", srv.URL, *variant)
	case "lint":
		if *token != "" || *variant != "" {
			fmt.Fprintln(stderr, "agentready serve: the lint pages have no variants and no observation endpoints")
			return 2
		}
		srv, err := lintpages.Listen(*addr)
		if err != nil {
			fmt.Fprintln(stderr, "agentready serve:", err)
			return 1
		}
		closeApp = srv.Close
		fmt.Fprintf(stdout, "lint pages at %s/ (one per rule; %s/clean has no finding)\n", srv.URL, srv.URL)
	default:
		fmt.Fprintf(stderr, "agentready serve: --app %q is not events, plain or lint\n", *which)
		return 2
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	<-stop
	if err := closeApp(); err != nil {
		fmt.Fprintln(stderr, "agentready serve:", err)
		return 1
	}
	return 0
}
