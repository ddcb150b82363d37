package browser

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/kit/hang"
)

// A page whose form has a required control without a name, and a
// cross-site frame allowed to offer tools whose form has an optional one:
// Chromium drops both from their tools and says so only through its Audits
// domain.
const issuesPage = `<!doctype html><title>issues</title>
<form id=book toolname="book_table" tooldescription="Book a table for tonight">
  <label>Guests <input name="guests" required></label>
  <label>Phone <input type="tel" required></label>
</form>
<iframe allow="tools" src="{B}/frame"></iframe>`

const issuesFrame = `<!doctype html><title>frame</title>
<form toolname="send_note" tooldescription="Send a note to the kitchen">
  <label>Note <input name="note"></label>
  <label>Table <input></label>
</form>`

// Each issue is kept once (Chromium 156 reports each twice), on the page
// and in a cross-site frame, located at its form and element.
func TestChromiumsFormIssuesAreKeptAndLocated(t *testing.T) {
	b := launched(t)
	var bURL string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/frame" {
			fmt.Fprint(w, issuesFrame)
			return
		}
		fmt.Fprint(w, strings.ReplaceAll(issuesPage, "{B}", bURL))
	}))
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	bURL = "http://localhost:" + port // another site: a target of its own
	tab := openTab(t, b, srv.URL+"/")
	ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
	defer cancel()
	if err := tab.Issues.WaitFor(ctx, 2); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, is := range tab.WebMCPIssues(t.Context(), 0) {
		if is.Unlocated != "" {
			t.Errorf("unlocated: %+v", is)
		}
		got = append(got, fmt.Sprintf("%s %s %s %s", is.Type, is.Form, is.ToolName, is.Element))
		if is.Type == "FormModelContextParameterMissingName" && is.FrameURL != bURL+"/frame" {
			t.Errorf("the frame's issue is located in %q, want %s/frame", is.FrameURL, bURL)
		}
	}
	for _, want := range []string{
		`FormModelContextRequiredParameterMissingName form#book book_table input[type=tel] #2 of its form ("Phone")`,
		`FormModelContextParameterMissingName form[toolname="send_note"] send_note input[type=text] #2 of its form ("Table")`,
	} {
		if n := countOf(got, want); n != 1 {
			t.Errorf("%d × %s in\n%s", n, want, strings.Join(got, "\n"))
		}
	}
	// Read from a later point, only what came after.
	if later := tab.WebMCPIssues(t.Context(), tab.Issues.Len()); later != nil {
		t.Errorf("issues after the last: %+v", later)
	}
}

func countOf(list []string, s string) int {
	n := 0
	for i := slices.Index(list, s); i >= 0; i = slices.Index(list, s) {
		n++
		list = list[i+1:]
	}
	return n
}
