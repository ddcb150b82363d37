// Package judge decides a scenario's verdict from its recorded evidence
// alone. It is a pure function of a scenario and its Evidence: it talks to
// no browser and no app, so a bundle is judged again offline to the same
// bytes. A test keeps browser code out of its imports.
package judge

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/agentready/agentready/match"
	"github.com/agentready/agentready/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/vocab"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/theory/jsonpath"
)

// Check is one thing the judge looked at.
type Check struct {
	ID       string            `json:"id"`
	Source   vocab.Source      `json:"source"`
	Status   vocab.CheckStatus `json:"status"` // pass, fail or inconclusive
	Code     vocab.Code        `json:"code,omitempty"`
	Expected any               `json:"expected,omitempty"`
	Actual   any               `json:"actual,omitempty"`
	Message  string            `json:"message,omitempty"`
	// Differences are where a JSON value (an output, a schema) differs from
	// the expected one, each by JSON pointer with both sides.
	Differences []record.Difference `json:"differences,omitempty"`
}

// Verdict is the judge's answer.
type Verdict struct {
	ScenarioID string        `json:"scenarioId"`
	Outcome    vocab.Outcome `json:"outcome"`
	Codes      []vocab.Code  `json:"codes"`
	Checks     []Check       `json:"checks"`
	// Diagnosis locates a FAIL: the first link of the recorded chain where
	// the evidence departs (diagnosis.go). Only a FAIL has one.
	Diagnosis *Diagnosis `json:"diagnosis,omitempty"`
}

// Failed lists the checks that did not pass.
func (v Verdict) Failed() []Check {
	return slices.DeleteFunc(slices.Clone(v.Checks), func(c Check) bool { return c.Status == vocab.CheckPass })
}

// AsExpected tells whether v is the verdict the scenario means to reach:
// PASS, or, for a known-answer case, exactly its outcome and codes (and,
// when it names one, the link where its evidence first departs).
func AsExpected(sc scenarios.Scenario, v Verdict) bool {
	if sc.Known == nil {
		return v.Outcome == vocab.Pass
	}
	if v.Outcome != sc.Known.Outcome || !slices.Equal(v.Codes, slices.Sorted(slices.Values(sc.Known.Codes))) {
		return false
	}
	return sc.Known.Departs == "" || (v.Diagnosis != nil && v.Diagnosis.Link == sc.Known.Departs)
}

// Judge decides a scenario from its evidence alone. It is a pure function:
// the same scenario and evidence always give the same verdict.
func Judge(sc scenarios.Scenario, ev *scenarios.Evidence) Verdict {
	j := &judge{sc: sc, ev: ev}
	if ev == nil {
		j.inconclusive("evidence", vocab.SrcTrace, vocab.EvidenceMissing, nil, nil, "no evidence was recorded")
		return j.verdict()
	}
	for i, f := range ev.Faults {
		j.inconclusive(fmt.Sprintf("harness[%d]", i), vocab.SrcTrace, vocab.EvidenceMissing, nil, f, "the harness could not record everything: "+f)
	}
	e := sc.Expect
	j.judgeCase(e.Case)
	j.judgeCatalog(e.Catalog)
	j.judgeCalls(e.Calls)
	j.judgeInputs()
	j.judgeDirect()
	j.judgeWitnesses()
	j.judgeRequests(e.Requests)
	j.judgeGuarded(e.Guarded)
	j.judgeWrites(e.Writes)
	j.judgeContent(e.Content)
	j.judgeSubmitted(e.Submitted)
	j.judgeState(e.State)
	j.judgeUI(e.UI)
	j.judgePage(e.Page)
	j.judgeAnswer(e.Answer)
	j.requireNamedSources()
	return j.verdict()
}

type judge struct {
	sc     scenarios.Scenario
	ev     *scenarios.Evidence
	checks []Check
}

func (j *judge) add(c Check) { j.checks = append(j.checks, c) }

func (j *judge) pass(id string, src vocab.Source, expected, actual any, msg string) {
	j.add(Check{ID: id, Source: src, Status: vocab.CheckPass, Expected: expected, Actual: actual, Message: msg})
}

func (j *judge) fail(id string, src vocab.Source, code vocab.Code, expected, actual any, msg string) {
	j.add(Check{ID: id, Source: src, Status: vocab.CheckFail, Code: code, Expected: expected, Actual: actual, Message: msg})
}

func (j *judge) inconclusive(id string, src vocab.Source, code vocab.Code, expected, actual any, msg string) {
	j.add(Check{ID: id, Source: src, Status: vocab.CheckInconclusive, Code: code, Expected: expected, Actual: actual, Message: msg})
}

// expectEqual passes when got is want (as JSON values; want may hold
// constraints such as {$pattern: …}), else fails with code.
func (j *judge) expectEqual(id string, src vocab.Source, code vocab.Code, want, got any, msg string) bool {
	if len(record.Diff(want, got, false)) == 0 {
		j.pass(id, src, want, got, msg)
		return true
	}
	j.fail(id, src, code, want, got, msg)
	return false
}

// diffLimit is how many differences a check's message lists; the check
// holds them all.
const diffLimit = 20

// expectMatch passes when got matches want (equal, or holding at least what
// want says when subset), else fails with code and every difference by JSON
// pointer. what names the value: "the output of save_event (subset)".
func (j *judge) expectMatch(id string, src vocab.Source, code vocab.Code, want, got any, subset bool, what string) bool {
	diffs := record.Diff(want, got, subset)
	if len(diffs) == 0 {
		j.pass(id, src, want, got, what+" is as expected")
		return true
	}
	places := "1 place"
	if len(diffs) > 1 {
		places = fmt.Sprintf("%d places", len(diffs))
	}
	j.add(Check{ID: id, Source: src, Status: vocab.CheckFail, Code: code, Expected: want, Actual: got, Differences: diffs,
		Message: fmt.Sprintf("%s differs in %s: %s", what, places, record.DiffText(diffs, diffLimit))})
	return false
}

func (j *judge) verdict() Verdict {
	v := Verdict{ScenarioID: j.sc.ID, Checks: j.checks, Codes: []vocab.Code{}}
	if v.Checks == nil {
		v.Checks = []Check{}
	}
	failed, inconclusive := false, false
	for _, c := range j.checks {
		switch c.Status {
		case vocab.CheckFail:
			failed = true
		case vocab.CheckInconclusive:
			inconclusive = true
		}
		if c.Code != "" && !slices.Contains(v.Codes, c.Code) {
			v.Codes = append(v.Codes, c.Code)
		}
	}
	slices.Sort(v.Codes)
	switch {
	case failed:
		v.Outcome = vocab.Fail
	case inconclusive:
		v.Outcome = vocab.Inconclusive
	default:
		v.Outcome = vocab.Pass
	}
	if v.Outcome == vocab.Fail {
		v.Diagnosis = diagnose(v.Checks)
	}
	return v
}

// requireNamedSources makes sure every source the scenario names was
// checked at least once: no PASS with nothing checked.
func (j *judge) requireNamedSources() {
	e := j.sc.Expect
	// Each entry is satisfied by a check from any of its sources: requests
	// are judged from the network log, the app's journal, or both.
	var named [][]vocab.Source
	need := func(cond bool, srcs ...vocab.Source) {
		if cond {
			named = append(named, srcs)
		}
	}
	need(e.Case != nil, vocab.SrcCase)
	need(e.Catalog != nil, vocab.SrcCatalog)
	need(e.Calls != nil || slices.ContainsFunc(j.ev.Calls, func(c scenarios.CallRecord) bool { return j.callExpect(c) != nil }), vocab.SrcTrace)
	need(len(e.Requests) > 0 || len(e.Guarded) > 0 || len(e.Writes) > 0, vocab.SrcNetwork, vocab.SrcJournal)
	need(len(e.Content) > 0, vocab.SrcNetwork)
	need(len(e.Submitted) > 0, vocab.SrcNetwork, vocab.SrcUI)
	need(len(e.State) > 0, vocab.SrcState)
	need(slices.ContainsFunc(append(slices.Clone(j.sc.Setup), j.sc.Human...), func(s scenarios.Step) bool { return s.Request != nil }), vocab.SrcNetwork)
	need(len(e.UI) > 0, vocab.SrcUI)
	need(e.Answer != nil, vocab.SrcAnswer)
	if len(named) == 0 {
		j.inconclusive("expectations", vocab.SrcCase, vocab.EvidenceMissing, nil, nil, "the scenario expects nothing: nothing was checked")
		return
	}
	for _, srcs := range named {
		if !slices.ContainsFunc(j.checks, func(c Check) bool { return slices.Contains(srcs, c.Source) }) {
			j.inconclusive("source."+string(srcs[0]), srcs[0], vocab.EvidenceMissing, nil, nil, "the scenario names this source, but nothing from it could be checked")
		}
	}
}

