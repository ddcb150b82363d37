package crawl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/agentready/agentready/internal/pagecheck/lint/sariftest"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/pagecheck/lint"
	"github.com/agentready/agentready/internal/pagecheck/toollist"
)

// Readiness is counts that trace to their findings: rules run and clean,
// each failing rule with its pages, tools and drift; a page not read is
// not counted.
func TestReadinessTracesToItsFindings(t *testing.T) {
	pages := []Page{
		{URL: "/a", Tools: []toollist.Tool{tool("find", "Find", `{}`)}, Findings: []lint.Finding{
			{Rule: "description-length", Severity: lint.Warning}, {Rule: "schema-shape", Severity: lint.Error}}},
		{URL: "/b", Tools: []toollist.Tool{tool("find", "Find all", `{}`), tool("buy", "Buy", `{}`)}, Findings: []lint.Finding{
			{Rule: "description-length", Severity: lint.Warning}, {Rule: "description-length", Severity: lint.Warning}}},
		{URL: "/c", Findings: []lint.Finding{{Rule: "no-tools", Severity: lint.Info}}},
		{URL: "/d", Error: "not read"},
	}
	drift := FindDrift(pages)
	r := ReadinessOf(pages, drift, nil)
	var failing []string
	for _, f := range r.Failing {
		failing = append(failing, f.Rule+" "+string(f.Severity)+" "+string(rune('0'+f.Findings))+" "+fmt.Sprint(f.Pages))
	}
	want := []string{"schema-shape error 1 [/a]", "description-length warning 3 [/a /b]", "no-tools info 1 [/c]"}
	if !slices.Equal(failing, want) || r.Pages != 3 || r.PagesWithTools != 2 || r.Tools != 2 || r.Drifting != 1 ||
		r.RulesRun != len(lint.RulesOn(nil)) || r.RulesClean != r.RulesRun-3 {
		t.Errorf("readiness %+v\nfailing %v, want %v", r, failing, want)
	}
	// No page read: no rule ran, and none is clean.
	if none := ReadinessOf(pages[3:], nil, nil); none.RulesRun != 0 || none.RulesClean != 0 || none.Pages != 0 {
		t.Errorf("nothing read: %+v", none)
	}
	// Turning a rule off takes it out of the rules run.
	if off := ReadinessOf(pages, drift, lint.Config{"too-many-tools": lint.Off}); off.RulesRun != r.RulesRun-1 {
		t.Errorf("a rule off: %d rules run, want %d", off.RulesRun, r.RulesRun-1)
	}
}

// In SARIF a drift is a tool-drift error at each page of a value other than
// the most common, beside lint's findings; the log is SARIF 2.1.0.
func TestDriftInSARIF(t *testing.T) {
	pages := []Page{
		{URL: "http://s.example/a", Tools: []toollist.Tool{tool("find", "Find", `{}`)}, Findings: []lint.Finding{}},
		{URL: "http://s.example/b", Tools: []toollist.Tool{tool("find", "Find", `{}`)}, Findings: []lint.Finding{}},
		{URL: "http://s.example/c", Tools: []toollist.Tool{tool("find", "Find more", `{}`)}, Findings: []lint.Finding{{Rule: "no-tools", Severity: lint.Info, Message: "x"}}},
	}
	rep := Report{Pages: pages, Drift: FindDrift(pages)}
	reports := rep.Reports()
	var at []string
	for _, r := range reports {
		for _, f := range r.Findings {
			at = append(at, f.Rule+"@"+r.URL)
		}
	}
	if want := []string{"no-tools@http://s.example/c", "tool-drift@http://s.example/c"}; !slices.Equal(at, want) {
		t.Errorf("findings %v, want %v", at, want)
	}
	var buf bytes.Buffer
	if err := lint.WriteSARIFWith(&buf, reports, "test", "agentready crawl", []lint.Rule{DriftRule}); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, buf.Bytes())
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct{ ID string } `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	for _, res := range run.Results {
		if run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("result of %s points at rule %s", res.RuleID, run.Tool.Driver.Rules[res.RuleIndex].ID)
		}
	}
}

func validateSARIF(t *testing.T, log []byte) { sariftest.Validate(t, log) }

// The crawl's page holds the readiness, the drift and each page, with what
// the pages wrote escaped.
func TestTheCrawlsPage(t *testing.T) {
	pages := []Page{
		{URL: "http://s.example/a", Tools: []toollist.Tool{tool("find", `Find <script>alert(1)</script>`, `{}`)}, Findings: []lint.Finding{{Rule: "description-length", Severity: lint.Warning, Tool: "find", Message: "too <b>short</b>"}}},
		{URL: "http://s.example/b", Tools: []toollist.Tool{tool("find", "Find", `{}`)}, Findings: []lint.Finding{}},
		{URL: "http://s.example/c", Error: "not read: refused"},
	}
	rep := Report{Start: "http://s.example/a", Pages: pages, Drift: FindDrift(pages)}
	rep.Readiness = ReadinessOf(pages, rep.Drift, nil)
	var buf bytes.Buffer
	if err := WriteHTML(&buf, rep); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	for _, want := range []string{"Crawl of http://s.example/a", "description-length", "&lt;script&gt;alert(1)&lt;/script&gt;", "too &lt;b&gt;short&lt;/b&gt;",
		`id="http://s.example/c"`, "not read: refused", "1 drifting tool(s)", "2 different description"} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(html, "<script>alert") || strings.Contains(html, "<b>short") {
		t.Error("the page holds a page's markup unescaped")
	}
}
