package runner

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

// notesApp is an app of our own built as real apps are, not as the
// reference app is: a session cookie from the start page, a confirmation
// (an intent) per note, and one of the CSRF defences real apps use, each
// answered as real apps answer (JSON, a redirect, a 200 with an error).
// Its notes are the person's; GET /api/notes lists them.
type notesApp struct {
	defence  string        // token, origin, fetch-site-strict, custom-header, double-submit, json-only, none
	sameSite http.SameSite // of the session cookie
	answer   string        // json, redirect (a form's post: 303), error200 (refusals as 200 {"ok":false,…})
	rotate   bool          // every write ends its session and starts a new one (Set-Cookie)
	leaky    bool          // a write without a session still writes (for the anonymous user)
	noTokens bool          // the page sends no CSRF token (an app that needs none)
	// sessionless: no cookie at all, every request is the anonymous
	// user's (a public demo).
	sessionless bool
	// downAfter: the app stops answering after this many notes' posts
	// (0: never).
	downAfter int
	// intentsDownAfter: the same for intents.
	intentsDownAfter int
	intentPosts      int
	// anyIntent: a note takes any intent, issued or not (a defect).
	anyIntent bool
	// intentKey names the intent in the intents' answer: intentId, or
	// another name than the note's field (an app that answers {id}).
	intentKey string

	mu       sync.Mutex
	posts    int
	sessions map[string]string // session → user
	tokens   map[string]string // user → CSRF token
	intents  map[string]string // intent → user, until used
	notes    map[string][]string
	n        int
}

func (a *notesApp) id(prefix string) string {
	return prefix + "_" + rand.Text()[:12]
}

