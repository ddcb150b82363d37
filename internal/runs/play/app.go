package play

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/internal/data/signin"
	"github.com/agentready/agentready/internal/live/appserver"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/live/observer"
	"github.com/agentready/agentready/internal/live/webmcp"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/runner"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Environment variables for pointing the suite at a user's own app.
const (
	EnvBaseURL       = "AGENTREADY_BASE_URL"       // the app to test instead of the embedded reference app
	EnvObserverToken = "AGENTREADY_OBSERVER_TOKEN" // its observer token, when it serves the observation endpoints
	EnvStatePath     = "AGENTREADY_OBSERVER_STATE" // the state endpoint's path (default /__agentready/state)
	EnvJournalPath   = "AGENTREADY_OBSERVER_JOURNAL"
	// EnvReplays turns the attack replays off for a run: off (default on).
	EnvReplays = "AGENTREADY_REPLAYS"
)

// App says which app scenarios run against.
type App struct {
	BaseURL       string // a user's app; "" for the embedded reference app
	ObserverToken string // the user's app serves observation endpoints with this token
	StatePath     string
	JournalPath   string
	// BaseURLFrom and TokenFrom name where BaseURL and ObserverToken were
	// given, a flag ("--url") or an environment variable (the default,
	// EnvBaseURL and EnvObserverToken), so that an error about them names
	// what the user typed.
	BaseURLFrom, TokenFrom string
	// Launch, when set, is the app the scenario folder's agentready.yaml
	// starts; a BaseURL given wins over it (the app already up is used).
	Launch *Launch
	// Launches are the apps of the folders below (by Scenario.AppFolder):
	// a scenario runs against its nearest folder's app, else Launch.
	Launches map[string]*Launch
	// SignIn is put in each scenario's fresh tab before its start page
	// opens (--storage-state, --header), over the scenario's signin keys.
	SignIn signin.Options
	// Settle is the rule the catalog is waited for by (--settle,
	// --max-wait; webmcp.DefaultSettle when zero).
	Settle webmcp.SettleRule
	// Replays is on (the default, "") or off: off, no write is replayed
	// (the attack replays send real writes to the app). ReplaysFrom names
	// where it was given (--replays; EnvReplays by default).
	Replays, ReplaysFrom string
}