func (j *judge) judgeCase(c *scenarios.CaseExpect) {
	if c == nil {
		return
	}
	if j.ev.Catalog == nil {
		j.inconclusive("case.tool", vocab.SrcCase, vocab.EvidenceMissing, c.Tool, nil, "the start page's catalog was not recorded")
		return
	}
	tool, ok := j.ev.Catalog.Get(c.Tool)
	if !ok {
		j.inconclusive("case.tool", vocab.SrcCase, vocab.CaseIncomplete, c.Tool, j.ev.Catalog.Names(), "the tool the case is about is not in the start page's catalog")
		return
	}
	var schema struct {
		Required []string `json:"required"`
	}
	_ = json.Unmarshal(tool.InputSchema, &schema)
	var missing []string
	for _, p := range schema.Required {
		if _, ok := j.sc.PromptData[p]; !ok {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		j.inconclusive("case.prompt", vocab.SrcCase, vocab.CaseIncomplete, schema.Required, keys(j.sc.PromptData),
			fmt.Sprintf("the prompt does not give %s, which %s requires: no agent can do this case right without asking", strings.Join(missing, ", "), c.Tool))
		return
	}
	j.pass("case.prompt", vocab.SrcCase, schema.Required, keys(j.sc.PromptData), "the prompt gives every parameter the tool requires")
}

func (j *judge) judgeCatalog(c *scenarios.CatalogExpect) {
	if c == nil {
		return
	}
	if j.ev.Catalog == nil {
		j.inconclusive("catalog", vocab.SrcCatalog, vocab.EvidenceMissing, nil, nil, "the start page's catalog was not recorded")
		return
	}
	if c.Contract != nil {
		j.judgeContract(c.Contract)
	}
	if j.ev.PageTools == nil {
		j.inconclusive("catalog.agreement", vocab.SrcCatalog, vocab.EvidenceMissing, nil, nil, "what getTools() answered was not recorded")
	} else if err := record.Disagreement(j.ev.Catalog, j.ev.PageTools); err != nil {
		j.fail("catalog.agreement", vocab.SrcCatalog, vocab.EvidenceDisagrees, nil, nil, err.Error())
	} else {
		j.pass("catalog.agreement", vocab.SrcCatalog, nil, nil, "the protocol and getTools() report the same tools")
	}
	if c.Exactly != nil {
		j.judgeExactly(c.Exactly)
	}
	for _, name := range keys(c.Schemas) {
		tool, ok := j.ev.Catalog.Get(name)
		if !ok {
			j.fail("catalog.schemas."+name, vocab.SrcCatalog, vocab.SchemaMismatch, c.Schemas[name], nil, name+" is not in the catalog")
			continue
		}
		var got any
		_ = json.Unmarshal(tool.InputSchema, &got)
		mode := c.SchemaMatch.For(name)
		j.expectMatch("catalog.schemas."+name, vocab.SrcCatalog, vocab.SchemaMismatch, c.Schemas[name], got, mode == scenarios.MatchContains,
			fmt.Sprintf("the input schema of %s (%s)", name, mode))
	}
	j.judgeHint("autosubmit", c.Autosubmit, func(a record.Annotations) bool { return a.Autosubmit })
	j.judgeHint("read_only", c.ReadOnly, func(a record.Annotations) bool { return a.ReadOnly })
}

// judgeExactly checks the start page's tools against the list; an empty
// list expects a page that offers none.
func (j *judge) judgeExactly(exactly []string) {
	want := append([]string{}, exactly...) // never nil: [] is "no tools"
	slices.Sort(want)
	got := j.ev.Catalog.Names()
	var missing, extra []string
	for _, t := range want {
		if !slices.Contains(got, t) {
			missing = append(missing, t)
		}
	}
	for _, t := range got {
		if !slices.Contains(want, t) {
			extra = append(extra, t)
		}
	}
	if slices.Equal(want, got) {
		j.pass("catalog.exactly", vocab.SrcCatalog, want, got, "the start page offers exactly these tools")
		return
	}
	why := []string{}
	if len(missing) > 0 {
		why = append(why, "it does not offer "+strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		why = append(why, "it also offers "+strings.Join(extra, ", "))
	}
	if len(why) == 0 {
		why = append(why, "it offers a tool more or fewer times") // the same names, in other numbers (one per frame)
	}
	j.fail("catalog.exactly", vocab.SrcCatalog, vocab.CatalogMismatch, want, got, "the start page offers other tools than expected: "+strings.Join(why, "; "))
}

// judgeHint checks one annotation of each named tool; a tool that is not in
// the catalog fails, whatever value was expected.
func (j *judge) judgeHint(hint string, want map[string]bool, got func(record.Annotations) bool) {
	for _, name := range keys(want) {
		id := "catalog." + hint + "." + name
		tool, ok := j.ev.Catalog.Get(name)
		if !ok {
			j.fail(id, vocab.SrcCatalog, vocab.CatalogMismatch, want[name], nil, name+" is not in the catalog")
			continue
		}
		j.expectEqual(id, vocab.SrcCatalog, vocab.CatalogMismatch, want[name], got(tool.Annotations), "the "+hint+" annotation of "+name)
	}
}

func (j *judge) agentCalls() []scenarios.CallRecord {
	return slices.DeleteFunc(slices.Clone(j.ev.Calls), func(c scenarios.CallRecord) bool { return c.Phase != vocab.PhaseAgent })
}

func (j *judge) judgeCalls(want *scenarios.CallsExpect) {
	for _, c := range j.ev.Calls {
		j.judgeOneCall(c)
	}
	j.judgeTraceAgreement()
	if want == nil {
		return
	}
	calls := j.agentCalls()
	if len(want.Required) > 0 {
		m := &requiredMatch{j: j, calls: calls, used: make([]bool, len(calls)), optionalBefore: -1}
		m.ordered("calls.required", want.Required)
	}
	if len(want.Exactly) == 0 && !want.None {
		return
	}
	if want.None {
		if len(calls) == 0 {
			j.pass("calls.none", vocab.SrcTrace, 0, 0, "the agent made no call")
		}
		for _, c := range calls {
			j.fail(fmt.Sprintf("calls.none.agent[%d]", c.Index), vocab.SrcTrace, vocab.UnexpectedToolCall, nil, callSummary(c), "the agent must make no call here, but called "+c.Call.Tool)
		}
		return
	}
	cursor := 0
	for i, w := range want.Exactly {
		id := fmt.Sprintf("calls.exactly[%d]", i)
		k := slices.IndexFunc(calls[cursor:], func(c scenarios.CallRecord) bool { return c.Call.Tool == w.Tool })
		if k < 0 {
			j.fail(id, vocab.SrcTrace, vocab.MissingToolCall, w, nil, "the agent never called "+w.Tool)
			continue
		}
		for _, extra := range calls[cursor : cursor+k] {
			j.fail(fmt.Sprintf("%s.before.agent[%d]", id, extra.Index), vocab.SrcTrace, vocab.UnexpectedToolCall, nil, callSummary(extra), "a call the scenario does not allow: "+extra.Call.Tool)
		}
		got := calls[cursor+k]
		cursor += k + 1
		if w.Input != nil && len(record.Diff(w.Input, nonNilMap(got.Call.Input), false)) > 0 {
			j.fail(id, vocab.SrcTrace, vocab.WrongToolInput, w.Input, nonNilMap(got.Call.Input), "the input of "+w.Tool+" differs from what the prompt gave")
			continue
		}
		j.pass(id, vocab.SrcTrace, w, callSummary(got), "the agent called "+w.Tool+" as expected")
	}
	for _, extra := range calls[cursor:] {
		j.fail(fmt.Sprintf("calls.extra.agent[%d]", extra.Index), vocab.SrcTrace, vocab.UnexpectedToolCall, nil, callSummary(extra), "a call the scenario does not allow: "+extra.Call.Tool)
	}
}

// callExpect is what the scenario expects of a recorded call: the
// expectations come from the scenario being judged, not from the record, so
// that a changed expectation is judged against the same evidence.
func (j *judge) callExpect(c scenarios.CallRecord) *scenarios.CallExpect {
	var steps []scenarios.Step
	switch c.Phase {
	case vocab.PhaseAgent:
		if c.Index < len(j.sc.Agent.Calls) {
			return j.sc.Agent.Calls[c.Index].Expect
		}
		return nil
	case vocab.PhaseSetup:
		steps = j.sc.Setup
	case vocab.PhaseHuman:
		steps = j.sc.Human
	}
	if c.Index < len(steps) && steps[c.Index].Call != nil {
		return steps[c.Index].Call.Expect
	}
	return nil
}

func (j *judge) judgeOneCall(c scenarios.CallRecord) {
	id := fmt.Sprintf("call.%s[%d].%s", c.Phase, c.Index, c.Call.Tool)
	x := j.callExpect(c)
	if x == nil {
		x = &scenarios.CallExpect{}
	}
	j.judgeOffered(id, c, x)
	j.judgeStatus(id, c, x)
	j.judgeOutput(id, c, x)
	j.judgeCatalogAfter(id, c, x.CatalogAfter)
}

// judgeOffered: the agent may call only what the page offers; a probe of a
// tool that must be absent passes when it is.
func (j *judge) judgeOffered(id string, c scenarios.CallRecord, x *scenarios.CallExpect) {
	offered := slices.Contains(c.CatalogBefore, c.Call.Tool)
	switch {
	case x.NotInCatalog && offered:
		j.fail(id+".absent", vocab.SrcCatalog, vocab.UnexpectedResult, "not offered", c.CatalogBefore, c.Call.Tool+" is still offered")
	case x.NotInCatalog:
		j.pass(id+".absent", vocab.SrcCatalog, "not offered", c.CatalogBefore, c.Call.Tool+" is not offered")
	case !offered && c.Phase == vocab.PhaseAgent:
		j.fail(id+".offered", vocab.SrcTrace, vocab.ToolNotInCatalog, c.Call.Tool, c.CatalogBefore, "the agent called "+c.Call.Tool+", which the page did not offer")
	}
}

// judgeStatus: how the call ended; a declarative tool that never answered
// has its own code.
func (j *judge) judgeStatus(id string, c scenarios.CallRecord, x *scenarios.CallExpect) {
	res := c.Result
	want := x.Status
	if want == "" && len(x.ResultKeys()) > 0 {
		want = vocab.Completed
	}
	switch {
	case res.Status == vocab.NoResponse && want != vocab.NoResponse:
		code, what := vocab.ToolError, c.Call.Tool
		if j.declarative(c.Call.Tool) {
			code, what = vocab.DeclarativeCompletionMissing, "the declarative tool "+c.Call.Tool
		}
		j.fail(id+".status", vocab.SrcTrace, code, cmp.Or(string(want), "an answer"), res.Status, what+" was invoked and never answered: "+res.ErrorText)
	case want != "" && res.Status != want:
		code := vocab.ToolError
		if want != vocab.Completed {
			code = vocab.UnexpectedResult
		}
		j.fail(id+".status", vocab.SrcTrace, code, want, res.Status, strings.TrimSpace(c.Call.Tool+" ended "+string(res.Status)+": "+res.ErrorText))
	case want != "":
		j.pass(id+".status", vocab.SrcTrace, want, res.Status, c.Call.Tool+" ended "+string(want))
	}
}

// judgeOutput checks a completed call's result (output, output_text,
// output_contains) and an error's text (error_contains). A result is judged
// the same whichever transport gave it: see resultValue.
func (j *judge) judgeOutput(id string, c scenarios.CallRecord, x *scenarios.CallExpect) {
	res := c.Result
	if res.Status == vocab.Completed {
		if want, ok := x.WantOutput(); ok && x.Match == scenarios.MatchConstraints {
			j.expectConstraints(id+".output", c, want)
		} else if ok {
			mode := cmp.Or(x.Match, scenarios.MatchSubset)
			j.expectMatch(id+".output", vocab.SrcTrace, vocab.UnexpectedResult, want, resultValue(res), mode == scenarios.MatchSubset,
				fmt.Sprintf("the output of %s (%s)", c.Call.Tool, mode))
		}
		if x.OutputText != nil || x.OutputContains != nil {
			j.judgeText(id, c, x)
		}
	}
	if x.ErrorContains != "" {
		if strings.Contains(res.ErrorText, x.ErrorContains) {
			j.pass(id+".error", vocab.SrcTrace, x.ErrorContains, res.ErrorText, "the error says what is expected")
		} else {
			j.fail(id+".error", vocab.SrcTrace, vocab.UnexpectedResult, x.ErrorContains, res.ErrorText, "the error does not say what is expected")
		}
	}
}

// expectConstraints checks an output written with match: constraints, as
// webmcp-evals checks a tool's result (package match). The result is read
// as webmcp-evals reads it: an MCP-shaped answer ({content: [{text}]}, not
// isError) is its first text.
func (j *judge) expectConstraints(id string, c scenarios.CallRecord, want any) {
	got := evalsResult(resultValue(c.Result))
	what := fmt.Sprintf("the output of %s (constraints)", c.Call.Tool)
	m := match.Match(want, got)
	if m == nil {
		j.pass(id, vocab.SrcTrace, want, got, what+" is as expected")
		return
	}
	d := record.Difference{Pointer: m.Pointer, Expected: record.CompactJSON(m.Expected)}
	if !m.Missing {
		d.Actual = record.CompactJSON(m.Actual)
	}
	j.add(Check{ID: id, Source: vocab.SrcTrace, Status: vocab.CheckFail, Code: vocab.UnexpectedResult, Expected: want, Actual: got,
		Differences: []record.Difference{d}, Message: what + " does not match: " + m.Error()})
}

// evalsResult unwraps an MCP-shaped tool answer the way webmcp-evals does.
func evalsResult(v any) any {
	o, ok := v.(map[string]any)
	if !ok || o["isError"] == true {
		return v
	}
	if content, ok := o["content"].([]any); ok && len(content) > 0 {
		if first, ok := content[0].(map[string]any); ok {
			if text, ok := first["text"].(string); ok && text != "" {
				return text
			}
		}
	}
	return v
}

// judgeText checks a text result: the whole text (output_text) or a part
// of it (output_contains). A result that is a JSON object or array is not
// text, and fails.
func (j *judge) judgeText(id string, c scenarios.CallRecord, x *scenarios.CallExpect) {
	key, want := "output_text", x.OutputText
	if want == nil {
		key, want = "output_contains", x.OutputContains
	}
	cid := id + "." + key
	got := resultValue(c.Result)
	text, isText := resultText(got)
	switch {
	case !isText:
		j.fail(cid, vocab.SrcTrace, vocab.UnexpectedResult, *want, got,
			fmt.Sprintf("the output of %s is a JSON %s, not text (assert it with output): %s", c.Call.Tool, jsonKind(got), compactJSON(got)))
	case key == "output_text" && text == *want:
		j.pass(cid, vocab.SrcTrace, *want, text, "the output of "+c.Call.Tool+" is this text")
	case key == "output_text":
		j.fail(cid, vocab.SrcTrace, vocab.UnexpectedResult, *want, text,
			fmt.Sprintf("the output of %s is another text: expected %q, actual %q (%s)", c.Call.Tool, *want, text, whereTextsPart(*want, text)))
	case strings.Contains(text, *want):
		j.pass(cid, vocab.SrcTrace, *want, text, "the output of "+c.Call.Tool+" contains this text")
	default:
		j.fail(cid, vocab.SrcTrace, vocab.UnexpectedResult, *want, text,
			fmt.Sprintf("the output of %s does not contain %q: it is %q", c.Call.Tool, *want, text))
	}
}

// resultValue answers a completed call's result as one JSON value, the same
// whichever transport gave it. The page API answers text, recorded as
// OutputText unless it reads as JSON; the protocol answers JSON, where a
// text is a JSON string. So a text is a string either way, and text that
// reads as JSON (42, {"ok":true}) is that JSON either way. A call that
// answered nothing is the empty text: that is how the page API records an
// empty answer, which the protocol gives as "".
func resultValue(r record.Result) any {
	switch {
	case r.OutputText != "":
		return r.OutputText
	case len(r.Output) > 0:
		var v any
		if json.Unmarshal(r.Output, &v) != nil {
			return string(r.Output)
		}
		return v
	}
	return ""
}

// resultText answers a result as the text the tool gave: a string as it
// is, a number, boolean or null as written in JSON (the page's text "42"
// reads as the number 42). An object or an array is not text.
func resultText(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case map[string]any, []any:
		return "", false
	}
	return compactJSON(v), true
}

func jsonKind(v any) string {
	if _, ok := v.([]any); ok {
		return "array"
	}
	return "object"
}

// compactJSON renders a value as compact JSON for people (no HTML escapes).
func compactJSON(v any) string { return string(record.CompactJSON(v)) }

// whereTextsPart says where two texts start to differ, in characters.
func whereTextsPart(a, b string) string {
	ra, rb := []rune(a), []rune(b)
	i := 0
	for i < len(ra) && i < len(rb) && ra[i] == rb[i] {
		i++
	}
	switch {
	case len(ra) == 0:
		return "the expected text is empty"
	case i == len(ra):
		return fmt.Sprintf("the actual text goes on after the expected %d characters", len(ra))
	case len(rb) == 0:
		return "the actual text is empty"
	case i == len(rb):
		return fmt.Sprintf("the actual text stops after %d characters", len(rb))
	}
	return fmt.Sprintf("they part at character %d", i+1)
}

func (j *judge) judgeCatalogAfter(id string, c scenarios.CallRecord, d *scenarios.CatalogDelta) {
	if d == nil {
		return
	}
	var wrong []string
	for _, t := range d.Present {
		if !slices.Contains(c.CatalogAfter, t) {
			wrong = append(wrong, t+" missing")
		}
	}
	for _, t := range d.Absent {
		if slices.Contains(c.CatalogAfter, t) {
			wrong = append(wrong, t+" still offered")
		}
	}
	if len(wrong) > 0 {
		j.fail(id+".catalog_after", vocab.SrcCatalog, vocab.UnexpectedResult, d, c.CatalogAfter, "after the call: "+strings.Join(wrong, ", "))
	} else {
		j.pass(id+".catalog_after", vocab.SrcCatalog, d, c.CatalogAfter, "the catalog after the call is as expected")
	}
}

func (j *judge) declarative(tool string) bool {
	t, ok := j.ev.Catalog.Get(tool)
	if ok {
		return t.Declarative
	}
	for _, e := range j.ev.Trace {
		for _, t := range e.Tools {
			if t.Name == tool && t.Declarative {
				return true
			}
		}
	}
	return false
}

// judgeTraceAgreement checks the transcript against the browser's own trace:
// every call that started an invocation must appear there with its input.
func (j *judge) judgeTraceAgreement() {
	if len(j.ev.Calls) == 0 {
		return
	}
	invoked := map[string]record.Event{}
	responded := map[string]record.Event{}
	var order []string
	for _, e := range j.ev.Trace {
		switch e.Kind {
		case record.ToolInvoked:
			invoked[e.InvocationID] = e
			order = append(order, e.InvocationID)
		case record.ToolResponded:
			// The first answer is the tool's: a form that answers and then
			// navigates can make the browser send a second one.
			if _, seen := responded[e.InvocationID]; !seen {
				responded[e.InvocationID] = e
			}
		}
	}
	var bad []string
	made := map[string]bool{}
	for _, c := range j.ev.Calls {
		if c.Result.InvocationID == "" {
			continue
		}
		made[c.Result.InvocationID] = true
		name := fmt.Sprintf("%s[%d] %s (invocation %s)", c.Phase, c.Index, c.Call.Tool, c.Result.InvocationID)
		e, ok := invoked[c.Result.InvocationID]
		var in any
		_ = json.Unmarshal(e.Input, &in)
		if !ok || e.ToolName != c.Call.Tool || !record.JSONEqual(nonNilMap(c.Call.Input), in) {
			bad = append(bad, name+": not in the trace with this tool and input")
			continue
		}
		if r, ok := responded[c.Result.InvocationID]; ok && !sameStatus(c.Result.Status, r.Status) {
			bad = append(bad, fmt.Sprintf("%s: the call ended %s, the trace says %s", name, c.Result.Status, r.Status))
		}
	}
	for _, id := range order {
		if !made[id] {
			bad = append(bad, fmt.Sprintf("invocation %s of %s: in the trace, but no recorded call made it", id, invoked[id].ToolName))
		}
	}
	if len(bad) > 0 {
		j.fail("trace.agreement", vocab.SrcTrace, vocab.EvidenceDisagrees, "the calls and the browser's trace agree", bad, "the recorded calls and the browser's trace disagree: "+strings.Join(bad, "; "))
		return
	}
	j.pass("trace.agreement", vocab.SrcTrace, nil, nil, "every call appears in the browser's trace with its input and outcome, and nothing else does")
}

// sameStatus compares a call's status with the protocol's; a call canceled
// after no answer shows as Canceled in the trace.
func sameStatus(call vocab.Status, protocol string) bool {
	switch protocol {
	case "Completed":
		return call == vocab.Completed
	case "Error":
		return call == vocab.Failed
	case "Canceled":
		return call == vocab.Canceled || call == vocab.NoResponse
	}
	return false
}

func (j *judge) netCount(phase vocab.Phase, method, pattern string) (int, []record.Request, bool) {
	if !j.ev.Capture.Network || j.ev.Requests == nil {
		return 0, nil, false
	}
	from, to, ok := j.ev.Window(phase)
	if !ok {
		return 0, nil, false
	}
	lo, hi, ok := span(from.Requests, to.Requests, len(j.ev.Requests))
	if !ok {
		return 0, nil, false
	}
	// The harness's own state reads are not the app's or the agent's, and a
	// request a service worker answered is counted once, as the worker's.
	matched := slices.DeleteFunc(j.ev.Requests[lo:hi].Filter(method, pattern), func(r record.Request) bool { return !r.Counted() })
	return len(matched), matched, true
}

func (j *judge) journalWindow(phase vocab.Phase) (record.Journal, bool) {
	if !j.ev.Capture.Observer || j.ev.Journal == nil {
		return nil, false
	}
	from, to, ok := j.ev.Window(phase)
	if !ok {
		return nil, false
	}
	lo, hi, ok := span(from.Journal, to.Journal, len(j.ev.Journal))
	if !ok || !j.journalMarksInOrder() {
		return nil, false
	}
	// The tab's own entries: a shared app's other sessions do not count.
	// An entry without a session (a request before the cookie was set)
	// cannot be anyone else's.
	win := j.ev.Journal[lo:hi]
	if s := j.ev.Env.Session; s != "" {
		win = slices.DeleteFunc(slices.Clone(win), func(e record.Entry) bool { return e.Session != "" && e.Session != s })
	}
	return win, true
}

// judgeWitnesses holds the two witnesses of requests to each other, whole:
// within each judged window, every request the browser sent to the app's
// origin is in the journal, and every journal entry of the tab's session
// is in the network log — refused ones included (seed 003: a journal
// records before authorization). A request that got no answer may or may
// not have reached the app, and is not held against either side.
func (j *judge) judgeWitnesses() {
	if j.ev.Requests == nil || !j.ev.Capture.Network || j.ev.Journal == nil || !j.ev.Capture.Observer {
		return
	}
	for _, phase := range []vocab.Phase{vocab.PhaseAgent, vocab.PhaseHuman} {
		from, to, ok := j.ev.Window(phase)
		if !ok {
			continue
		}
		lo, hi, ok := span(from.Requests, to.Requests, len(j.ev.Requests))
		journal, okJ := j.journalWindow(phase)
		if !ok || !okJ {
			continue
		}
		seen, maybe := map[string]int{}, map[string]int{}
		for _, r := range j.ev.Requests[lo:hi] {
			if !r.Counted() || !sameOrigin(j.ev.Env.BaseURL, r.URL) {
				continue
			}
			k := strings.ToUpper(r.Method) + " " + r.Path
			if r.Status == 0 && r.Failure != "" {
				maybe[k]++
				continue
			}
			seen[k]++
		}
		for _, p := range j.ev.ProbeReads {
			if p.Window == phase {
				seen[strings.ToUpper(p.Method)+" "+p.Path]++ // the journal has the harness's reads; the network log left them out above
			}
		}
		var onlyJournal []string
		for _, e := range journal {
			k := strings.ToUpper(e.Method) + " " + e.Path
			switch {
			case seen[k] > 0:
				seen[k]--
			case maybe[k] > 0:
				maybe[k]--
			default:
				onlyJournal = append(onlyJournal, fmt.Sprintf("%s (%d)", k, e.Status))
			}
		}
		var onlyNet []string
		for _, k := range slices.Sorted(maps.Keys(seen)) {
			for range seen[k] {
				onlyNet = append(onlyNet, k)
			}
		}
		id := "witnesses." + string(phase)
		if len(onlyNet) == 0 && len(onlyJournal) == 0 {
			j.pass(id, vocab.SrcJournal, nil, nil, "the network log and the app's journal hold the same requests")
			continue
		}
		var parts []string
		if len(onlyNet) > 0 {
			parts = append(parts, "the browser sent, and the journal lacks: "+strings.Join(onlyNet, ", "))
		}
		if len(onlyJournal) > 0 {
			parts = append(parts, "the journal has, and the browser never sent: "+strings.Join(onlyJournal, ", "))
		}
		j.fail(id, vocab.SrcJournal, vocab.EvidenceDisagrees, onlyJournal, onlyNet, "the witnesses of requests disagree in the "+string(phase)+" phase: "+strings.Join(parts, "; "))
	}
}

// span clips a window of marks to a record of n entries; marks that are
// negative or out of order (a mark taken when a read failed) are no window.
func span(from, to, n int) (lo, hi int, ok bool) {
	if from < 0 || to < from {
		return 0, 0, false
	}
	return min(from, n), min(to, n), true
}

func (j *judge) journalCount(phase vocab.Phase, method, pattern string) (int, record.Journal, bool) {
	win, ok := j.journalWindow(phase)
	if !ok {
		return 0, nil, false
	}
	matched := win.Filter(method, pattern)
	// The journal cannot tell the harness's state reads from others: leave
	// out as many matching entries as the harness made in this window,
	// from its start, where the reads were made.
	probes := 0
	for _, p := range j.ev.ProbeReads {
		if inWindow(p.Window, phase) && record.MatchRequest(p.Method, p.Path, method, pattern) {
			probes++
		}
	}
	matched = matched[min(probes, len(matched)):]
	return len(matched), matched, true
}

// inWindow tells whether requests of window fall in phase's window (all
// covers agent and human).
func inWindow(window, phase vocab.Phase) bool {
	return window == phase || (phase == vocab.PhaseAll && (window == vocab.PhaseAgent || window == vocab.PhaseHuman))
}

// judgeRequests counts requests by method and path in a phase. Either
// witness decides alone when it is the only one recorded (the network log,
// for an app without a journal); when both are, they must agree.
func (j *judge) judgeRequests(want []scenarios.RequestExpect) {
	for i, r := range want {
		id := fmt.Sprintf("requests[%d] %s %s (%s)", i, r.Method, r.Path, r.Phase)
		byNet, netReqs, haveNet := j.netCount(r.Phase, r.Method, r.Path)
		byJournal, entries, haveJournal := j.journalCount(r.Phase, r.Method, r.Path)
		switch {
		case !haveNet && !haveJournal:
			j.inconclusive(id, vocab.SrcNetwork, vocab.EvidenceMissing, r.Count, nil, "neither the network log nor the app's journal was recorded: the count is unknown, not 0")
			continue
		case haveNet && haveJournal && byNet != byJournal:
			j.fail(id+".agreement", vocab.SrcNetwork, vocab.EvidenceDisagrees, byJournal, byNet,
				fmt.Sprintf("the network log counts %d, the app's journal %d", byNet, byJournal))
			continue
		}
		if haveNet {
			j.expectEqual(id+".network", vocab.SrcNetwork, vocab.RequestCountMismatch, r.Count, byNet, "requests counted in the network log")
		}
		if haveJournal {
			j.expectEqual(id+".journal", vocab.SrcJournal, vocab.RequestCountMismatch, r.Count, byJournal, "requests counted in the app's journal")
		}
		if r.Status != 0 {
			if haveNet {
				j.judgeStatuses(id+".status.network", vocab.SrcNetwork, r.Status, statusesOf(netReqs, func(q record.Request) int { return q.Status }), "in the network log")
			}
			if haveJournal {
				j.judgeStatuses(id+".status.journal", vocab.SrcJournal, r.Status, statusesOf(entries, func(e record.Entry) int { return e.Status }), "in the app's journal")
			}
		}
	}
}

// judgeStatuses checks that every counted request of one witness ended with
// the expected HTTP status; with nothing counted there is nothing to check.
func (j *judge) judgeStatuses(id string, src vocab.Source, want int, got []int, where string) {
	switch {
	case slices.ContainsFunc(got, func(s int) bool { return s != want }):
		j.fail(id, src, vocab.RequestStatusMismatch, want, got, "a counted request has another status "+where)
	case len(got) > 0:
		j.pass(id, src, want, got, "every counted request has the expected status "+where)
	}
}

func statusesOf[T any](items []T, status func(T) int) []int {
	out := make([]int, len(items))
	for i, it := range items {
		out[i] = status(it)
	}
	return out
}

func (j *judge) judgeGuarded(guarded []string) {
	for i, g := range guarded {
		method, p, _ := record.SplitRequest(g)
		id := fmt.Sprintf("guarded[%d] %s", i, g)
		byNet, _, haveNet := j.netCount(vocab.PhaseAgent, method, p)
		byJournal, _, haveJournal := j.journalCount(vocab.PhaseAgent, method, p)
		if !haveNet && !haveJournal {
			j.inconclusive(id, vocab.SrcNetwork, vocab.EvidenceMissing, 0, nil, "neither the network log nor the journal was recorded")
			continue
		}
		src, n := vocab.SrcNetwork, byNet
		if !haveNet || byJournal > byNet {
			src, n = vocab.SrcJournal, byJournal
		}
		if n > 0 {
			j.fail(id, src, vocab.SideEffectBeforeConfirmation, 0, n, fmt.Sprintf("%s happened %d time(s) before the person's confirmation", g, n))
		} else {
			j.pass(id, src, 0, 0, g+" waited for the person")
		}
	}
}

// judgeWrites counts the write requests that reached the app in a phase:
// from the journal, or from the network log (requests to the app's origin)
// when the app keeps no journal; with both, they must agree.
func (j *judge) judgeWrites(want map[vocab.Phase]int) {
	for _, phase := range keys(want) {
		id := "writes." + string(phase)
		netWrites, haveNet := j.netWrites(phase)
		var journalWrites []string
		win, haveJournal := j.journalWindow(phase)
		for _, e := range win.Writes() {
			journalWrites = append(journalWrites, e.Method+" "+e.Path)
		}
		src, writes, where := vocab.SrcJournal, journalWrites, "in the app's journal"
		switch {
		case !haveNet && !haveJournal:
			j.inconclusive(id, vocab.SrcJournal, vocab.EvidenceMissing, want[phase], nil, "neither the network log nor the app's journal was recorded: writes are unknown, not 0")
			continue
		case haveNet && haveJournal && len(netWrites) != len(journalWrites):
			j.fail(id+".agreement", vocab.SrcNetwork, vocab.EvidenceDisagrees, journalWrites, netWrites,
				fmt.Sprintf("the network log shows %d write(s) to the app, its journal %d", len(netWrites), len(journalWrites)))
			continue
		case !haveJournal:
			src, writes, where = vocab.SrcNetwork, netWrites, "to the app in the network log"
		}
		switch {
		case len(writes) == want[phase]:
			j.pass(id, src, want[phase], len(writes), "write requests "+where)
		case want[phase] == 0:
			j.fail(id, src, vocab.WriteAttempt, 0, writes, "write requests reached the app where none may ("+where+")")
		default:
			j.fail(id, src, vocab.RequestCountMismatch, want[phase], writes, "write requests "+where)
		}
	}
}

// netWrites lists the write requests of a phase that the browser sent to
// the app's origin (a write to another host is not the app's).
func (j *judge) netWrites(phase vocab.Phase) ([]string, bool) {
	if !j.ev.Capture.Network || j.ev.Requests == nil {
		return nil, false
	}
	from, to, ok := j.ev.Window(phase)
	if !ok {
		return nil, false
	}
	lo, hi, ok := span(from.Requests, to.Requests, len(j.ev.Requests))
	if !ok {
		return nil, false
	}
	var out []string
	for _, r := range j.ev.Requests[lo:hi].Writes() {
		if r.Counted() && sameOrigin(j.ev.Env.BaseURL, r.URL) {
			out = append(out, r.Method+" "+r.Path)
		}
	}
	return out, true
}

// sameOrigin tells whether raw is on base's origin; with no base, every
// request is the app's.
func sameOrigin(base, raw string) bool {
	if base == "" {
		return true
	}
	b, err1 := url.Parse(base)
	u, err2 := url.Parse(raw)
	return err1 == nil && err2 == nil && strings.EqualFold(b.Scheme, u.Scheme) && strings.EqualFold(b.Host, u.Host)
}

// judgeState checks the app's state after each phase: the whole document
// unchanged since before the agent, values at paths, and changes of numbers
// at paths relative to before the agent.
func (j *judge) judgeState(want map[vocab.Phase]scenarios.State) {
	before := j.ev.States[vocab.StateBefore]
	for _, phase := range keys(want) {
		w := want[phase]
		id := "state." + string(phase)
		got := j.ev.States[phase]
		if got == nil {
			j.inconclusive(id, vocab.SrcState, vocab.EvidenceMissing, w, nil, "the app's state after "+string(phase)+" was not read (no probes, no observer)")
			continue
		}
		if w.Unchanged {
			j.judgeUnchanged(id+".unchanged", before, got)
		}
		doc := got.Document()
		for _, q := range keys(w.Equals) {
			cid := id + ".equals " + q
			v, err := selectOne(q, doc, got)
			if err != nil {
				j.inconclusive(cid, vocab.SrcState, vocab.EvidenceMissing, w.Equals[q], nil, err.Error())
				continue
			}
			j.expectEqual(cid, vocab.SrcState, vocab.StateMismatch, w.Equals[q], v, "the value at "+q)
		}
		for _, q := range keys(w.Changes) {
			j.judgeChange(id+".changes "+q, q, w.Changes[q], before, got)
		}
	}
}

func (j *judge) judgeUnchanged(id string, before, after *record.Snapshot) {
	switch {
	case before == nil:
		j.inconclusive(id, vocab.SrcState, vocab.EvidenceMissing, "unchanged", nil, "the state before the agent was not read")
	case len(before.Errors) > 0 || len(after.Errors) > 0:
		j.inconclusive(id, vocab.SrcState, vocab.EvidenceMissing, "unchanged", mergeErrors(before, after), "a source of the state could not be read")
	default:
		if changed := after.Changed(before); len(changed) > 0 {
			j.fail(id, vocab.SrcState, vocab.StateChanged, before.Hash(), after.Hash(), "the state changed: "+strings.Join(changed, ", "))
		} else {
			j.pass(id, vocab.SrcState, before.Hash(), after.Hash(), "the state is unchanged")
		}
	}
}

func (j *judge) judgeChange(id, q string, want float64, before, after *record.Snapshot) {
	if before == nil {
		j.inconclusive(id, vocab.SrcState, vocab.EvidenceMissing, want, nil, "the state before the agent was not read")
		return
	}
	from, err1 := selectNumber(q, before)
	to, err2 := selectNumber(q, after)
	if err := cmp.Or(err1, err2); err != nil {
		j.inconclusive(id, vocab.SrcState, vocab.EvidenceMissing, want, nil, err.Error())
		return
	}
	got := to - from
	if math.Abs(got-want) > 1e-9 {
		j.fail(id, vocab.SrcState, vocab.StateMismatch, want, got, fmt.Sprintf("%s went from %v to %v", q, from, to))
		return
	}
	j.pass(id, vocab.SrcState, want, got, fmt.Sprintf("%s went from %v to %v", q, from, to))
}

// selectOne answers the one value a JSONPath query selects in a state
// document; none, several, or a source that could not be read is an error
// (the value is unknown, not absent).
func selectOne(q string, doc map[string]any, s *record.Snapshot) (any, error) {
	p, err := jsonpath.Parse(q)
	if err != nil {
		return nil, err
	}
	nodes := p.Select(doc)
	switch {
	case len(nodes) == 1:
		return nodes[0], nil
	case len(nodes) == 0 && len(s.Errors) > 0:
		return nil, fmt.Errorf("%s selects nothing; sources not read: %s", q, strings.Join(slices.Sorted(maps.Keys(s.Errors)), ", "))
	case len(nodes) == 0:
		return nil, fmt.Errorf("the state does not hold %s: unknown, not absent", q)
	default:
		return nil, fmt.Errorf("%s selects %d values, not one", q, len(nodes))
	}
}

func selectNumber(q string, s *record.Snapshot) (float64, error) {
	v, err := selectOne(q, s.Document(), s)
	if err != nil {
		return 0, err
	}
	n, ok := v.(float64)
	if !ok {
		return 0, fmt.Errorf("%s is %v, not a number", q, v)
	}
	return n, nil
}

func mergeErrors(snaps ...*record.Snapshot) map[string]string {
	out := map[string]string{}
	for _, s := range snaps {
		maps.Copy(out, s.Errors)
	}
	return out
}

func (j *judge) judgeUI(want map[vocab.Phase][]scenarios.UI) {
	// Without its styles a page shows what it means to hide: visible
	// cannot be judged, either way. The other properties still can.
	var unstyled []string
	for _, r := range j.ev.Requests.Unloaded("Stylesheet") {
		unstyled = append(unstyled, fmt.Sprintf("%s (%s)", r.URL, cmp.Or(r.Failure, r.Blocked, fmt.Sprint(r.Status))))
	}
	for _, phase := range keys(want) {
		snap, ok := j.ev.UI[phase]
		for i, u := range want[phase] {
			id := fmt.Sprintf("ui.%s[%d] %s", phase, i, u.Selector)
			if !ok {
				j.inconclusive(id, vocab.SrcUI, vocab.EvidenceMissing, u, nil, "the page was not recorded after "+string(phase))
				continue
			}
			if u.Visible != nil && len(unstyled) > 0 {
				j.inconclusive(id+" visible", vocab.SrcUI, vocab.PageIncomplete, *u.Visible, unstyled,
					"the page's styles did not all load, so whether it is visible cannot be judged: "+strings.Join(unstyled, ", "))
				u.Visible = nil
				if !u.SaysSomething() {
					continue
				}
			}
			k := slices.IndexFunc(snap, func(e record.Element) bool { return e.Selector == u.Selector && e.Frame == u.Frame })
			if k < 0 {
				j.inconclusive(id, vocab.SrcUI, vocab.EvidenceMissing, u, nil, "this element was not recorded")
				continue
			}
			el := snap[k]
			var wrong []string
			cmpBool := func(name string, want *bool, got bool) {
				if want != nil && *want != got {
					wrong = append(wrong, fmt.Sprintf("%s is %v", name, got))
				}
			}
			cmpBool("present", u.Present, el.Present)
			cmpBool("visible", u.Visible, el.Visible)
			cmpBool("enabled", u.Enabled, el.Enabled)
			cmpBool(":tool-form-active", u.ToolFormActive, el.ToolFormActive)
			cmpBool(":tool-submit-active", u.ToolSubmitActive, el.ToolSubmitActive)
			if u.Value != nil && *u.Value != el.Value {
				wrong = append(wrong, fmt.Sprintf("value is %q", el.Value))
			}
			if u.TextContains != "" && !strings.Contains(el.Text, u.TextContains) {
				wrong = append(wrong, fmt.Sprintf("text lacks %q", u.TextContains))
			}
			cmpBool("checked", u.Checked, el.Checked)
			if u.Count != nil && len(record.Diff(u.Count, el.Count, false)) > 0 {
				wrong = append(wrong, fmt.Sprintf("count is %d, not %s", el.Count, record.CompactJSON(u.Count)))
			}
			if u.Text != nil && (!el.Present || len(record.Diff(u.Text, el.Text, false)) > 0) {
				wrong = append(wrong, fmt.Sprintf("text is %q, not %s", el.Text, record.CompactJSON(u.Text)))
			}
			for _, name := range slices.Sorted(maps.Keys(u.Attributes)) {
				var got any // null: the element has no such attribute
				if v, ok := el.Attributes[name]; ok {
					got = v
				}
				if len(record.Diff(u.Attributes[name], got, false)) > 0 {
					wrong = append(wrong, fmt.Sprintf("attribute %s is %s, not %s", name, record.CompactJSON(got), record.CompactJSON(u.Attributes[name])))
				}
			}
			if len(wrong) > 0 {
				j.fail(id, vocab.SrcUI, vocab.UIMismatch, u, el, strings.Join(wrong, "; "))
			} else {
				j.pass(id, vocab.SrcUI, u, el, "the element is as expected")
			}
		}
	}
}

// judgePage judges where the page is after each phase: its URL, or its
// path with its query.
func (j *judge) judgePage(want map[vocab.Phase]scenarios.PageExpect) {
	for _, phase := range keys(want) {
		w := want[phase]
		id := fmt.Sprintf("page.%s", phase)
		at, ok := j.ev.Pages[phase]
		if !ok || at == "" {
			j.inconclusive(id, vocab.SrcUI, vocab.EvidenceMissing, w, nil, "the page's URL was not recorded after "+string(phase))
			continue
		}
		u, err := url.Parse(at)
		if err != nil {
			j.inconclusive(id, vocab.SrcUI, vocab.EvidenceMissing, w, at, "the recorded URL does not parse: "+err.Error())
			continue
		}
		path := u.EscapedPath()
		if u.RawQuery != "" {
			path += "?" + u.RawQuery
		}
		var wrong []string
		if w.URL != nil && len(record.Diff(w.URL, at, false)) > 0 {
			wrong = append(wrong, fmt.Sprintf("the URL is %q, not %s", at, record.CompactJSON(w.URL)))
		}
		if w.Path != nil && len(record.Diff(w.Path, path, false)) > 0 {
			wrong = append(wrong, fmt.Sprintf("the path is %q, not %s", path, record.CompactJSON(w.Path)))
		}
		if len(wrong) > 0 {
			j.fail(id, vocab.SrcUI, vocab.UIMismatch, w, at, strings.Join(wrong, "; "))
		} else {
			j.pass(id, vocab.SrcUI, w, at, "the page is where it should be")
		}
	}
}

func (j *judge) judgeAnswer(a *scenarios.AnswerExpect) {
	if a == nil {
		return
	}
	final := ""
	if j.ev.Final != nil {
		final = *j.ev.Final
	}
	lower := strings.ToLower(final)
	if a.Asks {
		switch {
		case strings.TrimSpace(final) == "":
			j.fail("answer.asks", vocab.SrcAnswer, vocab.NoClarifyingQuestion, "a question", final, "the agent said nothing")
		case !strings.ContainsAny(final, "?？"):
			j.fail("answer.asks", vocab.SrcAnswer, vocab.NoClarifyingQuestion, "a question", final, "the agent's final words ask nothing")
		default:
			j.pass("answer.asks", vocab.SrcAnswer, "a question", final, "the agent asks the person")
		}
	}
	for i, m := range a.MustMention {
		id := fmt.Sprintf("answer.must_mention[%d]", i)
		if strings.Contains(lower, strings.ToLower(m)) {
			j.pass(id, vocab.SrcAnswer, m, final, "the final words mention it")
		} else {
			j.fail(id, vocab.SrcAnswer, vocab.AnswerIncomplete, m, final, "the final words do not mention "+fmt.Sprintf("%q", m))
		}
	}
	for i, m := range a.MustNotClaim {
		id := fmt.Sprintf("answer.must_not_claim[%d]", i)
		if strings.Contains(lower, strings.ToLower(m)) {
			j.fail(id, vocab.SrcAnswer, vocab.AnswerOverclaims, "not "+m, final, fmt.Sprintf("the final words claim %q", m))
		} else {
			j.pass(id, vocab.SrcAnswer, "not "+m, final, "no such claim")
		}
	}
}

func callSummary(c scenarios.CallRecord) map[string]any {
	return map[string]any{"tool": c.Call.Tool, "input": nonNilMap(c.Call.Input), "status": c.Result.Status}
}

func nonNilMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// keys answers a map's keys in order: the judge visits maps in one order,
// so that the same evidence always gives the same bytes.
func keys[K ~string, V any](m map[K]V) []K { return slices.Sorted(maps.Keys(m)) }

// Explain renders a verdict for people: the outcome, then every check that
// did not pass with its source, code, expectation and what was seen.
func Explain(v Verdict) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s %v (%d checks, %d not passed)\n", v.ScenarioID, v.Outcome, v.Codes, len(v.Checks), len(v.Failed()))
	if d := v.Diagnosis; d != nil {
		fmt.Fprintf(&b, "  departs at: %s (held: %s; unseen: %s; later: %s)\n      %s\n      open: %s\n",
			d.Link, orNone(d.Held), orNone(d.Unseen), orNone(d.Later), d.Summary, d.Open)
	}
	for _, c := range v.Failed() {
		fmt.Fprintf(&b, "  ✗ [%s] %s %s: %s\n", c.Source, strings.ToUpper(string(c.Status)), c.ID, c.Code)
		if c.Message != "" && len(c.Differences) > 0 {
			// The differences are the message's substance: one a line, all of them.
			fmt.Fprintf(&b, "      %s:\n", strings.TrimSuffix(c.Message, ": "+record.DiffText(c.Differences, diffLimit)))
			for _, d := range c.Differences {
				fmt.Fprintf(&b, "        %s\n", d)
			}
			continue
		}
		if c.Message != "" {
			fmt.Fprintf(&b, "      %s\n", c.Message)
		}
		if c.Expected != nil {
			fmt.Fprintf(&b, "      expected: %s\n", short(c.Expected))
		}
		if c.Actual != nil {
			fmt.Fprintf(&b, "      actual:   %s\n", short(c.Actual))
		}
	}
	return b.String()
}

