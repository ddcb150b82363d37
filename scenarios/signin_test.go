package scenarios

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/data/signin"
)

const readerState = `{"cookies":[{"name":"desk_remember","value":"r-1","domain":"127.0.0.1","path":"/","expires":-1,"httpOnly":true,"sameSite":"Lax"}],"origins":[]}`

func writePath(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A scenario signs in by each of the three ways, and its storage state
// file is read, relative to the scenario, when it loads.
func TestSignInKeysLoad(t *testing.T) {
	dir := t.TempDir()
	writePath(t, filepath.Join(dir, "states", "reader.json"), readerState)
	file := filepath.Join(dir, "T-01.yaml")
	writePath(t, file, edit(t, "setup:\n", "signin:\n  storage_state: states/reader.json\n  headers: {x-api-key: k1}\n  request: POST /login\n  form: {name: reader, password: library}\n  csrf: true\nsetup:\n"))
	sc, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	in := sc.SignIn
	if !in.Active() || in.State == nil || len(in.State.Cookies) != 1 || in.State.Cookies[0].Name != "desk_remember" || in.From != file {
		t.Fatalf("signin loaded as %+v", in)
	}
	if o := in.Options(); o.State != in.State || o.Headers["X-Api-Key"] != "k1" {
		t.Errorf("options %+v", o)
	}
	if got := in.String(); got != "storage_state states/reader.json; headers x-api-key; request POST /login" {
		t.Errorf("String() = %q", got)
	}
}

// Each bad sign-in key is a problem at its file, line and column, naming
// the key and why.
func TestBadSignInKeysAreNamed(t *testing.T) {
	dir := t.TempDir()
	writePath(t, filepath.Join(dir, "yaml-state.json"), "cookies: []")
	for _, c := range []struct{ signIn, key, want string }{
		{"signin: {}", "signin", "says no way to sign in"},
		{"signin: {storage_state: missing.json}", "signin.storage_state", "missing.json"},
		{"signin: {storage_state: yaml-state.json}", "signin.storage_state", "yaml-state.json: not JSON"},
		{"signin: {headers: {Cookie: sid=1}}", "signin.headers.Cookie", "the browser's to send (a cookie belongs in storage_state)"},
		{"signin: {headers: {\"X Key\": v}}", `signin.headers["X Key"]`, "is not a header name"},
		{"signin: {request: login}", "signin.request", `"METHOD /path"`},
		{"signin: {request: POST /login, form: {a: b}, body: {a: b}}", "signin.body", "form (form fields) or body (JSON), not both"},
		{"signin: {form: {name: reader}}", "signin.form", "give request"},
		{"signin: {request: POST /login, csrf: {meta: csrf-token}}", "signin.csrf", "header"},
		{"signin: {storage_stat: x.json}", "signin", "storage_state"},
	} {
		y := edit(t, "setup:\n", c.signIn+"\nsetup:\n")
		file := filepath.Join(dir, "bad.yaml")
		writePath(t, file, y)
		_, err := Load(file)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.key) ||
			!strings.Contains(err.Error(), file+lineOf(t, y, "signin")) {
			t.Errorf("%s: %v, want %s at %s%s: %q", c.signIn, err, c.key, file, lineOf(t, y, "signin"), c.want)
		}
	}
}

