package bundle

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Each fact is stored once (docs/decisions/2026-12-01-each-fact-once.md). A
// run records some values twice over, as two witnesses see them: a call's
// input and answer are the call's (run.json) and the browser's trace's
// (trace.json); the start page's catalog is the trace's tools at the moment
// it was read; a transcript call's expectation and the agent's final words
// are the scenario's. Where the two are the same value, the bundle keeps
// the trace's (or the scenario's) and the other file points at it, and
// reading the bundle puts the value back: the record read is the record
// written. Where they differ, both stay, since the difference is evidence.

// callFile is a call as run.json holds it.
type callFile struct {
	scenarios.CallRecord
	// InputInTrace is the trace event (tool_invoked) whose input is this
	// call's input, which run.json then leaves out.
	InputInTrace *int `json:"inputInTrace,omitempty"`
	// OutputInTrace is the trace event (the first tool_responded) whose
	// output is this call's answer, which run.json then leaves out.
	OutputInTrace *inTrace `json:"outputInTrace,omitempty"`
	// ExpectInScenario: the call's expectation is the scenario's for this
	// call (scenario.json), left out here.
	ExpectInScenario bool `json:"expectInScenario,omitempty"`
}

// inTrace points at a trace event's output: as the call's JSON output, or,
// AsText, as its text (the event's output is then that JSON string).
type inTrace struct {
	Event  int  `json:"event"`
	AsText bool `json:"asText,omitempty"`
}