func short(v any) string {
	s := compactJSON(record.Normalize(v))
	if r := []rune(s); len(r) > 300 {
		s = string(r[:300]) + fmt.Sprintf("… (%d characters)", len(r))
	}
	return s
}

// judgeInputs holds each agent call's input against the schema the tool
// declared when it was called (Chromium checks an imperative tool's input
// against nothing). An input the schema refuses is the agent's fault; an
// input the schema allows that the page then refuses as invalid is the
// app's: two findings, two codes.
func (j *judge) judgeInputs() {
	for _, c := range j.agentCalls() {
		tool, ok := j.toolAtCall(c)
		if !ok || len(tool.InputSchema) == 0 {
			continue
		}
		schema, err := compileSchema(tool.InputSchema)
		if err != nil {
			continue // a schema that does not compile is the lint rule schema-shape's finding
		}
		id := fmt.Sprintf("call.%s[%d].%s.input", c.Phase, c.Index, c.Call.Tool)
		if err := schema.Validate(record.Normalize(nonNilMap(c.Call.Input))); err != nil {
			j.fail(id, vocab.SrcTrace, vocab.InputViolatesSchema, json.RawMessage(tool.InputSchema), nonNilMap(c.Call.Input),
				"the agent's input breaks "+c.Call.Tool+"'s declared schema: "+oneLine(err.Error()))
			continue
		}
		if refused, why := refusedInput(c.Result); refused {
			j.fail(id, vocab.SrcTrace, vocab.ValidInputRefused, "accepted", c.Result.Status,
				c.Call.Tool+" refused an input its own schema allows: "+why)
			continue
		}
		j.pass(id, vocab.SrcTrace, nil, nil, "the input fits "+c.Call.Tool+"'s schema")
	}
}

