package framework

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2" //nolint:revive
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega" //nolint:revive

	"github.com/agentready/agentready/browser"
	"github.com/agentready/agentready/bundle"
	"github.com/agentready/agentready/runs"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/runner"
	"github.com/agentready/agentready/shard"
	"github.com/agentready/agentready/vocab"
)

// EnvEvidence names the folder bundles go to; each run gets <folder>/<run-id>/.
const EnvEvidence = "AGENTREADY_EVIDENCE"

// EnvRunID names the run (default: the time and a random suffix), so that a
// script knows where its bundles are.
const EnvRunID = "AGENTREADY_RUN_ID"

// Run is this run's identity and evidence folder, the same in every parallel
// process (SynchronizedBeforeSuite hands it out).
var Run struct {
	ID     string
	Dir    string
	Commit string
}

// NewRunID makes the run's id on the first process; a shard's is the
// run's with ".k-of-N" after it.
func NewRunID() []byte {
	if id := os.Getenv(EnvRunID); id != "" {
		return []byte(shard.RunID(id, Shard))
	}
	return []byte(shard.RunID(runs.NewID(), Shard))
}

// SetUpRun takes the run id in every process.
func SetUpRun(id []byte) {
	root := os.Getenv(EnvEvidence)
	if root == "" {
		root = "evidence"
	}
	abs := root
	if !filepath.IsAbs(root) {
		// Relative to the module's root, where make and people run from,
		// not to e2e/, where the test binary runs.
		abs = filepath.Join(moduleRoot(), root)
	}
	Run.ID, Run.Dir, Run.Commit = string(id), filepath.Join(abs, string(id)), suiteCommit()
}

// Report entry names that tie a spec to its bundle. They are in the JSON
// and JUnit reports (ci/summarize reads them: its table, the JUnit errors
// of INCONCLUSIVE verdicts, the CI summary); a passing spec prints none of
// them, a failed one its bundle and verdict.
const (
	EntryBundle   = shard.EntryBundle
	EntryOutcome  = "outcome"
	EntryExpected = "as-meant"
	EntryCodes    = "codes"   // the verdict's codes, space-separated
	EntryMeant    = "meant"   // the verdict the scenario means to reach: PASS, or its known answer and codes
	EntrySeconds  = "seconds" // the scenario's time, recording and bundle included
	EntryDeparts  = "departs" // the link a FAIL first departs at (the verdict's diagnosis); "" for other verdicts
)

// RunScenario plays a scenario against its target, seals and writes its
// evidence bundle (whatever the verdict, and also when the spec is cut
// short), and answers the verdict. A harness fault makes the spec an error,
// not a failure: the app was not judged.
func RunScenario(ctx context.Context, sc scenarios.Scenario) judge.Verdict {
	GinkgoHelper()
	return RunScenarioOn(ctx, sc, App)
}

// RunScenarioOn is RunScenario against another app: a test app of the
// suite's own, served by the spec.
func RunScenarioOn(ctx context.Context, sc scenarios.Scenario, app runs.App) judge.Verdict {
	GinkgoHelper()
	Expect(Browser).NotTo(BeNil(), "SetUpBrowser was not called in BeforeSuite")
	target, done, err := runs.Target(ctx, Browser, app, sc.Variant)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(done)
	meta := bundle.Meta{RunID: Run.ID, Start: time.Now().UTC(), SuiteVersion: bundle.SuiteVersion, SuiteCommit: Run.Commit,
		Chromium: Browser.Version.Product, Protocol: Browser.Version.Protocol, Features: Browser.Version.Features, WebMCP: Browser.Version.WebMCP, Variant: sc.Variant, BaseURL: target.BaseURL}
	dir := filepath.Join(Run.Dir, sc.ID)
	// Written once: by the spec, or by the cleanup when the spec was cut
	// short. sync.Once also orders the two, which may run on different
	// goroutines when Ginkgo interrupts a spec.
	var once sync.Once
	var verdict judge.Verdict
	write := func(ctx context.Context, ev *scenarios.Evidence) {
		once.Do(func() { verdict = writeBundle(ctx, dir, meta, sc, ev, target.Tab) })
	}
	DeferCleanup(func(ctx SpecContext) {
		write(ctx, runner.Partial(sc, target, "the spec was interrupted or timed out"))
	}, NodeTimeout(2*Bound))
	ev := runner.Run(ctx, sc, target)
	write(ctx, ev)
	if len(ev.Faults) > 0 && (sc.Known == nil || sc.Known.Outcome != vocab.Inconclusive) {
		// Ginkgo reports a panic as a JUnit <error>: a harness fault, not a verdict.
		panic(fmt.Sprintf("harness fault in %s (bundle %s):\n  %s", sc.ID, dir, strings.Join(ev.Faults, "\n  ")))
	}
	return verdict
}

// writeBundle seals and writes one bundle and reports it to Ginkgo.
func writeBundle(ctx context.Context, dir string, meta bundle.Meta, sc scenarios.Scenario, ev *scenarios.Evidence, tab *browser.Tab) judge.Verdict {
	GinkgoHelper()
	v, err := runs.Record(ctx, dir, meta, sc, ev, tab)
	Expect(err).NotTo(HaveOccurred())
	codes := make([]string, len(v.Codes))
	for i, c := range v.Codes {
		codes[i] = string(c)
	}
	AddReportEntry(EntryBundle, dir, ReportEntryVisibilityFailureOrVerbose)
	AddReportEntry(EntryOutcome, string(v.Outcome), ReportEntryVisibilityNever)
	AddReportEntry(EntryExpected, judge.AsExpected(sc, v), ReportEntryVisibilityNever)
	AddReportEntry(EntryCodes, strings.Join(codes, " "), ReportEntryVisibilityNever)
	AddReportEntry(EntryMeant, judge.MeantVerdict(sc), ReportEntryVisibilityNever)
	AddReportEntry(EntrySeconds, time.Since(meta.Start).Seconds(), ReportEntryVisibilityNever)
	departs := ""
	if v.Diagnosis != nil {
		departs = string(v.Diagnosis.Link)
	}
	AddReportEntry(EntryDeparts, departs, ReportEntryVisibilityNever)
	AddReportEntry("verdict", judge.Explain(v), ReportEntryVisibilityFailureOrVerbose)
	return v
}

