package bundle

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// testPage stands for the bundle's rendered page (report.HTML), which
// this package does not import.
var testPage = []byte("<!doctype html><title>test</title>")

func tinyRecord(final string, promptData map[string]string, must []string) (scenarios.Scenario, *scenarios.Evidence) {
	data := map[string]scenarios.PromptValue{}
	for k, v := range promptData {
		data[k] = scenarios.PromptValue{Value: v}
	}
	sc := scenarios.Scenario{ID: "tiny", Title: "t", Start: "/", Prompt: "p", PromptData: data,
		Expect: scenarios.Expect{Answer: &scenarios.AnswerExpect{MustMention: must}}}
	ev := &scenarios.Evidence{ScenarioID: "tiny", Final: &final, Calls: []scenarios.CallRecord{}}
	return sc, ev
}

func TestRedactionChangesOnlyStringValues(t *testing.T) {
	sc, ev := tinyRecord("Done for ann@example.org: 500 seats.", map[string]string{"q": "500", "email": "ann@example.org"}, []string{"500 seats"})
	b, err := Seal(Meta{RunID: "r"}, sc, ev)
	if err != nil {
		t.Fatal(err)
	}
	final := *b.Evidence.Final
	if !strings.HasPrefix(final, "Done for ") || !strings.HasSuffix(final, ": 500 seats.") || strings.Contains(final, "ann@example.org") ||
		len(final) != len(*ev.Final) || strings.Count(final, "@") != 1 {
		t.Errorf("final words: %q: the email becomes an email of its length, the rest stays", final)
	}
	if v := b.Scenario.PromptData["q"].Value; v != "500" {
		t.Errorf("a number is no one's data: %q", v)
	}
	if b.Verdict.Outcome != vocab.Pass {
		t.Errorf("verdict %s: numbers and keys must survive redaction", b.Verdict.Outcome)
	}
}

// A scenario that expects a page with no tools (`exactly: []`) keeps that
// expectation through the bundle's scenario.json: sealed, written and
// verified, the verdict is the same whether the page offers none (PASS) or
// one (FAIL catalog_mismatch).
func TestAnEmptyCatalogExpectationSurvivesTheBundle(t *testing.T) {
	sc, err := scenarios.Parse("no-tools.yaml", []byte(`id: NONE-01
title: the page offers no tools
start: /about
prompt: What can you do here?
agent: {final: "This page offers me no actions."}
expect:
  catalog: {exactly: []}
`))
	if err != nil {
		t.Fatal(err)
	}
	tool := record.Tool{Name: "search_events", Description: "Search the events.", InputSchema: json.RawMessage(`{"type":"object"}`), FrameID: "F1"}
	for _, tt := range []struct {
		name    string
		catalog record.Catalog
		page    []record.PageTool
		outcome vocab.Outcome
		codes   []vocab.Code
	}{
		{"no tools", record.Catalog{}, []record.PageTool{}, vocab.Pass, []vocab.Code{}},
		{"one tool", record.Catalog{tool}, []record.PageTool{{Name: tool.Name, Description: tool.Description, InputSchema: tool.InputSchema}},
			vocab.Fail, []vocab.Code{vocab.CatalogMismatch}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ev := &scenarios.Evidence{ScenarioID: sc.ID, Catalog: tt.catalog, PageTools: tt.page,
				Calls: []scenarios.CallRecord{}, Trace: []record.Event{}, Console: []record.ConsoleEntry{}, Final: sc.Agent.Final}
			b, err := Seal(Meta{RunID: "r"}, sc, ev)
			if err != nil {
				t.Fatal(err)
			}
			if b.Verdict.Outcome != tt.outcome || !slices.Equal(b.Verdict.Codes, tt.codes) {
				t.Fatalf("sealed verdict %s %v, want %s %v", b.Verdict.Outcome, b.Verdict.Codes, tt.outcome, tt.codes)
			}
			dir := filepath.Join(t.TempDir(), "NONE-01")
			if err := Write(dir, b, testPage); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join(dir, ScenarioFile))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), `"exactly": []`) {
				t.Errorf("scenario.json lost exactly: []:\n%s", data)
			}
			rep := Verify(dir)
			if !rep.OK || rep.Outcome != tt.outcome {
				t.Errorf("verify: ok %v, outcome %s, problems %v", rep.OK, rep.Outcome, rep.Problems)
			}
		})
	}
}

