// Package framework is the small core the specs stand on: one browser per
// Ginkgo process, and per spec a fresh reference app, an isolated tab and an
// observer of the app's state and journal. Specs import it; it imports no spec.
package framework

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2" //nolint:revive // the framework speaks Ginkgo
	. "github.com/onsi/gomega"    //nolint:revive

	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/live/observer"
	"github.com/agentready/agentready/internal/runs/play"
	"github.com/agentready/agentready/pages"
	"github.com/agentready/agentready/scenarios/runner"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Browser is this Ginkgo process's browser, started by SetUpBrowser.
var Browser *browser.Browser

// CheckApp fails the run at once when a user's app does not answer, or does
// not serve the observation endpoints its token was given for, or would be
// played by several Ginkgo processes at once (play.App.CheckProcesses).
func CheckApp(ctx context.Context) {
	suite, _ := GinkgoConfiguration()
	Expect(App.CheckProcesses(suite.ParallelTotal)).To(Succeed(), "no spec was run")
	Expect(App.Check(ctx)).To(Succeed(), "the app under test is not usable; no spec was run")
}

// SetUpBrowser starts (or attaches to, or asks AGENTREADY_GRID_URL for) the
// process's browser once, and registers its shutdown (a grid session is
// deleted, on an interrupt too). Call it from BeforeSuite: a failed
// preflight then fails the run before any spec starts.
func SetUpBrowser(ctx context.Context) {
	b, release, err := browser.LaunchFromEnv(ctx)
	Expect(err).NotTo(HaveOccurred(), "the browser is not usable; no spec was run")
	Browser = b
	DeferCleanup(release)
}

// Fixture is what one spec works with.
type Fixture struct {
	App      *refapp.Server
	Tab      *browser.Tab
	Observer *observer.Client
}

// StartFixture starts the reference app (with variant, "" for the correct
// app) and opens a tab; both end with the spec.
func StartFixture(ctx context.Context, variant refapp.Variant) *Fixture {
	GinkgoHelper()
	token := play.Token()
	app, err := refapp.Start(refapp.Options{Variant: variant, ObserverToken: token})
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(app.Close)
	tab := NewTab(ctx)
	return &Fixture{App: app, Tab: tab, Observer: observer.New(app.URL, token)}
}

// NewTab opens another isolated tab (its own cookies: another session).
func NewTab(ctx context.Context) *browser.Tab {
	GinkgoHelper()
	Expect(Browser).NotTo(BeNil(), "SetUpBrowser was not called in BeforeSuite")
	tab, err := Browser.NewTab(ctx)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(tab.Close)
	return tab
}

// Open navigates the fixture's tab to a page of the app.
func (f *Fixture) Open(ctx context.Context, p pages.Page) {
	GinkgoHelper()
	Expect(f.Tab.Navigate(ctx, f.App.URL+p.Path())).To(Succeed())
}

// AppState is the reference app's state document, in its own words.
type AppState struct {
	Version   int64          `json:"version"`
	Hash      string         `json:"hash"`
	SeatsLeft map[string]int `json:"seatsLeft"`
	Counts    map[string]int `json:"counts"`
}

// State reads the reference app's state.
func (f *Fixture) State(ctx context.Context) AppState {
	GinkgoHelper()
	raw, err := f.Observer.State(ctx)
	Expect(err).NotTo(HaveOccurred())
	var s AppState
	Expect(json.Unmarshal(raw, &s)).To(Succeed())
	return s
}

// Journal reads the app's whole journal.
func (f *Fixture) Journal(ctx context.Context) record.Journal {
	GinkgoHelper()
	j, err := f.Observer.Journal(ctx, 0)
	Expect(err).NotTo(HaveOccurred())
	return j
}

// In gives the spec's ctx the fixture's tab, for chromedp calls made in
// the page; see In.
func (f *Fixture) In(ctx context.Context) context.Context {
	GinkgoHelper()
	return In(ctx, f.Tab)
}

// In gives the spec's ctx a tab: chromedp calls made with the result reach
// that page, and still end with the spec (its timeout or an interrupt).
func In(ctx context.Context, tab *browser.Tab) context.Context {
	GinkgoHelper()
	bound, cancel := tab.Bind(ctx)
	DeferCleanup(cancel)
	return bound
}

// Bound is how long a spec waits for something that should happen at once.
const Bound = vocab.Bound

// Timeout bounds one spec: a hang in the browser or the app fails the spec
// with Ginkgo's progress report instead of stalling the run.
var Timeout = SpecTimeout(60 * time.Second)

// App is the app this run's scenarios go to: the embedded reference app,
// or a user's app at AGENTREADY_BASE_URL (play.AppFromEnv).
var App = play.AppFromEnv()

// ScenarioTarget gives a scenario its app and tab: the embedded reference app
// started with variant, or the user's app; both end with the spec.
func ScenarioTarget(ctx context.Context, variant string) runner.Target {
	GinkgoHelper()
	Expect(Browser).NotTo(BeNil(), "SetUpBrowser was not called in BeforeSuite")
	t, done, err := play.Target(ctx, Browser, App, variant)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(done)
	return t
}

// EnvRSSDir names a folder where each process writes its peak RSS at the end
// of the suite (the bench reads it).
const EnvRSSDir = "AGENTREADY_RSS_DIR"

// RecordPeakRSS writes this process's peak resident memory (VmHWM) to
// AGENTREADY_RSS_DIR, when that is set.
func RecordPeakRSS() {
	dir := os.Getenv(EnvRSSDir)
	if dir == "" {
		return
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			name := filepath.Join(dir, fmt.Sprintf("rss-%d.txt", GinkgoParallelProcess()))
			_ = os.WriteFile(name, []byte(strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:"))+"\n"), 0o644)
		}
	}
}
