package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"golang.org/x/net/html"

	"github.com/agentready/agentready/observer"
	"github.com/agentready/agentready/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/vocab"
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
	for _, j := range jobs {
		if j.run.Skipped != "" || j.run.Fault != "" || controlled[j.run.Entry] {
			continue
		}
		controlled[j.run.Entry] = true
		control := scenarios.ReplayRun{Entry: j.run.Entry, Request: j.run.Request, Phase: j.run.Phase, Kind: vocab.ReplayControl, Of: j.run.Of}
		fw := p.freshen(ctx, j.w, &control)
		if fw != nil {
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
	for _, j := range jobs {
		if j.run.Skipped == "" && j.run.Fault == "" && j.run.Kind != vocab.ReplayAgain {
			j.fresh = p.freshen(ctx, j.w, &j.run)
		}
	}
	p.records.Base = p.state(ctx)
	for _, j := range jobs {
		if j.run.Skipped == "" && j.run.Fault == "" && ctx.Err() == nil {
			p.perform(ctx, j.entry, j.w, j.fresh, &j.run)
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
		if !q.Counted() || !sameOrigin(r.t.BaseURL)(q.URL) || !record.MatchRequest(q.Method, q.Path, method, pattern) {
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
		if record.IsWrite(q.Method) && q.Counted() && sameOrigin(r.t.BaseURL)(q.URL) {
			out = append(out, q)
		}
	}
	return out
}

// freshWrite is w's body with the values of fresh prerequisites' answers,
// and the values the person saw at the click, which each write sent with
// it replaces by new ones (varied).
type freshWrite struct {
	body    any
	changes []string
	fresh   map[string]bool // the names set from the answers: kept
	seen    map[string]bool // values a visible control of the clicked form showed
	form    bool            // body is a form's fields, sent form-encoded
}

// varied is the fresh write as a new one the person could have made: each
// string of the body the person saw at the click (not a confirmation, a
// CSRF token or a precondition) gets a new value of its shape, numbered n,
// so that a rule refusing the same data twice (an email registered
// already) does not stand in for the rule a replay attacks. An email gets
// a +rN tag, free text (with a space, a capital or a letter beyond ASCII)
// " N"; a token such as an enum value or an id is kept.
func (fw *freshWrite) varied(n int) (string, []string) {
	b, _ := json.Marshal(fw.body)
	var body any
	_ = json.Unmarshal(b, &body)
	var changes []string
	var walk func(v any, at string)
	walk = func(v any, at string) {
		switch v := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				ptr := at + "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
				str, ok := v[k].(string)
				if !ok {
					walk(v[k], ptr)
					continue
				}
				if fw.fresh[k] || csrfName(k) || preconditionName(k) || !fw.seen[str] {
					continue
				}
				if nv := newValue(str, n); nv != str {
					v[k] = nv
					changes = append(changes, ptr+" a new value of its shape")
				}
			}
		case []any:
			for i, e := range v {
				walk(e, fmt.Sprintf("%s/%d", at, i))
			}
		}
	}
	walk(body, "")
	if m, ok := body.(map[string]any); ok && fw.form {
		vals := url.Values{}
		for k, v := range m {
			vals.Set(k, fmt.Sprint(v))
		}
		return vals.Encode(), changes
	}
	out, _ := json.Marshal(body)
	return string(out), changes
}

func newValue(s string, n int) string {
	if at := strings.LastIndexByte(s, '@'); at > 0 && strings.Count(s, "@") == 1 && !strings.ContainsAny(s, " \t") {
		return s[:at] + "+r" + strconv.Itoa(n) + s[at:]
	}
	for _, r := range s {
		if r == ' ' || r > unicode.MaxASCII || unicode.IsUpper(r) {
			return s + " " + strconv.Itoa(n)
		}
	}
	return s
}

// freshen sends w's prerequisites again as the person and puts the values
// their answers name into w's JSON body where w carries a field of the same
// name: a new confirmation for w. Nil when w has none, or none of its
// fields came from them.
func (p *replayer) freshen(ctx context.Context, w *record.Request, run *scenarios.ReplayRun) *freshWrite {
	pre := p.r.prerequisites(w)
	if len(pre) == 0 {
		return nil
	}
	body, form := bodyFields(*w)
	if body == nil {
		return nil
	}
	fw := &freshWrite{fresh: map[string]bool{}, seen: map[string]bool{}, form: form}
	for _, q := range pre {
		// A prerequisite the record cannot send again, or the app did
		// not answer, leaves the write with the person's used
		// confirmation: a refusal would then show only that it was used.
		if q.HasBody && q.Body == "" {
			run.Fault, run.Missing = fmt.Sprintf("the body of %s %s (request %d of the log), which the page sent to get this write's confirmation, is not in the record", q.Method, q.Path, q.Seq), true
			return nil
		}
		sent := p.send(ctx, p.build(q), true)
		run.Sent = append(run.Sent, sent)
		if sent.Status == 0 {
			run.Fault = fmt.Sprintf("the app did not answer %s %s, sent again for a fresh confirmation: %s", q.Method, q.Path, sent.Error)
			return nil
		}
		var answer any
		if !sent.Accepted() || json.Unmarshal(sent.Answer, &answer) != nil {
			continue
		}
		for _, name := range replaceByName(body, answer) {
			fw.fresh[name] = true
			fw.changes = append(fw.changes, fmt.Sprintf("%s from a fresh %s %s", name, q.Method, q.Path))
		}
	}
	if len(fw.changes) == 0 {
		return nil
	}
	if rv := p.r.reviewBefore(w); rv != nil {
		for _, f := range rv.Form {
			if !f.Hidden && !f.File && f.Value != "" {
				fw.seen[f.Value] = true
			}
		}
	}
	fw.body = body
	return fw
}

// bodyFields is w's body as JSON reads it, or a form's fields as an
// object of strings (form); nil when it is neither (a field given twice
// included).
func bodyFields(w record.Request) (body any, form bool) {
	if isForm(w.RequestHeaders) {
		vals, err := url.ParseQuery(w.Body)
		if err != nil {
			return nil, true
		}
		m := map[string]any{}
		for k, v := range vals {
			if len(v) != 1 {
				return nil, true
			}
			m[k] = v[0]
		}
		return m, true
	}
	if json.Unmarshal([]byte(w.Body), &body) != nil {
		return nil, false
	}
	return body, false
}

// replaceByName sets each string field of body (at any depth) that answer
// also holds, under the same name, to answer's value; it answers the
// names it set.
func replaceByName(body, answer any) []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				if s, ok := v[k].(string); ok {
					if fresh, ok := findString(answer, k); ok && fresh != s {
						v[k] = fresh
						out = append(out, k)
					}
					continue
				}
				walk(v[k])
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(body)
	return out
}

