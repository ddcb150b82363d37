// Package browsertest gives a test binary one Chromium: started by the first
// test that needs it, shared by the others (each in a tab of its own, an
// isolated browser context), closed when the binary ends. A package whose
// tests drive pages calls Main from its TestMain and Tab where it needs one.
package browsertest

import (
	"os"
	"sync"
	"testing"

	"github.com/agentready/agentready/internal/live/browser"
)

var shared struct {
	once sync.Once
	b    *browser.Browser
	err  error
}

// Main runs the tests and then closes the shared browser, if one started:
// call it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	if shared.b != nil {
		shared.b.Close()
	}
	os.Exit(code)
}

// Browser answers the binary's one browser, starting it on first use; t
// fails, saying how to get Chromium, when it cannot start.
func Browser(t testing.TB) *browser.Browser {
	t.Helper()
	shared.once.Do(func() { shared.b, shared.err = browser.Launch(browser.OptionsFromEnv()) })
	if shared.err != nil {
		t.Fatalf("these tests need Chromium %d+ with WebMCP (apt-get install -y chromium, or set %s): %v",
			browser.MinMajorVersion, browser.EnvChromium, shared.err)
	}
	return shared.b
}

// Tab answers a fresh, isolated tab of the binary's browser, closed when t
// ends.
func Tab(t testing.TB) *browser.Tab {
	t.Helper()
	tab, err := Browser(t).NewTab(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tab.Close)
	return tab
}
