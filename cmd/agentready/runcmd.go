package main

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/agentready/agentready/internal/data/signin"
	"github.com/agentready/agentready/internal/live/webmcp"
	"github.com/agentready/agentready/internal/reporters/results"
	"github.com/agentready/agentready/internal/reporters/shard"
	"github.com/agentready/agentready/internal/runs/play"
	"github.com/agentready/agentready/scenarios"
)

// runScenarios is `agentready run`: a user's scenarios against their app
// (or the suite's own against the embedded app), for people who do not use
// make or Ginkgo. It writes one bundle per scenario and the run's page,
// verifies every bundle, and ends with "run: N passed, N failed". It exits
// 1 when a scenario is not as meant, or a bundle does not verify; 2 on bad
// usage or input, or a run folder another run is writing (nothing is run
// then).
func runScenarios(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("run", "agentready run [--base-url URL | --embedded] [--scenarios DIR] [--id ID]... [--shard k/N]", stderr)
	app := play.AppFromEnv()
	fs.StringVar(&app.BaseURL, "base-url", app.BaseURL, "your app (default $"+play.EnvBaseURL+"); without it, the embedded reference app")
	fs.StringVar(&app.ObserverToken, "observer-token", app.ObserverToken, "the token of your app's observation endpoints, if it has them")
	fs.StringVar(&app.StatePath, "observer-state", app.StatePath, "the state endpoint's path")
	fs.StringVar(&app.JournalPath, "observer-journal", app.JournalPath, "the journal endpoint's path")
	fs.StringVar(&app.Replays, "replays", app.Replays, "on (the default) or off: the attack replays send real writes to your app after each scenario (default $"+play.EnvReplays+")")
	embedded := fs.Bool("embedded", false, "run the scenarios against the suite's embedded reference app (AgentReady Events) when no --base-url or folder app names one: for scenarios written for it")
	dir := fs.String("scenarios", cmp.Or(os.Getenv("AGENTREADY_SCENARIOS"), scenarios.DefaultDir), "a folder of scenario files (read recursively, *.yaml and *.yml)")
	evidence, runID := runFlags(fs)
	var only idList
	fs.Var(&only, "id", "run only this scenario ID or family (repeatable)")
	part := fs.String("shard", os.Getenv(shard.Env), "run only shard k/N of the scenarios (by a stable hash of their IDs), into <run-id>.k-of-N; agentready merge joins the shards")
	runs := fs.Int("runs", 1, "play each scenario k times, each on a fresh page (and a fresh app when one is started per scenario): bundles <id>.run-1 … <id>.run-k, and pass^k and pass@k for each")
	junit := fs.String("junit", "", "also write the run as JUnit XML to this file (with --runs k: a testcase per scenario, pass^k and pass@k its properties)")
	attackSpec := fs.String("attack", "", "plant this attack in every scenario that names none of its own: PATTERN[@PLACE[:TOOL]][,call=TOOL][,url=URL] (place page_text when none) or the attack: key's {pattern, in, tool, call, url}; each scenario's verdict then carries utility under attack and attack success")
	minCoverage := fs.Float64("min-coverage", envFloat("AGENTREADY_MIN_COVERAGE"), "fail the run (exit 1) when a measure of its coverage of the agent surface (tools, writes, forms, looks, cancels; coverage.json) is below this percent (default $AGENTREADY_MIN_COVERAGE, else 0: none)")
	agentF := addAgentFlags(fs)
	signInFlags(fs, func(in signin.Options) { app.SignIn = in })
	app.Settle = webmcp.DefaultSettle
	settleFlags(fs, &app.Settle.Quiet, &app.Settle.Max)
	if err := parseFlags(fs, args); err != nil {
		return flagExit(err)
	}
	if given(fs, "base-url") {
		app.BaseURLFrom = "--base-url"
	}
	if given(fs, "observer-token") {
		app.TokenFrom = "--observer-token"
	}
	if given(fs, "replays") {
		app.ReplaysFrom = "--replays"
	}
	sh, err := shard.Parse(*part)
	if err != nil {
		fmt.Fprintln(stderr, "agentready run: --shard:", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "agentready run: unexpected arguments %v\n", fs.Args())
		return 2
	}
	if *minCoverage < 0 || *minCoverage > 100 {
		fmt.Fprintf(stderr, "agentready run: --min-coverage %g: give a percent from 0 to 100\n", *minCoverage)
		return 2
	}
	if *runs < 1 {
		fmt.Fprintf(stderr, "agentready run: --runs %d: give a number of runs of at least 1\n", *runs)
		return 2
	}
	if err := app.Validate(); err != nil {
		fmt.Fprintln(stderr, "agentready run:", err)
		return 2
	}
	live, err := agentF.live(fs)
	if err != nil {
		fmt.Fprintln(stderr, "agentready run:", err)
		return 2
	}
	if e := agentF.endpoint(fs); e != "" {
		fmt.Fprintln(stdout, e) // before anything is sent to it
	}
	var attack *scenarios.Attack
	if given(fs, "attack") {
		a, err := scenarios.ParseAttack(*attackSpec)
		if err != nil {
			fmt.Fprintf(stderr, "agentready run: --attack %q: %v\n", *attackSpec, err)
			return 2
		}
		attack = &a
	}
	all, err := scenarios.LoadDir(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "agentready run: scenario files do not load; nothing was run:\n%v\n", err)
		return 2
	}
	for _, w := range scenarios.DeprecatedIn(all) {
		fmt.Fprintln(stderr, "agentready run: warning:", w)
	}
	picked := only.pick(all)
	if len(picked) == 0 {
		fmt.Fprintf(stderr, "agentready run: no scenario in %s matches %v\n", *dir, []string(only))
		return 2
	}
	picked = slices.DeleteFunc(picked, func(sc scenarios.Scenario) bool { return !sh.Has(sc.ID) })
	if len(picked) == 0 {
		fmt.Fprintf(stderr, "agentready run: shard %s has none of the %d scenarios in %s: use fewer shards\n", sh, len(only.pick(all)), *dir)
		return 2
	}
	if attack != nil {
		if picked, err = underAttack(picked, *attack, stdout); err != nil {
			fmt.Fprintf(stderr, "agentready run: --attack %q: %v; nothing was run\n", *attackSpec, err)
			return 2
		}
	}
	// Each scenario runs against its nearest folder's app (agentready.yaml,
	// up to the folder given), unless an app already up is named.
	for _, folder := range appFolders(picked) {
		launch, err := play.FolderLaunch(folder)
		if err != nil {
			fmt.Fprintf(stderr, "agentready run: the folder's app does not load; nothing was run:\n%v\n", err)
			return 2
		}
		if launch == nil {
			continue
		}
		if app.User() {
			fmt.Fprintf(stderr, "agentready run: %s is given, so the app of %s is not started: the app already up is tested\n", app.Given(), launch.Spec.From)
			continue
		}
		if app.Launches == nil {
			app.Launches = map[string]*play.Launch{}
		}
		app.Launches[folder] = launch
		defer func() {
			if err := launch.Close(); err != nil {
				fmt.Fprintln(stderr, "agentready run:", err)
			}
		}()
	}
	// A run never tests an app the user did not name: without a base URL or
	// a folder's app, only scenarios meant for the embedded reference app
	// run against it (the suite's own, one that names a variant of it, or
	// any with --embedded).
	if !app.User() && !*embedded && !suiteOwn(*dir) {
		var unnamed []string
		for _, sc := range picked {
			if app.LaunchFor(sc) == nil && sc.Variant == "" {
				unnamed = append(unnamed, sc.ID)
			}
		}
		if len(unnamed) > 0 {
			fmt.Fprintf(stderr, "agentready run: no app to test for %d scenario(s) of %s (%s): give --base-url URL (or $%s), or app: in an %s of their folder; "+
				"--embedded runs them against the suite's own reference app, for scenarios written for it. Nothing was run.\n",
				len(unnamed), *dir, strings.Join(unnamed[:min(3, len(unnamed))], ", ")+map[bool]string{true: ", …"}[len(unnamed) > 3], play.EnvBaseURL, scenarios.FolderFile)
			return 2
		}
	}
	if note := signInOverridden(picked, app.SignIn); note != "" {
		fmt.Fprintln(stderr, "agentready run:", note)
	}
	ctx, stop := interruptible()
	defer stop()
	runDir := filepath.Join(*evidence, shard.RunID(*runID, sh))
	b, end, ok := startRun(ctx, "run", runDir, app.Check, stderr)
	if !ok {
		return 2
	}
	defer end()
	o := play.Options{Browser: b, App: app, RunID: filepath.Base(runDir), Dir: runDir}
	o.Live = live
	var rows []results.Row
	for _, sc := range picked {
		for n := 1; n <= *runs; n++ {
			if *runs > 1 {
				o.Run = n
			}
			row := playOne(ctx, "run", sc, o, stderr)
			rows = append(rows, row)
			line := fmt.Sprintf("%-13s %s", row.Outcome, sc.ID)
			if row.Run > 0 {
				line += fmt.Sprintf(" (run %d of %d)", n, *runs)
			}
			if cause := row.Cause(); cause != "" { // an INCONCLUSIVE says why on its own line
				line += " — " + cause
			}
			fmt.Fprintln(stdout, line)
			if ctx.Err() != nil {
				break
			}
		}
		if ctx.Err() != nil {
			break
		}
	}
	if sh.On() {
		if err := shard.WriteRecord(runDir, sh, shard.KindRun, app.BaseURL, rows); err != nil {
			fmt.Fprintln(stderr, "agentready run: the shard's record:", err)
		}
	}
	failed, verified, cov := closeCovered("run", runDir, o.RunID, rows, *runs, stdout, stderr)
	low := ""
	if *minCoverage > 0 {
		if low = cov.Below(*minCoverage); low != "" {
			fmt.Fprintf(stdout, "coverage below the floor of %g%%: %s (what is not covered, and the scenario that came closest: %s)\n", *minCoverage, low, filepath.Join(runDir, results.CoverageFile))
		}
	}
	if *junit != "" {
		if err := results.WriteRunsJUnit(rows, *runs, *junit); err != nil {
			fmt.Fprintln(stderr, "agentready run: --junit:", err)
			verified = false
		} else {
			fmt.Fprintf(stdout, "junit: %s\n", *junit)
		}
	}
	fmt.Fprintf(stdout, "run: %d passed, %d failed\n", len(rows)-failed, failed)
	if failed > 0 || !verified || low != "" {
		return 1
	}
	return 0
}