// AppFromEnv reads the AGENTREADY_* variables.
func AppFromEnv() App {
	return App{BaseURL: strings.TrimRight(os.Getenv(EnvBaseURL), "/"), ObserverToken: os.Getenv(EnvObserverToken),
		StatePath: os.Getenv(EnvStatePath), JournalPath: os.Getenv(EnvJournalPath), Replays: os.Getenv(EnvReplays)}
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

// Given words the base URL as the user gave it (the flag or variable).
func (a App) Given() string { return given(cmp.Or(a.BaseURLFrom, EnvBaseURL), a.BaseURL) }

// CheckProcesses refuses a user's app played by n processes at once. The
// app has one state, read whole at every mark of every scenario, so each
// scenario would judge the others' writes as its own page's: a wrong
// verdict about the user's app. The embedded app is started afresh for
// each spec, and shares nothing.
func (a App) CheckProcesses(n int) error {
	if !a.User() || n <= 1 {
		return nil
	}
	return fmt.Errorf("%s: %d processes would play scenarios against this one app at once, and each scenario's state reads would hold the others' writes, judged as its own page's.\n  Run one process (PROCS=1, which make e2e chooses with %s), or give each shard an app of its own (docs/beyond-one-machine.md)", a.Given(), n, EnvBaseURL)
}

// given words a setting as the user gave it: "--url http://…" for a flag,
// "AGENTREADY_BASE_URL=http://…" for an environment variable.
func given(from, value string) string {
	if strings.HasPrefix(from, "-") {
		return from + " " + value
	}
	return from + "=" + value
}

// Validate says what is wrong with the base URL as written, before anything
// is asked of it: it must be an http(s) URL with a host; and with the
// settle rule (--settle, --max-wait), when one is given.
func (a App) Validate() error {
	if a.Replays != "" && a.Replays != "on" && a.Replays != "off" {
		return fmt.Errorf("%s: give on or off", given(cmp.Or(a.ReplaysFrom, EnvReplays), a.Replays))
	}
	if a.Settle != (webmcp.SettleRule{}) {
		if err := a.Settle.Check(); err != nil {
			return err
		}
	}
	if !a.User() {
		return nil
	}
	return CheckURL(given(cmp.Or(a.BaseURLFrom, EnvBaseURL), a.BaseURL), a.BaseURL)
}

// CheckURL says what is wrong with raw as the http(s) URL of an app or a
// page, naming it as name (the flag or variable with its value, as the user
// typed it): no scheme, another scheme, no host, or not a URL at all.
func CheckURL(name, raw string) error {
	u, err := url.Parse(raw)
	switch {
	case (err != nil || u.Scheme == "" || u.Opaque != "") && withoutScheme(raw):
		return fmt.Errorf("%s lacks its scheme: give http://%s (or https://)", name, raw)
	case err != nil:
		return fmt.Errorf("%s is not a URL: %w", name, err)
	case u.Scheme == "":
		return fmt.Errorf("%s is not a URL: it has no scheme (give http:// or https://)", name)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%s: the scheme %q is not supported: agentready tests apps at http:// or https:// URLs", name, u.Scheme)
	case u.Host == "":
		return fmt.Errorf("%s names no host (such as http://127.0.0.1:3000)", name)
	}
	return nil
}

// withoutScheme: raw is a host (and port) a scheme short of a URL, such as
// 127.0.0.1:3000 or localhost:3000/shop.
func withoutScheme(raw string) bool {
	u, err := url.Parse("http://" + raw)
	return err == nil && u.Host != "" && !strings.Contains(raw, "://")
}

// Check makes sure a user's app is a URL that answers at all and, when an
// observer token is given, serves its observation endpoints: one clear
// error at the start instead of a fault in every scenario.
func (a App) Check(ctx context.Context) error {
	if err := a.Validate(); err != nil {
		return err
	}
	if !a.User() {
		for _, l := range a.Launches {
			if err := l.Open(ctx); err != nil {
				return err
			}
		}
		return a.Launch.Open(ctx)
	}
	ctx, cancel := context.WithTimeout(ctx, 2*vocab.Bound)
	defer cancel()
	name := given(cmp.Or(a.BaseURLFrom, EnvBaseURL), a.BaseURL)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.BaseURL+"/", nil)
	if err != nil {
		return fmt.Errorf("%s is not a URL: %w", name, err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("%s does not answer: %w", name, err)
	}
	res.Body.Close()
	if obs := a.Observer(); obs != nil {
		if err := obs.Check(ctx); err != nil {
			return fmt.Errorf("%s is set: %w", cmp.Or(a.TokenFrom, EnvObserverToken), err)
		}
	}
	return nil
}

// LaunchFor is the app the suite starts for sc: its nearest folder's, else
// Launch (nil: none).
func (a App) LaunchFor(sc scenarios.Scenario) *Launch {
	if l := a.Launches[sc.AppFolder]; l != nil {
		return l
	}
	return a.Launch
}

// TargetOf gives a scenario its app and a fresh tab as Target does, and
// starts the app of the folder's agentready.yaml for it first when there
// is one (answered as s; nil otherwise). A scenario that adds to the start
// of an app that is not started by the suite is refused, saying why.
func TargetOf(ctx context.Context, b *browser.Browser, a App, sc scenarios.Scenario) (t runner.Target, done func(), s *appserver.Server, err error) {
	a.Launch = a.LaunchFor(sc)
	if a.Launch == nil || a.User() {
		if !sc.App.Empty() {
			where := "the embedded reference app"
			if a.User() {
				where = given(cmp.Or(a.BaseURLFrom, EnvBaseURL), a.BaseURL)
			}
			return runner.Target{}, nil, nil, fmt.Errorf("this scenario adds app arguments or environment, for an app the suite starts (%s's app); it cannot run against %s", scenarios.FolderFile, where)
		}
		t, done, err := Target(ctx, b, a, sc.Variant)
		return t, done, nil, err
	}
	if sc.Variant != "" {
		return runner.Target{}, nil, nil, fmt.Errorf("this scenario needs the reference app's variant %q; it cannot run against the app of %s", sc.Variant, a.Launch.Spec.From)
	}
	s, stop, err := a.Launch.For(ctx, sc)
	if err != nil {
		return runner.Target{}, nil, nil, err
	}
	a.BaseURL, a.BaseURLFrom = s.BaseURL, "the app of "+a.Launch.Spec.From
	t, end, err := Target(ctx, b, a, "")
	if err != nil {
		_ = stop()
		return runner.Target{}, nil, nil, err
	}
	// The stop's own complaint (an app killed after SIGTERM was ignored)
	// comes after the bundle is sealed.
	return t, func() { end(); _ = stop() }, s, nil
}

// Target gives a scenario its app and a fresh tab: the embedded reference
// app started with the scenario's variant, or the user's app. done ends
// what Target started.
func Target(ctx context.Context, b *browser.Browser, a App, variant string) (t runner.Target, done func(), err error) {
	if a.User() && variant != "" {
		return runner.Target{}, nil, fmt.Errorf("this scenario needs the reference app's variant %q; it cannot run against %s", variant, given(cmp.Or(a.BaseURLFrom, EnvBaseURL), a.BaseURL))
	}
	tab, err := b.NewTab(ctx)
	if err != nil {
		return runner.Target{}, nil, err
	}
	// The runner signs the tab in, before the start page, with the
	// command line's sign-in over the scenario's keys.
	t = runner.Target{BaseURL: a.BaseURL, Tab: tab, Observer: a.Observer(), Browser: b.Version, Variant: variant, Bound: vocab.Bound,
		SignIn: a.SignIn, Settle: a.Settle}
	if a.Replays == "off" {
		t.ReplaysOff = "replays were turned off for this run (" + given(cmp.Or(a.ReplaysFrom, EnvReplays), a.Replays) + "): no write was replayed"
	}
	if a.User() {
		return t, tab.Close, nil
	}
	token := Token()
	app, err := refapp.Start(refapp.Options{Variant: refapp.Variant(variant), ObserverToken: token})
	if err != nil {
		tab.Close()
		return runner.Target{}, nil, err
	}
	t.BaseURL, t.Observer = app.URL, observer.New(app.URL, token)
	return t, func() { tab.Close(); app.Close() }, nil
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
