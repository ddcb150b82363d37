package main

import (
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"

	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/kit/laps"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/scenarios"
)

// TestFloorAndSuiteWaysOnce runs the bench's two Go ways once each against
// the reference app, so that `go test -race ./bench` goes through the floor's
// POST counting, which a chromedp listener does on another goroutine. The
// Playwright way is left out: node need not be installed.
func TestFloorAndSuiteWaysOnce(t *testing.T) {
	b, err := browser.Launch(browser.OptionsFromEnv())
	if err != nil {
		t.Fatalf("this test needs Chromium (make deps installs it): %v", err)
	}
	defer b.Close()

	t.Run("floor", func(t *testing.T) {
		var took time.Duration
		var posts int64
		within(t, 10*time.Second, func() (err error) {
			took, posts, err = floor(b) // it fails on a POST before the click
			return err
		})
		if posts != 1 {
			t.Errorf("%d registration POSTs after the click, want 1", posts)
		}
		if took <= 0 {
			t.Errorf("took %v", took)
		}
	})

	t.Run("suite", func(t *testing.T) {
		sc, err := scenarios.Load(filepath.Join("..", scenarios.DefaultDir, "CONF-01.attempt-3.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		var total, writing time.Duration
		var stages []laps.Lap
		within(t, 10*time.Second, func() (err error) {
			total, writing, stages, err = suite(t.Context(), b, sc, dir) // it fails unless the scenario passed
			return err
		})
		if writing <= 0 || writing >= total {
			t.Errorf("evidence writing took %v of %v", writing, total)
		}
		// The breakdown reaches into the runner and the seal, and its
		// stages add up to no more than the whole.
		var sum time.Duration
		seen := map[string]bool{}
		for _, l := range stages {
			sum += l.Took
			seen[l.Stage] = true
		}
		for _, want := range []string{"the app and a tab", "open the start page", "the agent's calls", "replays", "seal (redact, judge)", "write the bundle"} {
			if !seen[want] {
				t.Errorf("the suite's stages lack %q: %v", want, stages)
			}
		}
		if sum > total {
			t.Errorf("the stages sum to %v, more than the whole %v", sum, total)
		}
		for _, name := range []string{bundle.VerdictFile, bundle.ManifestFile, bundle.IndexFile} {
			if _, err := os.Stat(filepath.Join(dir, "CONF-01.attempt-3", name)); err != nil {
				t.Errorf("the bundle lacks %s: %v", name, err)
			}
		}
	})
}

// The bench starts its browser as every command does (issue 23.2): with
// AGENTREADY_GRID_URL at a grid that is not there, it fails at once naming
// it, before anything is measured or written.
func TestTheBenchStartsItsBrowserAsEveryCommandDoes(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	grid := "http://" + l.Addr().String()
	l.Close()
	t.Setenv(browser.EnvGridURL, grid)
	t.Setenv(browser.EnvBrowserURL, "")
	out := filepath.Join(t.TempDir(), "bench.json")
	start := time.Now()
	err = run(1, out, t.TempDir(), false, true)
	if err == nil || !strings.Contains(err.Error(), grid) || time.Since(start) > 10*time.Second {
		t.Errorf("the bench with no grid there: %v after %v, want an error at once naming %s", err, time.Since(start), grid)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the bench wrote %s: %v", out, err)
	}
}

// TestRegistrationPostsAcrossGoroutines feeds the floor's POST counter from
// another goroutine while reading it, as chromedp and the floor do. The flow
// above cannot show a race to -race: chromedp happens to take one mutex both
// to call listeners and to send each command, which orders the floor's reads
// after the listener's writes. This test has no such order, so -race fails it
// as soon as the count is not synchronised.
func TestRegistrationPostsAcrossGoroutines(t *testing.T) {
	const url = "http://127.0.0.1:1/api/registrations"
	event := func(method, url string) any {
		return &network.EventRequestWillBeSent{Request: &network.Request{Method: method, URL: url}}
	}
	var posts registrationPosts
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, ev := range []any{event("GET", url), event("POST", url), event("POST", url+"/x"), "not an event", event("POST", url)} {
			posts.listen(ev)
		}
	}()
	if n := posts.count(); n < 0 || n > 2 { // while listen may run
		t.Errorf("count %d while counting", n)
	}
	<-done
	if n := posts.count(); n != 2 {
		t.Errorf("%d POSTs counted, want 2", n)
	}
}

// within runs f and fails the test if f fails or has not returned after d.
// On a timeout f is left running; closing the browser ends it.
func within(t *testing.T, d time.Duration, f func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-timer.C:
		t.Fatalf("not done after %v", d)
	}
}