// Outputs of every shape and schema_match keep their meaning through the
// bundle: redacted, written, read back and judged again by verify.
func TestResultsOfEveryShapeSurviveTheBundle(t *testing.T) {
	sc, err := scenarios.Parse("pizza.yaml", []byte(`id: PIZZA-02
title: text and array results, a decorated schema
start: /order
prompt: Make my pizza Large for Ann Lee, and check the order.
prompt_data: {size: Large, name: {value: Ann Lee, personal: true}}
agent:
  calls:
    - tool: set_pizza_size
      input: {size: Large}
      expect: {output_text: Set pizza size to Large for Ann Lee.}
    - tool: check_order
      expect: {output: [{field: phone, code: REQUIRED}, null, 3, "", {}]}
    - tool: check_order
      transport: cdp
      expect: {output_contains: "Ann Lee"}
  final: Done.
expect:
  catalog:
    schema_match: contains
    schemas:
      set_pizza_size: {properties: {size: {enum: [Small, Large]}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	schema := json.RawMessage(`{"type":"object","properties":{"size":{"type":"string","title":"Size","enum":["Small","Large"]}}}`)
	tool := record.Tool{Name: "set_pizza_size", InputSchema: schema, Declarative: true, FrameID: "F1"}
	checkTool := record.Tool{Name: "check_order", InputSchema: json.RawMessage(`{"type":"object"}`), FrameID: "F1"}
	results := []record.Result{
		{OutputText: "Set pizza size to Large for Ann Lee."},
		{Output: json.RawMessage(`[{"field":"phone","code":"REQUIRED","message":"Ann Lee, how do we call you?"},null,3,"",{"x":1}]`)},
		{Output: json.RawMessage(`"Order of Ann Lee: no phone number."`)},
	}
	for _, tt := range []struct {
		name    string
		change  func(ev *scenarios.Evidence)
		outcome vocab.Outcome
		codes   []vocab.Code
	}{
		{"as expected", func(*scenarios.Evidence) {}, vocab.Pass, []vocab.Code{}},
		{"another text", func(ev *scenarios.Evidence) { ev.Calls[0].Result.OutputText = "Set pizza size to Small for Ann Lee." }, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"an element less", func(ev *scenarios.Evidence) {
			ev.Calls[1].Result.Output = json.RawMessage(`[{"field":"phone","code":"REQUIRED"},null,3,""]`)
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"an enum value less", func(ev *scenarios.Evidence) {
			s := json.RawMessage(`{"type":"object","properties":{"size":{"type":"string","enum":["Small"]}}}`)
			ev.Catalog[1].InputSchema, ev.PageTools[1].InputSchema = s, s
		}, vocab.Fail, []vocab.Code{vocab.InputViolatesSchema, vocab.SchemaMismatch}}, // the agent's "Large" is no longer allowed
	} {
		t.Run(tt.name, func(t *testing.T) {
			ev := &scenarios.Evidence{ScenarioID: sc.ID, Catalog: record.Catalog{checkTool, tool},
				PageTools: []record.PageTool{{Name: checkTool.Name, InputSchema: checkTool.InputSchema}, {Name: tool.Name, InputSchema: tool.InputSchema}},
				Trace:     []record.Event{}, Console: []record.ConsoleEntry{}, Final: sc.Agent.Final}
			for i, c := range sc.Agent.Calls {
				res := results[i]
				res.Tool, res.Transport, res.Status = c.Tool, c.Transport.OrDefault(), vocab.Completed
				ev.Calls = append(ev.Calls, scenarios.CallRecord{Phase: vocab.PhaseAgent, Index: i, Call: c, Result: res,
					CatalogBefore: ev.Catalog.Names(), CatalogAfter: ev.Catalog.Names()})
			}
			tt.change(ev)
			b, err := Seal(Meta{RunID: "r"}, sc, ev)
			if err != nil {
				t.Fatal(err)
			}
			if b.Verdict.Outcome != tt.outcome || !slices.Equal(b.Verdict.Codes, tt.codes) {
				t.Fatalf("sealed verdict %s %v, want %s %v", b.Verdict.Outcome, b.Verdict.Codes, tt.outcome, tt.codes)
			}
			if strings.Contains(string(must(json.Marshal(b.Scenario))), "Ann Lee") {
				t.Error("the name is not redacted from the scenario")
			}
			dir := filepath.Join(t.TempDir(), sc.ID)
			if err := Write(dir, b, testPage); err != nil {
				t.Fatal(err)
			}
			if rep := Verify(dir); !rep.OK || rep.Outcome != tt.outcome {
				t.Errorf("verify: ok %v, outcome %s, problems %v", rep.OK, rep.Outcome, rep.Problems)
			}
		})
	}
}
