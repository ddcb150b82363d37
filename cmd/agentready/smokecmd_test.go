package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentready/agentready/fixtures/realpages"
)

// Exit 1 with the finding on a page whose schema says string where the page
// takes only an integer; exit 0 on a page with nothing to disagree on; 2 on
// bad input.
func TestSmokeCommand(t *testing.T) {
	t.Parallel() // its browser waits overlap another test's
	srv, err := realpages.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	var out, errs bytes.Buffer
	if code := smokeCmd([]string{srv.URL + "/stock"}, &out, &errs); code != 1 {
		t.Fatalf("exit %d on the stock page, want 1\n%s%s", code, out.String(), errs.String())
	}
	if !strings.Contains(out.String(), "valid-refused     check_stock refused an input its schema allows") {
		t.Errorf("the report does not name check_stock:\n%s", out.String())
	}
	out.Reset()
	if code := smokeCmd([]string{srv.URL + "/about"}, &out, &errs); code != 0 || !strings.Contains(out.String(), "smoke: 0 calls, 0 findings: nothing was checked, the page offers no tools") {
		t.Errorf("exit %d on a page with no tools, without saying that nothing was checked\n%s", code, out.String())
	}
	// --tool names what is called; a name the page does not offer is bad
	// input, said with what it offers, and nothing is called.
	out.Reset()
	errs.Reset()
	if code := smokeCmd([]string{"--tool", "check_stok", srv.URL + "/stock"}, &out, &errs); code != 2 || !strings.Contains(errs.String(), "check_stok: the page does not offer it (it offers: check_stock") || out.Len() != 0 {
		t.Errorf("--tool check_stok: exit %d\n%s%s", code, out.String(), errs.String())
	}
	if code := smokeCmd([]string{"nope"}, &out, &errs); code != 2 {
		t.Errorf("exit %d on bad input", code)
	}
}
