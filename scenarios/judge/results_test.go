package judge

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/vocab"
)

// Results of every shape, and a schema the browser decorates. A pizza page
// (not an app of ours: the record is made by hand) whose tools answer text
// (set_pizza_size, by either transport), an array of validation errors
// (check_order), JSON-LD (get_offers), a bare number (count_toppings) and an
// object compared exactly (get_total).
const pizzaYAML = `id: PIZZA-01
title: text, array, JSON-LD and number results; a decorated schema
start: /order
prompt: Make my pizza Large, check the order, and tell me today's offers.
prompt_data: {size: Large}
agent:
  calls:
    - tool: set_pizza_size
      input: {size: Large}
      expect: {output_text: Set pizza size to Large.}
    - tool: set_pizza_size
      transport: cdp
      input: {size: Large}
      expect: {output: Set pizza size to Large.}
    - tool: check_order
      expect:
        output:
          - {field: address, code: REQUIRED}
          - {field: phone, code: REQUIRED}
    - tool: get_offers
      expect:
        output:
          "@context": https://schema.org
          itemListElement:
            - {"@type": Offer, name: Margherita, price: "9.50"}
    - tool: get_offers
      transport: cdp
      expect: {output_contains: Margherita}
    - tool: count_toppings
      expect: {output: 3}
    - tool: get_total
      expect: {output: {currency: EUR, cents: 950}, match: exact}
  final: Your pizza is Large. The order still needs an address and a phone number. Today's offer is a Margherita for €9.50.
expect:
  catalog:
    exactly: [check_order, count_toppings, get_offers, get_total, set_pizza_size]
    schema_match: {set_pizza_size: contains}
    schemas:
      set_pizza_size:
        properties:
          size: {enum: [Small, Medium, Large]}
        required: [size]
      check_order: {type: object, properties: {}}
  answer:
    must_mention: [Large, address, phone]
known: {outcome: PASS}
`

// The schema of the declarative form as the browser builds it: a title, a
// description, and an anyOf of {const, title} beside the enum.
const pizzaSizeSchema = `{"type":"object","properties":{"size":{"type":"string","title":"Size","description":"Pizza size","enum":["Small","Medium","Large"],` +
	`"anyOf":[{"type":"string","const":"Small","title":"Small (25 cm)"},{"type":"string","const":"Medium","title":"Medium (30 cm)"},{"type":"string","const":"Large","title":"Large (35 cm)"}]}},"required":["size"]}`

const jsonLD = `{"@context":"https://schema.org","@type":"ItemList","itemListElement":[{"@type":"Offer","name":"Margherita","price":"9.50","priceCurrency":"EUR"}]}`

// pizzaResult is what each call answered, in the form its transport records.
var pizzaResults = []record.Result{
	{Tool: "set_pizza_size", Transport: vocab.PageAPI, OutputText: "Set pizza size to Large."},
	{Tool: "set_pizza_size", Transport: vocab.CDP, Output: json.RawMessage(`"Set pizza size to Large."`)},
	{Tool: "check_order", Transport: vocab.PageAPI, Output: json.RawMessage(`[{"field":"address","code":"REQUIRED","message":"Where do we deliver?"},{"field":"phone","code":"REQUIRED","message":"How do we call you?"}]`)},
	{Tool: "get_offers", Transport: vocab.PageAPI, Output: json.RawMessage(jsonLD)},
	{Tool: "get_offers", Transport: vocab.CDP, Output: json.RawMessage(`"Today: Margherita for 9.50 EUR."`)},
	{Tool: "count_toppings", Transport: vocab.PageAPI, Output: json.RawMessage(`3`)},
	{Tool: "get_total", Transport: vocab.PageAPI, Output: json.RawMessage(`{"cents":950,"currency":"EUR"}`)},
}

