package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/kit/hang"
)

// A page that saves a draft when it is hidden, as many editors do.
const hiddenSavePage = `<!doctype html><title>draft</title><script>
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") fetch("/draft", {method: "POST", keepalive: true, body: "{}"});
});
</script>`

// TestAHiddenPageSeesItAndItsWritesAreInTheLog: Hide makes the page hidden
// (visibilitychange), it goes on running, and what it sends then is in the
// page's own network log (measured on Chromium 156; unload-time requests are
// not, see docs/decisions/2026-12-04-leave-phase.md).
func TestAHiddenPageSeesItAndItsWritesAreInTheLog(t *testing.T) {
	b := launched(t)
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		fmt.Fprint(w, hiddenSavePage)
	}))
	defer app.Close()
	ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
	defer cancel()
	tab, err := b.NewTab(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	if err := tab.Navigate(ctx, app.URL); err != nil {
		t.Fatal(err)
	}
	hidden, err := tab.Hide(ctx)
	if err != nil || !hidden {
		t.Fatalf("Hide: hidden %v, %v", hidden, err)
	}
	wait, stop := context.WithTimeout(ctx, hang.Bound)
	defer stop()
	if _, err := tab.Net.WaitFor(wait, 0, func(r record.Request) bool { return r.Method == http.MethodPost && r.Path == "/draft" }); err != nil {
		t.Fatalf("the hidden page's save is not in the log: %v", err)
	}
	if err := tab.Show(ctx); err != nil {
		t.Fatal(err)
	}
}
