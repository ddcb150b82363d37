package browser

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/kit/hang"
	"github.com/agentready/agentready/netlog"
)

// A page that sends a form itself and goes where the answer says (SIGNUP-01.
// stale's way): fetch POST, answered by a redirect whose landing page the
// page never reads, then location.assign to it. Chromium 156 never finishes
// that fetch's second hop; the log ends it when the frame's next document
// commits, in the top document, in a cross-site frame (its own process,
// its own session) and in a window the page opened alike, so that a wait for the log to settle
// does not run out.
func TestARequestLeftByItsReplacedDocumentEnds(t *testing.T) {
	mux := http.NewServeMux()
	var other string
	mux.HandleFunc("GET /top", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!doctype html><iframe src="%s/form"></iframe>`, other)
	})
	mux.HandleFunc("GET /opener", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><script>window.open("/form")</script>`)
	})
	mux.HandleFunc("GET /form", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><script>
fetch("/send", {method: "POST", body: "x=1"}).then((r) => location.assign(r.url));
</script>`)
	})
	mux.HandleFunc("POST /send", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/landing", http.StatusSeeOther)
	})
	mux.HandleFunc("GET /landing", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><p id=landed>landed</p>`+strings.Repeat("<!-- a body to read -->", 4096))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	other = "http://localhost:" + port

	b := launched(t)
	for _, start := range []string{srv.URL + "/form", srv.URL + "/top", srv.URL + "/opener"} {
		t.Run(strings.TrimPrefix(start, srv.URL), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
			defer cancel()
			tab := newTab(t, ctx, b)
			if _, err := tab.StartClock(ctx, nil); err != nil { // as a run's tab
				t.Fatal(err)
			}
			if err := tab.Navigate(ctx, start); err != nil {
				t.Fatal(err)
			}
			landed := func(q record.Request) bool { return q.Path == "/landing" && q.ResourceType == "Document" }
			if _, err := tab.Net.WaitFor(ctx, 0, landed); err != nil {
				t.Fatalf("the frame never went to its landing page: %v", err)
			}
			settle, stop := context.WithTimeout(ctx, hang.Bound)
			defer stop()
			if err := tab.Net.WaitSettled(settle); err != nil {
				var open []string
				for _, q := range tab.Net.Requests() {
					if !q.Done {
						open = append(open, q.Method+" "+q.URL+" "+q.ResourceType)
					}
				}
				t.Fatalf("the log did not settle: %v; open: %v", err, open)
			}
			var fetched []record.Request
			for _, q := range tab.Net.Requests() {
				if q.Path == "/landing" && q.ResourceType == "Fetch" {
					fetched = append(fetched, q)
				}
			}
			if len(fetched) != 1 || fetched[0].Status != 200 {
				t.Fatalf("the fetch's landing hop: %+v", fetched)
			}
			if f := fetched[0]; f.Failure != "" && (f.Failure != netlog.ReplacedDocument || !f.Canceled) {
				t.Errorf("the fetch's landing hop ended as %q (canceled %v)", f.Failure, f.Canceled)
			}
		})
	}
}
