package runner_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Two cross-site widgets offer prepare_payment: a call by name alone is the
// case's to disambiguate (a harness fault naming both frames, no call
// made); with frame it reaches that widget.
func TestACallToANameTwoFramesOfferNamesItsFrame(t *testing.T) {
	sc := scenarios.Scenario{ID: "TWO-WIDGETS", Title: "two widgets", Start: "/checkout?tip=1", Prompt: "Pay."}
	sc.Capture.Review, sc.Capture.Settle = duration(0), duration(0)
	sc.Agent.Calls = []scenarios.Call{
		{Tool: "prepare_payment", Input: map[string]any{"cardholder": "Ann"}},
		{Tool: "prepare_payment", Frame: "#tip-payment", Input: map[string]any{"cardholder": "Ann"}},
	}
	ev, _ := play(t, sc, nil)
	if len(ev.Faults) != 1 || !strings.Contains(ev.Faults[0].Text, "2 frames offer a tool \"prepare_payment\"") || !strings.Contains(ev.Faults[0].Text, "amount=2.00") {
		t.Errorf("faults %q, want one naming both frames", ev.Faults)
	}
	if len(ev.Calls) != 2 {
		t.Fatalf("calls %+v", ev.Calls)
	}
	if r := ev.Calls[0].Result; r.Status != vocab.Failed || r.InvocationID != "" {
		t.Errorf("the ambiguous call: %+v", r)
	}
	if r := ev.Calls[1].Result; r.Status != vocab.Completed || !strings.Contains(string(r.Output), "2.00 EUR") {
		t.Errorf("the call named by its frame: %+v", r)
	}
}

// Issue 43 item 2: a documentation page hosts a demo in a same-origin
// iframe. Chromium 156 now and then leaves the frame's getTools() unsettled
// for the page's life (about one load in five under load), and the top
// document's getTools() then lists none of its tools. Each load is judged
// PASS, or INCONCLUSIVE on the catalog agreement alone with the frame
// recorded as hung: never evidence_disagrees, never a FAIL.
func TestADemoInASameOriginFrameNeverDisagrees(t *testing.T) {
	sc, err := scenarios.Load("../../fixtures/realpages/hangs/DEMO-01.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for load := range 4 {
		ev, _ := play(t, sc, nil)
		v := judge.Judge(sc, ev)
		switch {
		case v.Outcome == vocab.Pass:
		case v.Outcome == vocab.Inconclusive && len(ev.PageToolsHung) > 0 && slices.Equal(v.Codes, []vocab.Code{vocab.HarnessFault}):
			t.Logf("load %d: the frame's getTools() hung, and the agreement is unknown", load)
		default:
			t.Errorf("load %d: %s %v (frames hung: %v)\n%s", load, v.Outcome, v.Codes, ev.PageToolsHung, judge.Explain(v))
		}
	}
}