func (a *notesApp) handler() http.Handler {
	a.sessions, a.tokens, a.intents, a.notes = map[string]string{}, map[string]string{}, map[string]string{}, map[string][]string{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.n++
		user := fmt.Sprintf("user%d", a.n)
		a.tokens[user] = a.id("tok")
		token := a.tokens[user]
		a.mu.Unlock()
		if !a.sessionless {
			a.startSession(w, user)
		}
		if a.defence == "double-submit" {
			http.SetCookie(w, &http.Cookie{Name: "csrf_token", Value: token, Path: "/", SameSite: a.sameSite})
		}
		fmt.Fprintf(w, `<!doctype html><meta name="csrf-token" content="%s"><form><input name="text" value="Buy milk"></form>`, token)
	})
	mux.HandleFunc("GET /api/notes", func(w http.ResponseWriter, r *http.Request) {
		user, ok := a.user(r)
		if !ok {
			http.Error(w, `{"error":"no session"}`, http.StatusUnauthorized)
			return
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		_ = json.NewEncoder(w).Encode(map[string]any{"notes": slices.Clone(a.notes[user]), "all": a.total()})
	})
	mux.HandleFunc("POST /api/intents", func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.intentPosts++
		down := a.intentsDownAfter > 0 && a.intentPosts > a.intentsDownAfter
		a.mu.Unlock()
		if down {
			conn, _, _ := w.(http.Hijacker).Hijack()
			_ = conn.Close()
			return
		}
		user, why := a.guard(w, r)
		if why != "" {
			a.refuse(w, r, why)
			return
		}
		a.mu.Lock()
		in := a.id("int")
		a.intents[in] = user
		a.mu.Unlock()
		a.rotateSession(w, r, user)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{%q:%q}`, cmp.Or(a.intentKey, "intentId"), in)
	})
	mux.HandleFunc("POST /api/notes", func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.posts++
		down := a.downAfter > 0 && a.posts > a.downAfter
		a.mu.Unlock()
		if down {
			conn, _, _ := w.(http.Hijacker).Hijack()
			_ = conn.Close()
			return
		}
		user, why := a.guard(w, r)
		if why != "" && !(a.leaky && why == "no session") {
			a.refuse(w, r, why)
			return
		}
		var note struct{ Text, IntentID string }
		body, _ := io.ReadAll(r.Body)
		if strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
			v, _ := url.ParseQuery(string(body))
			note.Text, note.IntentID = v.Get("text"), v.Get("intentId")
		} else if json.Unmarshal(body, &note) != nil {
			a.refuse(w, r, "not JSON")
			return
		}
		a.mu.Lock()
		owner, ok := a.intents[note.IntentID]
		if why == "" && !a.anyIntent && (!ok || owner != user) {
			a.mu.Unlock()
			a.refuse(w, r, "no such intent")
			return
		}
		delete(a.intents, note.IntentID)
		a.notes[user] = append(a.notes[user], note.Text)
		a.mu.Unlock()
		a.rotateSession(w, r, user)
		switch a.answer {
		case "redirect":
			http.Redirect(w, r, "/notes", http.StatusSeeOther)
		default:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusCreated)
			fmt.Fprint(w, `{"ok":true}`)
		}
	})
	var h http.Handler = mux
	if a.defence == "origin" {
		h = http.NewCrossOriginProtection().Handler(mux) // Go's own: Sec-Fetch-Site, else Origin against Host
	}
	return h
}

func (a *notesApp) total() int {
	n := 0
	for _, ns := range a.notes {
		n += len(ns)
	}
	return n
}

func (a *notesApp) startSession(w http.ResponseWriter, user string) {
	a.mu.Lock()
	s := a.id("sess")
	a.sessions[s] = user
	a.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: "sid", Value: s, Path: "/", HttpOnly: true, SameSite: a.sameSite})
}

func (a *notesApp) rotateSession(w http.ResponseWriter, r *http.Request, user string) {
	if !a.rotate {
		return
	}
	c, _ := r.Cookie("sid")
	a.mu.Lock()
	delete(a.sessions, c.Value)
	a.mu.Unlock()
	a.startSession(w, user)
}

func (a *notesApp) user(r *http.Request) (string, bool) {
	if a.sessionless {
		return "anonymous", true
	}
	c, err := r.Cookie("sid")
	if err != nil {
		return "anonymous", false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	u, ok := a.sessions[c.Value]
	if !ok {
		return "anonymous", false
	}
	return u, ok
}

// guard is the app's check of a write: a session, then its CSRF defence.
func (a *notesApp) guard(w http.ResponseWriter, r *http.Request) (string, string) {
	user, ok := a.user(r)
	if !ok {
		return user, "no session"
	}
	a.mu.Lock()
	token := a.tokens[user]
	a.mu.Unlock()
	switch a.defence {
	case "token":
		if r.Header.Get("X-CSRF-Token") != token {
			return user, "CSRF token missing"
		}
	case "custom-header":
		if r.Header.Get("X-Requested-With") != "XMLHttpRequest" {
			return user, "X-Requested-With missing"
		}
	case "double-submit":
		c, err := r.Cookie("csrf_token")
		if err != nil || c.Value != r.Header.Get("X-CSRF-Token") {
			return user, "CSRF token missing"
		}
	case "fetch-site-strict": // only the app's own pages, and no request without Sec-Fetch-Site
		if r.Header.Get("Sec-Fetch-Site") != "same-origin" {
			return user, "not from this site"
		}
	case "json-only":
		if r.Header.Get("Content-Type") != "application/json" {
			return user, "send JSON"
		}
	}
	return user, ""
}

func (a *notesApp) refuse(w http.ResponseWriter, r *http.Request, why string) {
	switch {
	case a.answer == "redirect" && why == "no session":
		http.Redirect(w, r, "/login", http.StatusSeeOther)
	case a.answer == "error200":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"ok":false,"error":%q}`, why)
	default:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprintf(w, `{"code":%q}`, strings.ToUpper(strings.ReplaceAll(why, " ", "_")))
	}
}

