package runner_test

import (
	"strings"
	"testing"

	"github.com/agentready/agentready/scenarios"
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