func findString(v any, name string) (string, bool) {
	switch v := v.(type) {
	case map[string]any:
		if s, ok := v[name].(string); ok {
			return s, true
		}
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if s, ok := findString(v[k], name); ok {
				return s, true
			}
		}
	case []any:
		for _, e := range v {
			if s, ok := findString(e, name); ok {
				return s, true
			}
		}
	}
	return "", false
}

// perform sends one kind of replay and reads the state after it.
func (p *replayer) perform(ctx context.Context, entry scenarios.ReplayExpect, w *record.Request, fresh *freshWrite, run *scenarios.ReplayRun) {
	req := p.build(*w)
	if fresh != nil {
		var changes []string
		req.body, changes = fresh.varied(p.nextVariation())
		run.Fresh = true
		run.Changes = append(run.Changes, fresh.changes...)
		run.Changes = append(run.Changes, changes...)
	}
	if fresh == nil && run.Kind != vocab.ReplayAgain && run.Kind != vocab.ReplayStale && run.Kind != vocab.ReplayRace &&
		len(p.r.prerequisites(w)) > 0 && carriesPrecondition(req, entry.Preconditions) {
		// The page got this write's confirmation from its writes before
		// it, and sent again they gave no new one (their answers name no
		// field of this write, or they were refused): sent with the
		// person's used one, a refusal would show only that it was used.
		run.Skipped = "no fresh confirmation could be had (the page's writes before this one, sent again, answered no value under the name of one of its fields, or were refused): sent with the person's, which was used, a refusal would show only that"
		return
	}
	switch run.Kind {
	case vocab.ReplayNoSession, vocab.ReplayNoCSRF:
		if len(p.personNow()) == 0 && !hasHeader(req.headers, "Authorization") {
			run.Skipped = "the person's request carries no session (no cookie, no Authorization header): the app does not tell the person from anyone, and this replay would be their own request"
			return
		}
		if run.Kind == vocab.ReplayNoCSRF {
			changes, why := asOtherOriginsPage(req, p.r.t.BaseURL, entry.CSRF)
			if why != "" {
				run.Skipped = why
				return
			}
			run.Changes = append(run.Changes, changes...)
			break
		}
		req.asPerson, req.cookies = false, nil
		run.Changes = append(run.Changes, "no cookies")
		if deleteHeader(req.headers, "Authorization") {
			run.Changes = append(run.Changes, "no Authorization header")
		}
	case vocab.ReplayStale:
		changes := stripNamed(req, entry.Preconditions, preconditionName, staleValue)
		if len(changes) == 0 {
			run.Skipped = "the request carries no precondition (" + preconditionNames(entry.Preconditions) + ")"
			return
		}
		run.Changes = append(run.Changes, changes...)
	case vocab.ReplayOtherSession:
		if fresh == nil && !carriesPrecondition(req, entry.Preconditions) {
			run.Skipped = "the request carries nothing the app gave the person's session but its cookies and CSRF token (no precondition, no value of an earlier write's answer): from another session it is that session's own request"
			return
		}
		if !p.otherSession(ctx, entry, req, run) {
			return
		}
	case vocab.ReplayExpired:
		if p.r.t.Observer == nil {
			run.Skipped = "the app serves no observation endpoints: it has no clock the suite can move"
			return
		}
		if fresh == nil && !carriesPrecondition(req, entry.Preconditions) {
			run.Skipped = "the request carries nothing that can expire (no precondition, no value of an earlier write's answer)"
			return
		}
		d := entry.LifetimeOrDefault() + time.Second
		if _, err := p.r.t.Observer.Advance(ctx, d); err != nil {
			if errors.Is(err, observer.ErrNoClock) {
				run.Skipped = "the app serves no clock endpoint (" + observer.ClockPath + " answered 404)"
			} else {
				run.Fault = "move the app's clock: " + err.Error()
			}
			return
		}
		run.Clock = d.String()
	}
	reqs := []*outgoing{req}
	if run.Kind == vocab.ReplayRace {
		// Each copy a write of its own (new values) with the one fresh
		// confirmation: only the confirmation's single use may stop all
		// but one. Without one, the person's own request, N times.
		for range entry.CopiesOrDefault() - 1 {
			c := *req
			c.headers = maps.Clone(req.headers)
			if fresh != nil {
				c.body, _ = fresh.varied(p.nextVariation())
			}
			reqs = append(reqs, &c)
		}
	}
	run.Sent = append(run.Sent, p.sendAtOnce(ctx, reqs)...)
	if run.Sent[len(run.Sent)-1].Error != "" && slices.IndexFunc(run.Sent, func(s scenarios.ReplaySend) bool { return !s.Prerequisite && s.Status != 0 }) < 0 {
		run.Fault = "the app did not answer: " + run.Sent[len(run.Sent)-1].Error
		return
	}
	run.After = p.state(ctx)
}