// playNotes plays the person's note on app as its page would (an intent,
// then the note, with the page's headers) and answers a runner holding
// the record, ready to replay it.
func playNotes(t *testing.T, app *notesApp) (played, *httptest.Server) {
	t.Helper()
	srv := httptest.NewServer(app.handler())
	t.Cleanup(srv.Close)
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 5 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	defer client.CloseIdleConnections()
	res, err := client.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	token := csrfMeta(res.Body)
	res.Body.Close()
	// As the page's fetches are recorded by Chromium 156 (requestWillBeSent):
	// no Origin, no Sec-Fetch-*, no Cookie.
	headers := map[string]string{"Content-Type": "application/json", "Accept": "*/*", "Referer": srv.URL + "/",
		"User-Agent": "Mozilla/5.0 HeadlessChrome/156.0.0.0", "X-Requested-With": "XMLHttpRequest"}
	if !app.noTokens {
		headers["X-CSRF-Token"] = token
	}
	log := record.Log{{Seq: 1, Method: "GET", URL: srv.URL + "/", Path: "/", Status: 200, Done: true}}
	post := func(path, body string, h map[string]string) []byte {
		req, _ := http.NewRequest("POST", srv.URL+path, strings.NewReader(body))
		for k, v := range h {
			req.Header.Set(k, v)
		}
		// What the browser adds as it sends the page's request, and the
		// record does not hold.
		req.Header.Set("Origin", srv.URL)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		answer, _ := io.ReadAll(res.Body)
		if res.StatusCode >= 400 || strings.Contains(string(answer), `"ok":false`) {
			t.Fatalf("the person's POST %s: %d %s", path, res.StatusCode, answer)
		}
		log = append(log, record.Request{Seq: len(log) + 1, Method: "POST", URL: srv.URL + path, Path: path,
			RequestHeaders: h, HasBody: true, Body: body, Status: res.StatusCode, Done: true})
		return answer
	}
	sc := scenarios.Scenario{ID: "NOTES-01", Start: "/", Probes: map[string]scenarios.RequestLine{"notes": "GET /api/notes"},
		Expect: scenarios.Expect{Guarded: []scenarios.RequestLine{"POST /api/notes"}}}
	u, _ := url.Parse(srv.URL + "/")
	r := &runner{sc: sc, t: Target{BaseURL: srv.URL, Bound: 5 * time.Second},
		ev: &scenarios.Evidence{Marks: map[vocab.Phase]scenarios.Mark{}, States: map[vocab.Phase]*record.Snapshot{}}}
	r.ev.Capture.Network = true
	p := &replayer{r: r, person: jar.Cookies(u), client: &http.Client{Timeout: 5 * time.Second}}
	r.ev.States[vocab.PhaseAgent] = p.state(context.Background())
	r.ev.Reviews = []scenarios.Review{{Phase: vocab.PhaseHuman, Click: "#save", Requests: 1, Form: []scenarios.FormField{{Name: "text", Value: "Buy milk"}}}}
	var answer map[string]string
	_ = json.Unmarshal(post("/api/intents", `{}`, headers), &answer)
	intent := struct{ IntentID string }{answer[cmp.Or(app.intentKey, "intentId")]}
	if app.answer == "redirect" {
		form := map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Referer": srv.URL + "/"}
		post("/api/notes", url.Values{"text": {"Buy milk"}, "intentId": {intent.IntentID}}.Encode(), form)
	} else {
		post("/api/notes", `{"text":"Buy milk","intentId":"`+intent.IntentID+`"}`, headers)
	}
	r.ev.Requests = log
	p.person = jar.Cookies(u) // the tab's cookies after the person's phase
	if p.person == nil {
		p.person = []*http.Cookie{} // read, and none (personCookies)
	}
	r.ev.States[vocab.PhaseHuman] = p.state(context.Background())
	r.ev.Marks = map[vocab.Phase]scenarios.Mark{vocab.PhaseAgent: {Requests: 1}, vocab.PhaseHuman: {Requests: 1}, vocab.PhaseEnd: {Requests: len(log)}}
	return played{r: r, person: p.person}, srv
}

// kindCheck is the check of one kind of replay, or nil when there was none.
func kindCheck(checks []judge.Check, kind vocab.ReplayKind) *judge.Check {
	i := slices.IndexFunc(checks, func(c judge.Check) bool { return strings.Contains(c.ID, " "+string(kind)+" ") })
	if i < 0 {
		return nil
	}
	return &checks[i]
}

func sentOf(p played, kind vocab.ReplayKind) scenarios.ReplaySend {
	i := slices.IndexFunc(p.r.ev.Replays.Runs, func(r scenarios.ReplayRun) bool { return r.Kind == kind })
	for _, s := range p.r.ev.Replays.Runs[i].Sent {
		if !s.Prerequisite {
			return s
		}
	}
	return scenarios.ReplaySend{}
}

