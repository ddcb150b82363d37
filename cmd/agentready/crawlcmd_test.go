package main

import (
	"bytes"
	"strings"
	"testing"
)

// Bad input is refused at once, exit 2, saying what to write, before any
// browser starts.
func TestCrawlRefusesBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		say  string
	}{
		{nil, "usage: agentready crawl"},
		{[]string{"--max-pages", "0", "http://127.0.0.1:1/"}, "read at least 1 page"},
		{[]string{"--format", "html", "http://127.0.0.1:1/"}, `--format "html" is not text, json or sarif`},
		{[]string{"--fail-on", "never", "http://127.0.0.1:1/"}, "is not error, warning or info"},
		{[]string{"--max-time", "0s", "http://127.0.0.1:1/"}, "a wait must be more than 0"},
		{[]string{"not a url"}, "the start URL"},
	} {
		var out, errs bytes.Buffer
		if code := crawlCmd(c.args, &out, &errs); code != 2 || !strings.Contains(errs.String(), c.say) {
			t.Errorf("crawl %q: exit %d, %q; want 2 saying %q", c.args, code, errs.String(), c.say)
		}
	}
}
