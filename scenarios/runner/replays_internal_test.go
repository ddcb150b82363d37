package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/live/observer"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

// These tests perform real replays against the reference app with no
// browser: the person's click is played over HTTP and recorded as the
// network log would record it (method, URL, the page's headers, the body),
// and the replays are sent from it as a run sends them.

const tipEvent = "evt-webmcp-intro"

type played struct {
	r      *runner
	person []*http.Cookie
	app    *refapp.Server
}

// flow is what a page sends after the person's click: an intent for
// action, then the write to path with the body that intent makes, from a
// form that showed form.
type flow struct {
	scenario, action, path string
	body                   func(intentID string) string
	form                   []scenarios.FormField
}

var tipFlow = flow{scenario: "../cases/TIP-01.yaml", action: "tip", path: "/api/events/" + tipEvent + "/tips",
	body: func(in string) string { return `{"amountTWD":200,"message":"Thank you!","intentId":"` + in + `"}` },
	form: []scenarios.FormField{{Name: "amountTWD", Value: "200", Required: true}, {Name: "message", Value: "Thank you!"}}}

// registration is CONF-01's: a business rule (one registration per email
// and event) refuses the person's own write again, whatever its intent.
var registration = flow{scenario: "../cases/CONF-01.attempt-3.yaml", action: "register", path: "/api/registrations",
	body: func(in string) string {
		return `{"eventId":"` + tipEvent + `","attendeeName":"Ada Lovelace","email":"ada@example.com","intentId":"` + in + `","interactionMode":"human"}`
	},
	form: []scenarios.FormField{{Name: "attendeeName", Value: "Ada Lovelace", Required: true}, {Name: "email", Value: "ada@example.com", Required: true}}}

func playTip(t *testing.T, v refapp.Variant, observed bool) played {
	t.Helper()
	return play(t, tipFlow, v, observed)
}

// play sends f as the page does after the person's click and answers a
// runner holding its record, ready to replay it.
func play(t *testing.T, f flow, v refapp.Variant, observed bool) played {
	t.Helper()
	app, err := refapp.Start(refapp.Options{Variant: v, ObserverToken: "tok"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.Close() })
	sc, err := scenarios.Load(f.scenario)
	if err != nil {
		t.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 5 * time.Second}
	defer client.CloseIdleConnections()
	res, err := client.Get(app.URL + sc.Start)
	if err != nil {
		t.Fatal(err)
	}
	csrf := csrfMeta(res.Body)
	res.Body.Close()
	if csrf == "" {
		t.Fatal("the page names no CSRF token")
	}
	headers := map[string]string{"Content-Type": "application/json", "X-CSRF-Token": csrf, "Accept": "*/*"}
	log := record.Log{{Seq: 1, Method: "GET", URL: app.URL + sc.Start, Path: sc.Start, Status: 200, Done: true}}
	post := func(path, body string) json.RawMessage {
		req, _ := http.NewRequest("POST", app.URL+path, strings.NewReader(body))
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		answer, _ := io.ReadAll(res.Body)
		if res.StatusCode >= 300 {
			t.Fatalf("POST %s: %d %s", path, res.StatusCode, answer)
		}
		log = append(log, record.Request{Seq: len(log) + 1, Method: "POST", URL: app.URL + path, Path: path,
			RequestHeaders: headers, HasBody: true, Body: body, Status: res.StatusCode, Done: true})
		return answer
	}
	tg := Target{BaseURL: app.URL, Bound: 5 * time.Second}
	if observed {
		tg.Observer = observer.New(app.URL, "tok")
	}
	u, _ := url.Parse(app.URL + "/")
	r := &runner{sc: sc, t: tg, ev: &scenarios.Evidence{Marks: map[vocab.Phase]scenarios.Mark{}, States: map[vocab.Phase]*record.Snapshot{}}}
	p := &replayer{r: r, person: jar.Cookies(u), client: &http.Client{Timeout: 5 * time.Second}}
	r.ev.Capture.Network = true
	r.ev.States[vocab.PhaseAgent] = p.state(context.Background())
	r.ev.Reviews = []scenarios.Review{{Phase: vocab.PhaseHuman, Click: "#submit", Requests: 1, Form: f.form}}
	var intent struct {
		IntentID string `json:"intentId"`
	}
	_ = json.Unmarshal(post("/api/intents", `{"action":"`+f.action+`","eventId":"`+tipEvent+`"}`), &intent)
	post(f.path, f.body(intent.IntentID))
	r.ev.Requests = log
	r.ev.States[vocab.PhaseHuman] = p.state(context.Background())
	r.ev.Marks = map[vocab.Phase]scenarios.Mark{vocab.PhaseAgent: {Requests: 1}, vocab.PhaseHuman: {Requests: 1}, vocab.PhaseEnd: {Requests: len(log)}}
	return played{r: r, person: p.person, app: app}
}

