// Package play plays a scenario against its app in the suite's browser and
// seals the record into its evidence bundle, the one way every runner of
// scenarios does it: `agentready run`, evals and mcp, the Ginkgo suite
// (e2e/framework) and the benches. It owns where a scenario's app and tab
// come from (the embedded reference app started afresh, or a user's app at
// a base URL), the bundle's metadata, the sealing of a play once (also of
// one cut short), and the lock on a run folder. The row it answers is
// package results' model of a run.
//
// The words: to play is to drive the page and record evidence
// (scenarios/runner); to seal is to redact and judge the record into a
// bundle (bundle.Seal); package play does both, then writes the bundle.
// See docs/glossary.md.
package play

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/kit/laps"
	"github.com/agentready/agentready/internal/live/appserver"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/reporters/report"
	"github.com/agentready/agentready/internal/reporters/results"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/runner"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Options say where a run's scenarios are played and their bundles go.
type Options struct {
	Browser *browser.Browser
	App     App
	RunID   string
	Dir     string // the run folder: a scenario's bundle is Dir/<its ID>
	Commit  string // the suite's commit; "" for the one the binary was built from
	// Agent, when set, is a live agent acting in place of the scenario's
	// transcript (runner.Target.Agent).
	Agent func(ctx context.Context, act func(context.Context, scenarios.Call) record.Result) *string
	// Judged, when set, is the scenario as judged from what was recorded
	// (a live agent's transcript is what it did); nil: as given.
	Judged func(sc scenarios.Scenario, ev *scenarios.Evidence) scenarios.Scenario
	// Live, when set, makes each play's live agent on its tab (a model:
	// package agentmodel), in place of Agent and Judged.
	Live func(sc scenarios.Scenario, tab *browser.Tab) Live
	// Run is the play's number when each scenario is played more than
	// once (agentready run --runs k); its bundle is then
	// Dir/<ID>.run-<Run> (results.RunName) and its row says the run.
	Run int
}

// bundleDir is the folder of sc's bundle.
func (o Options) bundleDir(sc scenarios.Scenario) string {
	if o.Run > 0 {
		return filepath.Join(o.Dir, results.RunName(sc.ID, o.Run))
	}
	return filepath.Join(o.Dir, sc.ID)
}

// Live is the live agent of one play: Agent and Judged as in Options.
type Live struct {
	Agent  func(ctx context.Context, act func(context.Context, scenarios.Call) record.Result) *string
	Judged func(sc scenarios.Scenario, ev *scenarios.Evidence) scenarios.Scenario
}

// Play is one scenario played against its target and sealed into its
// bundle once: at its end, or where it was cut short.
type Play struct {
	Scenario scenarios.Scenario
	Target   runner.Target
	Meta     bundle.Meta
	Dir      string // the bundle's folder

	o     Options
	film  *Film
	done  func()
	start time.Time
	// server is the app started by the suite (agentready.yaml), nil for
	// others; outMark is where its output stood when the play began (0 for
	// an app started for this scenario alone: its start is the scenario's).
	server *appserver.Server
	// appEndNoted: the runner placed the app's end among the faults.
	appEndNoted atomic.Bool
	outMark     int64
	once        sync.Once
	sealed      Sealed
	err         error
}

// Sealed is a play sealed into its bundle.
type Sealed struct {
	Row     results.Row
	Verdict judge.Verdict
	// Writing is the time sealing and writing the bundle took, the wait
	// for the page's screenshot left out (taking it is recording).
	Writing time.Duration
}

// Start opens a scenario's target, its app and a fresh tab (filmed at the
// report's marks), and assembles its bundle's metadata. Close ends them.
func Start(ctx context.Context, sc scenarios.Scenario, o Options) (*Play, error) {
	start := time.Now()
	t, done, server, err := TargetOf(ctx, o.Browser, o.App, sc)
	if err != nil {
		return nil, err
	}
	laps.Mark(ctx, "the app and a tab")
	film := NewFilm(t.Tab)
	t.AtMark, t.Agent = film.AtMark, o.Agent
	if o.Live != nil {
		live := o.Live(sc, t.Tab)
		t.Agent, o.Agent, o.Judged = live.Agent, live.Agent, live.Judged
	}
	p := &Play{Scenario: sc, Meta: Meta(o.Browser, o.RunID, o.Commit, sc, t), Dir: o.bundleDir(sc),
		o: o, film: film, done: done, start: start, server: server}
	if server != nil {
		t.AppEnded = func() (bool, string) {
			ended, words := p.appEnded()
			if ended {
				p.appEndNoted.Store(true)
			}
			return ended, words
		}
	}
	p.Target = t
	if server != nil && o.App.LaunchFor(sc).Shares(server) {
		p.outMark = server.Output().Mark()
	}
	return p, nil
}

// Meta is the metadata of a scenario's bundle: the run, the suite, the
// browser and the target it is played against; it starts now.
func Meta(b *browser.Browser, runID, commit string, sc scenarios.Scenario, t runner.Target) bundle.Meta {
	return bundle.Meta{RunID: runID, Start: time.Now().UTC(), SuiteVersion: bundle.SuiteVersion, SuiteCommit: cmp.Or(commit, bundle.SuiteCommit()),
		Chromium: b.Version.Product, Protocol: b.Version.Protocol, Features: b.Version.Features, WebMCP: b.Version.WebMCP, Variant: sc.Variant, BaseURL: t.BaseURL}
}