// otherSession gives req a fresh session: the cookies a new visit to the
// start page gets, and that page's CSRF token in place of the person's.
func (p *replayer) otherSession(ctx context.Context, entry scenarios.ReplayExpect, req *outgoing, run *scenarios.ReplayRun) bool {
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Timeout: p.r.t.Bound, Jar: jar}
	start := p.r.t.BaseURL + p.r.sc.Start
	hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, start, nil)
	if err != nil {
		run.Fault = err.Error()
		return false
	}
	res, err := client.Do(hreq)
	if err != nil {
		run.Fault = "open the start page as another session: " + err.Error()
		return false
	}
	defer client.CloseIdleConnections()
	defer res.Body.Close()
	u, _ := url.Parse(p.r.t.BaseURL + "/")
	req.asPerson, req.cookies = false, jar.Cookies(u)
	if len(req.cookies) == 0 {
		run.Skipped = "a new visit to the start page gets no cookie: there is no other session to send from"
		return false
	}
	run.Changes = append(run.Changes, "the cookies of a new visit to "+p.r.sc.Start)
	token := csrfMeta(io.LimitReader(res.Body, 1<<20))
	changes := stripNamed(req, entry.CSRF, csrfName, func(string, any) (any, bool) { return token, token != "" })
	if token != "" && len(changes) > 0 {
		run.Changes = append(run.Changes, "that session's CSRF token (<meta name=\"csrf-token\">) in place of the person's")
	}
	return true
}

