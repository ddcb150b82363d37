package browser_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/signin"
	"github.com/agentready/agentready/internal/kit/hang"
	"github.com/agentready/agentready/internal/live/browser"
)

// Applied to a fresh tab, the state's cookie and header reach the server
// on the first request, the localStorage item is there before the page's
// own script runs, and a value the page changes is kept on the next
// document (written once per tab). Without it none of it is there: the
// known-bad half.
func TestApplyBeforeTheStartPage(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sid := ""
		if c, err := r.Cookie("sid"); err == nil {
			sid = c.Value
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><body data-sid=%q data-key=%q><script>
document.body.dataset.token = localStorage.getItem("token") || "";
if (location.pathname === "/one") localStorage.setItem("token", "changed");
</script>`, sid, r.Header.Get("X-Api-Key"))
	}))
	defer srv.Close()
	b, err := browser.Launch(browser.OptionsFromEnv())
	if err != nil {
		t.Fatalf("these tests need Chromium (make deps installs it): %v", err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), hang.Bound)
	defer cancel()
	state, err := signin.Parse([]byte(`{"cookies":[{"name":"sid","value":"s-42","domain":"127.0.0.1","path":"/","expires":-1,"httpOnly":true,"sameSite":"Lax"}],
	  "origins":[{"origin":"` + srv.URL + `","localStorage":[{"name":"token","value":"t-7"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	in := signin.Options{State: state}
	if err := in.AddHeader("X-Api-Key: k-1"); err != nil {
		t.Fatal(err)
	}
	read := func(tab *browser.Tab, path string) string {
		t.Helper()
		if err := tab.Navigate(ctx, srv.URL+path); err != nil {
			t.Fatal(err)
		}
		bound, cancel := tab.Bind(ctx)
		defer cancel()
		got, err := chromedp.Run(bound, chromedp.Evaluate[string](`[document.body.dataset.sid, document.body.dataset.key, document.body.dataset.token].join(",")`))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	tab, err := b.NewTab(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	if err := tab.SignIn(ctx, in); err != nil {
		t.Fatal(err)
	}
	if got := read(tab, "/one"); got != "s-42,k-1,t-7" {
		t.Errorf("signed in, the first page saw %q, want s-42,k-1,t-7", got)
	}
	if got := read(tab, "/two"); got != "s-42,k-1,changed" {
		t.Errorf("the next page saw %q, want the page's own change kept", got)
	}
	plain, err := b.NewTab(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if got := read(plain, "/one"); got != ",," {
		t.Errorf("a tab without the sign-in saw %q, want nothing", got)
	}
}