// envFloat is a number from the environment, 0 when unset; one that does
// not parse is left to the flag's check (a negative stands in for it).
func envFloat(name string) float64 {
	v := os.Getenv(name)
	if v == "" {
		return 0
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return -1
	}
	return f
}

// signInOverridden says which scenarios' signin keys the command line's
// sign-in (--storage-state, --header) is used in place of: the command
// line wins, and the run's output says so. "" when it replaces none.
func signInOverridden(scs []scenarios.Scenario, cli signin.Options) string {
	var which []string
	for _, sc := range scs {
		if keys := sc.SignIn.Overridden(cli); len(keys) > 0 {
			which = append(which, fmt.Sprintf("%s (%s)", sc.ID, strings.Join(keys, ", ")))
		}
	}
	if len(which) == 0 {
		return ""
	}
	return fmt.Sprintf("the command line's sign-in (--storage-state, --header) is used in place of the signin keys of %d scenario(s): %s",
		len(which), strings.Join(which, "; "))
}

// idList is the repeatable --id flag.
type idList []string

func (l *idList) String() string     { return fmt.Sprint([]string(*l)) }
func (l *idList) Set(s string) error { *l = append(*l, s); return nil }

// pick keeps the scenarios whose labels (ID, family, area) hold one of the
// ids; all of them without ids.
func (l idList) pick(all []scenarios.Scenario) []scenarios.Scenario {
	if len(l) == 0 {
		return all
	}
	return slices.DeleteFunc(slices.Clone(all), func(sc scenarios.Scenario) bool {
		return !slices.ContainsFunc(sc.Labels(), func(label string) bool { return slices.Contains(l, label) })
	})
}

