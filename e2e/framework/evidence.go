package framework

import (
	"cmp"
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

	. "github.com/onsi/ginkgo/v2" //nolint:revive
	. "github.com/onsi/gomega"    //nolint:revive

	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/reporters/results"
	"github.com/agentready/agentready/internal/reporters/shard"
	"github.com/agentready/agentready/internal/runs/play"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
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

// runLock is the first process's hold on the run folder, for the whole run.
var runLock *play.Lock

// NewRun names the run on the first process, a shard's with ".k-of-N"
// after it, and claims its folder: a run that another live run is writing
// (the same AGENTREADY_RUN_ID at once) fails before any spec, naming it.
func NewRun() []byte {
	id := shard.RunID(cmp.Or(os.Getenv(EnvRunID), play.NewID()), Shard)
	SetUpRun([]byte(id))
	lock, err := play.LockRun(Run.Dir, "make e2e (Ginkgo)")
	Expect(err).NotTo(HaveOccurred(), "no spec was run")
	if lock.Stale != nil {
		fmt.Printf("run folder %s: the lock left by %s, which has ended, was taken over\n", Run.Dir, lock.Stale)
	}
	runLock = lock
	return []byte(id)
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

// RunScenario plays a scenario against its target and seals its evidence
// bundle (whatever the verdict, and also when the spec is cut short), adds
// its row to the spec's report (results.EntryName), and answers the
// verdict. A harness fault makes the spec an error, not a failure: the app
// was not judged.
func RunScenario(ctx context.Context, sc scenarios.Scenario) judge.Verdict {
	GinkgoHelper()
	return RunScenarioOn(ctx, sc, App)
}

// RunScenarioOn is RunScenario against another app: a test app of the
// suite's own, served by the spec.
func RunScenarioOn(ctx context.Context, sc scenarios.Scenario, app play.App) judge.Verdict {
	GinkgoHelper()
	Expect(Browser).NotTo(BeNil(), "SetUpBrowser was not called in BeforeSuite")
	p, err := play.Start(ctx, sc, play.Options{Browser: Browser, App: app, RunID: Run.ID, Dir: Run.Dir, Commit: Run.Commit})
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(p.Close)
	// The play is sealed once: by the spec, or by the cleanup when the
	// spec was cut short (which may run on another goroutine, while the
	// spec's still waits); its row is reported once.
	var reported sync.Once
	report := func(s play.Sealed, err error) play.Sealed {
		reported.Do(func() { AddReportEntry(results.EntryName, s.Row, ReportEntryVisibilityFailureOrVerbose) })
		Expect(err).NotTo(HaveOccurred(), "the bundle of %s", sc.ID)
		return s
	}
	DeferCleanup(func(ctx SpecContext) {
		report(p.Cut(ctx, "the spec was interrupted or timed out"))
	}, NodeTimeout(2*Bound))
	s := report(p.Finish(ctx))
	if len(s.Row.Faults) > 0 && sc.Meant().Outcome != vocab.Inconclusive {
		// Ginkgo reports a panic as a JUnit <error>: a harness fault, not a verdict.
		panic(fmt.Sprintf("harness fault in %s (bundle %s):\n  %s", sc.ID, p.Dir, strings.Join(s.Row.Faults, "\n  ")))
	}
	return s.Verdict
}

// SummarizeRun writes the run's index.html (totals, then every bundle, the
// ones not as meant first) from the rows the specs reported, prints one
// line of totals and the page's path, and lets the run folder go; the
// table of verdicts is ci/summarize's, at the end of the run. It runs
// once, after all processes.
func SummarizeRun(report Report) {
	defer func() {
		if err := runLock.Release(); err != nil {
			fmt.Println("run folder lock:", err)
		}
	}()
	rows, specs := results.FromReport(report), results.Tally(report)
	if Run.Dir == "" || (len(rows) == 0 && !Shard.On()) {
		return
	}
	fmt.Printf("\nscenarios: %s; run page %s\n", results.Totals(rows), filepath.Join(Run.Dir, results.PageFile))
	page := results.Page{RunID: Run.ID, Rows: rows, Specs: &specs}
	if err := errors.Join(os.MkdirAll(Run.Dir, 0o755), page.Write(Run.Dir)); err != nil {
		fmt.Println("run index:", err)
	}
	fmt.Println(page.Coverage().Line())
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
