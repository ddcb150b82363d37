package mutants

import (
	"context"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/kit/hang"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/live/observer"
	bundlepage "github.com/agentready/agentready/internal/reporters/report"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/runner"
	"github.com/agentready/agentready/scenarios/vocab"
)

// A harness fault is never the app's fault, in a real browser: a start page
// that cannot be opened, a browser killed in the middle of a run, a run
// interrupted in the middle (Ctrl-C ends the run's context) each seal an
// INCONCLUSIVE bundle with the fault's code, no check of it failed, and
// verify agrees. CONF-01 attempt 3 is the scenario: cut after the agent,
// its person's POST is missing, which a judge that let a FAIL outrank the
// fault would call request_count_mismatch.

// sealed seals and writes ev as a bundle, verifies it, and answers its
// verdict; it fails the test unless the verdict is INCONCLUSIVE with code,
// has no failed check, and verify reaches it again.
func sealed(t *testing.T, sc scenarios.Scenario, ev *scenarios.Evidence, code vocab.Code) judge.Verdict {
	t.Helper()
	b, err := bundle.Seal(bundle.Meta{RunID: "faults", Start: time.Now().UTC(), SuiteVersion: bundle.SuiteVersion}, sc, ev)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), sc.ID)
	if err := bundlepage.Write(dir, b); err != nil {
		t.Fatal(err)
	}
	v := b.Verdict
	if v.Outcome != vocab.Inconclusive || !slices.Contains(v.Codes, code) {
		t.Errorf("sealed %s %v, want INCONCLUSIVE with %s (faults %q, cut %q)\n%s", v.Outcome, v.Codes, code, ev.Faults, ev.Cut, judge.Explain(v))
	}
	for _, c := range v.Checks {
		if c.Status == vocab.CheckFail {
			t.Errorf("a check failed over a harness fault: %s %s", c.ID, c.Code)
		}
	}
	if rep := bundle.Verify(dir); !rep.OK || rep.Outcome != v.Outcome {
		t.Errorf("verify: %+v", rep)
	}
	return v
}

