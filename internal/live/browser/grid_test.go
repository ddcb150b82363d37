package browser

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/kit/hang"
)

// fakeGrid answers POST /session with answer, and records every request.
type fakeGrid struct {
	*httptest.Server
	mu       sync.Mutex
	requests []string
	body     []byte
	ctype    string
}

func newFakeGrid(t *testing.T, status int, answer string) *fakeGrid {
	g := &fakeGrid{}
	g.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		g.mu.Lock()
		g.requests = append(g.requests, r.Method+" "+r.URL.Path)
		if r.Method == http.MethodPost {
			g.body, g.ctype = body, r.Header.Get("Content-Type")
		}
		g.mu.Unlock()
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		if r.Method == http.MethodDelete {
			io.WriteString(w, `{"value":null}`)
			return
		}
		w.WriteHeader(status)
		io.WriteString(w, answer)
	}))
	t.Cleanup(g.Close)
	return g
}

func (g *fakeGrid) seen() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.requests)
}

// The session asked for is Chrome with WebMCP on, in a body the grid takes
// (JSON that says utf-8); its se:cdp is taken, and it is deleted once.
func TestGridSessionAsksForChromeWithWebMCP(t *testing.T) {
	g := newFakeGrid(t, 200, `{"value":{"sessionId":"s1","capabilities":{"browserName":"chrome","browserVersion":"156.0.8078.108","se:cdp":"ws://grid/session/s1/se/cdp"}}}`)
	s, err := NewGridSession(context.Background(), g.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != "s1" || s.CDP != "ws://grid/session/s1/se/cdp" || s.Version != "156.0.8078.108" {
		t.Errorf("session %+v", s)
	}
	if !strings.Contains(g.ctype, "charset=utf-8") {
		t.Errorf("Content-Type %q: Grid 4.20 refuses JSON that does not say utf-8", g.ctype)
	}
	var caps struct {
		Capabilities struct {
			AlwaysMatch struct {
				BrowserName string `json:"browserName"`
				Chrome      struct {
					Args []string `json:"args"`
				} `json:"goog:chromeOptions"`
			} `json:"alwaysMatch"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(g.body, &caps); err != nil {
		t.Fatal(err)
	}
	m := caps.Capabilities.AlwaysMatch
	for _, want := range []string{"--headless=new", "--no-sandbox", "--disable-gpu", "--enable-features=WebMCP,WebMCPTesting,DevToolsWebMCPSupport",
		"--disable-features=" + DisabledFeatures, "--disable-renderer-backgrounding"} {
		if !slices.Contains(m.Chrome.Args, want) {
			t.Errorf("goog:chromeOptions.args %v lack %s", m.Chrome.Args, want)
		}
	}
	if m.BrowserName != "chrome" {
		t.Errorf("browserName %q", m.BrowserName)
	}
	if err := s.Delete(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := g.seen(); !slices.Equal(got, []string{"POST /session", "DELETE /session/s1"}) {
		t.Errorf("requests %v, want one POST and one DELETE", got)
	}
}

// A grid that is not one, refuses, or gives no CDP endpoint is a clear
// error naming the variable; a session without se:cdp is not left behind.
func TestGridErrorsSayWhatIsWrong(t *testing.T) {
	refuses := newFakeGrid(t, 500, `{"value":{"error":"session not created","message":"Could not start a new session. No slot matches.\nBuild info: ..."}}`)
	noCDP := newFakeGrid(t, 200, `{"value":{"sessionId":"s2","capabilities":{"browserName":"chrome"}}}`)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	for _, c := range []struct {
		url  string
		want []string
	}{
		{"127.0.0.1:4444", []string{EnvGridURL, "is not a grid's URL"}},
		{"ftp://x", []string{"is not a grid's URL"}},
		{refuses.URL, []string{"session not created", "No slot matches."}},
		{noCDP.URL, []string{"no se:cdp endpoint", "s2"}},
		{closed, []string{EnvGridURL, "no Chrome session"}},
	} {
		_, err := NewGridSession(context.Background(), c.url)
		for _, w := range c.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %v, want one saying %q", c.url, err, w)
			}
		}
		if err != nil && strings.Contains(err.Error(), "Build info") {
			t.Errorf("%s: the error carries the grid's whole answer: %v", c.url, err)
		}
	}
	if got := noCDP.seen(); !slices.Contains(got, "DELETE /session/s2") {
		t.Errorf("the session without se:cdp was not deleted: %v", got)
	}
}

func TestLaunchFromEnvRefusesTwoBrowsersAndABadKeepAlive(t *testing.T) {
	t.Setenv(EnvGridURL, "http://127.0.0.1:1")
	t.Setenv(EnvBrowserURL, "ws://127.0.0.1:2")
	if _, _, err := LaunchFromEnv(t.Context()); err == nil || !strings.Contains(err.Error(), "both") {
		t.Errorf("grid and browser URL: %v", err)
	}
	t.Setenv(EnvBrowserURL, "")
	for _, bad := range []string{"soon", "-1s", "0"} {
		t.Setenv(EnvGridKeepAlive, bad)
		if _, _, err := LaunchFromEnv(t.Context()); err == nil || !strings.Contains(err.Error(), EnvGridKeepAlive) {
			t.Errorf("keep-alive %q: %v", bad, err)
		}
	}
}

func TestPingEveryPingsUntilStopped(t *testing.T) {
	stop, pinged, done := make(chan struct{}), make(chan struct{}, 10), make(chan struct{})
	go func() {
		pingEvery(stop, 5*time.Millisecond, func() error {
			select { // never blocks: a ping the test has no room for is not counted
			case pinged <- struct{}{}:
			default:
			}
			return nil
		})
		close(done)
	}()
	bound := time.After(hang.Bound)
	for range 3 {
		select {
		case <-pinged:
		case <-bound:
			t.Fatalf("fewer than 3 pings within %v", hang.Bound)
		}
	}
	close(stop)
	select {
	case <-done:
	case <-time.After(hang.Bound):
		t.Fatal("still pinging after stop")
	}
}

// gridSessions answers the ids of the sessions a real grid holds.
func gridSessions(t *testing.T, grid string) []string {
	t.Helper()
	var st struct {
		Value struct {
			Nodes []struct {
				Slots []struct {
					Session *struct {
						SessionID string `json:"sessionId"`
					} `json:"session"`
				} `json:"slots"`
			} `json:"nodes"`
		} `json:"value"`
	}
	if err := gridCall(context.Background(), http.MethodGet, grid+"/status", nil, &st); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, n := range st.Value.Nodes {
		for _, s := range n.Slots {
			if s.Session != nil {
				ids = append(ids, s.Session.SessionID)
			}
		}
	}
	return ids
}

func realGrid(t *testing.T) string {
	grid := os.Getenv(EnvGridURL)
	if grid == "" {
		t.Skip("no grid: make grid-test starts one (ci/grid.sh) and sets " + EnvGridURL)
	}
	return strings.TrimRight(grid, "/")
}

// Through a real grid: the preflight sees WebMCP on, a tab works, and the
// release leaves no session on the grid.
func TestGridBrowserPassesThePreflightAndLeavesNoSession(t *testing.T) {
	grid := realGrid(t)
	b, release, err := LaunchOnGrid(context.Background(), grid, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if b.Version.WebMCP != "document.modelContext is on" || b.Version.Major < MinMajorVersion {
		t.Errorf("through the grid: %+v", b.Version)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hang.Bound)
	defer cancel()
	tab, err := b.NewTab(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := tab.Navigate(ctx, "about:blank"); err != nil {
		t.Fatal(err)
	}
	tab.Close()
	ids := gridSessions(t, grid)
	if len(ids) == 0 {
		t.Fatal("the grid shows no session while the browser is in use")
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	for _, id := range gridSessions(t, grid) {
		if slices.Contains(ids, id) {
			t.Errorf("session %s is still on the grid after release", id)
		}
	}
}

// A grid started with a short session timeout (AGENTREADY_GRID_SESSION_TIMEOUT,
// seconds; make grid-test does) culls a silent session; one kept alive by
// CDP commands outlives it and still answers.
func TestGridKeepAliveOutlivesTheSessionTimeout(t *testing.T) {
	grid := realGrid(t)
	timeout, _ := strconv.Atoi(os.Getenv("AGENTREADY_GRID_SESSION_TIMEOUT"))
	if timeout == 0 || timeout > 30 {
		t.Skip("needs a grid with a short session timeout: AGENTREADY_GRID_SESSION_TIMEOUT=15 (make grid-test)")
	}
	b, release, err := LaunchOnGrid(context.Background(), grid, time.Duration(timeout)*time.Second/4)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	silent, err := NewGridSession(context.Background(), grid)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Delete(context.Background())
	// The grid culls timed-out sessions in a pass every 30 s or so: wait,
	// with a bound, for the silent one to go.
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	deadline := time.After(time.Duration(timeout)*time.Second + 90*time.Second)
	for slices.Contains(gridSessions(t, grid), silent.ID) {
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("the silent session %s outlived the grid's %d s session timeout by 90 s", silent.ID, timeout)
		}
	}
	ctx, cancel := context.WithTimeout(b.Context(), hang.Bound)
	defer cancel()
	if _, err := chromedp.CallBrowser(ctx, cdpbrowser.GetVersion, cdp.Empty{}); err != nil {
		t.Fatalf("the kept-alive session no longer answers after the silent one was culled: %v", err)
	}
	ids := gridSessions(t, grid)
	if len(ids) == 0 {
		t.Fatal("the kept-alive session was culled too")
	}
}
