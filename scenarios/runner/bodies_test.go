package runner_test

import (
	"context"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/netlog"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// one answers the only entry of method and path in the log.
func one(t *testing.T, ev *scenarios.Evidence, method, path string) (int, record.Request) {
	t.Helper()
	at, reqs := requestsOf(ev, method, path)
	if len(reqs) != 1 {
		var seen []string
		for _, r := range ev.Requests {
			seen = append(seen, r.Method+" "+r.URL)
		}
		t.Fatalf("%d entries of %s %s in the log, want 1:\n  %s", len(reqs), method, path, strings.Join(seen, "\n  "))
	}
	return at[0], reqs[0]
}

// TestTheAppsWriteBodiesAreKeptFromWhereverTheyAreSent: the profile's save
// from a dedicated worker, the beacon to the site, the XHR of the
// same-origin iframe and the JSON fetch all carry their bodies in the
// record; the beacon to a third party's tracker (another origin) keeps
// none, though it had one.
func TestTheAppsWriteBodiesAreKeptFromWhereverTheyAreSent(t *testing.T) {
	sc := loadScenario(t, "testdata/PROFILE-SAVE.yaml")
	ev, base := play(t, sc, nil)
	if len(ev.Faults) > 0 || len(ev.Unmet) > 0 {
		logRequests(t, ev)
		t.Fatalf("faults %q, unmet %q", ev.Faults, ev.Unmet)
	}
	_, save := one(t, ev, "PUT", "/api/profile")
	if save.Target == nil || save.Target.Type != "worker" {
		t.Errorf("the save's target is %+v, want the dedicated worker", save.Target)
	}
	for _, c := range []struct{ method, path, body string }{
		{"PUT", "/api/profile", `{"display_name":"Ann","email":"ann@example.org","tz":"Europe/Berlin","newsletter":true}`},
		{"POST", "/api/profile/verify", `{"email":"ann@example.org"}`},
		{"POST", "/api/events", `{"event":"profile_save"}`},
		{"POST", "/api/address", `{"street":"1 Main Street","city":"Springfield"}`},
	} {
		if _, r := one(t, ev, c.method, c.path); r.Body != c.body || !r.HasBody {
			t.Errorf("%s %s: body %q, want %q", c.method, c.path, r.Body, c.body)
		}
	}
	_, frame := one(t, ev, "POST", "/api/address")
	_, page := one(t, ev, "GET", "/profile")
	if frame.FrameID == "" || frame.FrameID == page.FrameID {
		t.Errorf("the address is saved from frame %q, the page is %q: want the iframe's own", frame.FrameID, page.FrameID)
	}
	_, tracker := one(t, ev, "POST", "/collect")
	if u, _ := url.Parse(tracker.URL); u == nil || "http://"+u.Host == base {
		t.Fatalf("the tracker's beacon went to %s, the app is %s: want another origin", tracker.URL, base)
	}
	if !tracker.HasBody || tracker.Body != "" {
		t.Errorf("the tracker's beacon: hasBody %v, body %q; want a body had and not kept", tracker.HasBody, tracker.Body)
	}
	for i := range ev.Reviews {
		if ev.Reviews[i].Click == "#save" {
			if at, _ := one(t, ev, "POST", "/api/events"); ev.Reviews[i].Requests > at {
				t.Errorf("the review at Save stood at %d, after the save's beacon (%d)", ev.Reviews[i].Requests, at)
			}
		}
	}
}

// TestADraftSavedFromATimerInTheReviewKeepsItsBody: the assistant drafts a
// long message (74 000 bytes: over the browser's default inline limit) and
// the person's screenshot is chosen; the page saves the draft two seconds
// later, in the person's review window, as form data; then the person
// sends it, multipart by fetch with the screenshot (a file: the body is only
// announced, never inline), and follows the link on to the "sent" page.
// Both bodies are in the record, whole, each in its phase: the second was
// asked for before its document went (the renderer forgets it then; asked
// only at the end of the run, it is gone).
func TestADraftSavedFromATimerInTheReviewKeepsItsBody(t *testing.T) {
	message := strings.Repeat("The export fails on the second page. ", 2000)
	sc := scenarios.Scenario{
		ID: "COMPOSE-BODIES", Start: "/compose",
		Human:   []scenarios.Step{{Click: "#send"}, {WaitFor: "#done"}, {Click: "#done"}, {WaitFor: "#sent"}},
		Capture: scenarios.Capture{Settle: duration(0)}, // the default review: 3 s of page time
	}
	draft := func(ctx context.Context, tab *browser.Tab, act func(context.Context, scenarios.Call) record.Result) {
		if res := act(ctx, scenarios.Call{Tool: "draft_message", Input: map[string]any{"subject": "Export fails", "message": message}}); res.Status != vocab.Completed {
			t.Errorf("draft_message: %+v", res)
		}
		if err := tab.Do(ctx, chromedp.Evaluate[chromedp.Void](`(() => { const d = new DataTransfer();
			d.items.add(new File(["PNG pixels"], "screen.png", { type: "image/png" }));
			document.getElementById("screenshot").files = d.files; })()`)); err != nil {
			t.Error(err)
		}
	}
	ev, _ := play(t, sc, draft)
	if len(ev.Faults) > 0 || len(ev.Unmet) > 0 {
		logRequests(t, ev)
		t.Fatalf("faults %q, unmet %q", ev.Faults, ev.Unmet)
	}
	at, saved := one(t, ev, "POST", "/api/drafts")
	if from, to, _ := ev.Window(vocab.PhaseAgent); at < from.Requests || at >= to.Requests {
		t.Errorf("the draft's save is entry %d, outside the agent's window [%d, %d)", at, from.Requests, to.Requests)
	}
	// URLSearchParams keeps the form's order, and writes a space as +.
	want := "draft_id=d-1001&subject=Export+fails&message=" + url.QueryEscape(message)
	if saved.Body != want {
		t.Errorf("the draft's body is %d bytes, want %d: %.80q", len(saved.Body), len(want), saved.Body)
	}
	_, sent := one(t, ev, "POST", "/api/messages")
	got := multipartFields(t, sent)
	if !slices.Equal(got, []string{"draft_id=d-1001", "subject=Export fails", "message=" + message, "screenshot(screen.png)=PNG pixels"}) {
		t.Errorf("the message's parts are %.200q", got)
	}
}

// logRequests says what the log holds, for a failure's diagnosis (the
// times are the page's: a clock that stood still shows one instant).
func logRequests(t *testing.T, ev *scenarios.Evidence) {
	t.Helper()
	for _, r := range ev.Requests {
		t.Logf("%s %s: done %v, status %d, target %v, failure %q, at %s", r.Method, r.URL, r.Done, r.Status, r.Target, r.Failure, r.Started.Format("15:04:05.000"))
	}
}

// multipartFields reads a multipart body as name=value, in order.
func multipartFields(t *testing.T, r record.Request) []string {
	t.Helper()
	ct := r.RequestHeaders["Content-Type"]
	_, params, err := mime.ParseMediaType(ct)
	if err != nil || params["boundary"] == "" {
		t.Fatalf("%s %s: content type %q: %v", r.Method, r.Path, ct, err)
	}
	mr := multipart.NewReader(strings.NewReader(r.Body), params["boundary"])
	var out []string
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("%s %s: %v in %.200q", r.Method, r.Path, err, r.Body)
		}
		v, _ := io.ReadAll(p)
		name := p.FormName()
		if p.FileName() != "" {
			name += "(" + p.FileName() + ")"
		}
		out = append(out, name+"="+string(v))
	}
}