// The folder file's sign-in is every scenario's of the folder that says
// none; one that says its own keeps it, off turns it off (the known-bad
// companion), and the storage state is named relative to the folder file.
func TestTheFolderFileSignsInItsScenarios(t *testing.T) {
	dir := t.TempDir()
	writePath(t, filepath.Join(dir, "reader.json"), readerState)
	writePath(t, filepath.Join(dir, FolderFile), "# the desk\nsignin:\n  request: POST /login\n  form: {name: reader, password: library}\n")
	writePath(t, filepath.Join(dir, "a.yaml"), baseYAML)
	writePath(t, filepath.Join(dir, "b.yaml"), edit(t, "id: T-01", "id: T-02", "setup:\n", "signin: {storage_state: reader.json}\nsetup:\n"))
	writePath(t, filepath.Join(dir, "c.yaml"), "extends: a.yaml\nid: T-01.signed-out\nsignin: {off: runs signed out}\n")
	all, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]Scenario{}
	for _, sc := range all {
		byID[sc.ID] = sc
	}
	if in := byID["T-01"].SignIn; !in.Active() || in.Request != "POST /login" || in.Form["name"] != "reader" || in.From != filepath.Join(dir, FolderFile) {
		t.Errorf("T-01 (no signin) got %+v", in)
	}
	if in := byID["T-02"].SignIn; in.Request != "" || in.State == nil {
		t.Errorf("T-02 (its own) got %+v", in)
	}
	if in := byID["T-01.signed-out"].SignIn; in.Active() || in.Off != "runs signed out" {
		t.Errorf("T-01.signed-out (off) got %+v", in)
	}
	if one, err := Load(filepath.Join(dir, "a.yaml")); err != nil || one.SignIn == nil || one.SignIn.Request != "POST /login" {
		t.Errorf("Load alone: %+v %v", one.SignIn, err)
	}
}

// A bad folder file is said once, at its own lines; its app key is
// another package's and passes.
func TestABadFolderFileIsNamedOnce(t *testing.T) {
	dir := t.TempDir()
	folder := "app:\n  command: [x]\nsigin:\n  request: POST /login\nsignin:\n  request: POST /login\n  body: {a: 1}\n  form: {a: b}\n"
	writePath(t, filepath.Join(dir, FolderFile), folder)
	writePath(t, filepath.Join(dir, "a.yaml"), baseYAML)
	writePath(t, filepath.Join(dir, "b.yaml"), edit(t, "id: T-01", "id: T-02"))
	_, err := LoadDir(dir)
	var ps Problems
	if fe := FileErrors(err); len(fe) != 1 || !errors.As(fe[0].Err, &ps) {
		t.Fatalf("want one error, of the folder file: %v", err)
	}
	path := filepath.Join(dir, FolderFile)
	if len(ps) != 2 || ps[0].File != path || ps[0].Line != 3 || !strings.Contains(ps[0].Message, `unknown key "sigin"`) ||
		ps[1].Line != 7 || ps[1].Key != "signin.body" {
		t.Errorf("problems %v", ps)
	}
	if _, err := FolderSignIn(filepath.Join(dir, "none")); err != nil {
		t.Errorf("a folder without a file: %v", err)
	}
}

// The command line's sign-in replaces the keys it covers, and names them.
func TestTheCommandLineWinsOverSignInKeys(t *testing.T) {
	file := &SignIn{StorageState: "s.json", Headers: map[string]string{"X-A": "1"}, Request: "POST /login"}
	var cli signin.Options
	if got := file.Overridden(cli); got != nil {
		t.Errorf("no flags override %v", got)
	}
	cli.State = &signin.State{}
	if got := file.Overridden(cli); !slices.Equal(got, []string{"storage_state", "request"}) {
		t.Errorf("--storage-state overrides %v", got)
	}
	if err := cli.AddHeader("X-B: 2"); err != nil {
		t.Fatal(err)
	}
	if got := file.Overridden(cli); !slices.Equal(got, []string{"storage_state", "request", "headers"}) {
		t.Errorf("both override %v", got)
	}
	if got := (&SignIn{Off: "x", Request: "POST /login"}).Overridden(cli); got != nil {
		t.Errorf("an off sign-in is overridden: %v", got)
	}
}