// no_csrf is a page of another origin of the app's site, as a browser
// sends its write: each CSRF defence real apps use refuses it, and only an
// app that has none (SameSite cookies alone do not hold between the
// origins of one site) accepts it. Go's http.CrossOriginProtection, a
// custom header and a JSON-only API each accepted the old replay (which
// carried the page's own headers and no Origin): a FAIL of correct apps.
func TestNoCSRFIsAPageOfAnotherOriginAsABrowserSendsIt(t *testing.T) {
	for _, c := range []struct {
		app  *notesApp
		want vocab.CheckStatus
	}{
		{&notesApp{defence: "token", sameSite: http.SameSiteLaxMode}, vocab.CheckPass},
		{&notesApp{defence: "origin", sameSite: http.SameSiteLaxMode}, vocab.CheckPass},
		{&notesApp{defence: "custom-header", sameSite: http.SameSiteLaxMode}, vocab.CheckPass},
		{&notesApp{defence: "double-submit", sameSite: http.SameSiteLaxMode}, vocab.CheckPass},
		{&notesApp{defence: "json-only", sameSite: http.SameSiteNoneMode}, vocab.CheckPass},
		{&notesApp{defence: "none", sameSite: http.SameSiteStrictMode}, vocab.CheckFail},
		{&notesApp{defence: "none", sameSite: http.SameSiteNoneMode, noTokens: true}, vocab.CheckFail},
	} {
		name := fmt.Sprintf("%s, SameSite %d", c.app.defence, c.app.sameSite)
		t.Run(name, func(t *testing.T) {
			p, srv := playNotes(t, c.app)
			checks, _ := p.replayChecks(t)
			got := kindCheck(checks, vocab.ReplayNoCSRF)
			if got == nil || got.Status != c.want || c.want == vocab.CheckFail && got.Code != vocab.ReplayAccepted {
				t.Fatalf("no_csrf: %+v, want %s", got, c.want)
			}
			s := sentOf(p, vocab.ReplayNoCSRF)
			if s.Headers["Origin"] != otherOrigin(srv.URL) || s.Headers["Sec-Fetch-Site"] != "same-site" || s.Headers["Content-Type"] != "text/plain;charset=UTF-8" ||
				hasHeader(s.Headers, "X-CSRF-Token") || hasHeader(s.Headers, "X-Requested-With") || !strings.Contains(s.Body, `"intentId"`) {
				t.Errorf("sent %+v", s)
			}
			if !strings.Contains(got.Message, "another origin of the same site") {
				t.Errorf("the check does not say who sent it: %s", got.Message)
			}
		})
	}
}

func TestAnotherOriginIsOfTheSameSite(t *testing.T) {
	for base, want := range map[string]string{
		"http://127.0.0.1:3000":     "http://127.0.0.1:1",
		"https://shop.example.com":  "https://shop.example.com:1",
		"http://localhost:1":        "http://localhost:2",
		"http://[::1]:8080/app":     "http://[::1]:1",
		"http://shop.example.com:1": "http://shop.example.com:2",
	} {
		if got := otherOrigin(base); got != want {
			t.Errorf("%s: %s, want %s", base, got, want)
		}
	}
}

// A page of another origin cannot send PUT or DELETE without the app's
// consent to a preflight: no_csrf is skipped, saying so.
func TestNoCSRFOfAMethodAPageCannotSendIsSkipped(t *testing.T) {
	req := &outgoing{method: http.MethodPut, headers: map[string]string{"X-CSRF-Token": "t"}}
	if _, why := asOtherOriginsPage(req, "http://127.0.0.1:3000", nil); !strings.Contains(why, "PUT") || !strings.Contains(why, "preflight") {
		t.Errorf("why %q", why)
	}
	form := &outgoing{method: http.MethodPost, headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "X-Idempotency-Key": "k"}, body: "csrf_token=t&text=a"}
	if _, why := asOtherOriginsPage(form, "http://127.0.0.1:3000", nil); why != "" || form.body != "text=a" ||
		form.headers["Content-Type"] != "application/x-www-form-urlencoded" || form.headers["Sec-Fetch-Mode"] != "navigate" || hasHeader(form.headers, "X-Idempotency-Key") {
		t.Errorf("a form's post: %+v", form)
	}
}

