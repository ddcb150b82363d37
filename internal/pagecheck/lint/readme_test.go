package lint

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// TestTheReadmeListsTheRules keeps the README's rule table equal to Rules():
// same IDs in the same order, severities, docs, and the known-bad page of
// each (fixtures/lintpages serves /<rule-id>).
func TestTheReadmeListsTheRules(t *testing.T) {
	f, err := os.Open("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			in = strings.TrimSpace(strings.TrimLeft(line, "#")) == "Lint rules"
			continue
		}
		if !in || !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, cells)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	rs := Rules()
	if len(rows) != len(rs) {
		t.Errorf("README.md lists %d rules, the code has %d", len(rows), len(rs))
	}
	for i, r := range rs {
		if i >= len(rows) {
			t.Errorf("README.md does not list %s", r.ID)
			continue
		}
		want := []string{"`" + r.ID + "`", string(r.Severity), string(r.Scope), r.Doc, "`/" + r.ID + "`"}
		if strings.Join(rows[i], " | ") != strings.Join(want, " | ") {
			t.Errorf("row %d:\n README: | %s |\n code:   | %s |", i+1, strings.Join(rows[i], " | "), strings.Join(want, " | "))
		}
	}
}
