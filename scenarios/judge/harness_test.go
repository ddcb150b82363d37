package judge

import (
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Issue 43 item 6: page script can set X-Agentready-Probe on any request.
// Without a journal, an agent-phase POST that sets it passed writes:
// {agent: 0}; now a write is never the harness's read.
func TestThePageCannotForgeTheHarnesssRead(t *testing.T) {
	sc, ev := goodConf01(t)
	ev.Journal, ev.Capture.Observer = nil, false
	forged := req(8, "POST", "/api/registrations", 201)
	forged.RequestHeaders = map[string]string{"x-agentready-probe": "event"}
	addNet(t, ev, vocab.PhaseAgent, forged)
	wantVerdict(t, Judge(sc, ev), vocab.Fail, vocab.SideEffectBeforeConfirmation, vocab.RequestCountMismatch, vocab.WriteAttempt)
}

// A read is the harness's when it carries a token the harness drew for a
// probe, once; a copy, a token never drawn and a write are the page's. A
// record from before the tokens takes the header, on a read, as before.
func TestAHarnessReadCarriesATokenItDrew(t *testing.T) {
	get := func(token string) record.Request {
		return record.Request{Method: "GET", Path: "/api/event", RequestHeaders: map[string]string{record.ProbeHeader: token}}
	}
	post := get("t1")
	post.Method = "POST"
	plain := record.Request{Method: "GET", Path: "/api/event"}
	for _, tt := range []struct {
		name   string
		drew   bool
		reads  []scenarios.ProbeRead
		log    record.Log
		wanted []bool
	}{
		// A scenario without probes draws no token: a read with the header
		// is the page's all the same (the adversarial read's case).
		{"a run that draws tokens, of a scenario without probes", true, nil,
			record.Log{get("event"), get("")}, []bool{false, false}},
		{"tokens drawn", true, []scenarios.ProbeRead{{Method: "GET", Path: "/api/event", Token: "t1"}},
			record.Log{get("t1"), get("t1"), get("forged"), post, plain}, []bool{true, false, false, false, false}},
		{"a record from before the tokens", false, []scenarios.ProbeRead{{Method: "GET", Path: "/api/event"}},
			record.Log{get("event"), post, plain}, []bool{true, false, false}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			j := &judge{ev: &scenarios.Evidence{ProbeReads: tt.reads, Requests: tt.log}}
			j.ev.Env.ProbeTokens = tt.drew
			for i, want := range tt.wanted {
				if got := j.harnessRead(i); got != want {
					t.Errorf("request %d (%s %v): harness's %v, want %v", i, tt.log[i].Method, tt.log[i].RequestHeaders, got, want)
				}
			}
		})
	}
}
