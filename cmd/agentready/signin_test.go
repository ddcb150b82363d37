package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/smoke"
)

// signedInState signs in to the refapp's library desk over HTTP and saves
// the session as a Playwright storageState file.
func signedInState(t *testing.T, base string) string {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar}
	res, err := hc.PostForm(base+"/login", url.Values{"name": {refapp.LoanReader}, "password": {refapp.LoanPassword}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.Request.URL.Path != "/loans" {
		t.Fatalf("the sign-in ended on %s", res.Request.URL)
	}
	u, _ := url.Parse(base)
	var cookies []map[string]any
	for _, c := range jar.Cookies(u) {
		cookies = append(cookies, map[string]any{"name": c.Name, "value": c.Value, "domain": u.Hostname(), "path": "/", "expires": -1, "httpOnly": true, "secure": false, "sameSite": "Strict"})
	}
	data, _ := json.Marshal(map[string]any{"cookies": cookies, "origins": []any{}})
	path := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Without a sign-in, catalog on a page behind one names where the page
// went; with --storage-state it lists the signed-in page's tool.
func TestCatalogSaysThePageWentToTheSignIn(t *testing.T) {
	app, err := refapp.Start(refapp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	var out, errs bytes.Buffer
	if code := catalogCmd([]string{app.URL + "/loans"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if want := app.URL + "/loans went to " + app.URL + "/login?next=/loans, which offers 0 tool(s)"; !strings.Contains(out.String(), want) || !strings.Contains(out.String(), "--storage-state") {
		t.Errorf("signed out, catalog said:\n%s\nwant %q and a hint", out.String(), want)
	}
	out.Reset()
	if code := catalogCmd([]string{"--storage-state", signedInState(t, app.URL), app.URL + "/loans"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if !strings.Contains(out.String(), "/loans offers 1 tool(s)") || !strings.Contains(out.String(), "renew_loan") || strings.Contains(out.String(), "went to") {
		t.Errorf("signed in, catalog said:\n%s", out.String())
	}
}

// smoke --storage-state reaches the write tool's request on the signed-in
// page; without it the page offers nothing to call.
func TestSmokeSignedInReachesTheWrite(t *testing.T) {
	app, err := refapp.Start(refapp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	var out, errs bytes.Buffer
	smokeCmd([]string{"--allow-writes", "--json", "--storage-state", signedInState(t, app.URL), app.URL + "/loans"}, &out, &errs)
	var rep smoke.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s%s", err, out.String(), errs.String())
	}
	reached := false
	for _, w := range rep.Writes {
		for _, r := range w.Requests {
			reached = reached || (w.Tool == "renew_loan" && strings.HasPrefix(r, "POST /api/loans/"))
		}
	}
	if rep.Calls == 0 || !reached {
		t.Errorf("signed in, smoke made %d calls and reached no POST /api/loans/…: %s", rep.Calls, out.String())
	}
	out.Reset()
	smokeCmd([]string{"--allow-writes", "--json", app.URL + "/loans"}, &out, &errs)
	rep = smoke.Report{}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || rep.Calls != 0 {
		t.Errorf("signed out, smoke made %d calls (%v): %s", rep.Calls, err, out.String())
	}
}

// A bad file or header is exit 2 with the reason, before any browser.
func TestSignInFlagsRefuseBadInput(t *testing.T) {
	dir := t.TempDir()
	notJSON := filepath.Join(dir, "state.yaml")
	if err := os.WriteFile(notJSON, []byte("cookies: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--storage-state", filepath.Join(dir, "missing.json")}, "missing.json"},
		{[]string{"--storage-state", notJSON}, "state.yaml: not JSON"},
		{[]string{"--header", "X-Api-Key k"}, "write it as 'Name: value'"},
		{[]string{"--header", "Bad Name: k"}, "is not a header name"},
	} {
		for _, cmd := range []struct {
			name string
			run  func([]string, *bytes.Buffer, *bytes.Buffer) int
		}{
			{"catalog", func(a []string, o, e *bytes.Buffer) int { return catalogCmd(a, o, e) }},
			{"smoke", func(a []string, o, e *bytes.Buffer) int { return smokeCmd(a, o, e) }},
			{"lint", func(a []string, o, e *bytes.Buffer) int { return lintCmd(a, o, e) }},
			{"init", func(a []string, o, e *bytes.Buffer) int { return initCmd(a, o, e) }},
			{"run", func(a []string, o, e *bytes.Buffer) int { return runScenarios(a[:len(a)-1], o, e) }},
			{"evals", func(a []string, o, e *bytes.Buffer) int { return evalsCmd(a, o, e) }},
			{"mcp", func(a []string, o, e *bytes.Buffer) int {
				return mcpCmd(append(a[:len(a)-1], "--url", a[len(a)-1]), strings.NewReader(""), o, e)
			}},
		} {
			var out, errs bytes.Buffer
			args := append(append([]string{}, c.args...), "http://127.0.0.1:1/loans")
			if code := cmd.run(args, &out, &errs); code != 2 || !strings.Contains(errs.String(), c.want) {
				t.Errorf("%s %v: exit %d, stderr %q; want 2 and %q", cmd.name, c.args, code, errs.String(), c.want)
			}
		}
	}
}

// run --storage-state signs each scenario's tab in before its start page:
// a scenario that pins the signed-in catalog passes with it, and fails
// without it (the known-bad half) with the start page's catalog mismatch.
func TestRunSignsInWithAStorageState(t *testing.T) {
	app, err := refapp.Start(refapp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	dir := t.TempDir()
	sc := `id: LOANS-STATE
title: signed in by a storage state
start: /loans
prompt: Renew my copy of The Pragmatic Programmer.
agent:
  calls:
    - tool: renew_loan
      input: {loan_id: l1}
      expect: {status: completed, output: {ok: true, code: RENEWED}}
  final: It is renewed.
expect:
  catalog:
    exactly: [renew_loan]
known: {outcome: PASS}
`
	if err := os.WriteFile(filepath.Join(dir, "LOANS-STATE.yaml"), []byte(sc), 0o644); err != nil {
		t.Fatal(err)
	}
	state := signedInState(t, app.URL)
	evidence := t.TempDir()
	var out, errs bytes.Buffer
	if code := runScenarios([]string{"--base-url", app.URL, "--scenarios", dir, "--evidence", evidence, "--run-id", "signed-in", "--storage-state", state}, &out, &errs); code != 0 {
		t.Errorf("signed in: exit %d\n%s%s", code, out.String(), errs.String())
	}
	out.Reset()
	if code := runScenarios([]string{"--base-url", app.URL, "--scenarios", dir, "--evidence", evidence, "--run-id", "signed-out"}, &out, &errs); code != 1 || !strings.Contains(out.String(), "catalog_mismatch") {
		t.Errorf("signed out: exit %d, want 1 with catalog_mismatch\n%s", code, out.String())
	}
}
