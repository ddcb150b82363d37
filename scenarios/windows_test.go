package scenarios

import (
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios/vocab"
)

// The marks are read once (Segments): the judge's windows (Span), the fault
// rule's places (RefPhase) and the timeline's segments agree; a mark out of
// order or past the record's end leaves every window of that record
// unknown, while the segments still hold every entry for the timeline.
func TestTheMarksAreReadOnce(t *testing.T) {
	ev := &Evidence{Marks: map[vocab.Phase]Mark{
		vocab.PhaseAgent: {Requests: 2}, vocab.PhaseHuman: {Requests: 5}, vocab.PhaseLeave: {Requests: 7}, vocab.PhaseEnd: {Requests: 8},
	}}
	const n = 10
	want := map[vocab.Phase][2]int{vocab.PhaseSetup: {0, 2}, vocab.PhaseAgent: {2, 5}, vocab.PhaseHuman: {5, 7}, vocab.PhaseLeave: {7, 8}, vocab.PhaseEnd: {8, 10}, vocab.PhaseAll: {2, 8}}
	segs, sound := ev.Segments(n, RequestsMark)
	if !sound || len(segs) != 5 {
		t.Fatalf("segments %v sound %v", segs, sound)
	}
	for _, s := range segs {
		if w := want[s.Phase]; [2]int{s.Lo, s.Hi} != w {
			t.Errorf("segment %s = [%d,%d), want %v", s.Phase, s.Lo, s.Hi, w)
		}
	}
	for p, w := range want {
		if lo, hi, ok := ev.Span(p, n, RequestsMark); !ok || [2]int{lo, hi} != w {
			t.Errorf("Span(%s) = [%d,%d) %v, want %v", p, lo, hi, ok, w)
		}
	}
	for i, p := range []vocab.Phase{vocab.PhaseSetup, vocab.PhaseSetup, vocab.PhaseAgent, vocab.PhaseAgent, vocab.PhaseAgent, vocab.PhaseHuman, vocab.PhaseHuman, vocab.PhaseLeave, vocab.PhaseEnd, vocab.PhaseEnd} {
		ev.Requests = make(record.Log, n)
		if got, ok := ev.RefPhase(RequestRef(i)); !ok || got != p {
			t.Errorf("request %d placed in %q %v, want %s", i, got, ok, p)
		}
	}
	for name, bad := range map[string]Mark{"a mark out of order": {Requests: 1}, "a mark past the end": {Requests: 11}} {
		ev.Marks[vocab.PhaseLeave] = bad
		if _, _, ok := ev.Span(vocab.PhaseAgent, n, RequestsMark); ok {
			t.Errorf("%s: the agent's window is read", name)
		}
		segs, sound := ev.Segments(n, RequestsMark)
		if sound || segs[0].Lo != 0 || segs[len(segs)-1].Hi != n {
			t.Errorf("%s: segments %v sound %v, want every entry shown, unsound", name, segs, sound)
		}
	}
}