// csrfMeta is the content of the page's <meta name="csrf-token">, or "".
func csrfMeta(r io.Reader) string {
	z := html.NewTokenizer(r)
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			t := z.Token()
			if t.Data != "meta" {
				continue
			}
			var name, content string
			for _, a := range t.Attr {
				switch strings.ToLower(a.Key) {
				case "name":
					name = a.Val
				case "content":
					content = a.Val
				}
			}
			if strings.EqualFold(name, "csrf-token") {
				return content
			}
		}
	}
}

// outgoing is a request about to be sent.
type outgoing struct {
	method, url string
	headers     map[string]string
	body        string
	// asPerson sends it with the person's cookies as they stand when it
	// leaves, and keeps what its answer sets; else it carries cookies.
	asPerson bool
	cookies  []*http.Cookie
}

// unsent are headers the client sets itself, or that belong to the
// browser's connection rather than to the request.
var unsent = []string{"cookie", "host", "content-length", "connection", "accept-encoding"}

// build makes the recorded request q again, as the person's browser sent
// it: Chromium 156 records a request's headers (requestWillBeSent) without
// the Origin and Sec-Fetch-* it adds when it sends them, so they are put
// back, as for a request of the app's own page (a form's post is a
// navigation). An app that refuses a write without them (a strict
// Sec-Fetch-Site check) would refuse every replay and the control for it,
// whatever the rule a replay attacks.
func (p *replayer) build(q record.Request) *outgoing {
	h := map[string]string{}
	for k, v := range q.RequestHeaders {
		if !slices.Contains(unsent, strings.ToLower(k)) && !strings.HasPrefix(k, ":") {
			h[k] = v
		}
	}
	browser := map[string]string{"Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty"}
	if strings.EqualFold(q.ResourceType, "Document") {
		browser["Sec-Fetch-Mode"], browser["Sec-Fetch-Dest"] = "navigate", "document"
	}
	if !slices.Contains([]string{http.MethodGet, http.MethodHead}, q.Method) {
		if u, err := url.Parse(q.URL); err == nil {
			browser["Origin"] = u.Scheme + "://" + u.Host
		}
	}
	for k, v := range browser {
		if !hasHeader(h, k) {
			h[k] = v
		}
	}
	return &outgoing{method: q.Method, url: q.URL, headers: h, body: q.Body, asPerson: true}
}

func headerValue(h map[string]string, name string) string {
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

func hasHeader(h map[string]string, name string) bool {
	return slices.ContainsFunc(slices.Collect(maps.Keys(h)), func(k string) bool { return strings.EqualFold(k, name) })
}

// otherOrigin is an origin of the app's site that is not the app's: the
// same scheme and host on another port. A site is a scheme and a
// registrable domain, ports apart, so a page there is same-site: the
// browser sends it the person's cookies whatever their SameSite.
func otherOrigin(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return "null"
	}
	port := "1"
	if u.Port() == port {
		port = "2"
	}
	return u.Scheme + "://" + net.JoinHostPort(u.Hostname(), port)
}