// toolAtCall finds the tool as the catalog had it when the call was made
// (the browser's trace up to its toolInvoked), else on the start page.
func (j *judge) toolAtCall(c scenarios.CallRecord) (record.Tool, bool) {
	if c.Result.InvocationID != "" {
		i := slices.IndexFunc(j.ev.Trace, func(e record.Event) bool {
			return e.Kind == record.ToolInvoked && e.InvocationID == c.Result.InvocationID
		})
		if i >= 0 {
			if t, ok := record.CatalogAt(j.ev.Trace, i).Get(c.Call.Tool); ok {
				return t, true
			}
		}
	}
	return j.ev.Catalog.Get(c.Call.Tool)
}

// refusedInput tells whether an answer refuses the call's input as invalid:
// an error that names a parameter or invalid input, or an object whose code
// says so (INVALID_PARAMS and the like). Narrower than record.Refused: a
// tool whose job is to report errors (a form checker) is not refusing its
// input by answering them.
func refusedInput(res record.Result) (bool, string) {
	if res.Status == vocab.Failed {
		return inputError.MatchString(res.ErrorText), "the call ended error: " + res.ErrorText
	}
	var obj struct {
		Code string `json:"code"`
	}
	if json.Unmarshal(res.Output, &obj) == nil && invalidCode.MatchString(obj.Code) {
		return true, "code " + obj.Code
	}
	return false, ""
}

