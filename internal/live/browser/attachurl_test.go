package browser

import (
	"errors"
	"strings"
	"testing"
)

// A browser address that cannot be one is named by its variable before
// anything is dialled, never "could not start or reach Chromium".
func TestABadBrowserURLIsNamedByItsVariable(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{"ftp://127.0.0.1:9222", `AGENTREADY_BROWSER_URL=ftp://127.0.0.1:9222: the scheme "ftp" is not supported`},
		{"localhost:9222", "AGENTREADY_BROWSER_URL=localhost:9222 lacks its scheme: give http://localhost:9222"},
		{"::x", "AGENTREADY_BROWSER_URL=::x is not a URL"},
		{"http://", "AGENTREADY_BROWSER_URL=http:// names no host"},
		{"garbage", "AGENTREADY_BROWSER_URL=garbage lacks its scheme"},
	} {
		b, err := Launch(Options{URL: tc.raw})
		if b != nil {
			b.Close()
		}
		if !errors.Is(err, ErrPreflight) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "could not start") {
			t.Errorf("%s: %v, want %q", tc.raw, err, tc.want)
		}
	}
	for _, ok := range []string{"ws://127.0.0.1:9222/devtools/browser/x", "http://127.0.0.1:9222", "wss://grid.example/session"} {
		if err := checkBrowserURL(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// An attached browser started without a switch the harness relies on is
// refused naming the switch; with them all it is not.
func TestAnAttachedBrowserNeedsTheSuitesFlags(t *testing.T) {
	all := append([]string{"--headless=new", "--enable-features=" + Features, "--disable-features=Translate,BackForwardCache"}, AttachFlags...)
	if err := attachedFlagsProblem(all); err != nil {
		t.Errorf("all the flags: %v", err)
	}
	for _, tc := range []struct {
		drop, want string
	}{
		{"--disable-renderer-backgrounding", "started without --disable-renderer-backgrounding."},
		{"--disable-background-timer-throttling", "started without --disable-background-timer-throttling."},
		// A tool's window.open is blocked without it (SIGNIN-01 on a
		// browser started so: the tool threw, no popup).
		{"--disable-popup-blocking", "started without --disable-popup-blocking."},
		{"--disable-features=Translate,BackForwardCache", "started without --disable-features=" + DisabledFeatures + "."},
	} {
		var args []string
		for _, a := range all {
			if a != tc.drop {
				args = append(args, a)
			}
		}
		err := attachedFlagsProblem(args)
		if !errors.Is(err, ErrPreflight) || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("without %s: %v, want %q", tc.drop, err, tc.want)
		}
	}
	if err := attachedFlagsProblem(append(all, "--disable-features=BackForwardCacheX")); err != nil {
		t.Errorf("a second --disable-features: %v", err)
	}
	if err := attachedFlagsProblem([]string{"--disable-features=BackForwardCacheX"}); err == nil || !strings.Contains(err.Error(), "--disable-features=") {
		t.Errorf("a feature named like BackForwardCache is not it: %v", err)
	}
}