// simpleMethods are those a page of another origin sends without asking
// the app first (a CORS preflight).
var simpleMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost}

// safelisted are the request headers a page of another origin may set
// without a preflight (the CORS-safelisted ones, Content-Type apart), and
// those the browser sets itself on any request.
func safelisted(name string) bool {
	n := strings.ToLower(name)
	return slices.Contains([]string{"accept", "accept-language", "content-language", "user-agent"}, n) || strings.HasPrefix(n, "sec-ch-")
}

// simpleContentTypes are the Content-Types a page of another origin may
// send without a preflight.
var simpleContentTypes = []string{"application/x-www-form-urlencoded", "multipart/form-data", "text/plain"}

// asOtherOriginsPage makes req what a page of another origin of the app's
// site can make the person's browser send (the no_csrf replay): the
// person's cookies, all of them (SameSite does not hold between the
// origins of one site); Origin, Referer and Sec-Fetch-Site: same-site as
// the browser sets them; no header such a page cannot set without the
// app's consent to a preflight (a CSRF token's, X-Requested-With, an
// Idempotency-Key); a body it cannot send as such (JSON) sent as
// text/plain, as fetch(url, {mode: "no-cors", credentials: "include",
// body}) sends it; and no CSRF field. Such a page cannot send a method
// other than GET, HEAD or POST at all: why answers so.
// docs/decisions/2026-12-04-faithful-replays.md says why this attacker.
func asOtherOriginsPage(req *outgoing, base string, csrf *scenarios.ReplayNames) (changes []string, why string) {
	if !slices.Contains(simpleMethods, req.method) {
		return nil, "a page of another origin cannot send " + req.method + " without the app's consent to a CORS preflight, which this replay does not ask"
	}
	if ct := headerValue(req.headers, "Content-Type"); strings.HasPrefix(strings.ToLower(ct), "multipart/") {
		return nil, "the body is " + ct + ", whose fields the replay does not read: a CSRF field in it could not be left out"
	}
	origin := otherOrigin(base)
	h := map[string]string{}
	form := false
	for _, k := range slices.Sorted(maps.Keys(req.headers)) {
		v := req.headers[k]
		switch {
		case strings.EqualFold(k, "Content-Type"):
			mt, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(v)), ";")
			if slices.Contains(simpleContentTypes, strings.TrimSpace(mt)) {
				h[k] = v
				form = mt != "text/plain"
				continue
			}
			h[k] = "text/plain;charset=UTF-8"
			changes = append(changes, "Content-Type "+v+" sent as text/plain;charset=UTF-8 (another origin's page cannot send "+v+" without a preflight)")
		case safelisted(k):
			h[k] = v
		case strings.EqualFold(k, "Referer") || strings.EqualFold(k, "Origin") || strings.HasPrefix(strings.ToLower(k), "sec-fetch-"):
		default:
			changes = append(changes, k+" header left out (another origin's page cannot set it without a preflight)")
		}
	}
	mode, dest := "no-cors", "empty"
	if form {
		mode, dest = "navigate", "document" // a form's post
	}
	h["Origin"], h["Referer"] = origin, origin+"/"
	h["Sec-Fetch-Site"], h["Sec-Fetch-Mode"], h["Sec-Fetch-Dest"] = "same-site", mode, dest
	req.headers = h
	changes = append(changes, "from a page of "+origin+", another origin of the same site (Origin, Referer, Sec-Fetch-Site: same-site), with the person's cookies")
	changes = append(changes, stripNamed(req, csrf, csrfName, func(string, any) (any, bool) { return nil, false })...)
	return changes, ""
}

func deleteHeader(h map[string]string, name string) bool {
	for k := range h {
		if strings.EqualFold(k, name) {
			delete(h, k)
			return true
		}
	}
	return false
}

