package scenarios

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/kit/mdtable"
	"github.com/agentready/agentready/scenarios/vocab"
)

// TestTheReadmeListsTheCodes keeps the README's failure-code table equal to
// the Codes map: same codes, outcomes, sources and meanings.
func TestTheReadmeListsTheCodes(t *testing.T) {
	table, err := mdtable.Rows("README.md", "Failure codes", 4)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[vocab.Code][]string{}
	for _, cells := range table {
		code := vocab.Code(strings.Trim(cells[0], "`"))
		if _, dup := rows[code]; dup {
			t.Errorf("%s is listed twice", code)
		}
		rows[code] = cells[1:]
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