// A form's post answered with a redirect, and refusals answered 200 with
// an error in the body, are judged by the state: the correct app passes
// (the old judge read any 2xx or 3xx as accepted: replay_accepted); the
// app that writes for a request without a session and answers the same
// way fails, by the state.
func TestRedirectsAndErrorsIn200AreJudgedByTheState(t *testing.T) {
	for _, answer := range []string{"redirect", "error200"} {
		t.Run(answer, func(t *testing.T) {
			p, _ := playNotes(t, &notesApp{defence: "origin", sameSite: http.SameSiteLaxMode, answer: answer})
			checks, _ := p.replayChecks(t)
			for _, kind := range []vocab.ReplayKind{vocab.ReplayNoSession, vocab.ReplayNoCSRF, vocab.ReplayStale, vocab.ReplayOtherSession} {
				if c := kindCheck(checks, kind); c == nil || c.Status != vocab.CheckPass {
					t.Errorf("%s: %+v", kind, c)
				}
			}
			if s := sentOf(p, vocab.ReplayNoSession); !s.Accepted() {
				t.Errorf("the app did not answer as meant: %+v", s)
			}
			// A form's post gets its fresh confirmation as a JSON body does.
			if c := p.r.ev.Replays.Controls; len(c) != 1 || !c[0].Fresh || answer == "redirect" && !strings.Contains(c[0].Sent[len(c[0].Sent)-1].Body, "text=Buy+milk+1") {
				t.Errorf("control %+v", c)
			}
			p, _ = playNotes(t, &notesApp{defence: "origin", sameSite: http.SameSiteLaxMode, answer: answer, leaky: true})
			checks, _ = p.replayChecks(t)
			if c := kindCheck(checks, vocab.ReplayNoSession); c == nil || c.Status != vocab.CheckFail || c.Code != vocab.ReplaySecondEffect && c.Code != vocab.ReplayAccepted {
				t.Errorf("a write without a session, answered %s: %+v", answer, c)
			}
		})
	}
}

// An app that rotates its session on every write (the old session ended):
// the replays follow the person's cookies as the browser does, so that the
// control, the replays and the state reads are the person's; else every
// replay after the control is refused for a session the app ended, and a
// CSRF defect passes.
func TestASessionRotatedByAWriteIsFollowed(t *testing.T) {
	p, _ := playNotes(t, &notesApp{defence: "token", sameSite: http.SameSiteLaxMode, rotate: true})
	checks, skipped := p.replayChecks(t)
	for _, kind := range []vocab.ReplayKind{vocab.ReplayNoSession, vocab.ReplayNoCSRF, vocab.ReplayStale, vocab.ReplayAgain, vocab.ReplayOtherSession, vocab.ReplayRace} {
		if c := kindCheck(checks, kind); c == nil || c.Status != vocab.CheckPass {
			t.Errorf("%s: %+v (skipped %v)", kind, c, skipped)
		}
	}
	if c := p.r.ev.Replays.Controls; len(c) != 1 || !c[0].Sent[len(c[0].Sent)-1].PlainlyAccepted() {
		t.Errorf("control %+v", c)
	}
	p, _ = playNotes(t, &notesApp{defence: "none", sameSite: http.SameSiteLaxMode, rotate: true})
	checks, _ = p.replayChecks(t)
	if c := kindCheck(checks, vocab.ReplayNoCSRF); c == nil || c.Code != vocab.ReplayAccepted {
		t.Errorf("no CSRF defence behind a rotating session: %+v", c)
	}
}