// replayChecks judges the record and answers its replay checks and skips.
func (p played) replayChecks(t *testing.T) ([]judge.Check, []judge.Skip) {
	t.Helper()
	p.r.replay(context.Background(), p.person)
	v := judge.Judge(p.r.sc, p.r.ev)
	return slices.DeleteFunc(v.Checks, func(c judge.Check) bool { return !strings.HasPrefix(c.ID, "replays[") }), v.Skipped
}

// wantKinds holds checks and skips to the kinds a write gets: a check of
// each kind but those skipped, and only those skipped, with their reason.
func wantKinds(t *testing.T, checks []judge.Check, skipped []judge.Skip, skip map[vocab.ReplayKind]string) {
	t.Helper()
	for _, kind := range vocab.ReplayKinds {
		has := slices.ContainsFunc(checks, func(c judge.Check) bool { return kindOf(c.ID) == kind })
		if why, ok := skip[kind]; ok {
			if has || !slices.ContainsFunc(skipped, func(s judge.Skip) bool { return kindOf(s.ID) == kind && strings.Contains(s.Reason, why) }) {
				t.Errorf("%s: want it skipped (%s), got checks %v skipped %v", kind, why, has, skipped)
			}
		} else if !has {
			t.Errorf("%s: no check; skipped %v", kind, skipped)
		}
	}
	if len(skipped) != len(skip) {
		t.Errorf("skipped %v, want only %v", skipped, skip)
	}
}

// kindOf is the replay kind a check's or a skip's id names.
func kindOf(id string) vocab.ReplayKind {
	f := strings.Fields(id)
	if len(f) < 2 {
		return ""
	}
	k, _, _ := strings.Cut(f[1], "(")
	return vocab.ReplayKind(k)
}

func TestTheCorrectAppPassesEveryReplayOfATip(t *testing.T) {
	p := playTip(t, "", true)
	checks, skipped := p.replayChecks(t)
	wantKinds(t, checks, skipped, map[vocab.ReplayKind]string{vocab.ReplayOtherObject: "carries no id of an object"})
	// One drop per guarded field: the CSRF header, the intent, the amount
	// (its <select> is required); the message, which is not, is kept.
	var dropped []string
	for _, c := range checks {
		if kindOf(c.ID) == vocab.ReplayDropField {
			dropped = append(dropped, c.ID)
		}
	}
	if len(dropped) != 3 || !strings.Contains(strings.Join(dropped, " "), "drop_field(/intentId)") || strings.Contains(strings.Join(dropped, " "), "/message") {
		t.Errorf("dropped %v", dropped)
	}
	for _, c := range checks {
		if c.Status != vocab.CheckPass {
			t.Errorf("%s: %s %s: %s", c.ID, c.Status, c.Code, c.Message)
		}
	}
}

// Each tip variant is caught by one replay kind, with its own code, and
// by nothing it should not be.
func TestEachTipVariantFailsItsReplay(t *testing.T) {
	for _, v := range []refapp.Variant{refapp.TipAnySession, refapp.IntentLivesADay, refapp.TipRace, refapp.TipUsedRecordsAgain,
		refapp.CSRFAnySession, refapp.TipIntentOptional, refapp.TipAnyEvent} {
		t.Run(string(v), func(t *testing.T) {
			info, _ := v.Info()
			checks, _ := playTip(t, v, true).replayChecks(t)
			var got []string
			for _, c := range checks {
				if c.Status != vocab.CheckPass {
					got = append(got, string(c.Code))
				}
			}
			if !slices.Contains(got, info.CaughtBy) {
				t.Errorf("codes %v, want %s", got, info.CaughtBy)
			}
		})
	}
}

