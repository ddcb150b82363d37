package judge

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// netCount counts the requests of a phase's window that match, and
// answers their positions in the log.
func (j *judge) netCount(phase vocab.Phase, method, pattern string) (int, []int, bool) {
	lo, hi, ok := j.netWindow(phase)
	if !ok {
		return 0, nil, false
	}
	// The harness's own state reads are not the app's or the agent's, and a
	// request a service worker answered is counted once, as the worker's.
	var at []int
	away := j.leaveNavigation() // leave.go: the harness's own
	for i := lo; i < hi; i++ {
		if r := j.ev.Requests[i]; j.counted(i) && i != away && record.MatchRequest(r.Method, r.Path, method, pattern) {
			at = append(at, i)
		}
	}
	return len(at), at, true
}

// netWindow is a phase's window of the network log, when it was recorded.
func (j *judge) netWindow(phase vocab.Phase) (lo, hi int, ok bool) {
	if !j.ev.Capture.Network || j.ev.Requests == nil {
		return 0, 0, false
	}
	return j.ev.Span(phase, len(j.ev.Requests), scenarios.RequestsMark)
}

// windowUnread says which witness cannot show a phase's window, and why.
func (j *judge) windowUnread(phase vocab.Phase, netOK, journalOK bool) string {
	var why []string
	if !netOK {
		why = append(why, fmt.Sprintf("the %s marks of the network log lie outside its %d requests", phase, len(j.ev.Requests)))
	}
	if !journalOK {
		if j.ev.Env.SessionUnread != "" {
			why = append(why, "the tab's session was not read ("+j.ev.Env.SessionUnread+"), so which journal entries are the tab's is unknown")
		} else {
			why = append(why, fmt.Sprintf("the %s marks of the journal lie outside its %d entries or out of order (a read that failed)", phase, len(j.ev.Journal)))
		}
	}
	return strings.Join(why, "; ")
}

// journalWindow answers the positions of the tab's entries in a phase's
// window of the journal.
func (j *judge) journalWindow(phase vocab.Phase) ([]int, bool) {
	if !j.ev.Capture.Observer || j.ev.Journal == nil || j.ev.Env.SessionUnread != "" {
		return nil, false
	}
	lo, hi, ok := j.ev.Span(phase, len(j.ev.Journal), scenarios.JournalMark)
	if !ok {
		return nil, false
	}
	// The tab's own entries: a shared app's other sessions do not count,
	// nor entries without a session when the tab has one (another
	// client's first request looks just like that).
	tab := func(i int) bool { s := j.ev.Env.Session; return s == "" || j.ev.Journal[i].Session == s }
	at := []int{}
	for i := lo; i < hi; i++ {
		if tab(i) {
			at = append(at, i)
		}
	}
	return j.placeInFlight(phase, at, hi, tab), true
}

// placeInFlight places by its start, in the journal as in the network log,
// a request the browser had sent when a mark was taken and the app had not
// yet seen arrive (Mark.InFlight): its entry, the first of its method and
// path after the mark, belongs to the window before the mark (issue 43
// item 7). at are the window's entries, hi its end in the journal.
func (j *judge) placeInFlight(phase vocab.Phase, at []int, hi int, tab func(int) bool) []int {
	from, to, ok := j.ev.Window(phase)
	if !ok || (len(from.InFlight) == 0 && len(to.InFlight) == 0) {
		return at
	}
	taken := map[int]bool{}
	// An entry is looked for in the window right after the mark only: one
	// that came later is another request's.
	segs, _ := j.ev.Segments(len(j.ev.Journal), scenarios.JournalMark)
	closing := map[vocab.Phase]vocab.Phase{vocab.PhaseAgent: vocab.PhaseHuman, vocab.PhaseHuman: vocab.PhaseEnd, vocab.PhaseLeave: vocab.PhaseEnd, vocab.PhaseAll: vocab.PhaseEnd}[phase]
	if phase == vocab.PhaseHuman && j.ev.Left() {
		closing = vocab.PhaseLeave
	}
	next := hi
	for _, sg := range segs {
		if sg.Phase == closing && sg.Lo == hi {
			next = sg.Hi
		}
	}
	first := func(q record.Request, start, end int) int {
		for i := start; i < end; i++ {
			if e := j.ev.Journal[i]; !taken[i] && tab(i) && e.Method == q.Method && e.Path == q.Path {
				taken[i] = true
				return i
			}
		}
		return -1
	}
	// A request that failed without an answer may never have reached the
	// app: no entry is its.
	request := func(i int) (record.Request, bool) {
		if i < 0 || i >= len(j.ev.Requests) {
			return record.Request{}, false
		}
		q := j.ev.Requests[i]
		return q, !(q.Status == 0 && q.Failure != "")
	}
	// Entries at the window's start that belong before it.
	lo := hi
	if len(at) > 0 {
		lo = at[0]
	}
	out := map[int]bool{}
	for _, i := range from.InFlight {
		if q, ok := request(i); ok {
			if e := first(q, max(lo, from.Journal), hi); e >= 0 {
				out[e] = true
			}
		}
	}
	at = slices.DeleteFunc(at, func(i int) bool { return out[i] })
	// Entries after the window's end that belong in it.
	for _, i := range to.InFlight {
		if q, ok := request(i); ok {
			if e := first(q, hi, next); e >= 0 {
				at = append(at, e)
			}
		}
	}
	slices.Sort(at)
	return at
}