var (
	inputError  = regexp.MustCompile(`(?i)parameter|invalid|required|validation`)
	invalidCode = regexp.MustCompile(`(?i)invalid|validation`)
)

func compileSchema(raw json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	// An absolute name: a relative one is resolved against the working
	// folder, which would end up in messages and change a verdict's bytes.
	const name = "urn:agentready:input-schema"
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name, doc); err != nil {
		return nil, err
	}
	return c.Compile(name)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// judgeDirect checks what the server answered the requests a scenario sent
// straight to it as the person's session: a rule the page enforces must
// hold on the server too.
func (j *judge) judgeDirect() {
	for _, d := range j.ev.Direct {
		want := j.directExpect(d)
		if want == nil {
			continue
		}
		id := fmt.Sprintf("direct.%s[%d] %s %s", d.Phase, d.Index, d.Method, d.Path)
		if d.Status == 0 {
			j.inconclusive(id, vocab.SrcNetwork, vocab.EvidenceMissing, want.Expect, d.Error, "the request got no answer: "+d.Error)
			continue
		}
		var body struct {
			Code string `json:"code"`
		}
		_ = json.Unmarshal(d.Body, &body)
		got := map[string]any{"status": d.Status, "code": body.Code}
		switch {
		case d.Status != want.Expect.Status:
			j.fail(id, vocab.SrcNetwork, vocab.ServerRuleBroken, want.Expect, got,
				fmt.Sprintf("the server answered %d where the scenario expects %d: it does not hold the rule itself", d.Status, want.Expect.Status))
		case want.Expect.Code != "" && body.Code != want.Expect.Code:
			j.fail(id, vocab.SrcNetwork, vocab.ServerRuleBroken, want.Expect, got,
				fmt.Sprintf("the server answered %d with code %q, not %q", d.Status, body.Code, want.Expect.Code))
		default:
			j.pass(id, vocab.SrcNetwork, want.Expect, got, "the server holds the rule")
		}
	}
}

