package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/internal/pagecheck/toollist"
)

// The acceptance of issue 14.1: the served reference app's tools, as a
// table and as JSON with schemas.
func TestCatalogListsThePagesTools(t *testing.T) {
	app, err := refapp.Start(refapp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()

	var out, errs bytes.Buffer
	if code := catalogCmd([]string{app.URL + "/tasks"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	for _, want := range []string{"offers 4 tool(s)", "add_task", "list_tasks", "read-only", "imperative"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, out.String())
		}
	}

	out.Reset()
	if code := catalogCmd([]string{app.URL + "/events/evt-webmcp-intro/register", "--json"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	var l toollist.Listing
	if err := json.Unmarshal(out.Bytes(), &l); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	if len(l.Tools) != 1 || l.Tools[0].Name != "prepare_event_registration" || l.Tools[0].Kind != "declarative" || !l.Tools[0].Annotations.Autosubmit {
		t.Fatalf("tools %+v", l.Tools)
	}
	var schema struct {
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(l.Tools[0].InputSchema, &schema); err != nil || strings.Join(schema.Required, ",") != "attendeeName,email" {
		t.Errorf("schema %s (%v)", l.Tools[0].InputSchema, err)
	}
}

// Bad input is a clear error and runs nothing.
func TestCatalogRefusesBadInput(t *testing.T) {
	for _, args := range [][]string{{}, {"not a url"}, {"ftp://example.org/x"}, {"--no-such-flag", "http://127.0.0.1:1/"}} {
		var out, errs bytes.Buffer
		if code := catalogCmd(args, &out, &errs); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errs.String())
		}
	}
}
