package report

import (
	"slices"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// The timeline is one ordered view of everything a run recorded: the
// agent's calls and the browser's tool events, requests, the app's journal,
// state reads with what changed, the person's steps, phase marks and
// windows. How it is ordered, and how checks are tied to its rows, is
// written down in docs/decisions/2026-11-30-report-timeline.md:
//
//   - The phase marks cut every ordered record (trace, requests, journal)
//     into segments: setup, agent, human, end. A row's phase is the segment
//     it fell in.
//   - Within a segment, the timed records are merged by the clock each
//     recorded (trace events: when the suite received them; requests: the
//     browser's wall time; journal: the app's), each record keeping its own
//     order.
//   - Rows with no time of their own are placed by what they caused or
//     waited for: a call at its tool_invoked event, its answer at its first
//     tool_responded; a wait_request after the request it met, a wait_tool
//     after the tools_added that offered the tool; a direct request before
//     the request it sent; anything else (a click, a fill, the final words,
//     a read of the page, a window) after everything placed before it. A
//     state read opens its segment: the runner reads the state right after
//     each mark.

// RowKind names what a timeline row shows.
type RowKind string

// The kinds of timeline row.
const (
	RowMark    RowKind = "mark"    // a phase starts (with its picture, when there is one)
	RowCatalog RowKind = "catalog" // the start page's tools, as the harness read them
	RowCall    RowKind = "call"    // a call made (the agent's, or a step's)
	RowAnswer  RowKind = "answer"  // what the tool answered that call
	RowTool    RowKind = "tool"    // another event of the browser's trace
	RowRequest RowKind = "request" // a request the browser sent
	RowJournal RowKind = "journal" // a request as the app's journal recorded it
	RowState   RowKind = "state"   // a read of the app's state, with what changed
	RowStep    RowKind = "step"    // a step of the person (or of the setup)
	RowUI      RowKind = "ui"      // the elements the expectations name, read from the page
	RowFinal   RowKind = "final"   // the agent's final words
	RowWindow  RowKind = "window"  // page time granted after a phase
	RowPage    RowKind = "page"    // where the page was after a phase: its URL
	RowFault   RowKind = "fault"   // a fault of the harness, or the run cut short
	RowDialog  RowKind = "dialog"  // a JavaScript dialog the page opened, and its answer
	RowReplay  RowKind = "replay"  // an attack replay the suite sent after the run, and the app's answers
	RowPopup   RowKind = "popup"   // a window the page opened, and how it ended
)

// Row is one line of the timeline. What is in our own words (with names
// from the record in it); Detail is the record's untrusted text, shown
// escaped.
type Row struct {
	N       int // 1-based, the anchor ev-N
	Phase   vocab.Phase
	Kind    RowKind
	Who     string // agent, tool, browser, page, app, person, harness
	What    string
	Detail  string
	Journal string        // a request: what the app's journal recorded of it
	Changes []StateChange // a state read: what changed since the read before, by source
	Bad     bool          // an error, a failure, a wait not met
	Dim     bool          // the harness's own reads, another session's journal entries
	Picture *Picture      // a mark's picture
	Checks  []int         // indexes into the verdict's checks that used this row
	// File is the bundle file that holds the row's record, where its whole
	// value is when Detail is cut.
	File string
	refs []scenarios.Ref // the evidence the row shows: a check that names one of them used the row
}

// StateChange is one difference between two reads of the app's state.
type StateChange struct {
	Source string
	record.Difference
}

// Picture is an image of the page at a mark, for the filmstrip.
type Picture struct {
	Phase vocab.Phase
	Mime  string
	Data  []byte
}

// Timeline is the ordered rows and, for every check of the verdict, the
// rows it used (by row number).
type Timeline struct {
	Rows   []Row
	Checks [][]int
}

// BuildTimeline orders a bundle's evidence (see the comment above).
func BuildTimeline(b bundle.Bundle) Timeline {
	ev := b.Evidence
	if ev == nil {
		ev = &scenarios.Evidence{}
	}
	t := &timeline{b: b, ev: ev}
	t.build()
	t.link()
	return Timeline{Rows: t.rows, Checks: t.checks}
}

type timeline struct {
	b      bundle.Bundle
	ev     *scenarios.Evidence
	rows   []Row
	checks [][]int
	// the journal entries that are the harness's own state reads, or of
	// another session
	probeEntry, otherSession map[int]bool
	requestTime              []time.Time     // each request's time (see alignRequests)
	matched                  []int           // request → the journal entry of the tab that matches it, or -1
	entryOf                  map[int]int     // request → the journal entry that recorded it, in the same segment
	folded                   map[int]bool    // journal entries shown in their request's row
	invocations              map[string]bool // the invocation ids of recorded calls
	firstAnswer              map[string]int  // invocation id → the trace index of its first tool_responded
	// lateAnswers are the answer rows of calls answered in a later phase
	// than they were made in, by that phase (filled as phases are placed)
	lateAnswers map[vocab.Phase][]untimed
}

// segmentPhases are the segments in order; a mark starts each but the first.
var segmentPhases = []vocab.Phase{vocab.PhaseSetup, vocab.PhaseAgent, vocab.PhaseHuman, vocab.PhaseLeave, vocab.PhaseEnd}

// cuts answers each segment of a record of n entries, by mark: the
// judge's own reading (scenarios.Evidence.Segments). A mark that is out of
// order or past the record's end starts no segment (its entries stay in
// the segment before), so the record is still shown; the judge reads no
// window of it then.
func cuts(ev *scenarios.Evidence, n int, field func(scenarios.Mark) int) map[vocab.Phase][2]int {
	segs, _ := ev.Segments(n, field)
	out := map[vocab.Phase][2]int{}
	for _, sg := range segs {
		out[sg.Phase] = [2]int{sg.Lo, sg.Hi}
	}
	return out
}

// timed is a row from a record that carries a time.
type timed struct {
	row  Row
	at   time.Time
	src  int // 0 trace, 1 requests, 2 journal: the order of ties
	idx  int // index in its record
	kind record.Kind
	inv  string // the trace event's invocation id
	// a request's method and path, for the steps that wait for one
	method, path string
	probe        bool
	tools        []string // a tools_added event's tools
}

func (t *timeline) build() {
	ev := t.ev
	traceCut := cuts(ev, len(ev.Trace), scenarios.TraceMark)
	reqCut := cuts(ev, len(ev.Requests), scenarios.RequestsMark)
	journalCut := cuts(ev, len(ev.Journal), scenarios.JournalMark)
	t.classifyJournal(journalCut)
	t.alignRequests()
	t.entryOf, t.folded = map[int]int{}, map[int]bool{}
	t.invocations, t.firstAnswer = map[string]bool{}, map[string]int{}
	t.lateAnswers = map[vocab.Phase][]untimed{}
	for _, c := range ev.Calls {
		if c.Result.InvocationID != "" {
			t.invocations[c.Result.InvocationID] = true
		}
	}
	for i, e := range ev.Trace {
		if _, seen := t.firstAnswer[e.InvocationID]; e.Kind == record.ToolResponded && !seen {
			t.firstAnswer[e.InvocationID] = i
		}
	}
	for _, p := range segmentPhases {
		if p != vocab.PhaseSetup {
			if _, ok := ev.Marks[p]; !ok {
				continue
			}
			mark := t.markRow(p)
			mark.Phase = p
			t.add(mark)
		}
		var lists [3][]timed
		rq, okR := reqCut[p]
		jr, okJ := journalCut[p]
		if okR && okJ {
			for i := rq[0]; i < rq[1]; i++ {
				if j := t.matched[i]; j >= jr[0] && j < jr[1] {
					t.entryOf[i], t.folded[j] = j, true
				}
			}
		}
		if r, ok := traceCut[p]; ok {
			for i := r[0]; i < r[1]; i++ {
				lists[0] = append(lists[0], t.traceRow(i))
			}
		}
		if r, ok := reqCut[p]; ok {
			for i := r[0]; i < r[1]; i++ {
				lists[1] = append(lists[1], t.requestRow(i))
			}
		}
		if r, ok := journalCut[p]; ok {
			for i := r[0]; i < r[1]; i++ {
				if !t.folded[i] {
					lists[2] = append(lists[2], t.journalRow(i))
				}
			}
		}
		t.place(p, merge(lists))
	}
	t.dialogRows()
	t.replayRows()
	t.popupRows()
	t.faultRows()
}

// merge interleaves the records by time, each keeping its own order; an
// entry without a time takes its record's time so far.
func merge(lists [3][]timed) []timed {
	for s := range lists {
		var last time.Time
		for i := range lists[s] {
			if lists[s][i].at.IsZero() {
				lists[s][i].at = last
			}
			last = lists[s][i].at
		}
	}
	var out []timed
	var pos [3]int
	for {
		best := -1
		for s := range lists {
			if pos[s] == len(lists[s]) {
				continue
			}
			if best < 0 || lists[s][pos[s]].at.Before(lists[best][pos[best]].at) {
				best = s
			}
		}
		if best < 0 {
			return out
		}
		out = append(out, lists[best][pos[best]])
		pos[best]++
	}
}

func (t *timeline) add(r Row) {
	r.N = len(t.rows) + 1
	t.rows = append(t.rows, r)
}

// untimed is a row with no time of its own, placed by anchor: it answers
// the index in ts (from cursor on) it goes before or after, or -1 to go at
// the cursor. fold means the row stands for ts[k] too.
type untimed struct {
	rows   []Row
	anchor func(ts []timed, cursor int) (k int, after, fold bool)
}

// place lays a segment's untimed rows among its timed ones.
func (t *timeline) place(p vocab.Phase, ts []timed) {
	cursor := 0
	emit := func(to int) {
		for ; cursor < to; cursor++ {
			r := ts[cursor].row
			r.Phase = p
			t.add(r)
		}
	}
	for _, u := range t.untimedOf(p) {
		k, after, fold := -1, false, false
		if u.anchor != nil {
			k, after, fold = u.anchor(ts, cursor)
		}
		switch {
		case k < 0:
		case fold:
			emit(k)
			u.rows[0].refs = append(u.rows[0].refs, ts[k].row.refs...)
			cursor = k + 1
		case after:
			emit(k + 1)
		default:
			emit(k)
		}
		for _, r := range u.rows {
			r.Phase = p
			t.add(r)
		}
	}
	emit(len(ts))
}

// untimedOf lists a segment's rows without a time, in the order the runner
// made them.
func (t *timeline) untimedOf(p vocab.Phase) []untimed {
	ev, sc := t.ev, t.b.Scenario
	var out []untimed
	state := map[vocab.Phase]vocab.Phase{vocab.PhaseAgent: vocab.StateBefore, vocab.PhaseHuman: vocab.PhaseAgent, vocab.PhaseEnd: vocab.PhaseHuman}
	if s, ok := state[p]; ok {
		if row, ok := t.stateRow(s); ok {
			// The runner reads the state right after the mark: after the
			// requests of that read, before anything else.
			out = append(out, untimed{rows: []Row{row}, anchor: func(ts []timed, cursor int) (int, bool, bool) {
				k := -1
				for i := cursor; i < len(ts); i++ {
					if ts[i].probe {
						k = i
					}
				}
				return k, true, false
			}})
		}
	}
	switch p {
	case vocab.PhaseSetup:
		out = append(out, untimed{rows: []Row{t.catalogRow()}, anchor: func(ts []timed, cursor int) (int, bool, bool) {
			// after the page loaded, before the first setup step
			k := slices.IndexFunc(ts[cursor:], func(x timed) bool { return x.kind == record.ToolInvoked })
			if k < 0 {
				return len(ts) - 1, true, false
			}
			return cursor + k - 1, true, false
		}})
		out = append(out, t.steps(vocab.PhaseSetup, sc.Setup)...)
	case vocab.PhaseAgent:
		for _, c := range ev.Calls {
			if c.Phase == vocab.PhaseAgent {
				out = append(out, t.call(c)...)
			}
		}
		final := Row{Kind: RowFinal, Who: "agent", What: "the agent's final words", File: bundle.RunFile, refs: []scenarios.Ref{scenarios.FinalRef()}}
		if ev.Final == nil {
			final.What, final.Dim = "the agent said nothing", true
		} else {
			final.Detail = *ev.Final
		}
		out = append(out, untimed{rows: []Row{final}})
		out = append(out, t.pageRead(vocab.PhaseAgent)...)
		out = append(out, t.windows(vocab.PhaseAgent)...)
	case vocab.PhaseHuman:
		out = append(out, t.steps(vocab.PhaseHuman, sc.Human)...)
		out = append(out, t.windows(vocab.PhaseHuman)...)
		out = append(out, t.lateAnswers[p]...) // the runner awaits them after the settle, before it looks
		out = append(out, t.pageRead(vocab.PhaseHuman)...)
	case vocab.PhaseLeave:
		out = append(out, t.windows(vocab.PhaseLeave)...)
	}
	if p != vocab.PhaseHuman {
		out = append(out, t.lateAnswers[p]...)
	}
	return out
}
