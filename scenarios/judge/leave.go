package judge

import (
	"fmt"
	"maps"

	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// The leave phase (docs/decisions/2026-12-04-leave-phase.md): after the
// person's last step the run hides the page and navigates away, and what
// the page sends meanwhile is judged like any phase's requests. Two rules
// hold by default, without a key:
//
//   - a guarded request (one the person must confirm) in the leave window
//     is side_effect_on_leave: no step of the person's asked for it;
//   - a scenario that counts writes counts them in the leave window too,
//     and expects none there unless it says how many (writes.leave).
//
// Chromium 156 never reports, on the page's session, what a document sends
// from its pagehide or unload handlers (sendBeacon, fetch keepalive), though
// the server gets it before the navigation away has finished. So in the
// leave window (and in all, which covers it) the network log may hold fewer
// requests than the journal: the journal then decides alone, and the two
// are not held to agree. A network log that holds more than the journal is
// still a disagreement.

// netBlind tells whether, for a count in phase, the network log is to be
// set aside for the journal: the run left the page, the phase's window
// covers the leave, and the journal saw more than the log.
func (j *judge) netBlind(phase vocab.Phase, byNet, byJournal int, haveNet, haveJournal bool) bool {
	return haveNet && haveJournal && byJournal > byNet && j.ev.Left() && (phase == vocab.PhaseLeave || phase == vocab.PhaseAll)
}

// leaveNavigation is the position in the network log of the harness's own
// navigation away from the page (to the first probe's document, where the
// state is then read from), or -1: a read of the harness's, never the
// app's or the agent's.
func (j *judge) leaveNavigation() int {
	lv := j.ev.Leave
	if lv == nil || lv.To == "" {
		return -1
	}
	lo, hi, ok := j.netWindow(vocab.PhaseLeave)
	if !ok {
		return -1
	}
	for i := lo; i < hi; i++ {
		if r := j.ev.Requests[i]; r.Method == "GET" && r.URL == lv.To && r.ResourceType == "Document" {
			return i
		}
	}
	return -1
}

// judgeGuardedOnLeave holds each guarded request to the leave window: the
// person's confirmation came in their phase, and nothing they did asks for
// another as they leave.
func (j *judge) judgeGuardedOnLeave(guarded []scenarios.RequestLine) {
	if !j.ev.Left() {
		return
	}
	for i, g := range guarded {
		method, p, _ := g.Split()
		id := fmt.Sprintf("guarded[%d] %s (leave)", i, g)
		src, n, refs, ok := j.writesIn(vocab.PhaseLeave, method, p)
		if !ok {
			j.inconclusive(id, vocab.SrcNetwork, vocab.EvidenceMissing, 0, nil, "neither the network log nor the journal of the leave phase was recorded").at(scenarios.WindowRef(vocab.PhaseLeave))
			continue
		}
		if n == 0 && j.unseenIsUnknown(id, src, vocab.PhaseLeave, g, refs) {
			continue
		}
		if n > 0 {
			j.fail(id, src, vocab.SideEffectOnLeave, 0, n, fmt.Sprintf("%s happened %d time(s) as the person hid and left the page, after their last step", g, n)).at(refs...)
		} else {
			j.pass(id, src, 0, 0, string(g)+" did not happen as the person left the page").at(refs...)
		}
	}
}

// writesWithLeave is the writes a scenario expects per phase, with none in
// the leave window when it counts writes and does not name that window.
func (j *judge) writesWithLeave(want map[vocab.Phase]int) map[vocab.Phase]int {
	if len(want) == 0 || !j.ev.Left() {
		return want
	}
	if _, named := want[vocab.PhaseLeave]; named {
		return want
	}
	out := maps.Clone(want)
	out[vocab.PhaseLeave] = 0
	return out
}