// TestAMultipartFormThatNavigatesKeepsItsBody: the sign-up form as
// multipart, sent with no photo, navigates to the welcome page; its body is
// in the record whole, the empty file part too.
func TestAMultipartFormThatNavigatesKeepsItsBody(t *testing.T) {
	sc := signupScenario(t, "/signup?upload=1")
	ev, _ := play(t, sc, nil)
	if len(ev.Faults) > 0 || len(ev.Unmet) > 0 {
		t.Fatalf("faults %q, unmet %q", ev.Faults, ev.Unmet)
	}
	_, post := one(t, ev, "POST", "/signup")
	if post.ResourceType != "Document" {
		t.Errorf("the sign-up went as %s, want a navigation (Document)", post.ResourceType)
	}
	got := multipartFields(t, post)
	want := []string{"form_id=signup-v2", "name=Ann Example", "email=ann@example.org", "plan=patron", "website=", "photo=", "action=join"}
	if !slices.Equal(got, want) {
		t.Errorf("the parts:\n got %q\nwant %q", got, want)
	}
	join := ev.Reviews[len(ev.Reviews)-1]
	if i := slices.IndexFunc(join.Form, func(f scenarios.FormField) bool { return f.Name == "photo" }); i < 0 || join.Form[i].Value != "" || join.Form[i].Hidden {
		t.Errorf("the review's photo entry: %+v", join.Form)
	}
}

