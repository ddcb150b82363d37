package signin

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/browser"
)

func TestParseReadsPlaywrightsFormat(t *testing.T) {
	s, err := Parse([]byte(`{"cookies":[{"name":"sid","value":"v1","domain":"127.0.0.1","path":"/","expires":-1,"httpOnly":true,"secure":false,"sameSite":"Lax"}],
	  "origins":[{"origin":"http://127.0.0.1:3000","localStorage":[{"name":"token","value":"t"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Cookies) != 1 || s.Cookies[0].Name != "sid" || !s.Cookies[0].HTTPOnly || s.Origins[0].LocalStorage[0].Value != "t" {
		t.Errorf("read %+v", s)
	}
}

// Bad input is an error naming the entry and the reason, never a panic.
func TestParseRefusesBadStates(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{`{`, "not JSON"},
		{`[]`, "not a storage state"},
		{`{"cookies": {"name": "x"}}`, "cookies must be"},
		{`{"cookies":[{"value":"v","domain":"h"}]}`, "cookies[0]: a name is required"},
		{`{"cookies":[{"name":"a b","value":"v","domain":"h"}]}`, `name "a b" is not a cookie name`},
		{`{"cookies":[{"name":"a","value":"v;x","domain":"h"}]}`, "holds a character"},
		{`{"cookies":[{"name":"a","value":"v"}]}`, "a domain is required"},
		{`{"cookies":[{"name":"a","value":"v","domain":"h","sameSite":"lax"}]}`, "sameSite must be Strict, Lax or None"},
		{`{"cookies":[{"name":"a","value":"v","domain":"h","expires":-5}]}`, "expires must be"},
		{`{"origins":[{"origin":"127.0.0.1:3000"}]}`, "origins[0]: origin \"127.0.0.1:3000\" is not an http(s) origin"},
		{`{"origins":[{"origin":"http://h/path"}]}`, "more than a scheme"},
		{`{"origins":[{"origin":"http://h","localStorage":[{"value":"v"}]}]}`, "origins[0].localStorage[0]: a name is required"},
	} {
		_, err := Parse([]byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%s) = %v, want an error with %q", c.doc, err, c.want)
		}
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("a missing file: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(bad, []byte("cookies: []"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(bad); err == nil || !strings.Contains(err.Error(), "state.json: not JSON") {
		t.Errorf("a YAML file: %v", err)
	}
}

func TestParseHeader(t *testing.T) {
	if n, v, err := ParseHeader("x-api-key:  k1 "); err != nil || n != "X-Api-Key" || v != "k1" {
		t.Errorf("ParseHeader = %q %q %v", n, v, err)
	}
	for _, c := range []struct{ raw, want string }{
		{"X-Api-Key k1", "write it as 'Name: value'"},
		{"X Api: k1", "is not a header name"},
		{": k1", "is not a header name"},
		{"X-A: a\nb", "a control character"},
		{"Cookie: sid=1", "--storage-state"},
	} {
		if _, _, err := ParseHeader(c.raw); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseHeader(%q) = %v, want %q", c.raw, err, c.want)
		}
	}
}

// Applied to a fresh tab, the state's cookie and header reach the server
// on the first request, the localStorage item is there before the page's
// own script runs, and a value the page changes is kept on the next
// document (written once per tab). Without Apply none of it is there: the
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
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	state, err := Parse([]byte(`{"cookies":[{"name":"sid","value":"s-42","domain":"127.0.0.1","path":"/","expires":-1,"httpOnly":true,"sameSite":"Lax"}],
	  "origins":[{"origin":"` + srv.URL + `","localStorage":[{"name":"token","value":"t-7"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	in := Options{State: state}
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
	if err := in.Apply(ctx, tab); err != nil {
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
