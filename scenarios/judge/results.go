package judge

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/agentready/agentready/internal/data/match"
	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

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
			j.expectMatch(id+".output", vocab.SrcTrace, vocab.UnexpectedResult, want, outputToMatch(want, resultValue(res)), mode == scenarios.MatchSubset,
				fmt.Sprintf("the output of %s (%s)", c.Call.Tool, mode), callRef(c))
		}
		if x.OutputText != nil || x.OutputContains != nil {
			j.judgeText(id, c, x)
		}
	}
	if x.ErrorContains != "" {
		if strings.Contains(res.ErrorText, x.ErrorContains) {
			j.pass(id+".error", vocab.SrcTrace, x.ErrorContains, nil, "the error says what is expected").at(callRef(c))
		} else {
			j.fail(id+".error", vocab.SrcTrace, vocab.UnexpectedResult, x.ErrorContains, nil, "the error does not say what is expected: it is "+excerpt(res.ErrorText)).at(callRef(c))
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
		j.pass(id, vocab.SrcTrace, want, nil, what+" is as expected").at(callRef(c))
		return
	}
	d := record.Difference{Pointer: m.Pointer, Expected: record.CompactJSON(m.Expected)}
	if !m.Missing {
		d.Actual = record.CompactJSON(m.Actual)
	}
	j.add(Check{ID: id, Source: vocab.SrcTrace, Status: vocab.CheckFail, Code: vocab.UnexpectedResult, Expected: want,
		Differences: cutSides([]record.Difference{d}), Message: what + " does not match: " + excerpt(m.Error())}).at(callRef(c))
}

// outputToMatch is what an expected output is held to: the result, or,
// when the result is an MCP-shaped answer whose text is JSON and the
// expectation does not spell the envelope (content, isError), that JSON:
// a tool that answers as an MCP server means the JSON it wrote.
func outputToMatch(want, got any) any {
	if w, ok := want.(map[string]any); ok {
		if _, envelope := w["content"]; envelope {
			return got
		}
		if _, envelope := w["isError"]; envelope {
			return got
		}
	}
	if inner, ok := record.MCPTextJSON(got); ok {
		return inner
	}
	return got
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
	ref := callRef(c)
	switch {
	case !isText:
		j.fail(cid, vocab.SrcTrace, vocab.UnexpectedResult, *want, nil,
			fmt.Sprintf("the output of %s is a JSON %s, not text (assert it with output): %s", c.Call.Tool, jsonKind(got), excerpt(compactJSON(got)))).at(ref)
	case key == "output_text" && text == *want:
		j.pass(cid, vocab.SrcTrace, *want, nil, "the output of "+c.Call.Tool+" is this text").at(ref)
	case key == "output_text":
		j.fail(cid, vocab.SrcTrace, vocab.UnexpectedResult, *want, nil,
			fmt.Sprintf("the output of %s is another text: expected %q, actual %s (%s)", c.Call.Tool, *want, excerptQ(text), whereTextsPart(*want, text))).at(ref)
	case strings.Contains(text, *want):
		j.pass(cid, vocab.SrcTrace, *want, nil, "the output of "+c.Call.Tool+" contains this text").at(ref)
	default:
		j.fail(cid, vocab.SrcTrace, vocab.UnexpectedResult, *want, nil,
			fmt.Sprintf("the output of %s does not contain %q: it is %s", c.Call.Tool, *want, excerptQ(text))).at(ref)
	}
}

// resultValue is record.Result.Value: a call that answered nothing is the
// empty text, as the page API records an empty answer and the protocol
// gives it.
func resultValue(r record.Result) any { return r.Value() }

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

// excerptLimit is how many characters of a recorded text a message quotes:
// the whole text is in the evidence the check points at.
const excerptLimit = 300

// excerpt is a recorded text as a message quotes it: whole when short,
// else its start and its length.
func excerpt(s string) string {
	r := []rune(s)
	if len(r) <= excerptLimit {
		return s
	}
	return fmt.Sprintf("%s… [cut: %d characters in all]", string(r[:excerptLimit]), len(r))
}

// excerptQ is excerpt, quoted.
func excerptQ(s string) string {
	r := []rune(s)
	if len(r) <= excerptLimit {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%q… [cut: %d characters in all]", string(r[:excerptLimit]), len(r))
}

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
