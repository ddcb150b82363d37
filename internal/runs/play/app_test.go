package play

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Bad input is named as such, by the flag or variable that gave it: an
// unsupported scheme says so (not "does not answer"), a URL without a host
// too, and an app that is down does not answer.
func TestAnAppsURLIsNamedAsTheUserGaveIt(t *testing.T) {
	down := closedPort(t)
	for _, tc := range []struct {
		app  App
		want string
	}{
		{App{BaseURL: "ftp://example.org"}, `AGENTREADY_BASE_URL=ftp://example.org: the scheme "ftp" is not supported: agentready tests apps at http:// or https:// URLs`},
		{App{BaseURL: "ftp://example.org", BaseURLFrom: "--base-url"}, `--base-url ftp://example.org: the scheme "ftp" is not supported`},
		{App{BaseURL: "127.0.0.1:3000", BaseURLFrom: "--base-url"}, `--base-url 127.0.0.1:3000 lacks its scheme: give http://127.0.0.1:3000 (or https://)`},
		{App{BaseURL: "localhost:3000"}, `AGENTREADY_BASE_URL=localhost:3000 lacks its scheme: give http://localhost:3000`},
		{App{BaseURL: "http://", BaseURLFrom: "--url"}, "--url http:// names no host"},
		{App{BaseURL: "http://a b", BaseURLFrom: "--url"}, "--url http://a b is not a URL"},
		{App{BaseURL: down, BaseURLFrom: "--url"}, "--url " + down + " does not answer"},
		{App{BaseURL: down}, "AGENTREADY_BASE_URL=" + down + " does not answer"},
	} {
		err := tc.app.Check(t.Context())
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.app, err, tc.want)
		}
	}
	if err := (App{}).Check(t.Context()); err != nil {
		t.Errorf("the embedded app needs no check: %v", err)
	}
}

// A token for an app without observation endpoints is named by its flag.
func TestATokenIsNamedAsTheUserGaveIt(t *testing.T) {
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/__agentready/") {
			http.NotFound(w, r)
		}
	}))
	defer app.Close()
	for from, want := range map[string]string{"": "AGENTREADY_OBSERVER_TOKEN is set", "--observer-token": "--observer-token is set"} {
		err := App{BaseURL: app.URL, ObserverToken: "t", TokenFrom: from}.Check(t.Context())
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("token from %q: %v, want %q", from, err, want)
		}
	}
	if err := (App{BaseURL: app.URL}).Check(t.Context()); err != nil {
		t.Errorf("an app that answers, without a token: %v", err)
	}
}

// closedPort is the URL of a loopback server that is gone.
func closedPort(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	return srv.URL
}

// TestAUsersAppIsPlayedByOneProcess: a user's app has one state, so several
// processes playing it at once are refused, naming the app and the way out;
// the embedded app (started per spec) and one process are not.
func TestAUsersAppIsPlayedByOneProcess(t *testing.T) {
	user := App{BaseURL: "http://127.0.0.1:8080"}
	if err := user.CheckProcesses(2); err == nil {
		t.Fatal("two processes against one user's app were not refused")
	} else {
		for _, want := range []string{"AGENTREADY_BASE_URL=http://127.0.0.1:8080", "2 processes", "PROCS=1", "an app of its own"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("the refusal does not say %q:\n%v", want, err)
			}
		}
	}
	if err := user.CheckProcesses(1); err != nil {
		t.Errorf("one process against a user's app was refused: %v", err)
	}
	if err := (App{}).CheckProcesses(4); err != nil {
		t.Errorf("the embedded app (started per spec) was refused for 4 processes: %v", err)
	}
}