// TestAFormThatNavigatesWithAFileIsSaidToMissItsBody: with a photo chosen,
// Chromium does not hand the navigation's body over whole (the file's
// content is left out). No body is kept, and a fault says so. The review
// names the file.
func TestAFormThatNavigatesWithAFileIsSaidToMissItsBody(t *testing.T) {
	sc := signupScenario(t, "/signup?upload=1")
	sc.Agent.Calls = nil
	choose := func(ctx context.Context, tab *browser.Tab, act func(context.Context, scenarios.Call) record.Result) {
		if res := act(ctx, scenarios.Call{Tool: "fill_signup", Input: map[string]any{"name": "Ann Example", "email": "ann@exmaple.org", "plan": "patron"}}); res.Status != vocab.Completed {
			t.Errorf("fill_signup: %+v", res)
		}
		// The person's photo, as a file picker would give it.
		if err := tab.Do(ctx, chromedp.Evaluate[chromedp.Void](`(() => { const d = new DataTransfer();
			d.items.add(new File(["not really a jpeg"], "ann.jpg", { type: "image/jpeg" }));
			document.getElementById("photo").files = d.files; })()`)); err != nil {
			t.Error(err)
		}
	}
	ev, _ := play(t, sc, choose)
	at, post := one(t, ev, "POST", "/signup")
	if post.Body != "" || !post.HasBody {
		t.Errorf("the sign-up's body: hasBody %v, %.120q; want had and not kept", post.HasBody, post.Body)
	}
	// Chromium 156 either hands over nothing ("No post data available")
	// or the body without the file's content (a longer form): both are
	// said, neither kept.
	want := "the body of POST /signup (request " + strconv.Itoa(at+1) + " of the log) is not in the record: the browser "
	if len(ev.Faults) != 1 || !strings.HasPrefix(ev.Faults[0].Text, want) {
		t.Errorf("faults %q, want one starting %q", ev.Faults, want)
	}
	join := ev.Reviews[len(ev.Reviews)-1]
	if i := slices.IndexFunc(join.Form, func(f scenarios.FormField) bool { return f.Name == "photo" }); i < 0 || join.Form[i].Value != "ann.jpg" {
		t.Errorf("the review's photo entry: %+v", join.Form)
	}
}

// TestABodyOverTheCaptureLimitIsSaidNotCut: a draft of more than MaxBody
// is saved from the timer; its body is not kept (no part of it), and a
// fault says how long it was. The assistant drafts a short message and
// the long one is typed into the page directly (not a megabyte through the
// protocol twice, which a loaded machine makes slow).
func TestABodyOverTheCaptureLimitIsSaidNotCut(t *testing.T) {
	sc := scenarios.Scenario{ID: "COMPOSE-HUGE", Start: "/compose"}
	draft := func(ctx context.Context, tab *browser.Tab, act func(context.Context, scenarios.Call) record.Result) {
		if res := act(ctx, scenarios.Call{Tool: "draft_message", Input: map[string]any{"subject": "Logs", "message": "see below"}}); res.Status != vocab.Completed {
			t.Errorf("draft_message: %+v", res)
		}
		js := fmt.Sprintf(`(() => { const m = document.getElementById("message"); m.value = "m".repeat(%d);
			m.dispatchEvent(new Event("input", { bubbles: true })); })()`, netlog.MaxBody)
		if err := tab.Do(ctx, chromedp.Evaluate[chromedp.Void](js)); err != nil {
			t.Error(err)
		}
	}
	ev, _ := play(t, sc, draft)
	at, got := one(t, ev, "POST", "/api/drafts")
	if got.Body != "" || !got.HasBody {
		t.Errorf("the draft: hasBody %v, %d bytes of body kept; want had and none kept", got.HasBody, len(got.Body))
	}
	size := len("draft_id=d-1001&subject=Logs&message=") + netlog.MaxBody
	want := fmt.Sprintf("the body of POST /api/drafts (request %d of the log) is not in the record: its %d bytes are over the capture limit of %d", at+1, size, netlog.MaxBody)
	if !slices.Equal(scenarios.FaultTexts(ev.Faults), []string{want}) {
		t.Errorf("faults %q\nwant %q", ev.Faults, want)
	}
}
