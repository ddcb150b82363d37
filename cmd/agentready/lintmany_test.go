package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/fixtures/lintpages"
)

// Issue 25 item 4, in the browser: lint on a page of 2000 alike tools prints
// a few KB of text (it printed 254 MB, one line per similar pair) and SARIF
// of one result per tool and rule.
func TestLintOnTwoThousandTools(t *testing.T) {
	t.Parallel() // its browser waits overlap another test's
	pages, err := lintpages.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer pages.Close()
	url := pages.URL + "/" + lintpages.ManyTools + "?n=2000"
	for _, format := range []string{"text", "sarif"} {
		var out, errs bytes.Buffer
		start := time.Now()
		code := lintCmd(lintArgs("--format", format, url), &out, &errs)
		t.Logf("%s: exit %d, %d bytes in %s", format, code, out.Len(), time.Since(start))
		if code != 0 { // warnings only
			t.Errorf("%s: exit %d: %s", format, code, errs.String())
		}
		switch format {
		case "text":
			if out.Len() > 4096 || !strings.Contains(out.String(), "similar-descriptions warning …: and 1990 more") ||
				!strings.Contains(out.String(), ": 0 error(s), 2001 warning(s), 0 info\n") {
				t.Errorf("text of %d bytes:\n%s", out.Len(), out.String())
			}
		case "sarif":
			if n := strings.Count(out.String(), `"ruleId": "similar-descriptions"`); n != 2000 {
				t.Errorf("%d similar-descriptions results, want one per tool", n)
			}
		}
	}
}