func TestAPageThatCannotBeOpenedIsNeverSealedFail(t *testing.T) {
	// A loopback port nobody listens on any more.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String()
	l.Close()
	tab, err := env.Browser.NewTab(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	sc := env.Scenarios["CONF-01.attempt-3"]
	ev := runner.Run(t.Context(), sc, runner.Target{BaseURL: dead, Tab: tab, Browser: env.Browser.Version, Bound: Bound})
	if len(ev.Faults) == 0 {
		t.Fatalf("opening %s met no fault: the known-bad case is not the one meant", dead)
	}
	if ev.Cut != "" {
		t.Errorf("a page that did not open cut the run short: %s", ev.Cut)
	}
	sealed(t, sc, ev, vocab.HarnessFault)
}

// cutAtHuman plays CONF-01 attempt 3 against the correct app, and at the
// person's mark does what cut says to the browser or the run.
func cutAtHuman(t *testing.T, b *browser.Browser, ctx context.Context, cut func(*browser.Tab)) (scenarios.Scenario, *scenarios.Evidence) {
	t.Helper()
	app, err := refapp.Start(refapp.Options{ObserverToken: "faults"})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	tab, err := b.NewTab(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	sc := env.Scenarios["CONF-01.attempt-3"]
	target := runner.Target{BaseURL: app.URL, Tab: tab, Observer: observer.New(app.URL, "faults"), Browser: b.Version, Bound: Bound,
		AtMark: func(_ context.Context, p vocab.Phase) func() {
			if p == vocab.PhaseHuman {
				cut(tab)
			}
			return nil
		}}
	return sc, runner.Run(ctx, sc, target)
}

func TestAKilledBrowserIsNeverSealedFail(t *testing.T) {
	// A browser of its own, to kill.
	b, err := browser.Launch(browser.OptionsFromEnv())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	proc := chromedp.FromContext(b.Context()).Browser.Process()
	if proc == nil {
		t.Skip("the browser is attached, not started here: there is no process to kill") // AGENTREADY_BROWSER_URL
	}
	sc, ev := cutAtHuman(t, b, t.Context(), func(*browser.Tab) {
		if err := proc.Kill(); err != nil {
			t.Errorf("kill the browser: %v", err)
		}
		// The connection drops once the process is gone: wait for it,
		// within a bound, so that the run meets a browser that is lost.
		select {
		case <-chromedp.FromContext(b.Context()).Browser.LostConnection:
		case <-time.After(hang.Bound):
			t.Errorf("the connection to the killed browser did not drop within %v", hang.Bound)
		}
	})
	if ev.Cut != vocab.BrowserLost {
		t.Errorf("cut %q, want %s (faults %q)", ev.Cut, vocab.BrowserLost, ev.Faults)
	}
	sealed(t, sc, ev, vocab.BrowserLost)
}

func TestAnInterruptedRunIsNeverSealedFail(t *testing.T) {
	ctx, interrupt := context.WithCancel(t.Context())
	defer interrupt()
	sc, ev := cutAtHuman(t, env.Browser, ctx, func(*browser.Tab) { interrupt() }) // what Ctrl-C does: signal.NotifyContext ends the run's context
	if ev.Cut != vocab.RunInterrupted {
		t.Errorf("cut %q, want %s (faults %q)", ev.Cut, vocab.RunInterrupted, ev.Faults)
	}
	v := sealed(t, sc, ev, vocab.RunInterrupted)
	// Whatever the record lost is said, not judged: the person's POST is
	// missing, and that count is inconclusive with the cut's code.
	k := slices.IndexFunc(v.Checks, func(c judge.Check) bool { return c.ID == "requests[1] POST /api/registrations (human).network" })
	if k < 0 || v.Checks[k].Status != vocab.CheckInconclusive || v.Checks[k].Code != vocab.RunInterrupted {
		t.Errorf("the person's count: %+v", v.Checks[max(k, 0)])
	}
}

// A renderer that crashed mid-run (here Page.crash, as an out-of-memory
// page or a killed renderer process would) is named in the verdict: the
// run stops waiting on the dead page at once, and is sealed INCONCLUSIVE
// with renderer_crashed and the crash among its faults, never FAIL, though
// the person's POST the judge counts is missing.
func TestACrashedRendererIsNamedInTheVerdict(t *testing.T) {
	start := time.Now()
	sc, ev := cutAtHuman(t, env.Browser, t.Context(), func(tab *browser.Tab) {
		go func() {
			// Page.crash does not answer: the renderer is gone.
			ctx, cancel := context.WithTimeout(tab.Ctx, 5*time.Second)
			defer cancel()
			_, _ = chromedp.Call(ctx, page.Crash, cdp.Empty{})
		}()
		select {
		case <-tab.Crashed():
		case <-time.After(hang.Bound):
			t.Errorf("no Inspector.targetCrashed within %v of Page.crash", hang.Bound)
		}
	})
	if ev.Cut != vocab.RendererCrashed || !slices.ContainsFunc(ev.Faults, func(f scenarios.Fault) bool { return strings.Contains(f.Text, "renderer crashed at") }) {
		t.Errorf("cut %q, want %s and the crash among the faults (faults %q)", ev.Cut, vocab.RendererCrashed, ev.Faults)
	}
	v := sealed(t, sc, ev, vocab.RendererCrashed)
	k := slices.IndexFunc(v.Checks, func(c judge.Check) bool { return c.ID == "harness.cut" })
	if k < 0 || v.Checks[k].Code != vocab.RendererCrashed || !strings.Contains(v.Checks[k].Message, "renderer crashed") {
		t.Errorf("the verdict does not name the crash: %s", judge.Explain(v))
	}
	// The dead page is not waited on to each step's bound.
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("a run on a crashed page took %v", took.Round(time.Millisecond))
	}
}