// compact is v's compact JSON, the bytes two values are compared by: equal
// bytes are one value, key order included, so either reads back as the
// other.
func compact(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

func sameJSON(a, b any) bool {
	x, y := compact(a), compact(b)
	return x != nil && bytes.Equal(x, y)
}

// storeCalls are the calls as run.json holds them.
func storeCalls(sc scenarios.Scenario, ev *scenarios.Evidence) []callFile {
	out := make([]callFile, len(ev.Calls))
	for i, c := range ev.Calls {
		out[i] = storeCall(sc, ev.Trace, c)
	}
	return out
}

// storeCall is one call as run.json holds it.
func storeCall(sc scenarios.Scenario, trace []record.Event, c scenarios.CallRecord) callFile {
	f := callFile{CallRecord: c}
	if inv := c.Result.InvocationID; inv != "" {
		if k := traceEvent(trace, record.ToolInvoked, inv); k >= 0 && c.Call.Input != nil && sameJSON(c.Call.Input, trace[k].Input) {
			f.InputInTrace, f.Call.Input = &k, nil
		}
		if k := traceEvent(trace, record.ToolResponded, inv); k >= 0 && len(trace[k].Output) > 0 {
			switch out := trace[k].Output; {
			case len(c.Result.Output) > 0 && c.Result.OutputText == "" && sameJSON(c.Result.Output, out):
				f.OutputInTrace, f.Result.Output = &inTrace{Event: k}, nil
			case len(c.Result.Output) == 0 && c.Result.OutputText != "" && sameJSON(c.Result.OutputText, out):
				f.OutputInTrace, f.Result.OutputText = &inTrace{Event: k, AsText: true}, ""
			}
		}
	}
	if x := scenarioExpect(sc, c); c.Call.Expect != nil && x != nil && sameJSON(c.Call.Expect, x) {
		f.ExpectInScenario, f.Call.Expect = true, nil
	}
	return f
}

// CallFiles says which file of a bundle holds the whole of a call's input
// and of its answer: run.json, or the trace when the call's is the trace's
// and stored there once. A report links there from an excerpt.
func CallFiles(sc scenarios.Scenario, ev *scenarios.Evidence, c scenarios.CallRecord) (input, answer string) {
	f := storeCall(sc, ev.Trace, c)
	input, answer = RunFile, RunFile
	if f.InputInTrace != nil {
		input = TraceFile
	}
	if f.OutputInTrace != nil {
		answer = TraceFile
	}
	return input, answer
}

// restoreCalls puts back what storeCalls left out.
func restoreCalls(sc scenarios.Scenario, trace []record.Event, files []callFile) ([]scenarios.CallRecord, error) {
	if files == nil {
		return nil, nil
	}
	out := make([]scenarios.CallRecord, len(files))
	event := func(i, k int, kind record.Kind) (record.Event, error) {
		if k < 0 || k >= len(trace) || trace[k].Kind != kind || trace[k].InvocationID != files[i].Result.InvocationID {
			return record.Event{}, scenarios.FieldError{Field: fmt.Sprintf("calls[%d]", i), Problem: fmt.Sprintf("points at trace event %d, which is no %s of its invocation", k, kind)}
		}
		return trace[k], nil
	}
	for i, f := range files {
		c := f.CallRecord
		if f.InputInTrace != nil {
			e, err := event(i, *f.InputInTrace, record.ToolInvoked)
			if err != nil {
				return nil, err
			}
			if err := json.Unmarshal(e.Input, &c.Call.Input); err != nil {
				return nil, scenarios.FieldError{Field: fmt.Sprintf("calls[%d].inputInTrace", i), Problem: fmt.Sprintf("the input in trace event %d: %v", *f.InputInTrace, err)}
			}
		}
		if f.OutputInTrace != nil {
			e, err := event(i, f.OutputInTrace.Event, record.ToolResponded)
			if err != nil {
				return nil, err
			}
			if f.OutputInTrace.AsText {
				if err := json.Unmarshal(e.Output, &c.Result.OutputText); err != nil {
					return nil, scenarios.FieldError{Field: fmt.Sprintf("calls[%d].outputInTrace", i), Problem: fmt.Sprintf("the text in trace event %d: %v", f.OutputInTrace.Event, err)}
				}
			} else {
				c.Result.Output = e.Output
			}
		}
		if f.ExpectInScenario {
			x := scenarioExpect(sc, c)
			if x == nil {
				field := fmt.Sprintf("calls[%d].index", i)
				if c.Phase != vocab.PhaseSetup && c.Phase != vocab.PhaseAgent && c.Phase != vocab.PhaseHuman {
					field = fmt.Sprintf("calls[%d].phase", i)
				}
				return nil, scenarios.FieldError{Field: field, Problem: fmt.Sprintf("the call (%s %d) takes its expectation from the scenario, which has none for it", c.Phase, c.Index)}
			}
			// A copy: the record does not share the scenario's values.
			if err := json.Unmarshal(compact(x), &c.Call.Expect); err != nil {
				return nil, scenarios.FieldError{Field: fmt.Sprintf("calls[%d]", i), Problem: err.Error()}
			}
		}
		out[i] = c
	}
	return out, nil
}

// traceEvent is the first event of a kind for an invocation, or -1: the
// first answer is the tool's (a form that answers and then navigates can
// make the browser send a second).
func traceEvent(trace []record.Event, kind record.Kind, inv string) int {
	for k, e := range trace {
		if e.Kind == kind && e.InvocationID == inv {
			return k
		}
	}
	return -1
}

// scenarioExpect is the scenario's expectation of a recorded call, or nil.
func scenarioExpect(sc scenarios.Scenario, c scenarios.CallRecord) *scenarios.CallExpect {
	var steps []scenarios.Step
	switch c.Phase {
	case vocab.PhaseAgent:
		if c.Index >= 0 && c.Index < len(sc.Agent.Calls) {
			return sc.Agent.Calls[c.Index].Expect
		}
		return nil
	case vocab.PhaseSetup:
		steps = sc.Setup
	case vocab.PhaseHuman:
		steps = sc.Human
	}
	if c.Index >= 0 && c.Index < len(steps) && steps[c.Index].Call != nil {
		return steps[c.Index].Call.Expect
	}
	return nil
}

// catalogFromTrace is the number of trace events the start page's catalog
// is the tools of (record.CatalogAt), when it is that: catalog.json then
// points there instead of holding every tool's schema a second time.
//
// It walks the trace once, keeping the catalog so far and how many of its
// tools (by frame and name) differ from the recorded one, so it is linear
// in the trace and the tools: rebuilding the catalog at every tools event
// was quadratic (a 2000-tool page sealed in 22.8 s).
func catalogFromTrace(ev *scenarios.Evidence) *int {
	if ev.Catalog == nil {
		return nil
	}
	key := func(t record.Tool) string { return t.FrameID + "\x00" + t.Name }
	want := make(map[string][]byte, len(ev.Catalog))
	for i, t := range ev.Catalog {
		// CatalogAt answers tools sorted by name then frame, each key once:
		// a recorded catalog in another order is never one of its answers.
		if i > 0 {
			p := ev.Catalog[i-1]
			if cmp.Or(strings.Compare(p.Name, t.Name), strings.Compare(p.FrameID, t.FrameID)) >= 0 {
				return nil
			}
		}
		if want[key(t)] = compact(t); want[key(t)] == nil {
			return nil
		}
	}
	have := map[string][]byte{}
	differ := len(want) // keys whose tool differs from the recorded one
	same := func(k string) bool {
		h, inHave := have[k]
		w, inWant := want[k]
		return inHave == inWant && bytes.Equal(h, w)
	}
	set := func(k string, b []byte, present bool) {
		before := same(k)
		if present {
			have[k] = b
		} else {
			delete(have, k)
		}
		switch after := same(k); {
		case before && !after:
			differ++
		case !before && after:
			differ--
		}
	}
	for n := 0; n <= len(ev.Trace); n++ {
		if n > 0 {
			e := ev.Trace[n-1]
			switch e.Kind {
			case record.ToolsAdded:
				for _, t := range e.Tools {
					set(key(t), compact(t), true)
				}
			case record.ToolsRemoved:
				for _, t := range e.Tools {
					set(key(t), nil, false)
				}
			default:
				continue // the catalog changes only with these
			}
		}
		if differ == 0 {
			return &n
		}
	}
	return nil
}
