package runner_test

import (
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

// A probe of a tool that must be absent never calls one that is there (it
// would run what must not be reachable): the widgets' prepare_payment is
// looked at, by name and in its frame, and the trace holds no invocation
// of it; the judge fails the probe as still offered. A tool that is absent
// is still asked for, and the browser's refusal passes the probe.
func TestAProbeNeverCallsAToolThatIsThere(t *testing.T) {
	sc := scenarios.Scenario{ID: "PROBES", Title: "probes", Start: "/checkout?tip=1", Prompt: "Pay."}
	sc.Capture.Review, sc.Capture.Settle = duration(0), duration(0)
	probe := &scenarios.CallExpect{NotInCatalog: true}
	sc.Agent.Calls = []scenarios.Call{
		{Tool: "prepare_payment", Input: map[string]any{"cardholder": "Ann"}, Expect: probe},
		{Tool: "prepare_payment", Frame: "#tip-payment", Input: map[string]any{"cardholder": "Ann"}, Expect: probe},
		{Tool: "refund_payment", Input: map[string]any{}, Expect: probe},
	}
	ev, _ := play(t, sc, nil)
	for _, e := range ev.Trace {
		if e.Kind == record.ToolInvoked && e.ToolName == "prepare_payment" {
			t.Errorf("a probe called prepare_payment: %+v", e)
		}
	}
	if len(ev.Calls) != 3 {
		t.Fatalf("calls %+v", ev.Calls)
	}
	for i, want := range []bool{true, true, false} {
		if p := ev.Calls[i].Probe; p == nil || p.Offered != want {
			t.Errorf("call %d: probe %+v, want offered %v", i, p, want)
		}
	}
	if p := ev.Calls[1].Probe; p != nil && !strings.Contains(p.Frame, "amount=2.00") {
		t.Errorf("the probe in #tip-payment names the frame %q", p.Frame)
	}
	v := judge.Judge(sc, ev)
	status := map[string]vocab.CheckStatus{}
	for _, c := range v.Checks {
		if strings.HasSuffix(c.ID, ".absent") {
			status[c.ID] = c.Status
		}
	}
	want := map[string]vocab.CheckStatus{
		"call.agent[0].prepare_payment.absent": vocab.CheckFail,
		"call.agent[1].prepare_payment.absent": vocab.CheckFail,
		"call.agent[2].refund_payment.absent":  vocab.CheckPass,
	}
	for id, s := range want {
		if status[id] != s {
			t.Errorf("%s: %q, want %q (all: %v)", id, status[id], s, status)
		}
	}
}
