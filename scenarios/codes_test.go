package scenarios

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/vocab"
)

// TestTheReadmeListsTheCodes keeps the README's failure-code table equal to
// the Codes map: same codes, outcomes, sources and meanings.
func TestTheReadmeListsTheCodes(t *testing.T) {
	f, err := os.Open("README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := map[vocab.Code][]string{}
	section := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			section = strings.TrimPrefix(line, "## ")
			continue
		}
		if section != "Failure codes" || !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if len(cells) != 4 {
			t.Errorf("a row of %d cells: %s", len(cells), line)
			continue
		}
		code := vocab.Code(strings.Trim(cells[0], "`"))
		if _, dup := rows[code]; dup {
			t.Errorf("%s is listed twice", code)
		}
		rows[code] = cells[1:]
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatal("no failure-code table in README.md")
	}
	for code, info := range vocab.Codes {
		row, ok := rows[code]
		if !ok {
			t.Errorf("README.md does not list %s", code)
			continue
		}
		outcome := vocab.Inconclusive
		if info.Fails {
			outcome = vocab.Fail
		}
		if row[0] != string(outcome) {
			t.Errorf("%s: README says %s, Codes says %s", code, row[0], outcome)
		}
		var srcs []string
		for _, s := range info.Sources {
			srcs = append(srcs, string(s))
		}
		if row[1] != strings.Join(srcs, ", ") {
			t.Errorf("%s: README sources %q, Codes %q", code, row[1], strings.Join(srcs, ", "))
		}
		if row[2] != info.Meaning {
			t.Errorf("%s: README meaning %q, Codes %q", code, row[2], info.Meaning)
		}
	}
	for code := range rows {
		if _, ok := vocab.Codes[code]; !ok {
			t.Errorf("README.md lists %s, which is not in Codes", code)
		}
	}
}

// Known answers the suite's own cases carry must be reachable codes.
func TestKnownCodesAreCodes(t *testing.T) {
	scs, err := LoadDir("cases")
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range scs {
		if sc.Known == nil {
			continue
		}
		if !slices.IsSorted(sc.Known.Codes) {
			t.Errorf("%s: known.codes %v are not sorted as a verdict's are", sc.ID, sc.Known.Codes)
		}
		if sc.Known.Outcome == vocab.Pass && len(sc.Known.Codes) > 0 {
			t.Errorf("%s: a PASS with codes %v", sc.ID, sc.Known.Codes)
		}
	}
}