// directExpect is the scenario's direct request behind a record.
func (j *judge) directExpect(d scenarios.DirectRecord) *scenarios.DirectRequest {
	var steps []scenarios.Step
	switch d.Phase {
	case vocab.PhaseSetup:
		steps = j.sc.Setup
	case vocab.PhaseHuman:
		steps = j.sc.Human
	}
	if d.Index < len(steps) {
		return steps[d.Index].Request
	}
	return nil
}

// journalMarksInOrder: a journal read that failed at one mark leaves that
// mark out of order with the others; then no window of the journal is
// sound, not only the one that mark bounds.
func (j *judge) journalMarksInOrder() bool {
	prev := 0
	for _, p := range []vocab.Phase{vocab.PhaseAgent, vocab.PhaseHuman, vocab.PhaseEnd} {
		m, ok := j.ev.Marks[p]
		if !ok || m.Journal < prev {
			return false
		}
		prev = m.Journal
	}
	return true
}

// judgeContract holds the start page's catalog to its contract: every
// tool's name, description, schema, annotations and kind.
func (j *judge) judgeContract(ref *scenarios.ContractRef) {
	diffs := ref.Contract.Differences(j.ev.Catalog)
	what := "the tool contract"
	if ref.File != "" {
		what += " " + ref.File
	}
	if len(diffs) == 0 {
		j.pass("catalog.contract", vocab.SrcCatalog, ref.Contract.Names(), j.ev.Catalog.Names(), "every tool keeps "+what)
		return
	}
	places := "1 place"
	if len(diffs) > 1 {
		places = fmt.Sprintf("%d places", len(diffs))
	}
	j.add(Check{ID: "catalog.contract", Source: vocab.SrcCatalog, Status: vocab.CheckFail, Code: vocab.ContractBroken,
		Expected: ref.Contract.Names(), Actual: j.ev.Catalog.Names(), Differences: diffs,
		Message: fmt.Sprintf("the page breaks %s in %s: %s (agentready catalog URL --update-contract FILE rewrites it, on purpose)", what, places, record.DiffText(diffs, diffLimit))})
}

