// Package runs plays many scenarios as one run, without a test framework:
// where each scenario's app and tab come from (the embedded reference app,
// or a user's app at a base URL), its bundle, and the run's index page. The
// Ginkgo suite (e2e/framework) and the plain `agentready run` command both
// stand on it, so a user's scenarios are run the same way by either.
package runs

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/agentready/agentready/browser"
	"github.com/agentready/agentready/bundle"
	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/observer"
	"github.com/agentready/agentready/report"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/runner"
	"github.com/agentready/agentready/vocab"
)

// Environment variables for pointing the suite at a user's own app.
const (
	EnvBaseURL       = "AGENTREADY_BASE_URL"       // the app to test instead of the embedded reference app
	EnvObserverToken = "AGENTREADY_OBSERVER_TOKEN" // its observer token, when it serves the observation endpoints
	EnvStatePath     = "AGENTREADY_OBSERVER_STATE" // the state endpoint's path (default /__agentready/state)
	EnvJournalPath   = "AGENTREADY_OBSERVER_JOURNAL"
)

// App says which app scenarios run against.
type App struct {
	BaseURL       string // a user's app; "" for the embedded reference app
	ObserverToken string // the user's app serves observation endpoints with this token
	StatePath     string
	JournalPath   string
}

// AppFromEnv reads the AGENTREADY_* variables.
func AppFromEnv() App {
	return App{BaseURL: strings.TrimRight(os.Getenv(EnvBaseURL), "/"), ObserverToken: os.Getenv(EnvObserverToken),
		StatePath: os.Getenv(EnvStatePath), JournalPath: os.Getenv(EnvJournalPath)}
}

// User tells whether scenarios run against a user's own app.
func (a App) User() bool { return a.BaseURL != "" }

// Observer is the client of the user's observation endpoints, or nil.
func (a App) Observer() *observer.Client {
	if !a.User() || a.ObserverToken == "" {
		return nil
	}
	c := observer.New(a.BaseURL, a.ObserverToken)
	c.StatePath, c.JournalPath = cmp.Or(a.StatePath, observer.StatePath), cmp.Or(a.JournalPath, observer.JournalPath)
	return c
}

// Check makes sure a user's app answers at all and, when an observer token
// is given, serves its observation endpoints: one clear error at the start
// instead of a fault in every scenario.
func (a App) Check(ctx context.Context) error {
	if !a.User() {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 2*vocab.Bound)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.BaseURL+"/", nil)
	if err != nil {
		return fmt.Errorf("%s=%s is not a URL: %w", EnvBaseURL, a.BaseURL, err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("%s=%s does not answer: %w", EnvBaseURL, a.BaseURL, err)
	}
	res.Body.Close()
	if obs := a.Observer(); obs != nil {
		if err := obs.Check(ctx); err != nil {
			return fmt.Errorf("%s is set: %w", EnvObserverToken, err)
		}
	}
	return nil
}

// Target gives a scenario its app and a fresh tab: the embedded reference
// app started with the scenario's variant, or the user's app. done ends
// what Target started.
func Target(ctx context.Context, b *browser.Browser, a App, variant string) (t runner.Target, done func(), err error) {
	if a.User() && variant != "" {
		return runner.Target{}, nil, fmt.Errorf("this scenario needs the reference app's variant %q; it cannot run against %s=%s", variant, EnvBaseURL, a.BaseURL)
	}
	tab, err := b.NewTab(ctx)
	if err != nil {
		return runner.Target{}, nil, err
	}
	film := NewFilm(tab)
	films.Store(tab, film)
	t = runner.Target{BaseURL: a.BaseURL, Tab: tab, Observer: a.Observer(), Browser: b.Version, Variant: variant, Bound: vocab.Bound, AtMark: film.AtMark}
	closeTab := func() { films.Delete(tab); tab.Close() }
	if a.User() {
		return t, closeTab, nil
	}
	token := Token()
	app, err := refapp.Start(refapp.Options{Variant: refapp.Variant(variant), ObserverToken: token})
	if err != nil {
		closeTab()
		return runner.Target{}, nil, err
	}
	t.BaseURL, t.Observer = app.URL, observer.New(app.URL, token)
	return t, func() { closeTab(); app.Close() }, nil
}

// Token is a random observer token.
func Token() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// NewID makes a run id: the time and a random suffix.
func NewID() string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b)
}

// Record seals one scenario's evidence into a bundle in dir, with one
// screenshot of the page as the run left it (kept as failure.png too when
// the verdict is not the one the scenario means to reach) and the pictures
// Target's tab took at its marks, and answers the verdict. The screenshot
// gets a short bound of its own, so that a run cut short still shows its
// page.
func Record(ctx context.Context, dir string, meta bundle.Meta, sc scenarios.Scenario, ev *scenarios.Evidence, tab *browser.Tab) (judge.Verdict, error) {
	meta.End = time.Now().UTC()
	// Chromium draws the screenshot while the record is sealed (the page is
	// left alone meanwhile): most of a screenshot's time is waiting for a frame.
	shot := make(chan []byte, 1)
	go func() { shot <- screenshot(ctx, tab) }()
	b, err := bundle.Seal(meta, sc, ev)
	if err != nil {
		return judge.Verdict{}, err
	}
	b.Screenshot = <-shot
	b.Frames = filmOf(tab).Frames()
	if len(ev.Faults) > 0 || !judge.AsExpected(sc, b.Verdict) {
		b.Failure = b.Screenshot
	}
	return b.Verdict, report.Write(dir, b)
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
