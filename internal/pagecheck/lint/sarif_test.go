package lint

import (
	"bytes"
	"encoding/json"
	"github.com/agentready/agentready/internal/pagecheck/lint/sariftest"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/pagecheck/toollist"
)

func validateSARIF(t *testing.T, log []byte) { sariftest.Validate(t, log) }

func TestSARIFIsValid(t *testing.T) {
	reports := []Report{
		{URL: pageURL, Findings: Check(noToolsListing())},
		{URL: pageURL + "/2", Findings: []Finding{
			{Rule: "tool-name-valid", Severity: Error, Message: "refused", Line: 15},
			{Rule: "param-description-missing", Severity: Warning, Tool: "t", Frame: "about:srcdoc", Message: "m"},
		}},
		{URL: pageURL + "/3", Findings: []Finding{}, Error: "not read"},
	}
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, reports, "test"); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, buf.Bytes())

	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID                   string `json:"id"`
						ShortDescription     struct{ Text string }
						DefaultConfiguration struct{ Level string }
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           *struct{ StartLine int }
					}
				}
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("%v %s", err, buf.String())
	}
	run := log.Runs[0]
	rs := Rules()
	if len(run.Tool.Driver.Rules) != len(rs) {
		t.Fatalf("%d rules", len(run.Tool.Driver.Rules))
	}
	for i, r := range rs {
		got := run.Tool.Driver.Rules[i]
		if got.ID != r.ID || got.ShortDescription.Text != r.Doc || got.DefaultConfiguration.Level != SARIFLevel(r.Severity) {
			t.Errorf("rule %d: %+v", i, got)
		}
	}
	if len(run.Results) != 3 {
		t.Fatalf("results %+v", run.Results)
	}
	for _, res := range run.Results {
		if rs[res.RuleIndex].ID != res.RuleID || len(res.Locations) != 1 || !strings.HasPrefix(res.Locations[0].PhysicalLocation.ArtifactLocation.URI, pageURL) {
			t.Errorf("result %+v", res)
		}
	}
	if r := run.Results[0]; r.RuleID != "no-tools" || r.Level != "note" {
		t.Errorf("first %+v", r)
	}
	if r := run.Results[1]; r.Level != "error" || r.Locations[0].PhysicalLocation.Region == nil || r.Locations[0].PhysicalLocation.Region.StartLine != 15 {
		t.Errorf("second %+v", r)
	}
	if r := run.Results[2]; r.Level != "warning" || r.Message.Text != "t: m [frame about:srcdoc]" || r.Locations[0].PhysicalLocation.Region != nil {
		t.Errorf("third %+v", r)
	}
}

func noToolsListing() toollist.Listing {
	l := clean()
	l.Tools, l.Forms = nil, nil
	return l
}
