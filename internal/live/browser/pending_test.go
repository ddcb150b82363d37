package browser

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/kit/hang"
	"github.com/agentready/agentready/scenarios/vocab"
)

// personPage has two declarative forms without toolautosubmit: an agent's
// call fills one and waits until a person submits it. sign_up's submit
// answers the call; lost_answer's answers with a promise that never settles.
const personPage = `<!doctype html><title>forms</title>
<form id="signup" toolname="sign_up" tooldescription="Fill the sign-up form for the person to submit.">
  <input name="who" required><button id="go">Sign up</button>
</form>
<form id="lost" toolname="lost_answer" tooldescription="Fill a form whose answer never comes.">
  <input name="who" required><button id="go-lost">Send</button>
</form>
<script>
document.getElementById("signup").addEventListener("submit", (e) => {
  e.preventDefault();
  if (e.agentInvoked) e.respondWith(fetch("/write", {method: "POST", body: "x"}).then(() => ({ok: true, who: e.target.elements.who.value})));
});
document.getElementById("lost").addEventListener("submit", (e) => {
  e.preventDefault();
  if (e.agentInvoked) e.respondWith(new Promise(() => {}));
});
</script>`

// TestACallLeftPendingIsAnsweredByThePersonsSubmit: Start leaves the call
// running (no answer, no cancel, nothing written) until a person's submit
// answers it, over either transport; a call whose page never answers stays
// no_response, and Abandon cancels it in the browser.
func TestACallLeftPendingIsAnsweredByThePersonsSubmit(t *testing.T) {
	b := launched(t)
	app, writes := countingApp(t, personPage)
	for _, via := range []vocab.Transport{vocab.PageAPI, vocab.CDP} {
		ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
		tab, clock := clockedTab(t, ctx, b, app.URL)
		advance := func(ctx context.Context, d time.Duration) error { _, err := clock.Advance(ctx, d); return err }
		tab.Tools.Timeout = 2 * time.Second
		for _, name := range []string{"sign_up", "lost_answer"} {
			if err := tab.Tools.WaitTool(ctx, name, true); err != nil {
				t.Fatal(err)
			}
		}
		writes.Store(0)
		p, err := tab.Tools.Start(ctx, "sign_up", "", map[string]any{"who": "Ada"}, via)
		if err != nil {
			t.Fatal(err)
		}
		// The page is given time of its own: a call the suite canceled or
		// answered itself would show here.
		if err := advance(ctx, 3*time.Second); err != nil {
			t.Fatal(err)
		}
		if got := p.Result(); got.Status != vocab.NoResponse || got.InvocationID == "" || answeredIn(tab, got.InvocationID) {
			t.Fatalf("%s: before the person's submit the call is %+v (answered in the trace: %v), want pending", via, got, answeredIn(tab, got.InvocationID))
		}
		if writes.Load() != 0 {
			t.Fatalf("%s: %d writes before the person's submit", via, writes.Load())
		}
		click(t, ctx, tab, "#go")
		got := p.Await(ctx, advance)
		if got.Status != vocab.Completed || !strings.Contains(string(got.Output), `"who":"Ada"`) || writes.Load() != 1 {
			t.Errorf("%s: after the person's submit the call is %+v (output %s), writes %d; want completed with who Ada, 1 write", via, got, got.Output, writes.Load())
		}
		p.Abandon(ctx) // answered: nothing to cancel

		lost, err := tab.Tools.Start(ctx, "lost_answer", "", map[string]any{"who": "Bo"}, via)
		if err != nil {
			t.Fatal(err)
		}
		click(t, ctx, tab, "#go-lost")
		if got := lost.Await(ctx, advance); got.Status != vocab.NoResponse || !strings.Contains(got.ErrorText, "no answer came") {
			t.Errorf("%s: a call the page never answers is %+v, want no_response saying so", via, got)
		}
		lost.Abandon(ctx)
		wait, stop := context.WithTimeout(ctx, hang.Bound)
		_, err = tab.Trace.WaitFor(wait, 0, "the cancel's answer", func(e record.Event) bool {
			return e.Kind == record.ToolResponded && e.InvocationID == lost.Result().InvocationID && e.Status == "Canceled"
		})
		stop()
		if err != nil {
			t.Errorf("%s: Abandon left the call pending in the page: %v", via, err)
		}
		cancel()
	}
}

func answeredIn(tab *Tab, id string) bool {
	for _, e := range tab.Trace.Events() {
		if e.Kind == record.ToolResponded && e.InvocationID == id {
			return true
		}
	}
	return false
}

// click is the person's click on a button (a mouse click through the protocol).
func click(t *testing.T, ctx context.Context, tab *Tab, sel string) {
	t.Helper()
	if err := tab.Do(ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)); err != nil {
		t.Fatalf("click %s: %v", sel, err)
	}
}

// TestAPendingCallThePageRefusesBeforeItBeginsSaysWhy: a page API call the
// page refuses before any invocation began (here its executeTool is
// replaced, as a hostile or broken page may) is failed with the page's
// reason at once, not "the browser never started the call" after the bound.
func TestAPendingCallThePageRefusesBeforeItBeginsSaysWhy(t *testing.T) {
	b := launched(t)
	app, _ := countingApp(t, personPage+`<script>document.modelContext.executeTool = () => Promise.reject(new Error("blocked by the page"));</script>`)
	ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
	defer cancel()
	tab, _ := clockedTab(t, ctx, b, app.URL)
	if err := tab.Tools.WaitTool(ctx, "sign_up", true); err != nil {
		t.Fatal(err)
	}
	p, err := tab.Tools.Start(ctx, "sign_up", "", map[string]any{"who": "Ada"}, vocab.PageAPI)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Result(); got.Status != vocab.Failed || !strings.Contains(got.ErrorText, "blocked by the page") {
		t.Errorf("the refused call is %+v, want failed with the page's reason", got)
	}
}
