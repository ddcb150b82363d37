package judge

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge/judgetest"
	"github.com/agentready/agentready/scenarios/vocab"
)

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

// An input the schema allows that the browser's own form validation refused
// ("Form validation failed: …") never reached the page: the input check
// passes and says so; the same input refused by the page is
// valid_input_refused.
func TestTheBrowsersFormValidationIsNotThePagesRefusal(t *testing.T) {
	for text, want := range map[string]vocab.CheckStatus{
		"UnknownError: Form validation failed: email: Please include an '@' in the email address. 'a' is missing an '@'.. ": vocab.CheckPass,
		"Error: invalid email": vocab.CheckFail,
	} {
		sc, ev := judgetest.Conf01(t)
		ev.Calls[0].Result.Status, ev.Calls[0].Result.Output, ev.Calls[0].Result.ErrorText = vocab.Failed, nil, text
		v := Judge(sc, ev)
		got := vocab.CheckStatus("")
		for _, c := range v.Checks {
			if strings.HasSuffix(c.ID, ".input") {
				got = c.Status
				if want == vocab.CheckFail && c.Code != vocab.ValidInputRefused {
					t.Errorf("%q: code %s", text, c.Code)
				}
			}
		}
		if got != want {
			t.Errorf("%q: the input check %q, want %q", text, got, want)
		}
	}
}

// A probe of a tool that must be absent fails when its tool answered or was
// invoked, whatever the runner's look said before the call (a tool that
// registered between the look and the call was there).
func TestAProbeWhoseToolAnsweredFails(t *testing.T) {
	sc, ev := judgetest.Conf01(t)
	x := &scenarios.CallExpect{NotInCatalog: true}
	sc.Agent.Calls[0].Expect, ev.Calls[0].Call.Expect = x, x
	ev.Calls[0].Probe = &scenarios.Probe{Offered: false}
	v := Judge(sc, ev)
	for _, c := range v.Checks {
		if strings.HasSuffix(c.ID, ".absent") {
			if c.Status != vocab.CheckFail || !strings.Contains(c.Message, "it answered the probe's call") {
				t.Errorf("a probe whose tool answered: %+v", c)
			}
			return
		}
	}
	t.Errorf("no .absent check: %+v", v.Checks)
}
