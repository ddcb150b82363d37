package mutants

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"regexp"
	"slices"
	"sync"
	"time"

	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/live/observer"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

// A rule check drives the app's server gate over HTTP, as a same-origin
// script or a forged request would, records the app's state and journal as
// evidence, and has the judge decide: refused requests must leave the state
// exactly as it was.

// RuleKiller wraps a rule check.
func RuleKiller(name string, check func(r *ruleRun) error) Killer {
	return Killer{Name: name, Area: "server", Run: func(_ context.Context, _ *Env, v refapp.Variant) (judge.Verdict, error) {
		return runRule(&appSet{}, name, v, check)
	}}
}

// runRule runs one rule check against apps it starts in set, and closes
// every one of them before it returns, however many rounds the check ran
// and whether or not it failed.
func runRule(set *appSet, name string, v refapp.Variant, check func(r *ruleRun) error) (judge.Verdict, error) {
	defer set.closeAll()
	r, err := newRuleRun(name, v, set)
	if err != nil {
		return judge.Verdict{}, err
	}
	if err := check(r); err != nil {
		return judge.Verdict{}, fmt.Errorf("%s: %w", name, err)
	}
	return judge.Judge(r.sc, r.ev), nil
}

// appSet is every reference app one rule check started. A check that
// replaces its run (and so its app) closes the old app through the set, and
// the set closes what is still open when the check ends: a deferred close
// bound to the first app would leak every later one.
type appSet struct {
	urls []string         // every app started, in order
	open []*refapp.Server // those not closed yet
}

func (s *appSet) start(opts refapp.Options) (*refapp.Server, error) {
	app, err := refapp.Start(opts)
	if err != nil {
		return nil, err
	}
	s.urls = append(s.urls, app.URL)
	s.open = append(s.open, app)
	return app, nil
}

// close closes app now, once.
func (s *appSet) close(app *refapp.Server) {
	if i := slices.Index(s.open, app); i >= 0 {
		s.open = slices.Delete(s.open, i, i+1)
		_ = app.Close()
	}
}

func (s *appSet) closeAll() {
	for len(s.open) > 0 {
		s.close(s.open[len(s.open)-1])
	}
}