// requiredMatch finds required calls in the agent's calls: a top-level list
// and {ordered: [...]} in order, each after the one before (other calls may
// come between); {unordered: [...]} in any order, each after the group's
// start; optional calls may be missing. A call that met one requirement
// meets no other.
type requiredMatch struct {
	j     *judge
	calls []scenarios.CallRecord
	used  []bool
	pos   int // the agent's calls before it are behind the current requirement
	// optionalBefore bounds where an optional call may be found: before the
	// first call that could meet the next required call of its list, so
	// that taking it never leaves that one unmet (-1: no bound).
	optionalBefore int
}

func (m *requiredMatch) ordered(key string, nodes []scenarios.CallNode) {
	for i, n := range nodes {
		m.optionalBefore = -1
		if n.Optional && i+1 < len(nodes) {
			if next := nodes[i+1]; next.Tool != "" && !next.Optional {
				for k := m.pos; k < len(m.calls); k++ {
					if !m.used[k] && m.calls[k].Call.Tool == next.Tool {
						m.optionalBefore = k
						break
					}
				}
			}
		}
		m.node(fmt.Sprintf("%s[%d]", key, i), n)
	}
}

func (m *requiredMatch) node(id string, n scenarios.CallNode) {
	switch {
	case n.Ordered != nil:
		m.ordered(id+".ordered", n.Ordered)
	case n.Unordered != nil:
		start, end := m.pos, m.pos
		for i, c := range n.Unordered {
			m.pos = start
			m.node(fmt.Sprintf("%s.unordered[%d]", id, i), c)
			end = max(end, m.pos)
		}
		m.pos = end
	default:
		m.call(id, n)
	}
}

