package scenarios

import (
	"fmt"
	"maps"
	"slices"

	"github.com/agentready/agentready/scenarios/vocab"
)

// FieldError is one field of a record that cannot be what a run of its
// scenario recorded; Field is its path in the Evidence's JSON.
type FieldError struct {
	Field, Problem string
}

func (e FieldError) Error() string { return e.Field + ": " + e.Problem }

// Check answers every field of the record that points nowhere in sc or
// holds a word the format does not have: a call, a direct request or a
// review at a step its phase lacks, a mark or a count below zero, a phase
// no run has. A reader of a stored record (a bundle) checks it before the
// judge reads it; the runner's records pass by construction.
func (ev *Evidence) Check(sc Scenario) []FieldError {
	var out []FieldError
	bad := func(field, format string, args ...any) {
		out = append(out, FieldError{field, fmt.Sprintf(format, args...)})
	}
	steps := func(p vocab.Phase) []Step {
		switch p {
		case vocab.PhaseSetup:
			return sc.Setup
		case vocab.PhaseHuman:
			return sc.Human
		}
		return nil
	}
	// step checks that a phase and index name a step of sc that has what
	// the record says it did.
	step := func(field string, p vocab.Phase, i int, has func(Step) bool, what string) {
		switch {
		case p != vocab.PhaseSetup && p != vocab.PhaseHuman:
			bad(field+".phase", "%q is not a phase with steps (setup, human)", p)
		case i < 0 || i >= len(steps(p)):
			bad(field+".index", "%d is not a step of the %s phase, which has %d", i, p, len(steps(p)))
		case !has(steps(p)[i]):
			bad(field+".index", "the %s phase's step %d is no %s", p, i, what)
		}
	}
	for n, c := range ev.Calls {
		field := fmt.Sprintf("calls[%d]", n)
		switch {
		case c.Phase == vocab.PhaseAgent:
			if c.Index < 0 {
				bad(field+".index", "%d is not a position among the agent's calls", c.Index)
			}
		default:
			step(field, c.Phase, c.Index, func(s Step) bool { return s.Call != nil }, "call")
		}
		if !c.Result.Status.Valid() || c.Result.Status == "" {
			bad(field+".result.status", "%q is not how an invocation ends", c.Result.Status)
		}
	}
	for n, d := range ev.Direct {
		step(fmt.Sprintf("direct[%d]", n), d.Phase, d.Index, func(s Step) bool { return s.Request != nil }, "request")
	}
	for n, r := range ev.Reviews {
		field := fmt.Sprintf("reviews[%d]", n)
		step(field, r.Phase, r.Index, func(Step) bool { return true }, "step")
		if r.Requests < 0 {
			bad(field+".requests", "%d requests before the click", r.Requests)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(ev.Marks)) {
		m := ev.Marks[p]
		if !slices.Contains(markOrder, p) {
			bad("marks."+string(p), "%q is not a phase a mark starts", p)
		}
		for _, log := range []struct {
			name string
			at   int
			min  int
		}{{"trace", m.Trace, 0}, {"requests", m.Requests, 0}, {"journal", m.Journal, -1}} { // -1: the runner's journal read failed at the mark
			if log.at < log.min {
				bad("marks."+string(p)+"."+log.name, "%d is not a position in a log", log.at)
			}
		}
		for k, i := range m.InFlight {
			if i < 0 || i >= len(ev.Requests) {
				bad(fmt.Sprintf("marks.%s.inFlight[%d]", p, k), "%d is no request of a log of %d", i, len(ev.Requests))
			}
		}
	}
	phases := []vocab.Phase{vocab.StateBefore, vocab.PhaseSetup, vocab.PhaseAgent, vocab.PhaseHuman, vocab.PhaseLeave, vocab.PhaseEnd}
	for _, keyed := range []struct {
		field string
		keys  []vocab.Phase
	}{
		{"states", slices.Collect(maps.Keys(ev.States))},
		{"ui", slices.Collect(maps.Keys(ev.UI))},
		{"pages", slices.Collect(maps.Keys(ev.Pages))},
	} {
		for _, p := range keyed.keys {
			if !slices.Contains(phases, p) {
				bad(keyed.field+"."+string(p), "%q is not a phase of a run", p)
			}
		}
	}
	for n, w := range ev.Windows {
		if !slices.Contains(phases, w.After) {
			bad(fmt.Sprintf("windows[%d].after", n), "%q is not a phase of a run", w.After)
		}
	}
	for n, r := range ev.ProbeReads {
		if !slices.Contains(phases, r.Window) {
			bad(fmt.Sprintf("probeReads[%d].window", n), "%q is not a phase of a run", r.Window)
		}
	}
	for n, s := range ev.CatalogSettles {
		if s.Index < 0 {
			bad(fmt.Sprintf("catalogSettles[%d].index", n), "%d is not a position in a phase", s.Index)
		}
	}
	for n, t := range ev.Dialogue {
		if t.AfterCalls < 0 {
			bad(fmt.Sprintf("dialogue[%d].afterCalls", n), "%d calls", t.AfterCalls)
		}
		if t.Reply < -1 {
			bad(fmt.Sprintf("dialogue[%d].reply", n), "%d is no reply (-1 for none)", t.Reply)
		}
	}
	return out
}