// TestCoresBusy: the share of the machine a way kept busy, from two
// /proc/stat samples; counters that did not move, or went back, answer 0,
// not NaN or a negative figure that would make the CPU bound say nothing.
func TestCoresBusy(t *testing.T) {
	for _, c := range []struct {
		name          string
		before, after cpuSample
		cpus          int
		want          float64
	}{
		{"half idle on two cores", cpuSample{100, 1000}, cpuSample{200, 1200}, 2, 1},
		{"all busy", cpuSample{100, 1000}, cpuSample{100, 1400}, 4, 4},
		{"all idle", cpuSample{100, 1000}, cpuSample{300, 1200}, 2, 0},
		{"no time passed", cpuSample{100, 1000}, cpuSample{100, 1000}, 2, 0},
		{"counters went back", cpuSample{100, 1000}, cpuSample{50, 1100}, 2, 0},
		{"no CPUs counted", cpuSample{100, 1000}, cpuSample{150, 1200}, 0, 0},
	} {
		if got := coresBusy(c.before, c.after, c.cpus); got != c.want {
			t.Errorf("%s: %v cores busy, want %v", c.name, got, c.want)
		}
	}
	if runtime.GOOS == "linux" {
		if n := cpuCount(); n < 1 {
			t.Errorf("cpuCount() = %d on a Linux machine: /proc/stat's cpuN lines were not counted", n)
		}
	}
}

// TestParseCPU: idle is idle, iowait and steal; guest time is inside user
// and nice already, so it is not counted twice; a line that is not the
// machine's total is no sample.
func TestParseCPU(t *testing.T) {
	//            user nice system idle iowait irq softirq steal guest guest_nice
	s, ok := parseCPU("cpu  100 10 50 800 20 5 5 10 40 4")
	if !ok || s.idle != 830 || s.total != 1000 {
		t.Errorf("parseCPU = %+v, %v; want idle 830 of 1000", s, ok)
	}
	if s, ok := parseCPU("cpu  100 10 50 800 20 5 5"); !ok || s.idle != 820 || s.total != 990 {
		t.Errorf("an old kernel's line without steal: %+v, %v; want idle 820 of 990", s, ok)
	}
	for _, bad := range []string{"", "cpu", "cpu0 1 2 3 4 5 6 7 8", "cpu 1 2 x 4 5 6 7 8", "intr 1 2 3 4 5 6 7 8"} {
		if s, ok := parseCPU(bad); ok {
			t.Errorf("parseCPU(%q) = %+v, true; want no sample", bad, s)
		}
	}
}

// The bench times the Playwright flow with the suite's checks only when it
// checks alike: it must pass the correct app and fail each defect the suite
// fails. A peer that misses a defect, or fails the correct app, is named.
func TestTheTwoWaysMustCheckAlike(t *testing.T) {
	alike := []peerRow{
		{Variant: ""},
		{Variant: "intent-reusable", Suite: []string{"race_lost_update"}, Playwright: []string{"replay race: 5 of 5 accepted"}},
	}
	if got := unlike(alike); got != nil {
		t.Errorf("unlike(%v) = %v, want none", alike, got)
	}
	for _, c := range []struct {
		row  peerRow
		want string
	}{
		{peerRow{Variant: "intent-reusable", Suite: []string{"race_lost_update"}}, "intent-reusable"},
		{peerRow{Variant: "", Playwright: []string{"catalog schema"}}, "(the correct app)"},
		{peerRow{Variant: "", Suite: []string{"INCONCLUSIVE"}, Playwright: nil}, "(the correct app)"},
		{peerRow{Variant: "seats-shown-stale", Playwright: []string{"ui human #seats-left"}}, "seats-shown-stale"},
	} {
		got := unlike(append(slices.Clone(alike), c.row))
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("unlike with %+v = %v, want [%s]", c.row, got, c.want)
		}
	}
}
