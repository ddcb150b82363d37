package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/record"
	"github.com/chromedp/chromedp"
)

// A page whose rules depend on today's date, as booking forms do: it shows
// the date by Date, by Intl and from a worker, arms a timer, and links to a
// second page (a navigation the page starts itself).
const clockPage = `<!doctype html><title>today</title>
<p id="date"></p><p id="intl"></p><p id="worker"></p><p id="timer">waiting</p><a id="next" href="/next">next</a>
<script>
  document.getElementById("date").textContent = new Date().toISOString();
  document.getElementById("intl").textContent = new Intl.DateTimeFormat("en-CA", {timeZone: "UTC"}).format();
  const w = new Worker(URL.createObjectURL(new Blob(["postMessage(new Date().toISOString())"], {type: "text/javascript"})));
  w.onmessage = (e) => { document.getElementById("worker").textContent = e.data; };
  setTimeout(() => { document.getElementById("timer").textContent = "fired " + new Date().toISOString(); }, 300);
</script>`

func TestAFixedClockIsThePagesClockAndKeepsRunning(t *testing.T) {
	requireChromium(t)
	b, err := Launch(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/next" {
			fmt.Fprint(w, `<!doctype html><title>next</title><p id="date"></p><script>document.getElementById("date").textContent = new Date().toISOString()</script>`)
			return
		}
		fmt.Fprint(w, clockPage)
	}))
	defer app.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	tab, err := b.NewTab(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()

	at := time.Date(2027, 6, 1, 9, 0, 0, 0, time.UTC)
	clock, err := tab.FixClock(ctx, at)
	if err != nil {
		t.Fatal(err)
	}
	if err := tab.Navigate(ctx, app.URL); err != nil {
		t.Fatal(err)
	}
	text := func(sel string) string {
		t.Helper()
		in, cancel := tab.Bind(ctx)
		defer cancel()
		in, cancelWait := context.WithTimeout(in, 10*time.Second)
		defer cancelWait()
		if _, err := chromedp.Run(in, chromedp.Poll[bool](`document.querySelector(`+"`"+sel+"`"+`)?.textContent !== "" && document.querySelector(`+"`"+sel+"`"+`)?.textContent !== "waiting"`)); err != nil {
			t.Fatalf("%s never filled: %v", sel, err)
		}
		s, err := chromedp.Run(in, chromedp.Evaluate[string](`document.querySelector(`+"`"+sel+"`"+`).textContent`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for sel, prefix := range map[string]string{"#date": "2027-06-01T09:0", "#intl": "2027-06-01", "#worker": "2027-06-01T09:0", "#timer": "fired 2027-06-01T09:0"} {
		if got := text(sel); !strings.HasPrefix(got, prefix) {
			t.Errorf("%s = %q, want it to start with %q (the fixed clock)", sel, got, prefix)
		}
	}
	// A navigation the page starts itself keeps the clock and its progress.
	mark := tab.Net.Len()
	if err := tab.Do(ctx, chromedp.Click(chromedp.CSS("#next"), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	loaded, cancelLoad := context.WithTimeout(ctx, 10*time.Second)
	defer cancelLoad()
	if _, err := tab.Net.WaitFor(loaded, mark, func(r record.Request) bool { return r.Path == "/next" }); err != nil {
		t.Fatalf("the page-started navigation was not loaded under the fixed clock: %v", err)
	}
	in, cancelIn := tab.Bind(ctx)
	defer cancelIn()
	if err := chromedp.Do(in, chromedp.WaitReady(chromedp.CSS("#date"))); err != nil {
		t.Fatalf("the next page did not get ready under the fixed clock: %v", err)
	}
	if got := text("#date"); !strings.HasPrefix(got, "2027-06-01T09:0") {
		t.Errorf("after the page's own navigation the date is %q", got)
	}
	if err := clock.Err(); err != nil {
		t.Errorf("the clock met a problem: %v", err)
	}
	clock.Stop()
}