// goodPizza answers the pizza scenario and the evidence of a correct run.
func goodPizza(t *testing.T) (scenarios.Scenario, *scenarios.Evidence) {
	t.Helper()
	sc, err := scenarios.Parse("pizza.yaml", []byte(pizzaYAML))
	if err != nil {
		t.Fatal(err)
	}
	obj := json.RawMessage(`{"type":"object","properties":{}}`)
	tools := record.Catalog{
		{Name: "check_order", Description: "Check the order.", InputSchema: obj, Annotations: record.Annotations{ReadOnly: true}, FrameID: "F1"},
		{Name: "count_toppings", Description: "Count the toppings.", InputSchema: obj, Annotations: record.Annotations{ReadOnly: true}, FrameID: "F1"},
		{Name: "get_offers", Description: "Today's offers.", InputSchema: obj, Annotations: record.Annotations{ReadOnly: true}, FrameID: "F1"},
		{Name: "get_total", Description: "The order's total.", InputSchema: obj, Annotations: record.Annotations{ReadOnly: true}, FrameID: "F1"},
		{Name: "set_pizza_size", Description: "Choose the size.", InputSchema: json.RawMessage(pizzaSizeSchema), Declarative: true, FrameID: "F1"},
	}
	ev := &scenarios.Evidence{
		ScenarioID: sc.ID,
		Env:        scenarios.Env{BaseURL: "https://pizza.example"},
		Catalog:    tools,
		Trace:      []record.Event{{Seq: 1, Time: at(1), Kind: record.ToolsAdded, Tools: slices.Clone(tools)}},
		Console:    []record.ConsoleEntry{},
		Final:      ptr(*sc.Agent.Final),
	}
	for _, tool := range tools {
		ev.PageTools = append(ev.PageTools, pageTool(tool))
	}
	for i, call := range sc.Agent.Calls {
		res := pizzaResults[i]
		res.Status, res.InvocationID = vocab.Completed, fmt.Sprintf("inv-%d", i)
		input := "{}"
		if call.Input != nil {
			b, _ := json.Marshal(call.Input)
			input = string(b)
		}
		out := res.Output
		if res.OutputText != "" {
			out, _ = json.Marshal(res.OutputText)
		}
		ev.Trace = append(ev.Trace,
			record.Event{Seq: len(ev.Trace) + 1, Time: at(10 * i), Kind: record.ToolInvoked, ToolName: call.Tool, FrameID: "F1", InvocationID: res.InvocationID, Input: json.RawMessage(input)},
			record.Event{Seq: len(ev.Trace) + 2, Time: at(10*i + 5), Kind: record.ToolResponded, InvocationID: res.InvocationID, Status: "Completed", Output: out})
		ev.Calls = append(ev.Calls, scenarios.CallRecord{Phase: vocab.PhaseAgent, Index: i, Call: call, Result: res,
			CatalogBefore: tools.Names(), CatalogAfter: tools.Names()})
	}
	return sc, ev
}

// setResult changes what a call answered, in the record and in the trace.
func setResult(t *testing.T, ev *scenarios.Evidence, i int, output, text string) {
	t.Helper()
	r := &ev.Calls[i].Result
	r.Output, r.OutputText = nil, text
	if output != "" {
		r.Output = json.RawMessage(output)
	}
	k := traceIndex(t, ev, record.ToolResponded, r.InvocationID)
	ev.Trace[k].Output = r.Output
	if text != "" {
		ev.Trace[k].Output, _ = json.Marshal(text)
	}
}

// setSchema changes a tool's schema where the protocol and getTools() report it.
func setSchema(ev *scenarios.Evidence, tool, schema string) {
	for i := range ev.Catalog {
		if ev.Catalog[i].Name == tool {
			ev.Catalog[i].InputSchema = json.RawMessage(schema)
			ev.PageTools[i] = pageTool(ev.Catalog[i])
		}
	}
}

func TestTheGoodPizzaRunPasses(t *testing.T) {
	sc, ev := goodPizza(t)
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Pass)
	// Every result expectation gave a passing check of its own.
	for _, id := range []string{"call.agent[0].set_pizza_size.output_text", "call.agent[1].set_pizza_size.output", "call.agent[2].check_order.output",
		"call.agent[3].get_offers.output", "call.agent[4].get_offers.output_contains", "call.agent[5].count_toppings.output",
		"call.agent[6].get_total.output", "catalog.schemas.set_pizza_size", "catalog.schemas.check_order"} {
		if !slices.ContainsFunc(v.Checks, func(c Check) bool { return c.ID == id && c.Status == vocab.CheckPass }) {
			t.Errorf("no passing check %s", id)
		}
	}
	assertDeterministic(t, sc, ev)
}

