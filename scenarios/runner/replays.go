package runner

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Attack replays (issue 27): after the run's records are taken, each write
// of the replay plan is sent again as an attacker would, from Go's HTTP
// client rather than from the page: an attacker's copy is no browser's, and
// the client can drop or swap the session's HttpOnly cookies, send N copies
// truly at once (a page shares six connections to a host) and keep every
// replay out of the tab's own records. The state is read after each kind,
// with the person's cookies, from the probes and the observer.
// docs/decisions/2026-12-04-attack-replays.md says why.

// staleETag is an entity tag no app issued: the stale replay's If-Match.
const staleETag = `"agentready-stale"`

// personCookies are the tab's cookies for the app, read before anything
// can close the tab; nil when they cannot be read (the replays then say so).
func (r *runner) personCookies(ctx context.Context) []*http.Cookie {
	if len(r.sc.Expect.ReplayPlan()) == 0 || r.t.ReplaysOff != "" {
		return nil
	}
	ctx, cancel := r.t.Tab.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, r.t.Bound)
	defer cancelBound()
	res, err := chromedp.Call(ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{r.t.BaseURL + "/"}})
	if err != nil {
		return nil
	}
	out := []*http.Cookie{}
	for _, c := range res.Cookies {
		out = append(out, &http.Cookie{Name: c.Name, Value: c.Value})
	}
	return out
}

// replayer performs the replays of one run.
type replayer struct {
	r       *runner
	client  *http.Client
	records *scenarios.Replays
	// mu guards person, the person's cookies: read from the tab, then
	// kept as the person's browser keeps them, from the Set-Cookie of
	// every answer to a request sent as the person (an app that rotates
	// its session on a write would otherwise see every later replay, and
	// every state read, from a session it ended).
	mu     sync.Mutex
	person []*http.Cookie
	// variation numbers the new values of each write sent with a fresh
	// confirmation, so that no two are the same write.
	variation int
}

// personNow are the person's cookies as they stand; nil when they could
// not be read from the tab.
func (p *replayer) personNow() []*http.Cookie {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.person)
}

// keepCookies takes what an answer to the person set, as a browser does:
// a cookie by its name replaced, one expired removed.
func (p *replayer) keepCookies(set []*http.Cookie) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.person == nil {
		return
	}
	now := time.Now()
	for _, c := range set {
		p.person = slices.DeleteFunc(p.person, func(k *http.Cookie) bool { return k.Name == c.Name })
		if c.MaxAge >= 0 && (c.Expires.IsZero() || c.Expires.After(now)) {
			p.person = append(p.person, &http.Cookie{Name: c.Name, Value: c.Value})
		}
	}
}

func (p *replayer) nextVariation() int {
	p.variation++
	return p.variation
}

