package judge

import (
	"fmt"
	"slices"

	"github.com/agentready/agentready/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/vocab"
)

func (j *judge) netCount(phase vocab.Phase, method, pattern string) (int, []record.Request, bool) {
	if !j.ev.Capture.Network || j.ev.Requests == nil {
		return 0, nil, false
	}
	from, to, ok := j.ev.Window(phase)
	if !ok {
		return 0, nil, false
	}
	lo, hi, ok := span(from.Requests, to.Requests, len(j.ev.Requests))
	if !ok {
		return 0, nil, false
	}
	// The harness's own state reads are not the app's or the agent's, and a
	// request a service worker answered is counted once, as the worker's.
	matched := slices.DeleteFunc(j.ev.Requests[lo:hi].Filter(method, pattern), func(r record.Request) bool { return !r.Counted() })
	return len(matched), matched, true
}

func (j *judge) journalWindow(phase vocab.Phase) (record.Journal, bool) {
	if !j.ev.Capture.Observer || j.ev.Journal == nil {
		return nil, false
	}
	from, to, ok := j.ev.Window(phase)
	if !ok {
		return nil, false
	}
	lo, hi, ok := span(from.Journal, to.Journal, len(j.ev.Journal))
	if !ok || !j.journalMarksInOrder() {
		return nil, false
	}
	// The tab's own entries: a shared app's other sessions do not count.
	// An entry without a session (a request before the cookie was set)
	// cannot be anyone else's.
	win := j.ev.Journal[lo:hi]
	if s := j.ev.Env.Session; s != "" {
		win = slices.DeleteFunc(slices.Clone(win), func(e record.Entry) bool { return e.Session != "" && e.Session != s })
	}
	return win, true
}

// span clips a window of marks to a record of n entries; marks that are
// negative or out of order (a mark taken when a read failed) are no window.
func span(from, to, n int) (lo, hi int, ok bool) {
	if from < 0 || to < from {
		return 0, 0, false
	}
	return min(from, n), min(to, n), true
}

func (j *judge) journalCount(phase vocab.Phase, method, pattern string) (int, record.Journal, bool) {
	win, ok := j.journalWindow(phase)
	if !ok {
		return 0, nil, false
	}
	matched := win.Filter(method, pattern)
	// The journal cannot tell the harness's state reads from others: leave
	// out as many matching entries as the harness made in this window,
	// from its start, where the reads were made.
	probes := 0
	for _, p := range j.ev.ProbeReads {
		if inWindow(p.Window, phase) && record.MatchRequest(p.Method, p.Path, method, pattern) {
			probes++
		}
	}
	matched = matched[min(probes, len(matched)):]
	return len(matched), matched, true
}

// inWindow tells whether requests of window fall in phase's window (all
// covers agent and human).
func inWindow(window, phase vocab.Phase) bool {
	return window == phase || (phase == vocab.PhaseAll && (window == vocab.PhaseAgent || window == vocab.PhaseHuman))
}

// judgeRequests counts requests by method and path in a phase. Either
// witness decides alone when it is the only one recorded (the network log,
// for an app without a journal); when both are, they must agree.
func (j *judge) judgeRequests(want []scenarios.RequestExpect) {
	for i, r := range want {
		id := fmt.Sprintf("requests[%d] %s %s (%s)", i, r.Method, r.Path, r.Phase)
		byNet, netReqs, haveNet := j.netCount(r.Phase, r.Method, r.Path)
		byJournal, entries, haveJournal := j.journalCount(r.Phase, r.Method, r.Path)
		switch {
		case !haveNet && !haveJournal:
			j.inconclusive(id, vocab.SrcNetwork, vocab.EvidenceMissing, r.Count, nil, "neither the network log nor the app's journal was recorded: the count is unknown, not 0")
			continue
		case haveNet && haveJournal && byNet != byJournal:
			j.fail(id+".agreement", vocab.SrcNetwork, vocab.EvidenceDisagrees, byJournal, byNet,
				fmt.Sprintf("the network log counts %d, the app's journal %d", byNet, byJournal))
			continue
		}
		if haveNet {
			j.expectEqual(id+".network", vocab.SrcNetwork, vocab.RequestCountMismatch, r.Count, byNet, "requests counted in the network log")
		}
		if haveJournal {
			j.expectEqual(id+".journal", vocab.SrcJournal, vocab.RequestCountMismatch, r.Count, byJournal, "requests counted in the app's journal")
		}
		if r.Status != 0 {
			if haveNet {
				j.judgeStatuses(id+".status.network", vocab.SrcNetwork, r.Status, statusesOf(netReqs, func(q record.Request) int { return q.Status }), "in the network log")
			}
			if haveJournal {
				j.judgeStatuses(id+".status.journal", vocab.SrcJournal, r.Status, statusesOf(entries, func(e record.Entry) int { return e.Status }), "in the app's journal")
			}
		}
	}
}

// judgeStatuses checks that every counted request of one witness ended with
// the expected HTTP status; with nothing counted there is nothing to check.
func (j *judge) judgeStatuses(id string, src vocab.Source, want int, got []int, where string) {
	switch {
	case slices.ContainsFunc(got, func(s int) bool { return s != want }):
		j.fail(id, src, vocab.RequestStatusMismatch, want, got, "a counted request has another status "+where)
	case len(got) > 0:
		j.pass(id, src, want, got, "every counted request has the expected status "+where)
	}
}

func statusesOf[T any](items []T, status func(T) int) []int {
	out := make([]int, len(items))
	for i, it := range items {
		out[i] = status(it)
	}
	return out
}

// journalMarksInOrder: a journal read that failed at one mark leaves that
// mark out of order with the others; then no window of the journal is
// sound, not only the one that mark bounds.
func (j *judge) journalMarksInOrder() bool {
	prev := 0
	for _, p := range []vocab.Phase{vocab.PhaseAgent, vocab.PhaseHuman, vocab.PhaseEnd} {
		m, ok := j.ev.Marks[p]
		if !ok || m.Journal < prev {
			return false
		}
		prev = m.Journal
	}
	return true
}