// Without an observer there is no clock to move: the expiry replay is
// skipped, saying so, and never passes.
func TestWithoutAClockTheExpiryReplayIsSkipped(t *testing.T) {
	checks, skipped := playTip(t, "", false).replayChecks(t)
	if slices.ContainsFunc(checks, func(c judge.Check) bool { return strings.Contains(c.ID, " expired ") }) {
		t.Error("the expiry replay made a check without a clock")
	}
	if !slices.ContainsFunc(skipped, func(s judge.Skip) bool {
		return strings.Contains(s.ID, " expired ") && strings.Contains(s.Reason, "no clock")
	}) {
		t.Errorf("skipped %v", skipped)
	}
}

// A replay the harness cannot perform is INCONCLUSIVE with its cause: an
// app that is gone, a body the record does not hold.
func TestReplaysNotPerformedAreInconclusive(t *testing.T) {
	p := playTip(t, "", true)
	_ = p.app.Close()
	checks, _ := p.replayChecks(t)
	if len(checks) == 0 {
		t.Fatal("no checks")
	}
	for _, c := range checks {
		if c.Status != vocab.CheckInconclusive || c.Code != vocab.HarnessFault {
			t.Errorf("an app that is gone: %s %s %s: %s", c.ID, c.Status, c.Code, c.Message)
		}
	}
	p = playTip(t, "", true)
	p.r.ev.Requests[len(p.r.ev.Requests)-1].Body = ""
	checks, _ = p.replayChecks(t)
	for _, c := range checks {
		if c.Status != vocab.CheckInconclusive || c.Code != vocab.EvidenceMissing || !strings.Contains(c.Message, "not in the record") {
			t.Errorf("a body not recorded: %s %s %s: %s", c.ID, c.Status, c.Code, c.Message)
		}
	}
}

func TestTheCSRFMetaIsReadByAnHTMLParser(t *testing.T) {
	for page, want := range map[string]string{
		`<html><head><meta name="csrf-token" content="abc"></head>`:         "abc",
		`<meta content='x&amp;y' NAME=CSRF-Token />`:                        "x&y",
		`<!-- <meta name="csrf-token" content="no"> --><p>nothing here</p>`: "",
	} {
		if got := csrfMeta(bytes.NewBufferString(page)); got != want {
			t.Errorf("%s: %q, want %q", page, got, want)
		}
	}
}

func TestStaleAndStrippedFields(t *testing.T) {
	req := &outgoing{headers: map[string]string{"If-Match": `"e1"`, "X-XSRF-Token": "t", "Content-Type": "application/json"},
		body: `{"intentId":"int_1","version":3,"nested":{"_csrf":"t"},"name":"Ada"}`}
	changes := stripNamed(req, nil, preconditionName, staleValue)
	if req.headers["If-Match"] != staleETag || !strings.Contains(req.body, `"intentId":"agentready-stale-int_1"`) || !strings.Contains(req.body, `"version":2`) || len(changes) != 3 {
		t.Errorf("stale: %v %s %v", req.headers, req.body, changes)
	}
	changes = stripNamed(req, nil, csrfName, func(string, any) (any, bool) { return nil, false })
	if _, ok := req.headers["X-XSRF-Token"]; ok || strings.Contains(req.body, "_csrf") || !strings.Contains(req.body, `"name":"Ada"`) || len(changes) != 2 {
		t.Errorf("no csrf: %v %s %v", req.headers, req.body, changes)
	}
	form := &outgoing{headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, body: "authenticity_token=t&q=1"}
	if stripNamed(form, nil, csrfName, func(string, any) (any, bool) { return nil, false }); form.body != "q=1" {
		t.Errorf("a form's token: %q", form.body)
	}
	named := &outgoing{headers: map[string]string{"X-Guard": "g"}, body: `{"guard":"g","csrf":"kept"}`}
	stripNamed(named, &scenarios.ReplayNames{Headers: []string{"x-guard"}, Fields: []string{"/guard"}}, csrfName, func(string, any) (any, bool) { return nil, false })
	if len(named.headers) != 0 || named.body != `{"csrf":"kept"}` {
		t.Errorf("named: %v %s", named.headers, named.body)
	}
}

