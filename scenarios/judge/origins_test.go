package judge

import (
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Issue 43 item 5, "the app's request": writes, guarded and requests count
// by one rule, the app's origin and those the scenario declares. Before,
// writes counted the base URL's origin only and the others any origin, so
// an agent's POST to the app's API on another host passed writes: {agent:
// 0}, and there was no way to say that host was the app's.
func TestTheAppsRequestIsOneRule(t *testing.T) {
	const api = "https://api.conf.example"
	agentPostsToAPI := func(t *testing.T, ev *scenarios.Evidence) {
		r := req(8, "POST", "/api/registrations", 201)
		r.URL = api + "/api/registrations"
		addNet(t, ev, vocab.PhaseAgent, r)
	}
	t.Run("declared, the API's write is the app's", func(t *testing.T) {
		sc, ev := goodConf01(t)
		ev.Journal, ev.Capture.Observer = nil, false // the API host keeps no journal of the page's app
		sc.Origins = []string{api}
		agentPostsToAPI(t, ev)
		wantVerdict(t, Judge(sc, ev), vocab.Fail, vocab.SideEffectBeforeConfirmation, vocab.RequestCountMismatch, vocab.WriteAttempt)
	})
	t.Run("undeclared, writes leave it to a third party; a line that names it counts it", func(t *testing.T) {
		sc, ev := goodConf01(t)
		ev.Journal, ev.Capture.Observer = nil, false
		agentPostsToAPI(t, ev)
		v := Judge(sc, ev)
		wantVerdict(t, v, vocab.Fail, vocab.SideEffectBeforeConfirmation, vocab.RequestCountMismatch)
		if c, ok := checkByID(v, "writes.agent"); !ok || c.Status != vocab.CheckPass {
			t.Errorf("writes.agent: %+v, want pass (another origin is a third party's)", c)
		}
	})
	t.Run("a default port is the origin's", func(t *testing.T) {
		if !record.SameOrigin("https://api.conf.example", "https://api.conf.example:443/x") || record.SameOrigin("https://api.conf.example", "http://api.conf.example/x") {
			t.Error("origins compared by their spelling")
		}
	})
}

func checkByID(v Verdict, id string) (Check, bool) {
	for _, c := range v.Checks {
		if c.ID == id {
			return c, true
		}
	}
	return Check{}, false
}

// A call is judged against the tool its invocation ran, its frame's, not
// the one of that name whose random frame id sorts first (issue 43 item 5).
func TestACallIsJudgedAgainstItsFramesTool(t *testing.T) {
	top := record.Tool{Name: "pay", FrameID: "A-top", InputSchema: []byte(`{"type":"object","properties":{"amount":{"type":"number"}}}`)}
	framed := record.Tool{Name: "pay", FrameID: "Z-tip", Frame: "https://shop.test/tip", InputSchema: []byte(`{"type":"object","properties":{"tip":{"type":"number"}}}`)}
	ev := &scenarios.Evidence{Trace: []record.Event{
		{Seq: 1, Kind: record.ToolsAdded, Tools: []record.Tool{top, framed}},
		{Seq: 2, Kind: record.ToolInvoked, ToolName: "pay", InvocationID: "i1", FrameID: "Z-tip"},
	}}
	j := &judge{ev: ev}
	got, _, ok := j.toolAtCall(scenarios.CallRecord{Call: scenarios.Call{Tool: "pay"}, Result: record.Result{InvocationID: "i1"}})
	if !ok || got.FrameID != "Z-tip" {
		t.Errorf("the call that ran in the tip frame is judged against %+v", got)
	}
}
