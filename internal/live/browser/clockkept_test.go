package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestAFixedClockIsSeenLostOnADocumentOfAnotherSite: on a fixed clock, a
// document of the same site is kept; one of another site (the other
// loopback name) runs on the real date, and Kept says so, with its URL.
func TestAFixedClockIsSeenLostOnADocumentOfAnotherSite(t *testing.T) {
	b := launched(t)
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>page</title>`)
	}))
	defer app.Close()
	tab := newTab(t, t.Context(), b)
	at := time.Date(2027, 7, 14, 7, 0, 0, 0, time.UTC)
	clock, err := tab.FixClock(t.Context(), at)
	if err != nil {
		t.Fatal(err)
	}
	defer clock.Stop()
	for _, step := range []struct {
		url  string
		kept bool
	}{
		{app.URL + "/a", true},
		{app.URL + "/b", true}, // the same site: the same renderer
		{strings.Replace(app.URL, "127.0.0.1", "localhost", 1) + "/c", false},
	} {
		if err := tab.Navigate(t.Context(), step.url); err != nil {
			t.Fatal(err)
		}
		page, kept := clock.Kept(t.Context())
		if kept != step.kept || page.URL != step.url {
			t.Errorf("%s: kept %v (page at %s, %s), want kept %v", step.url, kept, page.Time, page.URL, step.kept)
		}
		if kept && (page.Time.Before(at) || page.Time.After(at.Add(time.Minute))) {
			t.Errorf("%s: kept, and the page's clock reads %s, not near %s", step.url, page.Time, at)
		}
	}
}
