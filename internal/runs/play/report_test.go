package play

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/debugger"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/reporters/results"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

var updateDocs = flag.Bool("update-docs", false, "write the README's screenshots (docs/img) from this run")

// row is a timeline row as the browser shows it.
type row struct {
	N, Phase, Who, What, Class string
	Changes                    []string
}

// The reports, rendered by Chromium: CONF-01 attempt 3 and its known-bad
// attempt 2 are played against the reference app, their bundles sealed and
// the run's page written, and both pages opened. The timeline holds what the evidence
// holds, in its order; every link lands; the browser parses no script of
// either page.
func TestTheReportsInABrowser(t *testing.T) {
	b, err := browser.Launch(browser.OptionsFromEnv())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	runDir := filepath.Join(t.TempDir(), "run")
	var rows []results.Row
	for _, id := range []string{"CONF-01.attempt-3", "CONF-01.attempt-2"} {
		sc, err := scenarios.Load(filepath.Join("..", "..", "..", scenarios.DefaultDir, id+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		s, err := Scenario(ctx, sc, Options{Browser: b, RunID: "report-test", Dir: runDir})
		if err != nil {
			t.Fatal(err)
		}
		if !s.Row.AsMeant {
			t.Fatalf("%s: %s", id, judge.Explain(s.Verdict))
		}
		rows = append(rows, s.Row)
	}
	if err := (results.Page{RunID: "report-test", Rows: rows}).Write(runDir); err != nil {
		t.Fatal(err)
	}

	tab, err := b.NewTab(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	scripts := parsedScripts(t, tab)
	bundlePage := "file://" + filepath.Join(runDir, "CONF-01.attempt-3", bundle.IndexFile)
	open(t, ctx, tab, bundlePage)

	// The rows against the evidence.
	ev, err := bundle.Read(filepath.Join(runDir, "CONF-01.attempt-3"))
	if err != nil {
		t.Fatal(err)
	}
	tl := timelineOf(t, ctx, tab)
	var requests []string
	for _, r := range tl {
		if strings.Contains(r.Class, "request") {
			requests = append(requests, r.What[:strings.Index(r.What, " →")])
		}
	}
	var recorded []string
	for _, q := range ev.Evidence.Requests {
		recorded = append(recorded, q.Method+" "+q.Path)
	}
	if !slices.Equal(requests, recorded) {
		t.Errorf("the timeline's requests, in order:\n  %v\nthe network log:\n  %v", requests, recorded)
	}
	// The story of CONF-01 attempt 3, in order: the agent's call, the
	// tool's answer, no request, the person's click, one POST 201, the
	// state change.
	call := find(t, tl, 0, "agent", "calls prepare_event_registration")
	answer := find(t, tl, call, "tool", "prepare_event_registration answered: completed")
	click := find(t, tl, answer, "person", "clicks #submit-registration")
	for _, r := range tl[answer:click] {
		if strings.Contains(r.Class, "request") && !strings.Contains(r.Class, "dim") {
			t.Errorf("a request between the tool's answer and the person's click: %s", r.What)
		}
	}
	post := find(t, tl, click, "browser", "POST /api/registrations → 201")
	if n := len(slices.DeleteFunc(slices.Clone(tl), func(r row) bool { return !strings.HasPrefix(r.What, "POST /api/registrations") })); n != 1 {
		t.Errorf("%d rows POST /api/registrations, want one", n)
	}
	if tl[post].Phase != "human" {
		t.Errorf("the POST fell in the %s phase", tl[post].Phase)
	}
	state := find(t, tl, post, "harness", "the state after the person: ")
	if !slices.Contains(tl[state].Changes, "event /seatsLeft: 8 → 7") {
		t.Errorf("the state change: %v", tl[state].Changes)
	}
	mark := find(t, tl, 0, "harness", "the person's phase starts")
	if !(answer < mark && mark < click) || !strings.Contains(tl[mark].What, "picture") {
		t.Errorf("the person's phase starts between the answer and the click, with its picture: %+v", tl[mark])
	}
	checkLinks(t, ctx, tab)
	if *updateDocs {
		agentMark := find(t, tl, 0, "harness", "the agent's phase starts")
		shoot(t, ctx, tab, "#ev-"+tl[agentMark].N, "#ev-"+tl[state].N, "../../../docs/img/report-timeline.png")
	}

	// The known-bad case: its failed check links the rows it used.
	open(t, ctx, tab, "file://"+filepath.Join(runDir, "CONF-01.attempt-2", bundle.IndexFile))
	failed, err := chromedp.Run(tab.Ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(".check.fail a[href^='#ev-']")].map(a => a.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(failed, func(s string) bool { return strings.Contains(s, "agent: calls prepare_event_registration") }) {
		t.Errorf("the failed check links %v, not the agent's call", failed)
	}
	checkLinks(t, ctx, tab)
	if *updateDocs {
		shoot(t, ctx, tab, "h1", ".film", "../../../docs/img/report-failed-check.png")
	}

	// The run page, in a window 1280 px wide: nothing wider than it (issue
	// 45: the report column was cut off).
	if _, err := chromedp.Call(tab.Ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: 1280, Height: 800, DeviceScaleFactor: 1}); err != nil {
		t.Fatal(err)
	}
	open(t, ctx, tab, "file://"+filepath.Join(runDir, "index.html"))
	fits := func(what string) {
		t.Helper()
		if wide, err := chromedp.Run(tab.Ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`)); err != nil || wide > 1280 {
			t.Errorf("%s is %d px wide in a 1280 px window (%v)", what, wide, err)
		}
	}
	fits("the run page")
	// A row as long as real runs make them: a long id, many codes, a
	// message holding a URL with no space to break at, a long coverage gap.
	// (The overflow issue 45 saw came from a whole make e2e page: 1321 px
	// before cells could wrap anywhere, 1280 after, measured by hand.)
	long := "http://127.0.0.1:45231/auth/popup?return=" + strings.Repeat("%2Fevents%2Fevt-webmcp-intro%2Fregister", 12)
	wideDir := t.TempDir()
	wideRow := results.Row{ID: "CHECKOUT-01.autopay.with-a-long-companion-name-" + strings.Repeat("x", 40), Outcome: vocab.Fail, AsMeant: false,
		Codes:   []vocab.Code{vocab.SideEffectBeforeConfirmation, vocab.RequestCountMismatch, vocab.RequestStatusMismatch, vocab.StateChanged, vocab.StateMismatch, vocab.UINotState, vocab.AnswerOverclaims},
		Failed:  []results.Check{{ID: "popups.forbid[0] " + long, Status: vocab.CheckFail, Code: vocab.UnexpectedPopup, Message: "the page opened " + long}},
		Surface: []judge.SurfaceItem{{Measure: judge.MeasureTools, Subject: "prepare_payment (in /pay/widget/" + strings.Repeat("x", 120) + ")", Aspect: judge.AspectInvalidInput, Why: "no call of it with " + long}}}
	if err := (results.Page{RunID: "wide", Rows: []results.Row{wideRow}}).Write(wideDir); err != nil {
		t.Fatal(err)
	}
	open(t, ctx, tab, "file://"+filepath.Join(wideDir, "index.html"))
	fits("a run page with long rows")
	open(t, ctx, tab, "file://"+filepath.Join(runDir, "index.html"))
	text, err := chromedp.Run(tab.Ctx, chromedp.Evaluate[string](`document.body.innerText`))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1 PASS · 1 FAIL (1 as meant) · 0 INCONCLUSIVE", "All 2 scenarios are as meant", "FAIL, as meant"} {
		if !strings.Contains(text, want) {
			t.Errorf("the run page lacks %q:\n%s", want, text)
		}
	}
	checkLinks(t, ctx, tab)
	if *updateDocs {
		shoot(t, ctx, tab, "h1", "table", "../../../docs/img/run-page.png")
	}

	if got := scripts(); len(got) > 0 {
		t.Errorf("the browser parsed scripts of the pages: %v", got)
	}
	if entries := tab.Console.Entries(); len(entries) > 0 {
		t.Errorf("the console: %v", entries)
	}
	// The listener does see a page's script where there is one.
	withScript := filepath.Join(runDir, "with-script.html")
	if err := os.WriteFile(withScript, []byte(`<!doctype html><title>x</title><script>document.title = "ran"</script>`), 0o644); err != nil {
		t.Fatal(err)
	}
	open(t, ctx, tab, "file://"+withScript)
	if title, err := chromedp.Run(tab.Ctx, chromedp.Title()); err != nil || title != "ran" || len(scripts()) == 0 {
		t.Errorf("a page with a script: title %q (%v), scripts parsed %v: the check above could not see one", title, err, scripts())
	}
}

// parsedScripts listens, from before the first page, to every script the
// tab's Debugger parses, and answers those of a page (with a URL: our own
// evaluations and the tab's hook have none).
func parsedScripts(t *testing.T, tab *browser.Tab) func() []string {
	t.Helper()
	var mu sync.Mutex
	var urls []string
	err := chromedp.Do(tab.Ctx, chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		raw, unsubscribe := target.Subscribe(debugger.ScriptParsed.Method)
		t.Cleanup(unsubscribe)
		go func() {
			for v := range raw {
				var ev debugger.EventScriptParsed
				if jsonv2.Unmarshal([]byte(v), &ev) == nil && ev.URL != "" {
					mu.Lock()
					urls = append(urls, ev.URL)
					mu.Unlock()
				}
			}
		}()
		_, err := chromedp.Call(ctx, debugger.Enable, debugger.EnableParams{})
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(urls)
	}
}

func open(t *testing.T, ctx context.Context, tab *browser.Tab, url string) {
	t.Helper()
	if err := tab.Navigate(ctx, url); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(tab.Ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: 1100, Height: 900, DeviceScaleFactor: 1}); err != nil {
		t.Fatal(err)
	}
}

func timelineOf(t *testing.T, ctx context.Context, tab *browser.Tab) []row {
	t.Helper()
	rows, err := chromedp.Run(tab.Ctx, chromedp.Evaluate[[]row](`[...document.querySelectorAll("table.tl tr[id^='ev-']")].map(tr => ({
		N: tr.id.slice(3), Phase: tr.cells[1].innerText, Who: tr.cells[2].innerText, What: tr.cells[3].innerText, Class: tr.className,
		Changes: [...tr.cells[4].querySelectorAll("li")].map(li => li.innerText)}))`))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 10 {
		t.Fatalf("the timeline has %d rows", len(rows))
	}
	return rows
}

// find answers the first row from from on by who, whose what starts so.
func find(t *testing.T, rows []row, from int, who, what string) int {
	t.Helper()
	for i := from; i < len(rows); i++ {
		if rows[i].Who == who && strings.HasPrefix(rows[i].What, what) {
			return i
		}
	}
	var all []string
	for _, r := range rows {
		all = append(all, fmt.Sprintf("%s %s %s: %s", r.N, r.Phase, r.Who, r.What))
	}
	t.Fatalf("no row of %s %q after row %d:\n  %s", who, what, from, strings.Join(all, "\n  "))
	return -1
}

// checkLinks: every link within the page lands on an element, and the
// others are the bundles' pages, or a bundle's JSON file that holds the
// whole of a value the page shows an excerpt of.
func checkLinks(t *testing.T, ctx context.Context, tab *browser.Tab) {
	t.Helper()
	bad, err := chromedp.Run(tab.Ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("a[href]")].map(a => a.getAttribute("href")).filter(h => h.startsWith("#") ? !document.getElementById(h.slice(1)) : !/^([^/:]+\/index\.html|[a-z]+\.json)$/.test(h))`))
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) > 0 {
		t.Errorf("links that land nowhere: %v", bad)
	}
}

// shoot writes a PNG of the page from the top of one element to the
// bottom of the last of another, for the README.
func shoot(t *testing.T, ctx context.Context, tab *browser.Tab, from, to, path string) {
	t.Helper()
	box, err := chromedp.Run(tab.Ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => {
		const a = document.querySelector(%q).getBoundingClientRect(), b = [...document.querySelectorAll(%q)].pop().getBoundingClientRect();
		return [a.top + scrollY - 12, b.bottom + scrollY + 12, document.documentElement.scrollWidth];
	})()`, from, to)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := chromedp.Call(tab.Ctx, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng, CaptureBeyondViewport: new(true),
		Clip: &page.Viewport{X: 0, Y: box[0], Width: box[2], Height: box[1] - box[0], Scale: 0.7}})
	if err != nil {
		t.Fatal(err)
	}
	small, err := smallPNG(res.Data)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, small, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d KB)", path, len(small)/1024)
}

// smallPNG redraws a screenshot of a report with the few colours the
// reports use (greys, and those of the style sheets), a third of its size.
func smallPNG(data []byte) ([]byte, error) {
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	var pal color.Palette
	for i := range 32 {
		v := uint8(i * 255 / 31)
		pal = append(pal, color.RGBA{v, v, v, 255})
	}
	for _, c := range []uint32{0xb00020, 0x0a6b2b, 0x8a5a00, 0xfff6d6, 0xf3f4f8, 0x1a0dab, 0xfde7ea, 0xe6f4ea, 0x1e2a44, 0xe8f0ff, 0xfff3d6, 0xfff5f6, 0x0000ee} {
		pal = append(pal, color.RGBA{uint8(c >> 16), uint8(c >> 8), uint8(c), 255})
	}
	out := image.NewPaletted(img.Bounds(), pal)
	draw.Draw(out, img.Bounds(), img, img.Bounds().Min, draw.Src)
	var buf bytes.Buffer
	err = (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, out)
	return buf.Bytes(), err
}