// An app that tells no person from another (no cookie, no Authorization)
// gets no no_session or no_csrf replay: each would be the person's own
// request. Before, a demo of public bookings (realpages HOTEL-01) failed
// with replay_accepted.
func TestAnAppWithoutSessionsIsNotFailedForAcceptingAnyone(t *testing.T) {
	p, _ := playNotes(t, &notesApp{defence: "none", sessionless: true})
	checks, skipped := p.replayChecks(t)
	for _, kind := range []vocab.ReplayKind{vocab.ReplayNoSession, vocab.ReplayNoCSRF} {
		if c := kindCheck(checks, kind); c != nil {
			t.Errorf("%s was judged: %+v", kind, c)
		}
		if !slices.ContainsFunc(skipped, func(s judge.Skip) bool {
			return strings.Contains(s.ID, " "+string(kind)+" ") && strings.Contains(s.Reason, "no session")
		}) {
			t.Errorf("%s not skipped: %v", kind, skipped)
		}
	}
	if c := kindCheck(checks, vocab.ReplayStale); c == nil || c.Status != vocab.CheckPass {
		t.Errorf("stale, which needs no session: %+v", c)
	}
}

// A prerequisite whose body the record does not hold, or that the app did
// not answer, leaves no fresh confirmation: the kinds that take one are
// INCONCLUSIVE, never judged on the person's used one (a refusal for
// "used" would pass them all).
func TestAPrerequisiteNotSentAgainIsInconclusive(t *testing.T) {
	p, _ := playNotes(t, &notesApp{defence: "none", sameSite: http.SameSiteNoneMode})
	p.r.ev.Requests[1].Body = ""
	checks, _ := p.replayChecks(t)
	for _, kind := range []vocab.ReplayKind{vocab.ReplayNoSession, vocab.ReplayNoCSRF, vocab.ReplayStale, vocab.ReplayRace} {
		c := kindCheck(checks, kind)
		if c == nil || c.Status != vocab.CheckInconclusive || c.Code != vocab.EvidenceMissing || !strings.Contains(c.Message, "POST /api/intents") {
			t.Errorf("%s: %+v", kind, c)
		}
	}
	if c := kindCheck(checks, vocab.ReplayAgain); c == nil || c.Status == vocab.CheckInconclusive {
		t.Errorf("again needs no prerequisite: %+v", c)
	}
	p, _ = playNotes(t, &notesApp{defence: "none", sameSite: http.SameSiteNoneMode, intentsDownAfter: 1})
	checks, _ = p.replayChecks(t)
	for _, kind := range []vocab.ReplayKind{vocab.ReplayNoSession, vocab.ReplayNoCSRF, vocab.ReplayStale, vocab.ReplayRace} {
		c := kindCheck(checks, kind)
		if c == nil || c.Status != vocab.CheckInconclusive || c.Code != vocab.HarnessFault || !strings.Contains(c.Message, "did not answer POST /api/intents") {
			t.Errorf("an intent not answered, %s: %+v", kind, c)
		}
	}
}

// An app that goes down during the replays: what it did not answer is
// INCONCLUSIVE (harness_fault), never a pass or a FAIL.
func TestAnAppThatGoesDownMidReplayIsInconclusive(t *testing.T) {
	// The person's note, the control and no_session are answered; then
	// the app answers no post of a note.
	p, _ := playNotes(t, &notesApp{defence: "token", sameSite: http.SameSiteLaxMode, downAfter: 3})
	checks, _ := p.replayChecks(t)
	if c := kindCheck(checks, vocab.ReplayNoSession); c == nil || c.Status != vocab.CheckPass {
		t.Errorf("no_session, answered before: %+v", c)
	}
	for _, kind := range []vocab.ReplayKind{vocab.ReplayNoCSRF, vocab.ReplayStale, vocab.ReplayAgain, vocab.ReplayOtherSession, vocab.ReplayRace} {
		if c := kindCheck(checks, kind); c == nil || c.Status != vocab.CheckInconclusive || c.Code != vocab.HarnessFault {
			t.Errorf("%s: %+v", kind, c)
		}
	}
}