// What a run does of a sign-in, with the command line's over the keys it
// covers, and what it records: names and counts, never a value.
func TestResolveSaysWhatTheRunDoes(t *testing.T) {
	state := &signin.State{Cookies: []signin.Cookie{{Name: "sid", Value: "v", Domain: "127.0.0.1"}}}
	folder := &SignIn{Request: "POST /login", Form: map[string]string{"name": "reader"}, Headers: map[string]string{"X-A": "secret-a"}, From: "cases/loans/" + FolderFile}
	own := &SignIn{StorageState: "states/reader.json", State: state, From: "cases/loans/LOANS-03.yaml"}
	var none signin.Options
	withState := signin.Options{State: &signin.State{}}
	withHeader := signin.Options{}
	if err := withHeader.AddHeader("X-B: secret-b"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		s       *SignIn
		cli     signin.Options
		request bool
		rec     string // the record as JSON; "" for none
	}{
		{"nothing", nil, none, false, ""},
		{"off", &SignIn{Off: "signed out", Request: "POST /login"}, none, false, ""},
		{"the folder's request", folder, none, true, `{"from":"folder file","headers":["X-A"],"request":"POST /login"}`},
		{"the scenario's state", own, none, false, `{"from":"scenario","storageState":"reader.json","cookies":1}`},
		{"--storage-state over the request", folder, withState, false, `{"from":"command line and folder file","overridden":["request"],"storageState":"(--storage-state)","headers":["X-A"]}`},
		{"--header over the headers", folder, withHeader, true, `{"from":"command line and folder file","overridden":["headers"],"headers":["X-B"],"request":"POST /login"}`},
		{"--storage-state over a state", own, withState, false, `{"from":"command line","overridden":["storage_state"],"storageState":"(--storage-state)"}`},
		{"--header with a signed-out one", &SignIn{Off: "x"}, withHeader, false, `{"from":"command line","headers":["X-B"]}`},
	} {
		in, request, rec := c.s.Resolve(c.cli)
		got := ""
		if rec != nil {
			b, _ := json.Marshal(rec)
			got = string(b)
		}
		if request != c.request || got != c.rec {
			t.Errorf("%s: request %v, record %s; want %v, %s", c.name, request, got, c.request, c.rec)
		}
		if strings.Contains(got, "secret") {
			t.Errorf("%s: the record holds a value: %s", c.name, got)
		}
		if c.rec != "" && c.cli.State != nil && in.State != c.cli.State {
			t.Errorf("%s: the command line's state is not the one applied", c.name)
		}
	}
}

// A subfolder's folder file applies below it, and the nearest file that
// sets a key wins for that key: sub/ takes the root's sign-in and its own
// app; deeper/ (no file) takes both from sub/ and the root; a file beside
// the root's takes nothing from a folder outside the one loaded.
func TestFolderSettingsInheritNearestFirst(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "suite")
	writePath(t, filepath.Join(root, FolderFile), "signin:\n  request: POST /outside\n  form: {name: x}\n")
	writePath(t, filepath.Join(dir, FolderFile), "signin:\n  request: POST /login\n  form: {name: reader, password: library}\n")
	writePath(t, filepath.Join(dir, "a.yaml"), baseYAML)
	writePath(t, filepath.Join(dir, "sub", FolderFile), "app:\n  command: [true]\n")
	writePath(t, filepath.Join(dir, "sub", "b.yaml"), edit(t, "id: T-01", "id: T-02"))
	writePath(t, filepath.Join(dir, "sub", "deeper", "c.yaml"), edit(t, "id: T-01", "id: T-03"))
	all, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]Scenario{}
	for _, sc := range all {
		byID[sc.ID] = sc
	}
	sub := filepath.Join(dir, "sub")
	for id, want := range map[string]string{"T-01": "", "T-02": sub, "T-03": sub} {
		sc := byID[id]
		if sc.SignIn == nil || sc.SignIn.Request != "POST /login" {
			t.Errorf("%s: sign-in %+v, want the suite folder's", id, sc.SignIn)
		}
		if sc.AppFolder != want {
			t.Errorf("%s: app folder %q, want %q", id, sc.AppFolder, want)
		}
	}
}