type ruleRun struct {
	sc    scenarios.Scenario
	ev    *scenarios.Evidence
	app   *refapp.Server
	apps  *appSet // where app was started; shared by every round of a check
	obs   *observer.Client
	clock *clock
}

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func newRuleRun(name string, v refapp.Variant, apps *appSet) (*ruleRun, error) {
	clk := &clock{now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	app, err := apps.start(refapp.Options{Variant: v, ObserverToken: "mutants", Clock: clk.Now})
	if err != nil {
		return nil, err
	}
	r := &ruleRun{app: app, apps: apps, obs: observer.New(app.URL, "mutants"), clock: clk,
		sc: scenarios.Scenario{ID: name, Title: name, Start: "/", Prompt: "(no agent: requests a same-origin script can send)"},
		ev: &scenarios.Evidence{ScenarioID: name, Env: scenarios.Env{BaseURL: app.URL, Variant: string(v)},
			States: map[vocab.Phase]*record.Snapshot{}, Marks: map[vocab.Phase]scenarios.Mark{}}}
	r.ev.Capture.Observer = true
	return r, nil
}

// expectUnchanged: the requests of the agent phase must change nothing.
func (r *ruleRun) expectUnchanged() {
	r.sc.Expect.State = map[vocab.Phase]scenarios.State{vocab.PhaseAgent: {Unchanged: true}}
}

// phase marks the start of a phase (and records the state before the agent).
func (r *ruleRun) phase(name vocab.Phase) error {
	ctx := context.Background()
	j, err := r.obs.Journal(ctx, 0)
	if err != nil {
		return err
	}
	r.ev.Marks[name] = scenarios.Mark{Journal: len(j)}
	doc, err := r.obs.State(ctx)
	if err != nil {
		return err
	}
	s := &record.Snapshot{Docs: map[string]json.RawMessage{record.ObserverSource: doc}}
	switch name {
	case vocab.PhaseAgent:
		r.ev.States[vocab.StateBefore] = s
	case vocab.PhaseHuman:
		r.ev.States[vocab.PhaseAgent] = s
	}
	if name == vocab.PhaseHuman {
		r.ev.Marks[vocab.PhaseEnd] = r.ev.Marks[name]
		r.ev.Journal = j
	}
	return nil
}

// around runs the agent phase.
func (r *ruleRun) around(agent func() error) error {
	if err := r.phase(vocab.PhaseAgent); err != nil {
		return err
	}
	if err := agent(); err != nil {
		return err
	}
	return r.phase(vocab.PhaseHuman)
}

// session is one visitor of the app, with its cookie and CSRF token.
type session struct {
	base string
	http *http.Client
	csrf string
}

var csrfMeta = regexp.MustCompile(`<meta name="csrf-token" content="([^"]+)">`)

func (r *ruleRun) session() (*session, error) {
	jar, _ := cookiejar.New(nil)
	s := &session{base: r.app.URL, http: &http.Client{Jar: jar, Timeout: Bound}}
	res, err := s.http.Get(s.base + "/events")
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	page, _ := io.ReadAll(res.Body)
	m := csrfMeta.FindSubmatch(page)
	if m == nil {
		return nil, fmt.Errorf("no CSRF token on /events")
	}
	s.csrf = string(m[1])
	return s, nil
}

type reply struct {
	Status int
	Body   map[string]any
}

func (s *session) post(path string, body any, withCSRF bool) (reply, error) {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, s.base+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if withCSRF {
		req.Header.Set("X-CSRF-Token", s.csrf)
	}
	res, err := s.http.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer res.Body.Close()
	var out reply
	out.Status = res.StatusCode
	_ = json.NewDecoder(res.Body).Decode(&out.Body)
	return out, nil
}

// sessionWithIntent opens a session and gets it a confirmation intent for event.
func (r *ruleRun) sessionWithIntent(event string) (*session, string, error) {
	s, err := r.session()
	if err != nil {
		return nil, "", err
	}
	in, err := s.intent(event)
	return s, in, err
}

func (s *session) intent(event string) (string, error) {
	rep, err := s.post("/api/intents", map[string]any{"action": "register", "eventId": event}, true)
	if err != nil {
		return "", err
	}
	id, _ := rep.Body["intentId"].(string)
	if rep.Status != http.StatusCreated || id == "" {
		return "", fmt.Errorf("intent: HTTP %d %v", rep.Status, rep.Body)
	}
	return id, nil
}

func registration(event, intent, email string) map[string]any {
	return map[string]any{"eventId": event, "attendeeName": "Demo Reader", "email": email, "intentId": intent, "interactionMode": "human"}
}

func (s *session) register(event, intent, email string) (reply, error) {
	return s.post("/api/registrations", registration(event, intent, email), true)
}

func mustStatus(rep reply, err error, want int) error {
	if err != nil {
		return err
	}
	if rep.Status != want {
		return fmt.Errorf("setup: HTTP %d %v, want %d", rep.Status, rep.Body, want)
	}
	return nil
}

const intro, workshop, officeHours = "evt-webmcp-intro", "evt-paid-workshop", "evt-office-hours"

func intentReused(r *ruleRun) error {
	s, in, err := r.sessionWithIntent(intro)
	if err != nil {
		return err
	}
	rep, err := s.register(intro, in, "first@example.com")
	if err := mustStatus(rep, err, http.StatusCreated); err != nil {
		return err
	}
	r.expectUnchanged()
	return r.around(func() error { _, err := s.register(intro, in, "second@example.com"); return err })
}

func intentExpired(r *ruleRun) error {
	s, in, err := r.sessionWithIntent(intro)
	if err != nil {
		return err
	}
	r.clock.Advance(2*time.Minute + time.Second)
	r.expectUnchanged()
	return r.around(func() error { _, err := s.register(intro, in, "late@example.com"); return err })
}

func intentOtherEvent(r *ruleRun) error {
	s, in, err := r.sessionWithIntent(intro)
	if err != nil {
		return err
	}
	r.expectUnchanged()
	return r.around(func() error { _, err := s.register(workshop, in, "elsewhere@example.com"); return err })
}

func csrfMissing(r *ruleRun) error {
	s, in, err := r.sessionWithIntent(intro)
	if err != nil {
		return err
	}
	r.expectUnchanged()
	return r.around(func() error {
		_, err := s.post("/api/registrations", registration(intro, in, "forged@example.com"), false)
		return err
	})
}

func cancelTwice(r *ruleRun) error {
	s, in, err := r.sessionWithIntent(intro)
	if err != nil {
		return err
	}
	rep, err := s.register(intro, in, "twice@example.com")
	if err := mustStatus(rep, err, http.StatusCreated); err != nil {
		return err
	}
	reg, _ := rep.Body["registration"].(map[string]any)
	id, _ := reg["id"].(string)
	rep, err = s.post("/api/registrations/"+id+"/cancel", map[string]any{}, true)
	if err := mustStatus(rep, err, http.StatusOK); err != nil {
		return err
	}
	r.expectUnchanged()
	return r.around(func() error { _, err := s.post("/api/registrations/"+id+"/cancel", map[string]any{}, true); return err })
}

// lastSeatRace: 50 sessions with valid intents race for one seat. The
// defect shows only when requests interleave, so up to 10 rounds are run and
// the first bad round is the evidence; the correct app must hold in all.
func lastSeatRace(r *ruleRun) error {
	const racers = 50
	r.sc.Expect.State = map[vocab.Phase]scenarios.State{vocab.PhaseAgent: {Equals: map[string]any{
		"$.observer.seatsLeft['" + officeHours + "']": 0, "$.observer.counts.registrations": 1}}}
	for round := 0; ; round++ {
		if round > 0 {
			fresh, err := newRuleRun(r.sc.ID, refapp.Variant(r.ev.Env.Variant), r.apps)
			if err != nil {
				return err
			}
			r.apps.close(r.app) // the last round's app is closed by runRule
			fresh.sc.Expect = r.sc.Expect
			*r = *fresh
		}
		sessions := make([]*session, racers)
		intents := make([]string, racers)
		for i := range sessions {
			s, err := r.session()
			if err != nil {
				return err
			}
			if intents[i], err = s.intent(officeHours); err != nil {
				return err
			}
			sessions[i] = s
		}
		err := r.around(func() error {
			start := make(chan struct{})
			var wg sync.WaitGroup
			for i, s := range sessions {
				wg.Go(func() {
					<-start
					_, _ = s.register(officeHours, intents[i], fmt.Sprintf("racer%d@example.com", i))
				})
			}
			close(start)
			wg.Wait()
			return nil
		})
		if err != nil {
			return err
		}
		if round == 9 || judge.Judge(r.sc, r.ev).Outcome != vocab.Pass {
			return nil
		}
	}
}
