package lint

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/pagecheck/toollist"
)

// aisles is a listing of n tools whose descriptions all read alike, as
// fixtures/lintpages serves at /many-tools?n=N.
func aisles(n int) toollist.Listing {
	l := toollist.Listing{URL: pageURL}
	for i := 1; i <= n; i++ {
		l.Tools = append(l.Tools, tool(fmt.Sprintf("search_aisle_%d", i), fmt.Sprintf("Search the books of aisle %d by title or author", i), goodSchema))
	}
	return l
}

type sizes struct{ findings, text, json, sarif int }

func measure(t *testing.T, n int) sizes {
	t.Helper()
	r := []Report{{URL: pageURL, Findings: Check(aisles(n))}}
	var text, js, sarif bytes.Buffer
	if err := WriteText(&text, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteSARIF(&sarif, r, "test"); err != nil {
		t.Fatal(err)
	}
	// SARIF lists every rule once, whatever the findings: what grows is the rest.
	var none bytes.Buffer
	if err := WriteSARIF(&none, []Report{{URL: pageURL}}, "test"); err != nil {
		t.Fatal(err)
	}
	return sizes{len(r[0].Findings), text.Len(), js.Len(), sarif.Len() - none.Len()}
}

// Issue 25 item 4: on a page of n alike tools lint says one thing per tool
// and rule, never one per pair: findings, JSON and SARIF grow with n (ten
// times the tools, about ten times the bytes; pairs would be a hundred), and
// the text folds each rule past TextPerRule, so it hardly grows at all.
func TestOutputGrowsWithToolsNotPairs(t *testing.T) {
	small, large := measure(t, 100), measure(t, 1000)
	t.Logf("100 tools: %+v; 1000 tools: %+v", small, large)
	if small.findings != 101 || large.findings != 1001 { // one similar-descriptions per tool, one too-many-tools
		t.Errorf("findings %d and %d, want 101 and 1001", small.findings, large.findings)
	}
	for what, pair := range map[string][2]int{"JSON": {small.json, large.json}, "SARIF": {small.sarif, large.sarif}} {
		if ratio := float64(pair[1]) / float64(pair[0]); ratio < 8 || ratio > 13 {
			t.Errorf("%s grew %.1f times for 10 times the tools, not about 10", what, ratio)
		}
	}
	if ratio := float64(large.text) / float64(small.text); ratio > 1.1 || large.text > 4096 {
		t.Errorf("text grew %.2f times to %d bytes: it should fold", ratio, large.text)
	}
}

// The text writes TextPerRule findings of a rule, then one line for the rest,
// in the `ID severity tool: message` shape; eleven are written whole (a fold
// line would be no shorter), twelve fold two.
func TestTextFoldsARulePastTen(t *testing.T) {
	for n, want := range map[int]string{11: "", 12: "similar-descriptions warning …: and 2 more (--format json or sarif lists each)\n"} {
		l := aisles(n)
		var b bytes.Buffer
		if err := WriteText(&b, []Report{{URL: pageURL, Findings: Check(l)}}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		similar := 0
		for _, line := range lines {
			if strings.HasPrefix(line, "similar-descriptions warning ") {
				similar++
			}
		}
		if want == "" && (similar != 11 || strings.Contains(b.String(), "more (")) {
			t.Errorf("%d tools: %d lines\n%s", n, similar, b.String())
		}
		if want != "" && (similar != TextPerRule+1 || !strings.Contains(b.String(), want)) {
			t.Errorf("%d tools: %d lines, want %d and %q\n%s", n, similar, TextPerRule+1, want, b.String())
		}
	}
}

// Each alike tool names its nearest neighbour, and how many more read alike.
func TestSimilarNamesTheNearest(t *testing.T) {
	l := clean()
	l.Tools = append(l.Tools, tool("find_trains", "Search scheduled flights between two cities.", ""),
		tool("find_buses", "Search all scheduled flights between two big cities", ""))
	var got []string
	for _, f := range Check(l) {
		got = append(got, f.Tool+": "+f.Message)
	}
	want := []string{
		`find_buses: its description reads like "find_flights"'s (0.86 of their words shared; 1 more tool(s) read alike): say what differs`,
		`find_flights: its description reads like "find_trains"'s (1.00 of their words shared; 1 more tool(s) read alike): say what differs`,
		`find_trains: its description reads like "find_flights"'s (1.00 of their words shared; 1 more tool(s) read alike): say what differs`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