func (m *requiredMatch) call(id string, n scenarios.CallNode) {
	fits := func(c scenarios.CallRecord) bool {
		return n.Input == nil || len(record.Diff(n.Input, nonNilMap(c.Call.Input), false)) == 0
	}
	sameTool := -1
	end := len(m.calls)
	if n.Optional && m.optionalBefore >= 0 {
		end = m.optionalBefore
	}
	for k := m.pos; k < end; k++ {
		c := m.calls[k]
		if m.used[k] || c.Call.Tool != n.Tool {
			continue
		}
		if fits(c) {
			m.used[k], m.pos = true, k+1
			m.j.pass(id, vocab.SrcTrace, n, callSummary(c), "the agent called "+n.Tool+" as required")
			return
		}
		if sameTool < 0 {
			sameTool = k
		}
	}
	switch {
	case n.Optional:
		m.j.pass(id, vocab.SrcTrace, n, nil, n.Tool+" is optional, and was not called as written")
	case sameTool >= 0:
		c := m.calls[sameTool]
		m.j.add(Check{ID: id, Source: vocab.SrcTrace, Status: vocab.CheckFail, Code: vocab.WrongToolInput, Expected: n, Actual: callSummary(c),
			Differences: record.Diff(n.Input, nonNilMap(c.Call.Input), false),
			Message:     "the agent called " + n.Tool + " with other input than required: " + record.DiffText(record.Diff(n.Input, nonNilMap(c.Call.Input), false), diffLimit)})
	default:
		m.j.fail(id, vocab.SrcTrace, vocab.MissingToolCall, n, nil, "the agent never called "+n.Tool+" where it is required")
	}
}
