package judge

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
	"github.com/theory/jsonpath"
)

// judgeState checks the app's state after each phase: the whole document
// unchanged since before the agent, values at paths, and changes of numbers
// at paths relative to before the agent.
func (j *judge) judgeState(want map[vocab.Phase]scenarios.State) {
	before := j.ev.States[vocab.StateBefore]
	for _, phase := range keys(want) {
		w := want[phase]
		id := "state." + string(phase)
		got := j.ev.States[phase]
		after := scenarios.StateRef(phase)
		if got == nil {
			// The read that should have been made after the phase: its row
			// says it was not, or the phase's window when there is none.
			ref := after
			if _, read := j.ev.States[phase]; !read {
				ref = scenarios.WindowRef(phase)
			}
			j.inconclusive(id, vocab.SrcState, vocab.EvidenceMissing, w, nil, "the app's state after "+string(phase)+" was not read (no probes, no observer)").at(ref)
			continue
		}
		// A read the app answered with a server error after the agent
		// acted is the app's answer about its state (issue 43 item 8).
		for _, source := range keys(got.Answered) {
			if phase == vocab.StateBefore {
				continue
			}
			j.fail(id+".answered "+source, vocab.SrcState, vocab.StateMismatch, "the state of "+source, got.Answered[source],
				fmt.Sprintf("after %s the app answered the read of %s with a server error: %s", phase, source, got.Errors[source])).at(after)
		}
		if w.Unchanged {
			j.judgeUnchanged(id+".unchanged", phase, before, got)
		}
		doc := got.Document()
		for _, q := range keys(w.Equals) {
			cid := id + ".equals " + q
			v, err := selectOne(q, doc, got)
			if err != nil {
				j.inconclusive(cid, vocab.SrcState, vocab.EvidenceMissing, w.Equals[q], nil, err.Error()).at(after)
				continue
			}
			// The value a path selects is the judge's reading of the
			// document: kept (Actual), the document itself is not.
			j.expectEqual(cid, vocab.SrcState, vocab.StateMismatch, w.Equals[q], v, "the value at "+q, after)
		}
		for _, q := range keys(w.Changes) {
			j.judgeChange(id+".changes "+q, q, w.Changes[q], phase, before, got)
		}
	}
}

// beforeAndAfter points at the state read before the agent (when it was
// made) and the read after a phase.
func (j *judge) beforeAndAfter(phase vocab.Phase) []scenarios.Ref {
	refs := []scenarios.Ref{scenarios.StateRef(phase)}
	if _, read := j.ev.States[vocab.StateBefore]; read {
		refs = append([]scenarios.Ref{scenarios.StateRef(vocab.StateBefore)}, refs...)
	}
	return refs
}

func (j *judge) judgeUnchanged(id string, phase vocab.Phase, before, after *record.Snapshot) {
	refs := j.beforeAndAfter(phase)
	switch {
	case before == nil:
		j.inconclusive(id, vocab.SrcState, vocab.EvidenceMissing, "unchanged", nil, "the state before the agent was not read").at(refs...)
	case len(before.Errors) > 0 || len(after.Errors) > 0:
		j.inconclusive(id, vocab.SrcState, vocab.EvidenceMissing, "unchanged", mergeErrors(before, after), "a source of the state could not be read").at(refs...)
	default:
		if changed := after.Changed(before); len(changed) > 0 {
			j.fail(id, vocab.SrcState, vocab.StateChanged, before.Hash(), after.Hash(), "the state changed: "+strings.Join(changed, ", ")).at(refs...)
		} else {
			j.pass(id, vocab.SrcState, before.Hash(), after.Hash(), "the state is unchanged").at(refs...)
		}
	}
}

func (j *judge) judgeChange(id, q string, want float64, phase vocab.Phase, before, after *record.Snapshot) {
	refs := j.beforeAndAfter(phase)
	if before == nil {
		j.inconclusive(id, vocab.SrcState, vocab.EvidenceMissing, want, nil, "the state before the agent was not read").at(refs...)
		return
	}
	from, err1 := selectNumber(q, before)
	to, err2 := selectNumber(q, after)
	if err := cmp.Or(err1, err2); err != nil {
		j.inconclusive(id, vocab.SrcState, vocab.EvidenceMissing, want, nil, err.Error()).at(refs...)
		return
	}
	got := to - from
	if math.Abs(got-want) > 1e-9 {
		j.fail(id, vocab.SrcState, vocab.StateMismatch, want, got, fmt.Sprintf("%s went from %v to %v", q, from, to)).at(refs...)
		return
	}
	j.pass(id, vocab.SrcState, want, got, fmt.Sprintf("%s went from %v to %v", q, from, to)).at(refs...)
}

// selectOne answers the one value a JSONPath query selects in a state
// document; none, several, or a source that could not be read is an error
// (the value is unknown, not absent).
func selectOne(q string, doc map[string]any, s *record.Snapshot) (any, error) {
	p, err := jsonpath.Parse(q)
	if err != nil {
		return nil, err
	}
	nodes := p.Select(doc)
	switch {
	case len(nodes) == 1:
		return nodes[0], nil
	case len(nodes) == 0 && len(s.Errors) > 0:
		return nil, fmt.Errorf("%s selects nothing; sources not read: %s", q, strings.Join(slices.Sorted(maps.Keys(s.Errors)), ", "))
	case len(nodes) == 0:
		return nil, fmt.Errorf("the state does not hold %s: unknown, not absent", q)
	default:
		return nil, fmt.Errorf("%s selects %d values, not one", q, len(nodes))
	}
}

func selectNumber(q string, s *record.Snapshot) (float64, error) {
	v, err := selectOne(q, s.Document(), s)
	if err != nil {
		return 0, err
	}
	n, ok := v.(float64)
	if !ok {
		return 0, fmt.Errorf("%s is %v, not a number", q, v)
	}
	return n, nil
}

func mergeErrors(snaps ...*record.Snapshot) map[string]string {
	out := map[string]string{}
	for _, s := range snaps {
		maps.Copy(out, s.Errors)
	}
	return out
}
