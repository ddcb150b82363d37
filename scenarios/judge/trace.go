package judge

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

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
	// Every call, and every invocation and answer of the trace, held to
	// each other.
	refs := callRefs(j.ev.Calls)
	for i, e := range j.ev.Trace {
		if e.Kind == record.ToolInvoked || e.Kind == record.ToolResponded {
			refs = append(refs, scenarios.TraceRef(i))
		}
	}
	if len(bad) > 0 {
		j.fail("trace.agreement", vocab.SrcTrace, vocab.EvidenceDisagrees, "the calls and the browser's trace agree", bad, "the recorded calls and the browser's trace disagree: "+strings.Join(bad, "; ")).at(refs...)
		return
	}
	j.pass("trace.agreement", vocab.SrcTrace, nil, nil, "every call appears in the browser's trace with its input and outcome, and nothing else does").at(refs...)
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
