package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/internal/pagecheck/smoke"
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

// runJSON reads a bundle's JSON file into v.
func runJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// The command line's --storage-state wins over the folder file's sign-in
// request, and the run says so: with the desk's saved state LOANS-02
// passes without sending the request; with a stale one it fails as the
// signed-out page does, which it would not if the folder's request had
// still signed it in.
func TestTheCommandLineSignInWinsOverTheFolders(t *testing.T) {
	// The folder's file and LOANS-02 alone (not its known-bad companion).
	folder := t.TempDir()
	for _, name := range []string{"agentready.yaml", "LOANS-02.yaml", "reader.storage-state.json", "stale.storage-state.json"} {
		data, err := os.ReadFile(filepath.Join("../../scenarios/cases/loans", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(folder, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		state string
		code  int
	}{{"reader.storage-state.json", 0}, {"stale.storage-state.json", 1}} {
		evidence := t.TempDir()
		var out, errs bytes.Buffer
		code := runScenarios([]string{"--embedded", "--scenarios", folder, "--evidence", evidence, "--run-id", "r",
			"--storage-state", filepath.Join(folder, c.state)}, &out, &errs)
		if code != c.code || !strings.Contains(errs.String(), "is used in place of the signin keys of 1 scenario(s): LOANS-02 (request)") {
			t.Errorf("--storage-state %s: exit %d, want %d and the note\n%s%s", c.state, code, c.code, out.String(), errs.String())
		}
		var run struct {
			SignIn struct {
				From         string   `json:"from"`
				Overridden   []string `json:"overridden"`
				Request      string   `json:"request"`
				StorageState string   `json:"storageState"`
				Cookies      int      `json:"cookies"`
			} `json:"signIn"`
		}
		runJSON(t, filepath.Join(evidence, "r", "LOANS-02", "run.json"), &run)
		if s := run.SignIn; s.From != "command line" || len(s.Overridden) != 1 || s.Overridden[0] != "request" || s.Request != "" || s.Cookies != 1 {
			t.Errorf("--storage-state %s: run.json signIn %+v", c.state, s)
		}
		var verdict struct {
			Codes []string `json:"codes"`
		}
		runJSON(t, filepath.Join(evidence, "r", "LOANS-02", "verdict.json"), &verdict)
		if stale := c.code == 1; stale != slices.Contains(verdict.Codes, "catalog_mismatch") {
			t.Errorf("--storage-state %s: codes %v", c.state, verdict.Codes)
		}
	}
}

// check names a folder file's bad sign-in at its line and column, once,
// and a scenario's storage state file that is not one.
func TestCheckNamesBadSignInKeys(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("../../scenarios/cases/loans/LOANS-02.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"LOANS-02.yaml":   string(data),
		"LOANS-09.yaml":   strings.Replace(strings.Replace(string(data), "id: LOANS-02", "id: LOANS-09", 1), "start: /loans\n", "start: /loans\nsignin: {storage_state: state.txt}\n", 1),
		"state.txt":       "cookies: []\n",
		"agentready.yaml": "signin:\n  request: POST /login\n  from: {name: reader}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errs bytes.Buffer
	code := run([]string{"check", dir}, &out, &errs)
	folder := filepath.Join(dir, "agentready.yaml") + ":3:3: signin.from: unknown key; did you mean form?"
	if code != 1 || strings.Count(out.String(), folder) != 1 ||
		!strings.Contains(out.String(), filepath.Join(dir, "LOANS-09.yaml")+":10:25: signin.storage_state: "+filepath.Join(dir, "state.txt")+": not JSON") {
		t.Errorf("check: exit %d\n%s%s", code, out.String(), errs.String())
	}
}