func (j *judge) journalCount(phase vocab.Phase, method, pattern string) (int, []int, bool) {
	if strings.EqualFold(method, record.SocketMessage) {
		return 0, nil, false // the journal records HTTP requests: a socket's messages are the network log's alone
	}
	win, ok := j.journalWindow(phase)
	if !ok {
		return 0, nil, false
	}
	var matched []int
	for _, i := range win {
		if e := j.ev.Journal[i]; record.MatchRequest(e.Method, e.Path, method, pattern) {
			matched = append(matched, i)
		}
	}
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

// messages keeps the WebSocket messages at (log positions) whose text
// pattern finds, and answers those whose text was not kept.
func (j *judge) messages(at []int, pattern string) (int, []int, []int) {
	re, err := regexp.Compile(pattern)
	if err != nil { // refused when the file loads
		return 0, nil, at
	}
	var kept, unkept []int
	for _, i := range at {
		switch r := j.ev.Requests[i]; {
		case r.HasBody && r.Body == "":
			unkept = append(unkept, i)
		case re.MatchString(r.Body):
			kept = append(kept, i)
		}
	}
	return len(kept), kept, unkept
}

// inWindow tells whether requests of window fall in phase's window (all
// covers agent, human and leave).
func inWindow(window, phase vocab.Phase) bool {
	return window == phase || (phase == vocab.PhaseAll && window.Windowed())
}

// judgeRequests counts requests by method and path in a phase. Either
// witness decides alone when it is the only one recorded (the network log,
// for an app without a journal); when both are, they must agree.
func (j *judge) judgeRequests(want []scenarios.RequestExpect) {
	for i, r := range want {
		id := fmt.Sprintf("requests[%d] %s %s (%s)", i, r.Method, r.Path, r.Phase)
		byNet, netAt, haveNet := j.netCount(r.Phase, r.Method, r.Path)
		if r.Message != "" {
			id += fmt.Sprintf(" message %q", r.Message)
			var unkept []int
			byNet, netAt, unkept = j.messages(netAt, r.Message)
			if haveNet && len(unkept) > 0 && byNet <= r.Count {
				// More than expected is a defect recorded; as many or fewer
				// may be short of a message whose text is unknown.
				j.inconclusive(id+".network", vocab.SrcNetwork, vocab.EvidenceMissing, r.Count, byNet,
					fmt.Sprintf("%d message(s) on the socket were not kept (a body the run does not keep): whether they match is unknown", len(unkept))).at(requestRefs(unkept, r.Phase)...)
				continue
			}
		}
		byJournal, journalAt, haveJournal := j.journalCount(r.Phase, r.Method, r.Path)
		if j.netBlind(r.Phase, byNet, byJournal, haveNet, haveJournal) {
			haveNet, netAt = false, nil // leave.go: the journal alone saw what the page sent as it unloaded
		}
		late, lateRefs := j.netJoinedLate(r.Phase)
		if late != "" && haveNet && haveJournal {
			haveNet, netAt = false, nil // the journal saw what the log joined too late to see
		}
		netRefs, journalRefs := requestRefs(netAt, r.Phase), journalRefs(journalAt, r.Phase)
		switch {
		case !haveNet && !haveJournal:
			j.inconclusive(id, vocab.SrcNetwork, vocab.EvidenceMissing, r.Count, nil, "neither the network log nor the app's journal was recorded: the count is unknown, not 0").
				at(scenarios.WindowRef(r.Phase))
			continue
		case haveNet && haveJournal && byNet != byJournal:
			j.fail(id+".agreement", vocab.SrcNetwork, vocab.EvidenceDisagrees, byJournal, byNet,
				fmt.Sprintf("the network log counts %d, the app's journal %d", byNet, byJournal)).at(both(netAt, journalAt, r.Phase)...)
			continue
		}
		switch {
		case haveNet && late != "" && byNet <= r.Count:
			// A count the log could have missed requests of: more than
			// expected is a defect recorded; as many or fewer is unknown.
			j.inconclusive(id+".network", vocab.SrcNetwork, vocab.EvidenceMissing, r.Count, byNet,
				fmt.Sprintf("the network log counts %d, but %s: its early requests are unknown, not absent", byNet, late)).at(append(netRefs, lateRefs...)...)
		case haveNet:
			j.expectEqual(id+".network", vocab.SrcNetwork, vocab.RequestCountMismatch, r.Count, byNet, "requests counted in the network log", netRefs...)
		}
		if haveJournal {
			j.expectEqual(id+".journal", vocab.SrcJournal, vocab.RequestCountMismatch, r.Count, byJournal, "requests counted in the app's journal", journalRefs...)
		}
		if r.Status != 0 {
			if haveNet {
				j.judgeStatuses(id+".status.network", vocab.SrcNetwork, r.Status, statusesOf(netAt, func(i int) int { return j.ev.Requests[i].Status }), "in the network log", netRefs)
			}
			if haveJournal {
				j.judgeStatuses(id+".status.journal", vocab.SrcJournal, r.Status, statusesOf(journalAt, func(i int) int { return j.ev.Journal[i].Status }), "in the app's journal", journalRefs)
			}
		}
	}
}

// requestRefs points at requests of the log by position; none points at
// the window that was looked in, empty.
func requestRefs(at []int, phase vocab.Phase) []scenarios.Ref {
	if len(at) == 0 {
		return []scenarios.Ref{scenarios.WindowRef(phase)}
	}
	out := make([]scenarios.Ref, len(at))
	for k, i := range at {
		out[k] = scenarios.RequestRef(i)
	}
	return out
}

// journalRefs is requestRefs for entries of the journal.
func journalRefs(at []int, phase vocab.Phase) []scenarios.Ref {
	if len(at) == 0 {
		return []scenarios.Ref{scenarios.WindowRef(phase)}
	}
	out := make([]scenarios.Ref, len(at))
	for k, i := range at {
		out[k] = scenarios.JournalRef(i)
	}
	return out
}

// both points at requests and entries; none of either, at the window.
func both(netAt, journalAt []int, phase vocab.Phase) []scenarios.Ref {
	if len(netAt) == 0 && len(journalAt) == 0 {
		return []scenarios.Ref{scenarios.WindowRef(phase)}
	}
	var out []scenarios.Ref
	if len(netAt) > 0 {
		out = append(out, requestRefs(netAt, phase)...)
	}
	if len(journalAt) > 0 {
		out = append(out, journalRefs(journalAt, phase)...)
	}
	return out
}

// judgeStatuses checks that every counted request of one witness ended with
// the expected HTTP status; with nothing counted there is nothing to check.
func (j *judge) judgeStatuses(id string, src vocab.Source, want int, got []int, where string, refs []scenarios.Ref) {
	switch {
	case slices.ContainsFunc(got, func(s int) bool { return s != want }):
		j.fail(id, src, vocab.RequestStatusMismatch, want, got, "a counted request has another status "+where).at(refs...)
	case len(got) > 0:
		j.pass(id, src, want, got, "every counted request has the expected status "+where).at(refs...)
	}
}

func statusesOf(at []int, status func(int) int) []int {
	out := make([]int, len(at))
	for k, i := range at {
		out[k] = status(i)
	}
	return out
}