// stripNamed changes every header and JSON or form field of req that
// names (or, without names, the rule by name) picks: to what value answers
// for it, or away when it answers false. It answers what it changed.
func stripNamed(req *outgoing, names *scenarios.ReplayNames, byName func(string) bool, value func(name string, old any) (any, bool)) []string {
	var changes []string
	pickHeader := func(k string) bool {
		if names != nil && len(names.Headers) > 0 {
			return slices.ContainsFunc(names.Headers, func(n string) bool { return strings.EqualFold(n, k) })
		}
		return byName(k)
	}
	for _, k := range slices.Sorted(maps.Keys(req.headers)) {
		if !pickHeader(k) {
			continue
		}
		if v, ok := value(k, req.headers[k]); ok {
			req.headers[k] = fmt.Sprint(v)
			changes = append(changes, k+" header replaced")
		} else {
			delete(req.headers, k)
			changes = append(changes, k+" header left out")
		}
	}
	pickField := func(ptr, name string) bool {
		if names != nil && len(names.Fields) > 0 {
			return slices.Contains(names.Fields, ptr)
		}
		return byName(name)
	}
	if isForm(req.headers) {
		vals, err := url.ParseQuery(req.body)
		if err != nil {
			return changes
		}
		for _, k := range slices.Sorted(maps.Keys(vals)) {
			if !pickField("/"+k, k) {
				continue
			}
			if v, ok := value(k, vals.Get(k)); ok {
				vals.Set(k, fmt.Sprint(v))
				changes = append(changes, "/"+k+" replaced")
			} else {
				vals.Del(k)
				changes = append(changes, "/"+k+" left out")
			}
		}
		req.body = vals.Encode()
		return changes
	}
	var body any
	if req.body == "" || json.Unmarshal([]byte(req.body), &body) != nil {
		return changes
	}
	var walk func(v any, at string)
	walk = func(v any, at string) {
		obj, ok := v.(map[string]any)
		if !ok {
			return
		}
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			ptr := at + "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
			if !pickField(ptr, k) {
				walk(obj[k], ptr)
				continue
			}
			if nv, ok := value(k, obj[k]); ok {
				obj[k] = nv
				changes = append(changes, ptr+" replaced")
			} else {
				delete(obj, k)
				changes = append(changes, ptr+" left out")
			}
		}
	}
	walk(body, "")
	b, _ := json.Marshal(body)
	req.body = string(b)
	return changes
}

func isForm(h map[string]string) bool {
	for k, v := range h {
		if strings.EqualFold(k, "Content-Type") && strings.HasPrefix(strings.ToLower(v), "application/x-www-form-urlencoded") {
			return true
		}
	}
	return false
}

// csrfName: a header or field whose name holds csrf or xsrf, or Rails'
// authenticity_token.
func csrfName(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "csrf") || strings.Contains(n, "xsrf") || n == "authenticity_token"
}

// preconditionWords are the names of a write's preconditions.
var preconditionWords = []string{"intent", "nonce", "version", "etag", "revision"}

func preconditionName(name string) bool {
	n := strings.ToLower(name)
	if n == "if-match" || n == "if-unmodified-since" {
		return true
	}
	return slices.ContainsFunc(preconditionWords, func(w string) bool { return strings.Contains(n, w) })
}

func preconditionNames(n *scenarios.ReplayNames) string {
	if n != nil && len(n.Headers)+len(n.Fields) > 0 {
		return "named: " + strings.Join(append(slices.Clone(n.Headers), n.Fields...), ", ")
	}
	return "no If-Match or If-Unmodified-Since, no field whose name holds " + strings.Join(preconditionWords, ", ")
}

// staleValue is a precondition no app issued, of the same type.
func staleValue(name string, old any) (any, bool) {
	switch strings.ToLower(name) {
	case "if-match":
		return staleETag, true
	case "if-unmodified-since":
		return "Sat, 01 Jan 2000 00:00:00 GMT", true
	}
	switch v := old.(type) {
	case float64:
		return v - 1, true
	case string:
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return strconv.FormatInt(n-1, 10), true
		}
		return "agentready-stale-" + v, true
	}
	return "agentready-stale", true
}

func carriesPrecondition(req *outgoing, names *scenarios.ReplayNames) bool {
	probe := &outgoing{headers: maps.Clone(req.headers), body: req.body}
	return len(stripNamed(probe, names, preconditionName, staleValue)) > 0
}