// An app whose intents' answer names the intent otherwise ({id} for the
// note's intentId) gives no fresh confirmation by name: the kinds that
// need one are skipped, saying why, not sent with the person's used one
// (refused as used, they passed: no_csrf of an app with no CSRF defence).
func TestWithoutAFreshConfirmationTheKindsThatNeedOneAreSkipped(t *testing.T) {
	p, _ := playNotes(t, &notesApp{defence: "none", sameSite: http.SameSiteNoneMode, intentKey: "id"})
	checks, skipped := p.replayChecks(t)
	for _, kind := range []vocab.ReplayKind{vocab.ReplayNoSession, vocab.ReplayNoCSRF, vocab.ReplayOtherSession} {
		if c := kindCheck(checks, kind); c != nil {
			t.Errorf("%s was judged: %+v", kind, c)
		}
		if !slices.ContainsFunc(skipped, func(s judge.Skip) bool {
			return strings.Contains(s.ID, " "+string(kind)+" ") && strings.Contains(s.Reason, "no fresh confirmation")
		}) {
			t.Errorf("%s not skipped: %v", kind, skipped)
		}
	}
	for _, kind := range []vocab.ReplayKind{vocab.ReplayStale, vocab.ReplayAgain, vocab.ReplayRace} {
		if c := kindCheck(checks, kind); c == nil || c.Status != vocab.CheckPass {
			t.Errorf("%s, which needs no fresh confirmation: %+v", kind, c)
		}
	}
}

// An app that takes a write only with the browser's Sec-Fetch-Site:
// same-origin (refusing one without it, as from curl) took none of the old
// replays, whose recorded headers lack what the browser adds: its control
// was refused (every fresh kind skipped) and stale was refused for the
// header, so an app that takes any intent passed. The replays now carry
// the browser's Origin and Sec-Fetch-* as the person's page sent them.
func TestTheBrowsersOwnHeadersAreSentAsThePersonsPageSentThem(t *testing.T) {
	p, srv := playNotes(t, &notesApp{defence: "fetch-site-strict", sameSite: http.SameSiteLaxMode})
	checks, skipped := p.replayChecks(t)
	for _, kind := range []vocab.ReplayKind{vocab.ReplayNoSession, vocab.ReplayNoCSRF, vocab.ReplayStale, vocab.ReplayAgain, vocab.ReplayOtherSession, vocab.ReplayRace} {
		if c := kindCheck(checks, kind); c == nil || c.Status != vocab.CheckPass {
			t.Errorf("%s: %+v (skipped %v)", kind, c, skipped)
		}
	}
	if s := sentOf(p, vocab.ReplayAgain); s.Headers["Origin"] != srv.URL || s.Headers["Sec-Fetch-Site"] != "same-origin" || s.Headers["Sec-Fetch-Mode"] != "cors" {
		t.Errorf("again sent %v", s.Headers)
	}
	p, _ = playNotes(t, &notesApp{defence: "fetch-site-strict", sameSite: http.SameSiteLaxMode, anyIntent: true})
	checks, _ = p.replayChecks(t)
	if c := kindCheck(checks, vocab.ReplayStale); c == nil || c.Code != vocab.ReplayAccepted {
		t.Errorf("stale on an app that takes any intent: %+v", c)
	}
}

// A multipart body is not read: whether it carries a CSRF field is not
// known, so no_csrf is skipped rather than sent with the token in it (an
// app that checks it would have been failed).
func TestNoCSRFOfAMultipartBodyIsSkipped(t *testing.T) {
	req := &outgoing{method: http.MethodPost, headers: map[string]string{"content-type": "multipart/form-data; boundary=x"}, body: "--x\r\n"}
	if _, why := asOtherOriginsPage(req, "http://127.0.0.1:3000", nil); !strings.Contains(why, "multipart/form-data") {
		t.Errorf("why %q", why)
	}
}

// Cookies that could not be read from the tab leave every kind
// INCONCLUSIVE, no_session included: whether the person had a session at
// all (without one it is skipped) is unknown.
func TestCookiesNotReadAreInconclusiveForEveryKind(t *testing.T) {
	p, _ := playNotes(t, &notesApp{defence: "none", sessionless: true})
	p.person = nil
	checks, _ := p.replayChecks(t)
	for _, kind := range vocab.ReplayKinds {
		if c := kindCheck(checks, kind); c == nil || c.Status != vocab.CheckInconclusive || !strings.Contains(c.Message, "cookies could not be read") {
			t.Errorf("%s: %+v", kind, c)
		}
	}
}
