package framework

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"html/template"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2" //nolint:revive
	. "github.com/onsi/gomega"    //nolint:revive

	"github.com/agentready/agentready/browser"
	"github.com/agentready/agentready/bundle"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/runner"
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

// NewRunID makes the run's id on the first process.
func NewRunID() []byte {
	if id := os.Getenv(EnvRunID); id != "" {
		return []byte(id)
	}
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return []byte(time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b))
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

// Report entry names that tie a spec to its bundle.
const (
	EntryBundle  = "bundle"
	EntryOutcome = "outcome"
)

// RunScenario plays a scenario against its target, seals and writes its
// evidence bundle (whatever the verdict, and also when the spec is cut
// short), and answers the verdict. A harness fault makes the spec an error,
// not a failure: the app was not judged.
func RunScenario(ctx context.Context, sc scenarios.Scenario) judge.Verdict {
	GinkgoHelper()
	target := ScenarioTarget(sc.Variant)
	meta := bundle.Meta{RunID: Run.ID, Start: time.Now().UTC(), SuiteVersion: bundle.SuiteVersion, SuiteCommit: Run.Commit,
		Chromium: Browser.Version.Product, Protocol: Browser.Version.Protocol, Variant: sc.Variant, BaseURL: target.BaseURL}
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

// writeBundle seals and writes one bundle, with one screenshot of the page
// as the run left it (kept as failure.png too when the verdict is not the
// one the scenario means to reach).
func writeBundle(ctx context.Context, dir string, meta bundle.Meta, sc scenarios.Scenario, ev *scenarios.Evidence, tab *browser.Tab) judge.Verdict {
	GinkgoHelper()
	meta.End = time.Now().UTC()
	b, err := bundle.Seal(meta, sc, ev)
	Expect(err).NotTo(HaveOccurred())
	b.Screenshot = screenshot(ctx, tab)
	if len(ev.Faults) > 0 || !judge.AsExpected(sc, b.Verdict) {
		b.Failure = b.Screenshot
	}
	Expect(bundle.Write(dir, b)).To(Succeed())
	AddReportEntry(EntryBundle, dir)
	AddReportEntry(EntryOutcome, string(b.Verdict.Outcome))
	AddReportEntry("verdict", judge.Explain(b.Verdict), ReportEntryVisibilityFailureOrVerbose)
	return b.Verdict
}

func screenshot(ctx context.Context, tab *browser.Tab) []byte {
	// A spec cut short still gets its picture: the cleanup's own bound.
	ctx, cancel := tab.Bind(context.WithoutCancel(ctx))
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, Bound)
	defer cancelBound()
	png, err := browser.Screenshot(ctx)
	if err != nil {
		return nil
	}
	return png
}

// SummarizeRun prints PASS / FAIL / INCONCLUSIVE per scenario and writes the
// run's index.html linking every bundle. It runs once, after all processes.
func SummarizeRun(report Report) {
	type row struct{ ID, Outcome, Bundle, Spec string }
	var rows []row
	for _, s := range report.SpecReports {
		var r row
		for _, e := range s.ReportEntries {
			switch e.Name {
			case EntryBundle:
				r.Bundle = e.StringRepresentation()
			case EntryOutcome:
				r.Outcome = e.StringRepresentation()
			}
		}
		if r.Bundle == "" {
			continue
		}
		r.ID, r.Spec = filepath.Base(r.Bundle), s.State.String()
		rows = append(rows, r)
	}
	if len(rows) == 0 || Run.Dir == "" {
		return
	}
	slices.SortFunc(rows, func(a, b row) int { return strings.Compare(a.ID, b.ID) })
	fmt.Printf("\nScenario verdicts (evidence in %s):\n", Run.Dir)
	for _, r := range rows {
		fmt.Printf("  %-13s %-28s spec %s\n", r.Outcome, r.ID, r.Spec)
	}
	page := template.Must(template.New("run").Parse(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>agentready run {{.ID}}</title><style>body{font:14px system-ui,sans-serif;margin:1.5rem}td,th{border:1px solid #dde;padding:.3rem .5rem;text-align:left}table{border-collapse:collapse}
.PASS{color:#0a6b2b}.FAIL{color:#b00020}.INCONCLUSIVE{color:#8a5a00}</style></head><body>
<h1>agentready run {{.ID}}</h1><table><tr><th>scenario</th><th>verdict</th><th>spec</th></tr>
{{range .Rows}}<tr><td><a href="{{.ID}}/index.html">{{.ID}}</a></td><td class="{{.Outcome}}">{{.Outcome}}</td><td>{{.Spec}}</td></tr>
{{end}}</table></body></html>
`))
	f, err := os.Create(filepath.Join(Run.Dir, "index.html"))
	if err != nil {
		fmt.Println("run index:", err)
		return
	}
	defer f.Close()
	_ = page.Execute(f, struct {
		ID   string
		Rows []row
	}{Run.ID, rows})
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