// sendAtOnce sends reqs together: each waits for the others to be ready,
// so that they reach the app as nearly at once as one client can.
func (p *replayer) sendAtOnce(ctx context.Context, reqs []*outgoing) []scenarios.ReplaySend {
	out := make([]scenarios.ReplaySend, len(reqs))
	if len(reqs) == 1 {
		out[0] = p.send(ctx, reqs[0], false)
		return out
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, req := range reqs {
		wg.Go(func() {
			<-start
			out[i] = p.send(ctx, req, false)
		})
	}
	close(start)
	wg.Wait()
	return out
}

// send sends one request and records it and its answer (never its cookies).
func (p *replayer) send(ctx context.Context, q *outgoing, prerequisite bool) scenarios.ReplaySend {
	return p.sendKeeping(ctx, q, prerequisite, answerKept)
}

// answerKept is the longest replay answer the record keeps; a probe's
// document may be longer (probeKept).
const (
	answerKept = 16 << 10
	probeKept  = 8 << 20
)

func (p *replayer) sendKeeping(ctx context.Context, q *outgoing, prerequisite bool, keep int) scenarios.ReplaySend {
	s := scenarios.ReplaySend{Prerequisite: prerequisite, Method: q.method, Path: pathOf(q.url), Headers: maps.Clone(q.headers), Body: q.body}
	var body io.Reader
	if q.body != "" {
		body = strings.NewReader(q.body)
	}
	req, err := http.NewRequestWithContext(ctx, q.method, q.url, body)
	if err != nil {
		s.Error = err.Error()
		return s
	}
	for k, v := range q.headers {
		req.Header.Set(k, v)
	}
	cookies := q.cookies
	if q.asPerson {
		cookies = p.personNow()
	}
	for _, c := range cookies {
		req.AddCookie(c)
	}
	res, err := p.client.Do(req)
	if err != nil {
		s.Error = err.Error()
		return s
	}
	defer res.Body.Close()
	if q.asPerson {
		p.keepCookies(res.Cookies())
	}
	s.Status = res.StatusCode
	b, _ := io.ReadAll(io.LimitReader(res.Body, int64(keep)+1))
	if len(b) <= keep && json.Valid(b) {
		var compact bytes.Buffer
		if json.Compact(&compact, b) == nil {
			s.Answer = compact.Bytes()
		}
	}
	return s
}

// state reads the app's state as the person's session sees it: each probe
// (with the person's cookies and the probe header) and the observer, all
// at once. Nil without any source, as for a phase.
func (p *replayer) state(ctx context.Context) *record.Snapshot {
	r := p.r
	if r.t.Observer == nil && len(r.sc.Probes) == 0 {
		return nil
	}
	s := &record.Snapshot{Docs: map[string]json.RawMessage{}}
	var mu sync.Mutex
	put := func(source string, doc json.RawMessage, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			if s.Errors == nil {
				s.Errors = map[string]string{}
			}
			s.Errors[source] = err.Error()
			return
		}
		s.Docs[source] = doc
	}
	var wg sync.WaitGroup
	if r.t.Observer != nil {
		wg.Go(func() {
			doc, err := r.t.Observer.State(ctx)
			put(record.ObserverSource, doc, err)
		})
	}
	for name, line := range r.sc.Probes {
		_, path, _ := line.Split()
		wg.Go(func() {
			q := &outgoing{method: http.MethodGet, url: r.t.BaseURL + path, asPerson: true,
				headers: map[string]string{"Accept": "application/json", record.ProbeHeader: name}}
			sent := p.sendKeeping(ctx, q, false, probeKept)
			switch {
			case sent.Error != "":
				put(name, nil, errors.New(sent.Error))
			case sent.Status != http.StatusOK:
				put(name, nil, fmt.Errorf("GET %s answered %d", path, sent.Status))
			case sent.Answer == nil:
				put(name, nil, fmt.Errorf("GET %s did not answer JSON", path))
			default:
				put(name, sent.Answer, nil)
			}
		})
	}
	wg.Wait()
	return s
}