func TestFreshValuesReplaceFieldsOfTheSameName(t *testing.T) {
	var body any
	_ = json.Unmarshal([]byte(`{"eventId":"e","intentId":"old","n":{"nonce":"a"}}`), &body)
	var answer any
	_ = json.Unmarshal([]byte(`{"intentId":"new","eventId":"e","deep":{"nonce":"b"}}`), &answer)
	got := replaceByName(body, answer)
	b, _ := json.Marshal(body)
	if !slices.Equal(got, []string{"intentId", "nonce"}) || string(b) != `{"eventId":"e","intentId":"new","n":{"nonce":"b"}}` {
		t.Errorf("%v %s", got, b)
	}
}

// A registration of the same email is refused again whatever its intent,
// so replays of the person's own data would show nothing of the intent:
// every kind but again sends a new registration the person could have made
// (a fresh intent, a new name and email), after a control of it was
// accepted. The correct app passes them all; the intent defects that the
// business rule hid are each caught.
func TestReplaysOfARegistrationReachTheIntent(t *testing.T) {
	p := play(t, registration, "", true)
	checks, skipped := p.replayChecks(t)
	wantKinds(t, checks, skipped, map[vocab.ReplayKind]string{vocab.ReplayOtherTarget: "no segment of the path"})
	for _, c := range checks {
		if c.Status != vocab.CheckPass {
			t.Errorf("%s: %s %s: %s", c.ID, c.Status, c.Code, c.Message)
		}
	}
	ctl := p.r.ev.Replays.Controls
	if len(ctl) != 1 || !ctl[0].Sent[len(ctl[0].Sent)-1].Accepted() || !strings.Contains(ctl[0].Sent[len(ctl[0].Sent)-1].Body, "ada+r1@example.com") {
		t.Errorf("control %+v", ctl)
	}
	// The reference app takes only application/json, which a page of
	// another origin cannot send without a preflight: with the CSRF check
	// gone (csrf-ignored) no_csrf is still refused, rightly, since no
	// browser page of another origin can make that write; the gate kills
	// the variant with state_changed.
	checks, _ = play(t, registration, refapp.CSRFIgnored, true).replayChecks(t)
	if c := kindCheck(checks, vocab.ReplayNoCSRF); c == nil || c.Status != vocab.CheckPass || !strings.Contains(c.Message, "415 UNSUPPORTED_MEDIA_TYPE") {
		t.Errorf("csrf-ignored: %+v", c)
	}
	for v, code := range map[refapp.Variant]vocab.Code{
		refapp.IntentNoExpiry: vocab.ExpiredReplayAccepted,
		refapp.IntentReusable: vocab.RaceLostUpdate,
		refapp.IntentAnyEvent: vocab.OtherObjectAccepted,
		refapp.CSRFAnySession: vocab.OtherTokenAccepted,
	} {
		checks, _ := play(t, registration, v, true).replayChecks(t)
		if !slices.ContainsFunc(checks, func(c judge.Check) bool { return c.Code == code }) {
			t.Errorf("%s: no %s among %v", v, code, checks)
		}
	}
}

func TestNewValuesKeepTheirShape(t *testing.T) {
	for in, want := range map[string]string{
		"reader@example.com": "reader+r3@example.com",
		"測試讀者":               "測試讀者 3",
		"Ada Baker":          "Ada Baker 3",
		"croissant":          "croissant",
		"evt-webmcp-intro":   "evt-webmcp-intro",
		"a@b@c":              "a@b@c",
	} {
		if got := newValue(in, 3); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
