package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/kit/hang"
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
	b := launched(t)
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/next" {
			fmt.Fprint(w, `<!doctype html><title>next</title><p id="date"></p><script>document.getElementById("date").textContent = new Date().toISOString()</script>`)
			return
		}
		fmt.Fprint(w, clockPage)
	}))
	defer app.Close()
	ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
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
		in, cancelWait := context.WithTimeout(in, hang.Bound)
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
	loaded, cancelLoad := context.WithTimeout(ctx, hang.Bound)
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

// A person's review time, fast-forwarded: a write a page makes 2 s of page
// time after a click is inside a 3 s window, which costs little real time;
// and a chain through IndexedDB (a browser-process reply between timers)
// is caught because the window is sliced.
func TestAWindowFastForwardsThePage(t *testing.T) {
	b := launched(t)
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		fmt.Fprint(w, `<!doctype html><title>late</title><button id="go">go</button><script>
document.getElementById("go").onclick = () => {
  setTimeout(() => fetch("/late", {method: "POST"}), 2000);
  const open = indexedDB.open("db" + Math.random());
  open.onupgradeneeded = () => open.result.createObjectStore("s");
  open.onsuccess = () => {
    const tx = open.result.transaction("s", "readwrite");
    tx.objectStore("s").put(1, "k");
    tx.oncomplete = () => setTimeout(() => fetch("/chained", {method: "POST"}), 500);
  };
};
</script>`)
	}))
	defer app.Close()
	ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
	defer cancel()
	tab, err := b.NewTab(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	clock, err := tab.StartClock(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := tab.Navigate(ctx, app.URL); err != nil {
		t.Fatal(err)
	}
	clock.Stop() // no paced time: only the window may move the page's clock
	clock = restart(t, tab, clock)
	mark := tab.Net.Len()
	if err := tab.Do(ctx, chromedp.Click(chromedp.CSS("#go"), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	took, err := clock.Advance(ctx, 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	posts := tab.Net.Requests().Since(mark).Writes()
	var paths []string
	for _, p := range posts {
		paths = append(paths, p.Path)
	}
	if strings.Join(paths, ",") != "/chained,/late" && strings.Join(paths, ",") != "/late,/chained" {
		t.Errorf("writes in the window: %v, want /late and /chained", paths)
	}
	if took >= 3*time.Second {
		t.Errorf("a 3 s window took %s of real time", took)
	}
	t.Logf("a 3 s window took %s of real time", took)
}

// restart leaves the virtual clock on but paced time off: the test's
// window is then the only page time that passes after the click.
func restart(t *testing.T, tab *Tab, c *Clock) *Clock {
	t.Helper()
	_ = c
	return &Clock{tab: tab, stopped: make(chan struct{}), done: make(chan struct{}), last: time.Now()}
}

// Worker timers run on real time: a tab must know when its page has one.
func TestHasWorkersSeesADedicatedWorker(t *testing.T) {
	b := launched(t)
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/w" {
			fmt.Fprint(w, `<!doctype html><p id="s">starting</p><script>
const w = new Worker(URL.createObjectURL(new Blob(["postMessage('up'); setInterval(() => {}, 1000)"], {type: "text/javascript"})));
w.onmessage = () => { document.getElementById("s").textContent = "up"; };
</script>`)
			return
		}
		fmt.Fprint(w, `<!doctype html><p>no worker</p>`)
	}))
	defer app.Close()
	ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
	defer cancel()
	tab, err := b.NewTab(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	if err := tab.Navigate(ctx, app.URL+"/"); err != nil {
		t.Fatal(err)
	}
	if tab.HasWorkers(ctx) {
		t.Error("a page without workers has workers")
	}
	if err := tab.Navigate(ctx, app.URL+"/w"); err != nil {
		t.Fatal(err)
	}
	in, cancelIn := tab.Bind(ctx)
	defer cancelIn()
	// (WaitReady first: a Poll right after a second navigation can meet the
	// old document's execution context.)
	if err := chromedp.Do(in, chromedp.WaitReady(chromedp.CSS("#s")), chromedp.WaitVisible(chromedp.CSS("#s"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(in, chromedp.Poll[bool](`document.getElementById("s")?.textContent === "up"`)); err != nil {
		t.Fatal(err)
	}
	if !tab.HasWorkers(ctx) {
		t.Error("a page running a dedicated worker has none")
	}
}