func pizzaMutations() []mutation {
	return []mutation{
		// Text, by the page API (OutputText) and by the protocol (a JSON string).
		{"the page API's text names another size", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 0, "", "Set pizza size to Small.")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"the protocol's text names another size", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 1, `"Set pizza size to Small."`, "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"the text goes on", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 0, "", "Set pizza size to Large. Anything else?")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"set_pizza_size answers nothing", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 0, "", "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"set_pizza_size answers an object", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 0, `{"size":"Large"}`, "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		// The same text through the other transport is the same result.
		{"each text comes through the other transport", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 0, `"Set pizza size to Large."`, "")
			setResult(t, ev, 1, "", "Set pizza size to Large.")
			setResult(t, ev, 4, "", "Today: Margherita for 9.50 EUR.")
		}, vocab.Pass, nil},

		// Arrays: the same length, element by element, each a subset.
		{"a validation error is missing", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 2, `[{"field":"address","code":"REQUIRED"}]`, "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"a validation error more", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 2, `[{"field":"address","code":"REQUIRED"},{"field":"phone","code":"REQUIRED"},{"field":"name","code":"REQUIRED"}]`, "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"the validation errors in another order", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 2, `[{"field":"phone","code":"REQUIRED"},{"field":"address","code":"REQUIRED"}]`, "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"the validation errors without their messages", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 2, `[{"field":"address","code":"REQUIRED"},{"field":"phone","code":"REQUIRED"}]`, "")
		}, vocab.Pass, nil},
		{"check_order answers an object", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 2, `{"errors":[{"field":"address","code":"REQUIRED"},{"field":"phone","code":"REQUIRED"}]}`, "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},

		// JSON-LD: a subset at every depth.
		{"the offer's price differs", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 3, strings.Replace(jsonLD, `"9.50"`, `"10.50"`, 1), "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"the offers lose their @context", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 3, strings.Replace(jsonLD, `"@context":"https://schema.org",`, "", 1), "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},

		// output_contains.
		{"the offers' text does not mention the Margherita", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 4, `"Today: Funghi for 9.50 EUR."`, "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"the offers come as JSON-LD where text is expected", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 4, jsonLD, "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},

		// A number, and text that reads as one.
		{"four toppings", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 5, `4`, "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"the count as the text \"3\" (a JSON string)", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 5, `"3"`, "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},

		// match: exact.
		{"the total carries a field more (match exact)", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setResult(t, ev, 6, `{"cents":950,"currency":"EUR","tax":152}`, "")
		}, vocab.Fail, []vocab.Code{vocab.UnexpectedResult}},
		{"the same with match subset", func(t *testing.T, sc *scenarios.Scenario, ev *scenarios.Evidence) {
			sc.Agent.Calls[6].Expect.Match = scenarios.MatchSubset
			setResult(t, ev, 6, `{"cents":950,"currency":"EUR","tax":152}`, "")
		}, vocab.Pass, nil},

		// Schemas: contains for the declarative form, exact for the other.
		{"the size enum loses Large", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setSchema(ev, "set_pizza_size", strings.Replace(pizzaSizeSchema, `"enum":["Small","Medium","Large"]`, `"enum":["Small","Medium"]`, 1))
		}, vocab.Fail, []vocab.Code{vocab.SchemaMismatch}},
		{"size is no longer required", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setSchema(ev, "set_pizza_size", strings.Replace(pizzaSizeSchema, `,"required":["size"]`, "", 1))
		}, vocab.Fail, []vocab.Code{vocab.SchemaMismatch}},
		{"the browser adds a format hint", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setSchema(ev, "set_pizza_size", strings.Replace(pizzaSizeSchema, `"title":"Size",`, `"title":"Size","format":"radio",`, 1))
		}, vocab.Pass, nil},
		{"the decorated schema compared exactly", func(t *testing.T, sc *scenarios.Scenario, _ *scenarios.Evidence) {
			sc.Expect.Catalog.SchemaMatch = scenarios.SchemaMatch{}
		}, vocab.Fail, []vocab.Code{vocab.SchemaMismatch}},
		{"check_order's schema gains a property (exact)", func(t *testing.T, _ *scenarios.Scenario, ev *scenarios.Evidence) {
			setSchema(ev, "check_order", `{"type":"object","properties":{"verbose":{"type":"boolean"}}}`)
		}, vocab.Fail, []vocab.Code{vocab.SchemaMismatch}},
		{"every schema compared by contains", func(t *testing.T, sc *scenarios.Scenario, ev *scenarios.Evidence) {
			sc.Expect.Catalog.SchemaMatch = scenarios.SchemaMatch{All: scenarios.MatchContains}
			setSchema(ev, "check_order", `{"type":"object","properties":{"verbose":{"type":"boolean"}}}`)
		}, vocab.Pass, nil},
	}
}

func TestPizzaSingleMutations(t *testing.T) { runMutations(t, goodPizza, pizzaMutations()) }