// replay performs the plan's replays, in order, after the records are
// collected: nothing they send reaches a phase's window.
func (r *runner) replay(ctx context.Context, person []*http.Cookie) {
	plan := r.sc.Expect.ReplayPlan()
	if len(plan) == 0 || r.ev.Cut != "" || ctx.Err() != nil {
		return
	}
	if r.t.ReplaysOff != "" {
		r.ev.Replays = &scenarios.Replays{Off: r.t.ReplaysOff, Runs: []scenarios.ReplayRun{}}
		return
	}
	p := &replayer{r: r, person: person, records: &scenarios.Replays{Runs: []scenarios.ReplayRun{}},
		client: &http.Client{Timeout: r.t.Bound, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	r.ev.Replays = p.records
	// Connections dialled for copies sent at once and left unused would
	// hold up the app's graceful shutdown (a new connection counts as
	// active for seconds): let go of them when done.
	defer p.client.CloseIdleConnections()
	type job struct {
		run   scenarios.ReplayRun
		entry scenarios.ReplayExpect
		w     *record.Request
		fresh *freshWrite // the write with a fresh confirmation, sent before Base
		part  part        // what a tampering kind changes
	}
	var jobs []*job
	for i, entry := range plan {
		if entry.Off != "" {
			continue
		}
		w, of, why := r.writeToReplay(entry)
		for _, kind := range vocab.ReplayKinds {
			rule := entry.Rule(kind)
			if rule.Off != "" {
				continue
			}
			j := &job{run: scenarios.ReplayRun{Entry: i, Request: entry.Request, Phase: entry.PhaseOrDefault(), Kind: kind, Of: of}, entry: entry, w: w}
			switch {
			case w == nil && why.fault:
				j.run.Fault, j.run.Missing = why.text, why.missing
			case w == nil:
				j.run.Skipped = why.text
			case person == nil:
				// no_session too: whether the person had a session to
				// leave out (a sessionless app skips it) is unknown.
				j.run.Fault = "the person's cookies could not be read from the tab"
			}
			jobs = append(jobs, j)
		}
	}
	// The control first: for each write with a fresh confirmation, that new
	// write sent as the person must be accepted, or no kind sent as one
	// can show anything. Then a fresh confirmation for each kind that
	// takes one. All before the base state is read: what they change is
	// not the replays'.
	controlled := map[int]bool{}
	freshNames := map[int]map[string]bool{}
	for _, j := range jobs {
		if j.run.Skipped != "" || j.run.Fault != "" || controlled[j.run.Entry] {
			continue
		}
		controlled[j.run.Entry] = true
		control := scenarios.ReplayRun{Entry: j.run.Entry, Request: j.run.Request, Phase: j.run.Phase, Kind: vocab.ReplayControl, Of: j.run.Of}
		fw := p.freshen(ctx, j.w, &control)
		if fw != nil {
			freshNames[j.run.Entry] = fw.fresh
			req := p.build(*j.w)
			var changes []string
			req.body, changes = fw.varied(p.nextVariation())
			control.Fresh, control.Changes = true, append(fw.changes, changes...)
			control.Sent = append(control.Sent, p.send(ctx, req, false))
		}
		if fw != nil || control.Fault != "" {
			p.records.Controls = append(p.records.Controls, control)
		}
	}
	// A tampering kind is one replay per part it changes.
	var expanded []*job
	for _, j := range jobs {
		if !j.run.Kind.Tampering() || j.run.Skipped != "" || j.run.Fault != "" {
			expanded = append(expanded, j)
			continue
		}
		parts, why, inapplicable := r.tamperParts(j.run.Kind, j.entry, j.w, freshNames[j.run.Entry])
		if len(parts) == 0 {
			j.run.Skipped, j.run.Inapplicable = why, inapplicable
			expanded = append(expanded, j)
			continue
		}
		for _, pt := range parts {
			c := *j
			c.part, c.run.Part = pt, pt.name
			expanded = append(expanded, &c)
		}
	}
	jobs = expanded
	for _, j := range jobs {
		if j.run.Skipped == "" && j.run.Fault == "" && j.run.Kind != vocab.ReplayAgain {
			j.fresh = p.freshen(ctx, j.w, &j.run)
			if swapsObject(j.run.Kind) && j.run.Skipped == "" && j.run.Fault == "" {
				if j.fresh == nil {
					j.run.Inapplicable = true
					j.run.Skipped = "the write carries no confirmation the page fetched for it (no write between the person's click and it answered one): there is none to bind to its object, and none to fetch for another"
					continue
				}
				p.controlOther(ctx, j.run.Kind, j.entry, j.w, &j.part, &j.run)
			}
		}
	}
	p.records.Base = p.state(ctx)
	// Every expired replay after all the others: the clock it moves
	// forward would expire the fresh confirmations of another entry's
	// kinds, which the app would then refuse for that alone.
	slices.SortStableFunc(jobs, func(a, b *job) int { return expiredLast(a.run.Kind, b.run.Kind) })
	for _, j := range jobs {
		if j.run.Skipped == "" && j.run.Fault == "" && ctx.Err() == nil {
			p.perform(ctx, j.entry, j.w, j.fresh, j.part, &j.run)
		}
		p.records.Runs = append(p.records.Runs, j.run)
	}
}

type reason struct {
	text           string
	fault, missing bool
}

// writeToReplay finds the entry's write: the first matching write to the
// app in its phase's window of the network log.
func (r *runner) writeToReplay(entry scenarios.ReplayExpect) (*record.Request, int, reason) {
	method, pattern, _ := entry.Request.Split()
	if !r.ev.Capture.Network || r.ev.Requests == nil {
		return nil, -1, reason{"no network log was recorded: there is no request to replay", true, true}
	}
	from, to, ok := r.ev.Window(entry.PhaseOrDefault())
	if !ok {
		return nil, -1, reason{"the " + string(entry.PhaseOrDefault()) + " phase's marks are missing", true, false}
	}
	for i := from.Requests; i < min(to.Requests, len(r.ev.Requests)); i++ {
		q := r.ev.Requests[i]
		if !q.Counted() || !r.ofApp(q.URL) || !record.MatchRequest(q.Method, q.Path, method, pattern) {
			continue
		}
		if q.HasBody && q.Body == "" {
			return nil, i, reason{fmt.Sprintf("the body of %s %s (request %d of the log) is not in the record", q.Method, q.Path, q.Seq), true, true}
		}
		return &r.ev.Requests[i], i, reason{}
	}
	return nil, -1, reason{fmt.Sprintf("no %s in the %s phase to replay", entry.Request, entry.PhaseOrDefault()), false, false}
}

// reviewBefore is the review of the person's click that w followed, or nil.
func (r *runner) reviewBefore(w *record.Request) *scenarios.Review {
	idx := slices.IndexFunc(r.ev.Requests, func(q record.Request) bool { return q.Seq == w.Seq })
	var out *scenarios.Review
	for k := range r.ev.Reviews {
		rv := &r.ev.Reviews[k]
		if rv.Phase == vocab.PhaseHuman && rv.Requests <= idx && (out == nil || rv.Requests > out.Requests) {
			out = rv
		}
	}
	return out
}

// prerequisites are the writes to the app between the person's click
// before w and w: what the page sent to get w's confirmation.
func (r *runner) prerequisites(w *record.Request) []record.Request {
	idx := slices.IndexFunc(r.ev.Requests, func(q record.Request) bool { return q.Seq == w.Seq })
	rv := r.reviewBefore(w)
	if rv == nil {
		return nil
	}
	var out []record.Request
	for _, q := range r.ev.Requests[rv.Requests:idx] {
		if record.IsWrite(q.Method) && q.Counted() && r.ofApp(q.URL) {
			out = append(out, q)
		}
	}
	return out
}

// expiredLast orders replay kinds so that the expired one comes after the
// others (a comparison for a stable sort).
func expiredLast(a, b vocab.ReplayKind) int {
	rank := func(k vocab.ReplayKind) int {
		if k == vocab.ReplayExpired {
			return 1
		}
		return 0
	}
	return rank(a) - rank(b)
}
