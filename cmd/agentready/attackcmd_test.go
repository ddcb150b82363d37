package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentready/agentready/fixtures/refapp"
)

// The embed attack finds the reference app's embeddable variant (exit 1,
// embedder_write in its report) and passes the correct app (exit 0); bad
// usage is 2 and names what is wrong.
func TestAttackEmbedCommand(t *testing.T) {
	t.Parallel() // its browser waits overlap another test's
	for _, c := range []struct {
		variant refapp.Variant
		code    int
		says    string
	}{
		{"", 0, "frame-ancestors 'self'"},
		{refapp.Embeddable, 1, "embedder_tools_visible embedder_write"},
	} {
		app, err := refapp.Start(refapp.Options{Variant: c.variant, ObserverToken: "t"})
		if err != nil {
			t.Fatal(err)
		}
		var out, errs bytes.Buffer
		code := attackCmd([]string{"embed", "--evidence", t.TempDir(), "--run-id", "r", "--observer-token", "t", app.URL + "/tasks"}, &out, &errs)
		app.Close()
		if code != c.code || !strings.Contains(out.String(), c.says) {
			t.Errorf("%q: exit %d, want %d saying %q\n%s%s", c.variant, code, c.code, c.says, out.String(), errs.String())
		}
	}
	for args, says := range map[string]string{
		"":                "usage: agentready attack embed",
		"frame http://x":  `"frame" is not an attack`,
		"embed":           "usage: agentready attack embed",
		"embed nope":      "lacks its scheme",
		"embed ftp://x/y": "is not supported",
		"embed --bogus u": "bogus",
	} {
		var out, errs bytes.Buffer
		if code := attackCmd(strings.Fields(args), &out, &errs); code != 2 || !strings.Contains(errs.String(), says) {
			t.Errorf("attack %s: exit %d, %q; want 2 saying %q", args, code, errs.String(), says)
		}
	}
}