// A text result is judged the same whichever transport gave it, by every
// key that asserts text, and text that reads as JSON the same as that JSON.
func TestATextResultIsTheSameWhicheverTransport(t *testing.T) {
	forms := map[string][]record.Result{
		"Set pizza size to Large.": {{OutputText: "Set pizza size to Large."}, {Output: json.RawMessage(`"Set pizza size to Large."`)}},
		"42":                       {{Output: json.RawMessage(`42`)}},     // "42" reads as JSON on either transport
		"":                         {{}, {Output: json.RawMessage(`""`)}}, // the page API records an empty answer as none
		"true":                     {{Output: json.RawMessage(`true`)}},
	}
	for text, results := range forms {
		for _, res := range results {
			res.Status = vocab.Completed
			expects := map[string]*scenarios.CallExpect{
				"output_text":     {OutputText: ptr(text)},
				"output_contains": {OutputContains: ptr(text)},
			}
			if text != "42" && text != "true" {
				expects["output"] = &scenarios.CallExpect{OutputJSON: record.CompactJSON(text)}
			}
			for key, x := range expects {
				if key == "output_contains" && text == "" {
					continue // refused by the format: it says nothing
				}
				j := &judge{sc: scenarios.Scenario{}, ev: &scenarios.Evidence{}}
				j.judgeOutput("c", scenarios.CallRecord{Call: scenarios.Call{Tool: "t"}, Result: res}, x)
				if len(j.checks) != 1 || j.checks[0].Status != vocab.CheckPass {
					t.Errorf("%q as %+v, %s: %+v", text, res, key, j.checks)
				}
			}
		}
	}
}

// A mismatch lists each difference by JSON pointer, with both sides, in the
// message and in the check; Explain shows them one a line.
func TestMismatchesListEachDifferenceByPointer(t *testing.T) {
	sc, ev := goodConf01(t)
	out := json.RawMessage(`{"ok":true,"code":"OK","eventId":"evt-webmcp-intro"}`)
	ev.Calls[0].Result.Output = out
	ev.Trace[traceIndex(t, ev, record.ToolResponded, invocationID)].Output = out
	s := json.RawMessage(`{"type":"object","properties":{"attendeeName":{"type":"string","description":"Attendee name"},"email":{"type":"string","description":"E-mail","format":"email"}},"required":["attendeeName","email"]}`)
	ev.Catalog[0].InputSchema, ev.PageTools[0].InputSchema = s, s
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Fail, vocab.SchemaMismatch, vocab.UnexpectedResult)
	byID := map[string]Check{}
	for _, c := range v.Failed() {
		byID[c.ID] = c
	}
	for id, want := range map[string][]string{
		"call.agent[0].prepare_event_registration.output": {
			`the output of prepare_event_registration (subset) differs in 3 places`,
			`/code: expected "CONFIRMATION_REQUIRED", actual "OK"`,
			`/ok: expected false, actual true`,
			`/retryable: expected false, actual nothing`,
		},
		"catalog.schemas.prepare_event_registration": {
			`the input schema of prepare_event_registration (exact) differs in 2 places`,
			`/properties/email/description: expected "Email", actual "E-mail"`,
			`/properties/email/format: expected nothing, actual "email"`,
		},
	} {
		c, ok := byID[id]
		if !ok {
			t.Errorf("no failed check %s:\n%s", id, Explain(v))
			continue
		}
		for _, w := range want {
			if !strings.Contains(c.Message, w) {
				t.Errorf("%s: the message lacks %s: %s", id, w, c.Message)
			}
		}
		if len(c.Differences) != len(want)-1 {
			t.Errorf("%s: %d differences, want %d: %v", id, len(c.Differences), len(want)-1, c.Differences)
		}
		for _, w := range want[1:] {
			if !strings.Contains(Explain(v), "        "+w+"\n") {
				t.Errorf("Explain does not show %s on a line of its own:\n%s", w, Explain(v))
			}
		}
	}
	if strings.Contains(Explain(v), "map[") {
		t.Errorf("Explain dumps Go maps:\n%s", Explain(v))
	}
}

// A long list of differences is cut in the message, never in the check.
func TestAMessageListsTwentyDifferencesAndCountsTheRest(t *testing.T) {
	j := &judge{}
	want, got := map[string]any{}, map[string]any{}
	for i := range 25 {
		want[fmt.Sprintf("k%02d", i)], got[fmt.Sprintf("k%02d", i)] = i, -i-1
	}
	j.expectMatch("x", vocab.SrcTrace, vocab.UnexpectedResult, want, got, true, "the output")
	c := j.checks[0]
	if len(c.Differences) != 25 || !strings.HasSuffix(c.Message, "; and 5 more") || !strings.Contains(c.Message, "/k19:") || strings.Contains(c.Message, "/k20:") {
		t.Errorf("%d differences, message %s", len(c.Differences), c.Message)
	}
}