// underAttack plants a (--attack) in the scenarios that name no attack of
// their own; one that does keeps its own, and the terminal says which.
// The bundle's scenario is the one as judged, the attack in it, so verify
// re-judges it under attack. A call it asks for that a scenario's own
// transcript makes is refused: the task's own call would count as the
// attack's success in every run that does the task.
func underAttack(picked []scenarios.Scenario, a scenarios.Attack, stdout io.Writer) ([]scenarios.Scenario, error) {
	out := make([]scenarios.Scenario, len(picked))
	var kept []string
	for i, sc := range picked {
		if sc.Attack != nil {
			kept = append(kept, sc.ID)
		} else if why := sc.TaskCalls(a.Call); a.Call != "" && why != "" {
			return nil, fmt.Errorf("%s (%s)", why, sc.ID)
		} else {
			planted := a
			sc.Attack = &planted
		}
		out[i] = sc
	}
	fmt.Fprintf(stdout, "under attack: %s planted in %d of %d scenario(s)", a.Pattern, len(picked)-len(kept), len(picked))
	if len(kept) > 0 {
		fmt.Fprintf(stdout, "; %s keep their own attack", strings.Join(kept, ", "))
	}
	fmt.Fprintln(stdout)
	return out, nil
}

// appFolders are the folders whose agentready.yaml names the app of some of
// the scenarios, in order.
func appFolders(scs []scenarios.Scenario) []string {
	var out []string
	for _, sc := range scs {
		if sc.AppFolder != "" && !slices.Contains(out, sc.AppFolder) {
			out = append(out, sc.AppFolder)
		}
	}
	return out
}

// suiteOwn tells whether dir is the suite's own scenario folder
// (scenarios/cases of this module) or one below it, whose scenarios are
// written for the embedded app.
func suiteOwn(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for d := abs; ; d = filepath.Dir(d) {
		if filepath.Base(d) == "cases" {
			if _, err := os.Stat(filepath.Join(filepath.Dir(d), "scenario.schema.json")); err == nil {
				mod, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(d)), "go.mod"))
				return err == nil && strings.HasPrefix(string(mod), "module github.com/agentready/agentready\n")
			}
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}
