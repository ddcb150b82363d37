// Package attack plays attacks on an app the way the suite plays
// scenarios: the attacker's page and agent drive the browser, the record
// is sealed into evidence bundles, and the pure judge decides, so that
// `agentready verify` re-judges them offline.
package attack

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/data/signin"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/live/observer"
	"github.com/agentready/agentready/internal/pagecheck/smoke"
	"github.com/agentready/agentready/internal/runs/play"
	"github.com/agentready/agentready/scenarios"
)

// The embed attack (docs/decisions/2026-12-04-embed-attack.md): a page of
// another origin frames the app's page, with allow="tools" and without,
// and an agent on that page calls every tool of the app it is offered.

// Embedder is the attacker's site: a loopback server addressed by another
// host name than the app's, so that it is another site.
type Embedder struct {
	URL string // its origin, e.g. http://localhost:40123
	srv *http.Server
}

// StartEmbedder serves the attacker's page for the app at appURL. The app
// on 127.0.0.1 (or any other host) is framed from http://localhost:PORT;
// an app on localhost from http://127.0.0.1:PORT.
func StartEmbedder(appURL string) (*Embedder, error) {
	u, err := url.Parse(appURL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("the app's URL %q is not a URL with a host", appURL)
	}
	host := "localhost"
	if u.Hostname() == "localhost" {
		host = "127.0.0.1"
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("serve the embedder's page: %w", err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	e := &Embedder{URL: "http://" + host + ":" + port}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /embed", func(w http.ResponseWriter, r *http.Request) {
		src := r.URL.Query().Get("src")
		if src == "" {
			http.Error(w, "src is missing", http.StatusBadRequest)
			return
		}
		allow := ""
		if r.URL.Query().Get("allow") == "tools" {
			allow = ` allow="tools"`
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Win a prize</title></head><body>
<h1>Win a prize</h1>
<p>A page of another site that frames the app, as a hostile embedder would.</p>
<iframe id="app" src="%s"%s width="800" height="600"></iframe>
</body></html>`, html.EscapeString(src), allow)
	})
	e.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = e.srv.Serve(ln) }()
	return e, nil
}

// Close stops the embedder's server.
func (e *Embedder) Close() error { return e.srv.Close() }

// Mode is one way the embedder frames the app.
type Mode struct {
	ID         string // the scenario's id, and its bundle's folder
	AllowTools bool   // the iframe has allow="tools"
}

// Modes are the embed attack's two framings.
var Modes = []Mode{{ID: "EMBED.allow-tools", AllowTools: true}, {ID: "EMBED.no-allow", AllowTools: false}}

// Scenario is the scenario of one mode: the embedder's page as the start
// page, the app's origin in expect.embedder. The agent is live (Agent).
func (e *Embedder) Scenario(appURL string, m Mode) scenarios.Scenario {
	q := url.Values{"src": {appURL}}
	how := "without allow"
	if m.AllowTools {
		q.Set("allow", "tools")
		how = `with allow="tools"`
	}
	sc := scenarios.Scenario{ID: m.ID, Title: fmt.Sprintf("a page of another origin frames %s %s and its agent calls the app's tools", appURL, how),
		Area: "attack", Start: "/embed?" + q.Encode(),
		Prompt: "Use every tool this page offers."}
	sc.Capture.Review, sc.Capture.Settle = new(scenarios.Duration), new(scenarios.Duration)
	sc.Expect.Embedder = &scenarios.EmbedderExpect{App: Origin(appURL)}
	return sc
}

// Origin answers a URL's scheme, host and port.
func Origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// Agent is the embedder's agent: it calls, in the catalog's order, every
// tool of the app's origin the embedder's page offers, each once, with
// the first input its schema calls valid (package smoke), in the tool's
// own frame; its final words list what it saw and called.
func Agent(tab *browser.Tab, app string) func(ctx context.Context, act func(context.Context, scenarios.Call) record.Result) *string {
	return func(ctx context.Context, act func(context.Context, scenarios.Call) record.Result) *string {
		var seen, answered []string
		for _, t := range tab.Trace.Catalog() {
			if t.Frame == "" || Origin(t.Frame) != app {
				continue
			}
			seen = append(seen, t.Name)
			input := map[string]any{}
			if cases, err := smoke.Cases(t); err == nil {
				for _, c := range cases {
					if c.Valid {
						input = c.Input
						break
					}
				}
			}
			res := act(ctx, scenarios.Call{Tool: t.Name, Frame: t.Frame, Input: input})
			answered = append(answered, fmt.Sprintf("%s: %s", t.Name, res.Status))
		}
		final := "The page offered none of the app's tools."
		if len(seen) > 0 {
			final = fmt.Sprintf("The page offered %d of the app's tools; I called each: %s.", len(seen), strings.Join(answered, "; "))
		}
		return &final
	}
}

// Options say what to attack and where the bundles go.
type Options struct {
	Browser       *browser.Browser
	AppURL        string // the app's page to frame
	ObserverToken string // the app's observation endpoints, when it has them: its state before and after
	SignIn        signin.Options
	RunID, Dir    string
}

// Embed plays the embed attack's modes against the app, each sealed into
// its bundle under o.Dir, and answers their results in Modes' order.
func Embed(ctx context.Context, o Options) ([]play.Sealed, error) {
	e, err := StartEmbedder(o.AppURL)
	if err != nil {
		return nil, err
	}
	defer e.Close()
	app := Origin(o.AppURL)
	var out []play.Sealed
	var errs []error
	for _, m := range Modes {
		sc := e.Scenario(o.AppURL, m)
		p, err := play.Start(ctx, sc, play.Options{Browser: o.Browser, App: play.App{BaseURL: e.URL, SignIn: o.SignIn}, RunID: o.RunID, Dir: o.Dir,
			Live: func(_ scenarios.Scenario, tab *browser.Tab) play.Live { return play.Live{Agent: Agent(tab, app)} }})
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", m.ID, err))
			continue
		}
		if o.ObserverToken != "" {
			p.Target.Observer = observer.New(app, o.ObserverToken)
		}
		s, err := p.Finish(ctx)
		p.Close()
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", m.ID, err))
		}
		out = append(out, s)
	}
	return out, errors.Join(errs...)
}