// SummarizeRun writes the run's index.html (totals, then every bundle,
// failures first) and prints one line of totals and the page's path; the
// table of verdicts is ci/summarize's, at the end of the run. It runs once,
// after all processes.
func SummarizeRun(report Report) {
	var rows []runs.Row
	specs := runs.Specs{}
	for _, s := range report.SpecReports {
		if s.LeafNodeType == types.NodeTypeIt {
			switch {
			case s.State == types.SpecStatePassed:
				specs.Passed++
			case s.State.Is(types.SpecStateSkipped | types.SpecStatePending):
				specs.Skipped++
			default:
				specs.Failed++
			}
		}
		var r runs.Row
		bundleDir := ""
		for _, e := range s.ReportEntries {
			switch e.Name {
			case EntryBundle:
				bundleDir = e.StringRepresentation()
			case EntryOutcome:
				r.Outcome = vocab.Outcome(e.StringRepresentation())
			case EntryExpected:
				r.Expected = e.StringRepresentation() == "true"
			}
		}
		if bundleDir == "" {
			continue
		}
		r.ID, r.Spec = filepath.Base(bundleDir), s.State.String()
		rows = append(rows, r)
	}
	if Run.Dir == "" || (len(rows) == 0 && !Shard.On()) {
		return
	}
	x := runs.Index{RunID: Run.ID, Rows: rows, Specs: &specs}
	fmt.Printf("\nscenarios: %d PASS, %d FAIL (%d as expected), %d INCONCLUSIVE (%d as expected); %d not as meant; run page %s\n",
		x.Count(vocab.Pass), x.Count(vocab.Fail), x.Meant(vocab.Fail), x.Count(vocab.Inconclusive), x.Meant(vocab.Inconclusive), len(x.Bad()), filepath.Join(Run.Dir, "index.html"))
	if err := errors.Join(os.MkdirAll(Run.Dir, 0o755), x.Write(Run.Dir)); err != nil {
		fmt.Println("run index:", err)
	}
	writeShardRecord(rows)
}

// moduleRoot is the nearest folder up from here that holds go.mod.
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return "."
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// EnvScenarios names a folder of scenario files to run instead of the
// suite's own.
const EnvScenarios = "AGENTREADY_SCENARIOS"

// scenarioLoadErrs keeps, per folder, the load errors of the scenario files
// read while the spec tree was built, for RequireScenarios.
var scenarioLoadErrs = map[string]error{}

// LoadScenarios reads the run's scenario files (ScenarioDir) when the spec
// tree is built, answers those that loaded and the files that did not, and
// keeps any load error for RequireScenarios.
func LoadScenarios() ([]scenarios.Scenario, []*scenarios.FileError) {
	all, broken := LoadScenarioDir(ScenarioDir())
	// Another shard's scenarios are left out of the tree (see Shard).
	broken = slices.DeleteFunc(broken, func(fe *scenarios.FileError) bool { return !Shard.Has(fe.Path) })
	return slices.DeleteFunc(all, func(sc scenarios.Scenario) bool { return !Shard.Has(sc.ID) }), broken
}

// LoadScenarioDir is LoadScenarios for another folder, the scenarios of a
// test app of the suite's own, whose specs are sharded as the suite's own
// are (by their text): all of them are answered.
func LoadScenarioDir(dir string) ([]scenarios.Scenario, []*scenarios.FileError) {
	all, err := scenarios.LoadDir(dir)
	if err != nil {
		scenarioLoadErrs[dir] = err
	}
	return all, scenarios.FileErrors(err)
}

// RequireScenarios fails the run, before any spec, when a scenario file did
// not load: it names the file, the line and the key. A failing spec of its
// own would be dropped by a label filter, and the broken scenario would
// silently not run.
func RequireScenarios() {
	var msgs []string
	for _, dir := range slices.Sorted(maps.Keys(scenarioLoadErrs)) {
		msgs = append(msgs, fmt.Sprintf("scenario files in %s do not load:\n%v", dir, scenarioLoadErrs[dir]))
	}
	if len(msgs) > 0 {
		Fail(strings.Join(msgs, "\n") + "\nno spec was run")
	}
}

// ScenarioDir is AGENTREADY_SCENARIOS, or the suite's own scenarios; a
// relative path is taken from the module's root, like AGENTREADY_EVIDENCE.
func ScenarioDir() string {
	dir := os.Getenv(EnvScenarios)
	if dir == "" {
		dir = scenarios.DefaultDir
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(moduleRoot(), dir)
	}
	return dir
}

// suiteCommit is the commit the suite runs from: the binary's own stamp, or
// (test binaries carry none) git asked about the module's own checkout,
// never about whatever folder the run was started in.
func suiteCommit() string {
	if c := bundle.SuiteCommit(); c != "" {
		return c
	}
	root := moduleRoot()
	out, err := exec.Command("git", "-C", root, "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return ""
	}
	c := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
		c += "-dirty"
	}
	return c
}