// inputShapes answers the shapes the page API's executeTool took the
// run's inputs in ("object", "json-string", both comma-joined in the order
// met), "" when no call went through the page API.
func inputShapes(calls []scenarios.CallRecord) string {
	var shapes []string
	for _, c := range calls {
		if s := c.Result.InputShape; s != "" && !slices.Contains(shapes, s) {
			shapes = append(shapes, s)
		}
	}
	return strings.Join(shapes, ",")
}

// Finish plays the scenario to its end and seals the record.
func (p *Play) Finish(ctx context.Context) (Sealed, error) {
	return p.Seal(ctx, runner.Run(ctx, p.Scenario, p.Target))
}

// Cut seals what the tab holds of a play cut short (a timeout or an
// interrupt: runner.Partial), unless the play was sealed already.
func (p *Play) Cut(ctx context.Context, why string) (Sealed, error) {
	// What the tab holds is read only when the play is still unsealed.
	p.once.Do(func() { p.sealed, p.err = p.seal(ctx, runner.Partial(p.Scenario, p.Target, why)) })
	return p.sealed, p.err
}

// Seal seals ev into the play's bundle and writes it, with one screenshot
// of the page as the play left it (kept as failure.png too when the play
// is not as meant or had a harness fault) and the film's pictures. A play
// is sealed once: later calls, from Finish or Cut, answer the first's
// result. The screenshot gets a short bound of its own, so that a play cut
// short still shows its page.
func (p *Play) Seal(ctx context.Context, ev *scenarios.Evidence) (Sealed, error) {
	p.once.Do(func() { p.sealed, p.err = p.seal(ctx, ev) })
	return p.sealed, p.err
}

// appEnded tells whether the app the play started has ended, in the words
// of a fault.
func (p *Play) appEnded() (bool, string) {
	exited, how := p.server.Exited()
	if !exited {
		return false, ""
	}
	return true, fmt.Sprintf("the app `%s` ended (%s) during the scenario; its last lines: %s",
		p.server.Line, how, strings.Join(p.server.Output().LastLines(3), " | "))
}

func (p *Play) seal(ctx context.Context, ev *scenarios.Evidence) (Sealed, error) {
	sc := p.Scenario
	if p.server != nil {
		if out := strings.TrimRight(string(p.server.Output().Since(p.outMark)), "\n"); out != "" {
			ev.AppOutput = strings.Split(out, "\n")
		}
		if ended, words := p.appEnded(); ended && !p.appEndNoted.Load() {
			// What the page met after the app ended is the harness's
			// problem to say, not the app's verdict. The runner placed it
			// when it saw it at a mark; a run cut short did not.
			ev.Faults = append(ev.Faults, scenarios.WholeFault(words))
		}
	}
	if p.o.Judged != nil {
		sc = p.o.Judged(sc, ev)
	}
	meta := p.Meta
	meta.End = time.Now().UTC()
	meta.ExecuteToolInput = inputShapes(ev.Calls)
	// Chromium draws the screenshot while the record is sealed (the page is
	// left alone meanwhile): most of a screenshot's time is waiting for a frame.
	// A run that left the page took its screenshot before it did: the tab
	// now shows the document it went to, not the app's page.
	shot := make(chan []byte, 1)
	if last := p.film.LastLook(); ev.Leave != nil && len(last) > 0 {
		shot <- last
	} else {
		go func() { shot <- screenshot(ctx, p.Target.Tab) }()
	}
	sealing := time.Now()
	b, err := bundle.Seal(meta, sc, ev)
	writing := time.Since(sealing)
	laps.Mark(ctx, "seal (redact, judge)")
	if err != nil {
		<-shot
		return Sealed{Row: p.unsealed(sc, err)}, err
	}
	b.Screenshot = <-shot
	laps.Mark(ctx, "wait for pictures")
	b.Frames = p.film.Frames()
	if len(ev.Faults) > 0 || !judge.AsMeant(sc, b.Verdict) {
		b.Failure = b.Screenshot
	}
	writeStart := time.Now()
	if err := report.Write(p.Dir, b); err != nil {
		return Sealed{Row: p.unsealed(sc, err), Verdict: b.Verdict}, err
	}
	writing += time.Since(writeStart)
	laps.Mark(ctx, "write the bundle")
	row := results.Of(p.Dir, sc, b, time.Since(p.start))
	row.Run = p.o.Run
	return Sealed{Row: row, Verdict: b.Verdict, Writing: writing}, nil
}

// unsealed is the row of the play when its bundle was not sealed or written.
func (p *Play) unsealed(sc scenarios.Scenario, err error) results.Row {
	row := results.Unsealed(p.Dir, sc, err)
	row.Run = p.o.Run
	return row
}

// Close ends the play's tab and the app Start started.
func (p *Play) Close() { p.done() }

// Scenario plays sc against a fresh target to its end and seals its
// bundle: Start, Finish and Close. A scenario whose target cannot be
// started has a row that says why.
func Scenario(ctx context.Context, sc scenarios.Scenario, o Options) (Sealed, error) {
	p, err := Start(ctx, sc, o)
	if err != nil {
		s := Sealed{Row: results.Unsealed(o.bundleDir(sc), sc, err)}
		s.Row.Run = o.Run
		return s, err
	}
	defer p.Close()
	return p.Finish(ctx)
}

func screenshot(ctx context.Context, tab *browser.Tab) []byte {
	ctx, cancel := tab.Bind(context.WithoutCancel(ctx))
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, vocab.Bound)
	defer cancelBound()
	png, err := browser.Screenshot(ctx)
	if err != nil {
		return nil
	}
	return png
}
