package judge

import (
	"fmt"
	"slices"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// A harness fault is never the app's fault. A run cut short (interrupted,
// or its browser lost) and every fault the runner met on the way are each
// an inconclusive check of their own, first in the verdict; and a check
// that would fail on evidence a fault may have kept from being recorded is
// inconclusive with the fault's code, its finding kept in its message. A
// fault that says where it began (scenarios.Fault.From) covers the
// evidence of that phase and after: a defect recorded before it still
// FAILs, with the fault listed beside it. A fault without a place, a cut,
// and a call that never began cover the whole record
// (docs/decisions/2026-12-01-faults-first.md,
// docs/decisions/2026-12-06-faults-in-their-place.md).

// judgeFaults makes the harness's own checks: the cut, then each fault.
func (j *judge) judgeFaults() {
	switch j.ev.Cut {
	case "":
	case vocab.RunInterrupted:
		j.inconclusive("harness.cut", vocab.SrcTrace, vocab.RunInterrupted, nil, nil,
			"the run was interrupted before it was over: the record stops there").at(scenarios.CutRef())
	case vocab.BrowserLost:
		j.inconclusive("harness.cut", vocab.SrcTrace, vocab.BrowserLost, nil, nil,
			"the browser went away before the run was over: nothing after that was recorded").at(scenarios.CutRef())
	case vocab.RendererCrashed:
		j.inconclusive("harness.cut", vocab.SrcTrace, vocab.RendererCrashed, nil, nil,
			"the page's renderer crashed before the run was over (the page was gone): nothing after that was recorded").at(scenarios.CutRef())
	default:
		// A cut this judge does not know is still a cut: never a PASS,
		// never a FAIL.
		j.inconclusive("harness.cut", vocab.SrcTrace, vocab.HarnessFault, nil, string(j.ev.Cut),
			fmt.Sprintf("the run was cut short in a way this judge does not know (%q)", j.ev.Cut)).at(scenarios.CutRef())
	}
	for i, f := range j.ev.Faults {
		j.inconclusive(fmt.Sprintf("harness[%d]", i), vocab.SrcTrace, vocab.HarnessFault, nil, nil,
			"the harness could not record everything: "+faultWhere(f)).at(scenarios.FaultRef(i))
	}
	for _, c := range j.neverBegan() {
		j.inconclusive(fmt.Sprintf("harness.call.%s[%d].%s", c.Phase, c.Index, c.Call.Tool), vocab.SrcTrace, vocab.HarnessFault, nil, c.Result.ErrorText,
			"the call of "+c.Call.Tool+" never began: the browser recorded no invocation of it, so what the tool does is unknown").at(callRef(c))
	}
}

// neverBegan answers the calls of an uncut record that got no answer and
// started no invocation. The trace agreement holds every invocation in the
// trace to the call that made it, so such a call never reached the tool:
// the harness's or the browser's fault, never the page's (Chromium 156's
// getTools() in a same-origin frame now and then never settles:
// docs/decisions/2026-12-04-calls-that-never-began.md).
func (j *judge) neverBegan() []scenarios.CallRecord {
	if j.ev == nil || j.ev.Cut != "" {
		return nil
	}
	claimed := map[string]bool{}
	for _, c := range j.ev.Calls {
		claimed[c.Result.InvocationID] = true
	}
	unclaimed := map[string]bool{} // tools with an invocation no call claims: a disagreement, not a fault
	for _, e := range j.ev.Trace {
		if e.Kind == record.ToolInvoked && !claimed[e.InvocationID] {
			unclaimed[e.ToolName] = true
		}
	}
	var out []scenarios.CallRecord
	for _, c := range j.ev.Calls {
		if c.Result.Status == vocab.NoResponse && c.Result.InvocationID == "" && !unclaimed[c.Call.Tool] {
			out = append(out, c)
		}
	}
	return out
}

// faultCode is the code a fault of this record gives a check that would
// fail on evidence it touches: the strongest there is (vocab.FaultCodes);
// "" when no fault touches it.
func (j *judge) faultCode(c Check) vocab.Code {
	if j.ev == nil {
		return ""
	}
	switch {
	case j.ev.Cut == vocab.RunInterrupted || j.ev.Cut == vocab.BrowserLost || j.ev.Cut == vocab.RendererCrashed:
		return j.ev.Cut
	case j.ev.Cut != "" || len(j.neverBegan()) > 0:
		return vocab.HarnessFault
	}
	for _, f := range j.ev.Faults {
		if j.faultTouches(f, c) {
			return vocab.HarnessFault
		}
	}
	return ""
}

// faultTouches: a check rests on evidence the fault may have cut when any
// of its references does, or when it names none (nothing shows it stands
// clear of the fault).
func (j *judge) faultTouches(f scenarios.Fault, c Check) bool {
	if len(c.Evidence) == 0 {
		return true
	}
	return slices.ContainsFunc(c.Evidence, func(r scenarios.Ref) bool { return j.ev.Touches(f, r) })
}

// faultWhere is a fault's words, with the phase it began in when it says.
func faultWhere(f scenarios.Fault) string {
	if f.From == "" {
		return f.Text
	}
	return f.Text + " (the evidence of " + string(f.From) + " and after is in doubt; what came before stands)"
}

// faultsFirst turns every failing check that rests on evidence a fault
// touches inconclusive, with the fault's code: a FAIL needs evidence that
// was recorded.
func (j *judge) faultsFirst() {
	for i := range j.checks {
		c := &j.checks[i]
		if c.Status != vocab.CheckFail {
			continue
		}
		code := j.faultCode(*c)
		if code == "" {
			continue
		}
		c.Message = fmt.Sprintf("not judged: %s. On this record it would fail with %s: %s", faultWords[code], c.Code, c.Message)
		c.Status, c.Code = vocab.CheckInconclusive, code
	}
}

var faultWords = map[vocab.Code]string{
	vocab.RunInterrupted:  "the run was interrupted, so the record stops short",
	vocab.BrowserLost:     "the browser went away during the run, so the record stops short",
	vocab.RendererCrashed: "the page's renderer crashed during the run, so the record stops short",
	vocab.HarnessFault:    "the harness could not record part of the run (see its faults)",
}
