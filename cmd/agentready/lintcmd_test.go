package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentready/agentready/fixtures/lintpages"
	"github.com/agentready/agentready/lint"
)

// The pages register their tools at once: a short settle keeps the test quick.
var quick = []string{"--settle", "100ms"}

func lintArgs(more ...string) []string { return append(slices.Clone(quick), more...) }

// The acceptance of issue 14.2: on each rule's known-bad page, agentready
// lint names that rule, and only it, and exits 1 when the rule is an error
// (0 for a warning or an info, which it still reports); on the clean page it
// exits 0 with no finding. A rule off by default is turned on for its page.
func TestLintNamesEachRuleOnItsPage(t *testing.T) {
	t.Parallel() // its browser waits overlap another test's
	pages, err := lintpages.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer pages.Close()

	t.Run("clean", func(t *testing.T) {
		var out, errs bytes.Buffer
		if code := lintCmd(lintArgs(pages.URL+"/"+lintpages.Clean), &out, &errs); code != 0 || out.String() != pages.URL+"/clean: no findings\n" {
			t.Errorf("exit %d\n%s%s", code, out.String(), errs.String())
		}
	})
	for _, r := range lint.Rules() {
		t.Run(r.ID, func(t *testing.T) {
			var out, errs bytes.Buffer
			args := lintArgs(pages.URL + "/" + r.ID)
			if r.Off {
				args = lintArgs("--rule", r.ID+"=on", pages.URL+"/"+r.ID)
			}
			code := lintCmd(args, &out, &errs)
			want := 0
			if r.Severity == lint.Error {
				want = 1
			}
			if code != want {
				t.Errorf("exit %d, want %d (%s)", code, want, errs.String())
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			if len(lines) < 2 {
				t.Fatalf("no finding:\n%s", out.String())
			}
			for _, line := range lines[:len(lines)-1] {
				if !strings.HasPrefix(line, r.ID+" "+string(r.Severity)+" ") || !strings.Contains(line, ": ") {
					t.Errorf("a line that is not `%s %s tool: message`: %s", r.ID, r.Severity, line)
				}
			}
			if last := lines[len(lines)-1]; !strings.HasPrefix(last, pages.URL+"/"+r.ID+": ") {
				t.Errorf("no count line: %s", last)
			}
		})
	}
}

// One run over every page: JSON names each page's rule and only it, and the
// run fails because some are errors; --fail-on warning fails on a warning.
func TestLintManyPagesAsJSON(t *testing.T) {
	t.Parallel() // its browser waits overlap another test's
	pages, err := lintpages.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer pages.Close()
	var urls []string
	for _, p := range lintpages.Pages() {
		urls = append(urls, pages.URL+"/"+p)
	}

	var out, errs bytes.Buffer
	if code := lintCmd(append(lintArgs("--format", "json"), urls...), &out, &errs); code != 1 {
		t.Errorf("exit %d, want 1 (%s)", code, errs.String())
	}
	var doc struct {
		Pages []lint.Report `json:"pages"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || len(doc.Pages) != len(urls) {
		t.Fatalf("%v: %s", err, out.String())
	}
	for i, rep := range doc.Pages {
		page := strings.TrimPrefix(urls[i], pages.URL+"/")
		var ids []string
		for _, f := range rep.Findings {
			if !slices.Contains(ids, f.Rule) {
				ids = append(ids, f.Rule)
			}
		}
		want := []string{page}
		if r, _ := lint.Lookup(page); page == lintpages.Clean || r.Off {
			want = nil // a rule off by default finds nothing on its own page until turned on
		}
		if rep.URL != urls[i] || !slices.Equal(ids, want) || rep.Error != "" {
			t.Errorf("%s: rules %v, want %v: %+v", page, ids, want, rep)
		}
	}

	out.Reset()
	if code := lintCmd(lintArgs("--fail-on", "warning", pages.URL+"/too-many-tools"), &out, &errs); code != 1 {
		t.Errorf("--fail-on warning: exit %d on a warning\n%s", code, out.String())
	}
}

// --format sarif over every page is SARIF 2.1.0 by its published schema, with
// one result per finding located at its page.
func TestLintSARIFIsValid(t *testing.T) {
	pages, err := lintpages.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer pages.Close()
	var out, errs bytes.Buffer
	if code := lintCmd(lintArgs("--format", "sarif", pages.URL+"/tool-name-valid", pages.URL+"/clean", pages.URL+"/similar-descriptions"), &out, &errs); code != 1 {
		t.Errorf("exit %d, want 1 (%s)", code, errs.String())
	}
	got := sarifResults(t, out.Bytes(), pages.URL)
	slices.Sort(got)
	want := []string{"similar-descriptions warning /similar-descriptions", "similar-descriptions warning /similar-descriptions", "tool-name-valid error /tool-name-valid", "tool-name-valid error /tool-name-valid:14"}
	if !slices.Equal(got, want) {
		t.Errorf("results %v, want %v", got, want)
	}
}

// The rules issue 30 item 1 added, each on its page, in SARIF: valid by the
// schema, every result of the page's rule at that page. A rule off by
// default is turned on for its page alone.
func TestLintSARIFOfTheEcosystemsRest(t *testing.T) {
	t.Parallel() // its browser waits overlap another test's
	pages, err := lintpages.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer pages.Close()
	on := []string{"third-party-registration", "declarative-field-description", "declarative-autosubmit-personal", "exposed-to-secure-origins",
		"declarative-autosubmit-sensitive", "schema-unsupported-keywords", "naming-consistency", "schema-no-null-literals"}
	runs := [][]string{{}}
	for _, id := range on {
		runs[0] = append(runs[0], pages.URL+"/"+id)
	}
	for _, r := range lint.Rules() {
		if r.Off {
			on = append(on, r.ID)
			runs = append(runs, []string{"--rule", r.ID + "=on", pages.URL + "/" + r.ID})
		}
	}
	var got []string
	for _, args := range runs {
		var out, errs bytes.Buffer
		if code := lintCmd(lintArgs(append([]string{"--format", "sarif"}, args...)...), &out, &errs); code > 1 {
			t.Fatalf("%v: exit %d (%s)", args, code, errs.String())
		}
		for _, res := range sarifResults(t, out.Bytes(), pages.URL) {
			id, _, _ := strings.Cut(res, " ")
			if at, _, _ := strings.Cut(res, ":"); !strings.HasSuffix(at, " /"+id) { // a refusal names its line
				t.Errorf("a result not of its page's rule: %s", res)
			}
			if id == "exposed-to-secure-origins" && !strings.HasSuffix(res, ":10") {
				t.Errorf("the refused registerTool() is on line 10 of its page: %s", res)
			}
			if !slices.Contains(got, id) {
				got = append(got, id)
			}
		}
	}
	slices.Sort(got)
	slices.Sort(on)
	if !slices.Equal(got, on) {
		t.Errorf("rules found %v, want %v", got, on)
	}
}

// sarifResults checks a SARIF log against the published schema and answers
// its results as "ruleId level path[:line]", paths without base.
func sarifResults(t *testing.T, sarif []byte, base string) []string {
	t.Helper()
	f, err := os.Open("../../lint/testdata/sarif-2.1.0-rtm.5.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	schemaDoc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("https://json.schemastore.org/sarif-2.1.0-rtm.5.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("https://json.schemastore.org/sarif-2.1.0-rtm.5.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(sarif))
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, sarif)
	}
	if err := schema.Validate(inst); err != nil {
		t.Fatalf("not SARIF 2.1.0: %v", err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region *struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(sarif, &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("%v", err)
	}
	var got []string
	for _, r := range log.Runs[0].Results {
		loc := r.Locations[0].PhysicalLocation
		line := ""
		if loc.Region != nil {
			line = fmt.Sprintf(":%d", loc.Region.StartLine)
		}
		got = append(got, r.RuleID+" "+r.Level+" "+strings.TrimPrefix(loc.ArtifactLocation.URI, base)+line)
	}
	return got
}

// Bad input is a clear error and reads nothing.
func TestLintRefusesBadInput(t *testing.T) {
	for _, args := range [][]string{{}, {"not a url"}, {"http://127.0.0.1:1/", "ftp://example.org/x"},
		{"--format", "xml", "http://127.0.0.1:1/"}, {"--fail-on", "never", "http://127.0.0.1:1/"}, {"--no-such-flag", "http://127.0.0.1:1/"}} {
		var out, errs bytes.Buffer
		if code := lintCmd(args, &out, &errs); code != 2 || out.Len() != 0 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errs.String())
		}
	}
	// A mistyped flag is answered with the usage, and it names every way
	// to choose rules (the flag list said --rule; the usage line did not).
	var out, errs bytes.Buffer
	if lintCmd([]string{"--rules", "tool-name-style=on", "http://127.0.0.1:1/"}, &out, &errs); !strings.Contains(errs.String(), "usage: agentready lint [--format text|json|sarif] [--fail-on error|warning|info] [--rule ID=") {
		t.Errorf("the usage after a bad flag:\n%s", errs.String())
	}
}
