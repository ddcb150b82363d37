package observer

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// An app that does not serve the endpoints: Check names the URL and what it
// answered, once.
func TestCheckNamesTheURLAndTheStatus(t *testing.T) {
	app := httptest.NewServer(http.NotFoundHandler())
	defer app.Close()
	err := New(app.URL, "t").Check(t.Context())
	if err == nil {
		t.Fatal("Check passed on an app without observation endpoints")
	}
	for _, want := range []string{app.URL + StatePath, "404"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// Paths are configurable; the token is sent; both endpoints are read.
func TestCheckReadsConfiguredPathsWithTheToken(t *testing.T) {
	var seen []string
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		seen = append(seen, r.URL.Path)
		switch r.URL.Path {
		case "/ops/state":
			_, _ = w.Write([]byte(`{"version":1,"hash":"h"}`))
		case "/ops/journal":
			_, _ = w.Write([]byte(`{"entries":[]}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer app.Close()
	c := New(app.URL, "tok")
	c.StatePath, c.JournalPath = "/ops/state", "/ops/journal"
	if err := c.Check(t.Context()); err != nil {
		t.Fatal(err)
	}
	if strings.Join(seen, ",") != "/ops/state,/ops/journal" {
		t.Errorf("read %v", seen)
	}
	c.Token = "wrong"
	if err := c.Check(t.Context()); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("a wrong token: %v", err)
	}
}

// The app's own answer is told from a read that failed on the way: a 500
// is an *AnswerError with its status, a closed port is not.
func TestAServerErrorIsTheAppsAnswer(t *testing.T) {
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "boom", http.StatusInternalServerError)
	}))
	_, err := New(app.URL, "t").State(t.Context())
	var ae *AnswerError
	if !errors.As(err, &ae) || ae.Status != 500 || !strings.Contains(err.Error(), "500") {
		t.Errorf("State on a 500: %v (%T), want an *AnswerError of 500", err, err)
	}
	app.Close()
	if _, err := New(app.URL, "t").State(t.Context()); err == nil || errors.As(err, &ae) {
		t.Errorf("State on a closed app: %v, want an error that is no answer", err)
	}
}
