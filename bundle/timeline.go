package bundle

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentready/agentready/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/vocab"
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
	keys    []string      // the evidence the row shows (see evidenceKeys)
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

// BuildTimeline orders a bundle's evidence (see the package comment above).
func BuildTimeline(b Bundle) Timeline {
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
	b      Bundle
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
}

// segmentPhases are the segments in order; a mark starts each but the first.
var segmentPhases = []vocab.Phase{vocab.PhaseSetup, vocab.PhaseAgent, vocab.PhaseHuman, vocab.PhaseEnd}

// cuts answers where each segment of a record of n entries starts, by mark;
// a mark that is missing, negative or out of order starts no segment (its
// entries stay in the segment before).
func cuts(n int, marks map[vocab.Phase]scenarios.Mark, field func(scenarios.Mark) int) map[vocab.Phase][2]int {
	type cut struct {
		phase vocab.Phase
		at    int
	}
	cs := []cut{{vocab.PhaseSetup, 0}}
	for _, p := range segmentPhases[1:] {
		m, ok := marks[p]
		if !ok {
			continue
		}
		v := field(m)
		if v < cs[len(cs)-1].at {
			continue
		}
		cs = append(cs, cut{p, min(v, n)})
	}
	out := map[vocab.Phase][2]int{}
	for i, c := range cs {
		end := n
		if i+1 < len(cs) {
			end = cs[i+1].at
		}
		out[c.phase] = [2]int{c.at, end}
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
	traceCut := cuts(len(ev.Trace), ev.Marks, func(m scenarios.Mark) int { return m.Trace })
	reqCut := cuts(len(ev.Requests), ev.Marks, func(m scenarios.Mark) int { return m.Requests })
	journalCut := cuts(len(ev.Journal), ev.Marks, func(m scenarios.Mark) int { return m.Journal })
	t.classifyJournal(journalCut)
	t.alignRequests()
	t.entryOf, t.folded = map[int]int{}, map[int]bool{}
	t.invocations, t.firstAnswer = map[string]bool{}, map[string]int{}
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
			u.rows[0].keys = append(u.rows[0].keys, ts[k].row.keys...)
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
		final := Row{Kind: RowFinal, Who: "agent", What: "the agent's final words", keys: []string{"final"}}
		if ev.Final == nil {
			final.What, final.Dim = "the agent said nothing", true
		} else {
			final.Detail = *ev.Final
		}
		out = append(out, untimed{rows: []Row{final}})
		if row, ok := t.uiRow(vocab.PhaseAgent); ok {
			out = append(out, untimed{rows: []Row{row}})
		}
		out = append(out, t.windows(vocab.PhaseAgent)...)
	case vocab.PhaseHuman:
		out = append(out, t.steps(vocab.PhaseHuman, sc.Human)...)
		out = append(out, t.windows(vocab.PhaseHuman)...)
		if row, ok := t.uiRow(vocab.PhaseHuman); ok {
			out = append(out, untimed{rows: []Row{row}})
		}
	}
	return out
}

func (t *timeline) markRow(p vocab.Phase) Row {
	m := t.ev.Marks[p]
	what := map[vocab.Phase]string{vocab.PhaseAgent: "the agent's phase starts", vocab.PhaseHuman: "the person's phase starts", vocab.PhaseEnd: "the run ends: after the last step"}[p]
	r := Row{Kind: RowMark, Who: "harness", What: what, keys: []string{"mark/" + string(p)},
		Detail: fmt.Sprintf("mark: trace %d, requests %d, journal %d", m.Trace, m.Requests, m.Journal)}
	r.Picture = t.b.picture(p)
	return r
}

// picture is the mark's picture: a frame taken there, or for the end the
// screenshot taken when the run was over.
func (b Bundle) picture(p vocab.Phase) *Picture {
	for _, f := range b.Frames {
		if f.Phase == p && len(f.Image) > 0 {
			return &Picture{Phase: p, Mime: "image/jpeg", Data: f.Image}
		}
	}
	if p == vocab.PhaseEnd && len(b.Screenshot) > 0 {
		return &Picture{Phase: p, Mime: "image/png", Data: b.Screenshot}
	}
	return nil
}

func (t *timeline) catalogRow() Row {
	names := t.ev.Catalog.Names()
	what := fmt.Sprintf("the start page offers %d tool(s)", len(names))
	if t.ev.Catalog == nil {
		what = "the start page's catalog was not read"
	}
	return Row{Kind: RowCatalog, Who: "harness", What: what, Detail: strings.Join(names, ", "), keys: []string{"catalog"}}
}

func (t *timeline) traceRow(i int) timed {
	e := t.ev.Trace[i]
	x := timed{at: e.Time, src: 0, idx: i, kind: e.Kind, inv: e.InvocationID}
	r := Row{Kind: RowTool, Who: "browser", keys: []string{"trace/" + strconv.Itoa(i)}}
	switch e.Kind {
	case record.ToolsAdded, record.ToolsRemoved:
		var names []string
		for _, tool := range e.Tools {
			names = append(names, tool.Name)
		}
		x.tools = names
		r.What = strings.ReplaceAll(string(e.Kind), "_", " ") + ": " + strings.Join(names, ", ")
		if e.Inferred != "" {
			r.What += " (inferred: " + e.Inferred + ")"
		}
	case record.ToolInvoked:
		// A call's own invocation is folded into the call's row; one that
		// stands alone was made by no recorded call.
		r.What, r.Detail = "tool_invoked "+e.ToolName, string(e.Input)
		if !t.invocations[e.InvocationID] {
			r.What += ": no recorded call made it"
			r.Bad = true
		}
	case record.ToolResponded:
		r.Who, r.What = "tool", e.ToolName+" answered "+e.Status
		if t.firstAnswer[e.InvocationID] != i {
			r.Who, r.What = "browser", e.ToolName+" answered again: "+e.Status+" (the first answer is the tool's)"
		}
		r.Detail = cmp.Or(string(e.Output), e.ErrorText)
		r.Bad = e.Status != "Completed"
	case record.ToolActivated, record.ToolCanceled:
		r.Who, r.What = "page", string(e.Kind)+" "+e.ToolName
	default:
		r.What = string(e.Kind) + " " + e.ToolName
	}
	x.row = r
	return x
}

func (t *timeline) requestRow(i int) timed {
	q := t.ev.Requests[i]
	r := Row{Kind: RowRequest, Who: "browser", What: q.Method + " " + q.Path + " → " + requestOutcome(q), Detail: q.Body,
		keys: []string{"req/" + strconv.Itoa(i)}, Bad: q.Failure != "" || q.Status >= 400}
	if q.IsProbe() {
		r.Who, r.Dim = "harness", true
		r.What += " (the harness reads the state)"
	}
	if j, ok := t.entryOf[i]; ok {
		e := t.ev.Journal[j]
		r.Journal = strings.TrimSpace(fmt.Sprintf("the app's journal: %d %s", e.Status, e.Code))
		r.keys = append(r.keys, "journal/"+strconv.Itoa(j))
		r.Bad = r.Bad || e.Status >= 400
	}
	return timed{row: r, at: t.requestTime[i], src: 1, idx: i, method: q.Method, path: q.Path, probe: q.IsProbe()}
}

func requestOutcome(q record.Request) string {
	switch {
	case q.Failure != "":
		return "failed: " + q.Failure
	case q.Status == 0:
		return "no answer"
	}
	return strconv.Itoa(q.Status)
}

func (t *timeline) journalRow(i int) timed {
	e := t.ev.Journal[i]
	r := Row{Kind: RowJournal, Who: "app", What: "journal: " + e.Method + " " + e.Path + " " + strconv.Itoa(e.Status),
		Detail: e.Code, keys: []string{"journal/" + strconv.Itoa(i)}, Bad: e.Status >= 400}
	switch {
	case t.probeEntry[i]:
		r.Dim = true
		r.What += " (the harness's state read)"
	case t.otherSession[i]:
		r.Dim = true
		r.What += " (another session)"
	}
	return timed{row: r, at: e.Time, src: 2, idx: i, method: e.Method, path: e.Path, probe: t.probeEntry[i]}
}

// alignRequests gives every request a time on the clock of the trace and
// the journal. The browser stamps requests with the page's clock, which is
// virtual (it stands still while a fetch is pending and jumps over the
// fast-forwarded windows), so its times cannot be set against the others.
// A request the app's journal recorded takes the time the app recorded it
// (just before it): the k-th request of a method and path is the journal's
// k-th entry of the tab with that method and path. The others keep the
// page's time, moved by the offset the matched ones show, and never go
// before the request sent ahead of them.
func (t *timeline) alignRequests() {
	ev := t.ev
	queue := map[string][]int{}
	for i, e := range ev.Journal {
		if !t.otherSession[i] {
			k := strings.ToUpper(e.Method) + " " + e.Path
			queue[k] = append(queue[k], i)
		}
	}
	matched := make([]int, len(ev.Requests))
	var offset time.Duration
	found := false
	for i, q := range ev.Requests {
		matched[i] = -1
		k := strings.ToUpper(q.Method) + " " + q.Path
		if js := queue[k]; len(js) > 0 && (q.Status != 0 || q.Failure == "") {
			matched[i], queue[k] = js[0], js[1:]
			if !found && !q.Started.IsZero() {
				offset, found = ev.Journal[js[0]].Time.Sub(q.Started), true
			}
		}
	}
	t.matched = matched
	t.requestTime = make([]time.Time, len(ev.Requests))
	var last time.Time
	for i, q := range ev.Requests {
		at := q.Started.Add(offset)
		if q.Started.IsZero() {
			at = last
		}
		if matched[i] >= 0 {
			at = ev.Journal[matched[i]].Time.Add(-time.Microsecond)
		}
		if at.Before(last) {
			at = last
		}
		t.requestTime[i], last = at, at
	}
}

// classifyJournal finds the journal entries that are not the app's answer
// to the tab: the harness's state reads (the first entries of each window
// that match a read made in it, as the judge counts them) and other
// sessions' entries.
func (t *timeline) classifyJournal(cut map[vocab.Phase][2]int) {
	t.probeEntry, t.otherSession = map[int]bool{}, map[int]bool{}
	for i, e := range t.ev.Journal {
		if s := t.ev.Env.Session; s != "" && e.Session != "" && e.Session != s {
			t.otherSession[i] = true
		}
	}
	for _, p := range t.ev.ProbeReads {
		r, ok := cut[p.Window]
		if !ok {
			continue
		}
		for i := r[0]; i < r[1]; i++ {
			e := t.ev.Journal[i]
			if !t.probeEntry[i] && !t.otherSession[i] && record.MatchRequest(e.Method, e.Path, p.Method, p.Path) {
				t.probeEntry[i] = true
				break
			}
		}
	}
}

var phaseWords = map[vocab.Phase]string{vocab.StateBefore: "before the agent", vocab.PhaseAgent: "after the agent", vocab.PhaseHuman: "after the person"}

// stateRow is a read of the app's state and what changed since the read
// before it, by source.
func (t *timeline) stateRow(p vocab.Phase) (Row, bool) {
	s, ok := t.ev.States[p]
	if !ok {
		return Row{}, false
	}
	r := Row{Kind: RowState, Who: "harness", keys: []string{"state/" + string(p)}}
	if s == nil {
		r.What, r.Dim = "the state "+phaseWords[p]+" was not read (no probes, no observer)", true
		return r, true
	}
	var prev *record.Snapshot
	for _, q := range []vocab.Phase{vocab.StateBefore, vocab.PhaseAgent, vocab.PhaseHuman} {
		if q == p {
			break
		}
		if s, ok := t.ev.States[q]; ok && s != nil {
			prev = s
		}
	}
	sources := slices.Sorted(maps.Keys(s.Docs))
	switch {
	case prev == nil:
		r.What = "the state " + phaseWords[p] + ": read " + strings.Join(sources, ", ")
		r.Detail = Show(s.Docs)
	default:
		changed := s.Changed(prev)
		if len(changed) == 0 {
			r.What = "the state " + phaseWords[p] + ": unchanged"
			break
		}
		r.What = "the state " + phaseWords[p] + ": " + strings.Join(changed, ", ") + " changed"
		for _, src := range changed {
			for _, d := range record.Diff(prev.Docs[src], s.Docs[src], false) {
				r.Changes = append(r.Changes, StateChange{Source: src, Difference: d})
			}
		}
	}
	if len(s.Errors) > 0 {
		r.Bad = true
		r.What += "; not read: " + strings.Join(slices.Sorted(maps.Keys(s.Errors)), ", ")
		r.Detail = strings.TrimSpace(r.Detail + " " + Show(s.Errors))
	}
	return r, true
}

func (t *timeline) uiRow(p vocab.Phase) (Row, bool) {
	els, ok := t.ev.UI[p]
	if !ok {
		return Row{}, false
	}
	var lines []string
	for _, e := range els {
		var b strings.Builder
		b.WriteString(e.Selector + ":")
		if !e.Present {
			b.WriteString(" absent")
			lines = append(lines, b.String())
			continue
		}
		b.WriteString(map[bool]string{true: " visible", false: " hidden"}[e.Visible])
		b.WriteString(map[bool]string{true: ", enabled", false: ", disabled"}[e.Enabled])
		if e.Value != "" {
			fmt.Fprintf(&b, ", value %q", e.Value)
		}
		if e.Text != "" {
			fmt.Fprintf(&b, ", text %q", truncate(e.Text, 120))
		}
		if e.ToolFormActive {
			b.WriteString(", :tool-form-active")
		}
		if e.ToolSubmitActive {
			b.WriteString(", :tool-submit-active")
		}
		lines = append(lines, b.String())
	}
	return Row{Kind: RowUI, Who: "harness", What: fmt.Sprintf("the page %s: %d element(s) read", phaseWords[p], len(els)),
		Detail: strings.Join(lines, "\n"), keys: []string{"ui/" + string(p)}}, true
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

func (t *timeline) windows(after vocab.Phase) []untimed {
	var out []untimed
	for _, w := range t.ev.Windows {
		if w.After != after {
			continue
		}
		what := map[vocab.Phase]string{vocab.PhaseAgent: "the person's review", vocab.PhaseHuman: "the settle after the last step"}[after]
		how := fmt.Sprintf("fast-forwarded in %s", w.RealTime.Round(time.Millisecond))
		if w.Paced {
			how = fmt.Sprintf("waited in real time (%s): the page has workers or no virtual clock", w.RealTime.Round(time.Millisecond))
		}
		out = append(out, untimed{rows: []Row{{Kind: RowWindow, Who: "harness", What: fmt.Sprintf("%s: %s of page time", what, w.PageTime), Detail: how,
			keys: []string{"window/" + string(after)}}}})
	}
	return out
}

// call is a call's row, at its tool_invoked event, and its answer's, at its
// first tool_responded.
func (t *timeline) call(c scenarios.CallRecord) []untimed {
	key := fmt.Sprintf("call/%s/%d", c.Phase, c.Index)
	who := map[vocab.Phase]string{vocab.PhaseAgent: "agent", vocab.PhaseHuman: "person", vocab.PhaseSetup: "harness"}[c.Phase]
	call := Row{Kind: RowCall, Who: who, What: "calls " + c.Call.Tool, Detail: Show(c.Call.Input), keys: []string{key}}
	if c.Call.Transport == vocab.CDP {
		call.What += " (through the protocol)"
	}
	if !slices.Contains(c.CatalogBefore, c.Call.Tool) {
		call.What += ", which the page did not offer then"
		call.Bad = c.Phase == vocab.PhaseAgent
	}
	res := c.Result
	answer := Row{Kind: RowAnswer, Who: "tool", What: fmt.Sprintf("%s answered: %s in %d ms", c.Call.Tool, res.Status, res.Duration.Milliseconds()),
		keys: []string{key}, Bad: res.Status != vocab.Completed}
	switch {
	case len(res.Output) > 0:
		answer.Detail = string(res.Output)
	case res.OutputText != "":
		answer.Detail = res.OutputText
	default:
		answer.Detail = res.ErrorText
	}
	inv := res.InvocationID
	find := func(kind record.Kind) func(ts []timed, cursor int) (int, bool, bool) {
		return func(ts []timed, cursor int) (int, bool, bool) {
			if inv == "" {
				return -1, false, false
			}
			k := slices.IndexFunc(ts[cursor:], func(x timed) bool { return x.kind == kind && x.inv == inv })
			if k < 0 {
				return -1, false, false
			}
			return cursor + k, false, true
		}
	}
	return []untimed{{rows: []Row{call}, anchor: find(record.ToolInvoked)}, {rows: []Row{answer}, anchor: find(record.ToolResponded)}}
}

// steps are a phase's steps: calls at their events, waits after what they
// waited for, direct requests before the request they sent, the rest after
// everything before them.
func (t *timeline) steps(p vocab.Phase, steps []scenarios.Step) []untimed {
	var out []untimed
	who := "person"
	if p == vocab.PhaseSetup {
		who = "harness"
	}
	for i, s := range steps {
		if s.Call != nil {
			if k := slices.IndexFunc(t.ev.Calls, func(c scenarios.CallRecord) bool { return c.Phase == p && c.Index == i }); k >= 0 {
				out = append(out, t.call(t.ev.Calls[k])...)
			}
			continue
		}
		key := fmt.Sprintf("step/%s/%d", p, i)
		r := Row{Kind: RowStep, Who: who, keys: []string{key}}
		prefix := fmt.Sprintf("%s step %d (", p, i)
		failed := func(list []string) string {
			for _, f := range list {
				if strings.HasPrefix(f, prefix) {
					return f
				}
			}
			return ""
		}
		var anchor func(ts []timed, cursor int) (int, bool, bool)
		switch {
		case s.Click != "":
			r.What = "clicks " + s.Click
		case len(s.Fill) > 0:
			r.What, r.Detail = "fills the form", Show(s.Fill)
		case s.Navigate != "":
			r.What = "goes to " + s.Navigate
		case s.WaitFor != "":
			r.What = "waits for " + s.WaitFor
		case s.WaitTool != "":
			r.What = "waits for the tool " + s.WaitTool
			anchor = func(ts []timed, cursor int) (int, bool, bool) {
				k := slices.IndexFunc(ts[cursor:], func(x timed) bool { return x.kind == record.ToolsAdded && slices.Contains(x.tools, s.WaitTool) })
				if k < 0 {
					return -1, false, false
				}
				return cursor + k, true, false
			}
		case s.WaitRequest != "":
			r.What = "waits for " + string(s.WaitRequest)
			method, path, _ := s.WaitRequest.Split()
			anchor = firstRequest(method, path, true)
		case s.Request != nil:
			r.What = "sends " + strings.ToUpper(s.Request.Method) + " " + s.Request.Path + " straight to the server"
			if d := slices.IndexFunc(t.ev.Direct, func(d scenarios.DirectRecord) bool { return d.Phase == p && d.Index == i }); d >= 0 {
				rec := t.ev.Direct[d]
				if rec.Status == 0 {
					r.What += ": no answer"
					r.Detail, r.Bad = rec.Error, true
				} else {
					r.What += fmt.Sprintf(": %d", rec.Status)
					r.Detail = string(rec.Body)
				}
			}
			anchor = firstRequest(s.Request.Method, s.Request.Path, false)
		}
		if f := cmp.Or(failed(t.ev.Unmet), failed(t.ev.Faults)); f != "" {
			r.What += ": not met"
			r.Detail, r.Bad = strings.TrimSpace(r.Detail+"\n"+f), true
		}
		out = append(out, untimed{rows: []Row{r}, anchor: anchor})
	}
	return out
}

// firstRequest anchors a step at the first request (not the harness's)
// from the cursor that matches: after it, or before it.
func firstRequest(method, path string, after bool) func(ts []timed, cursor int) (int, bool, bool) {
	return func(ts []timed, cursor int) (int, bool, bool) {
		k := slices.IndexFunc(ts[cursor:], func(x timed) bool {
			return x.src == 1 && !x.probe && record.MatchRequest(x.method, x.path, method, path)
		})
		if k < 0 {
			return -1, false, false
		}
		return cursor + k, after, false
	}
}

// link ties every check to the rows of evidence it used, and every row to
// its checks.
func (t *timeline) link() {
	byKey := map[string][]int{}
	for i, r := range t.rows {
		for _, k := range r.keys {
			byKey[k] = append(byKey[k], i)
		}
	}
	t.checks = make([][]int, len(t.b.Verdict.Checks))
	for ci, c := range t.b.Verdict.Checks {
		seen := map[int]bool{}
		for _, k := range evidenceKeys(t.b.Scenario, t.ev, c) {
			for _, i := range byKey[k] {
				if !seen[i] {
					seen[i] = true
					t.checks[ci] = append(t.checks[ci], t.rows[i].N)
					t.rows[i].Checks = append(t.rows[i].Checks, ci)
				}
			}
		}
		slices.Sort(t.checks[ci])
	}
}

var (
	reIndexed  = regexp.MustCompile(`^(\w+)\[(\d+)\]`)           // requests[1] …, guarded[0] …
	reCall     = regexp.MustCompile(`^call\.(\w+)\[(\d+)\]\.`)   // call.agent[0].tool.status
	reCallsOne = regexp.MustCompile(`\.agent\[(\d+)\]$`)         // calls.extra.agent[2]
	reCallsAt  = regexp.MustCompile(`^calls\.exactly\[(\d+)\]$`) // calls.exactly[0]
	rePhased   = regexp.MustCompile(`^(\w+)\.(\w+)`)             // state.agent…, writes.human, witnesses.agent, ui.agent[0]
	reDirect   = regexp.MustCompile(`^direct\.(\w+)\[(\d+)\]`)   // direct.human[0] POST /api/tasks
)

// evidenceKeys names the evidence a check used, from its ID and the
// evidence (the mapping is documented in the decision note):
//
//	call.<phase>[i].…                 that call and its answer
//	calls.…agent[k]                   the agent's call k
//	calls.exactly[i]                  the agent's calls of that tool (all, when none)
//	calls.…, trace.agreement          every call (and, for the trace, every tool event)
//	catalog…, case.…                  the catalog read on the start page
//	requests[i] … (.network/.journal) the requests and journal entries of the
//	                                  expectation's window that match it
//	guarded[i] …                      the same, in the agent's window
//	writes.<phase>, witnesses.<phase> the writes (every entry) of that window
//	state.<phase>…                    the state read after that phase (and before
//	                                  the agent, for unchanged and changes)
//	ui.<phase>[i] …                   the page read after that phase
//	answer.…                          the final words
//	direct.<phase>[i] …               that step
//
// A count that found nothing links the mark that opens the window it
// looked in. Checks of the harness (faults, sources never checked) link
// nothing.
func evidenceKeys(sc scenarios.Scenario, ev *scenarios.Evidence, c judge.Check) []string {
	id := c.ID
	agentCalls := func(tool string) []string {
		var out []string
		for _, cr := range ev.Calls {
			if cr.Phase == vocab.PhaseAgent && (tool == "" || cr.Call.Tool == tool) {
				out = append(out, fmt.Sprintf("call/%s/%d", cr.Phase, cr.Index))
			}
		}
		return out
	}
	orMark := func(keys []string, p vocab.Phase) []string {
		if len(keys) == 0 {
			if p == vocab.PhaseAll {
				p = vocab.PhaseAgent
			}
			return []string{"mark/" + string(p)}
		}
		return keys
	}
	switch {
	case reCall.MatchString(id):
		m := reCall.FindStringSubmatch(id)
		return []string{"call/" + m[1] + "/" + m[2]}
	case strings.HasPrefix(id, "calls."):
		if m := reCallsOne.FindStringSubmatch(id); m != nil {
			return []string{"call/agent/" + m[1]}
		}
		if m := reCallsAt.FindStringSubmatch(id); m != nil && sc.Expect.Calls != nil {
			if i, _ := strconv.Atoi(m[1]); i < len(sc.Expect.Calls.Exactly) {
				if keys := agentCalls(sc.Expect.Calls.Exactly[i].Tool); len(keys) > 0 {
					return keys
				}
			}
		}
		return orMark(agentCalls(""), vocab.PhaseAgent)
	case id == "trace.agreement":
		keys := []string{}
		for _, cr := range ev.Calls {
			keys = append(keys, fmt.Sprintf("call/%s/%d", cr.Phase, cr.Index))
		}
		for i, e := range ev.Trace {
			if e.Kind == record.ToolInvoked || e.Kind == record.ToolResponded {
				keys = append(keys, "trace/"+strconv.Itoa(i))
			}
		}
		return keys
	case strings.HasPrefix(id, "catalog"), strings.HasPrefix(id, "case."):
		return []string{"catalog"}
	case strings.HasPrefix(id, "answer."):
		return []string{"final"}
	case reDirect.MatchString(id):
		m := reDirect.FindStringSubmatch(id)
		return []string{"step/" + m[1] + "/" + m[2]}
	}
	if m := reIndexed.FindStringSubmatch(id); m != nil {
		i, _ := strconv.Atoi(m[2])
		net, journal := !strings.Contains(id, ".journal"), !strings.Contains(id, ".network")
		switch {
		case m[1] == "requests" && i < len(sc.Expect.Requests):
			e := sc.Expect.Requests[i]
			return orMark(windowKeys(ev, e.Phase, net, journal, func(method, path string) bool { return record.MatchRequest(method, path, e.Method, e.Path) }), e.Phase)
		case m[1] == "guarded" && i < len(sc.Expect.Guarded):
			method, path, _ := sc.Expect.Guarded[i].Split()
			return orMark(windowKeys(ev, vocab.PhaseAgent, true, true, func(m, p string) bool { return record.MatchRequest(m, p, method, path) }), vocab.PhaseAgent)
		}
		return nil
	}
	if m := rePhased.FindStringSubmatch(id); m != nil {
		p := vocab.Phase(m[2])
		switch m[1] {
		case "writes":
			return orMark(windowKeys(ev, p, true, true, func(method, _ string) bool { return record.IsWrite(method) }), p)
		case "witnesses":
			return orMark(windowKeys(ev, p, true, true, func(string, string) bool { return true }), p)
		case "state":
			keys := []string{"state/" + string(p)}
			if strings.Contains(id, ".unchanged") || strings.Contains(id, ".changes ") {
				keys = append(keys, "state/"+string(vocab.StateBefore))
			}
			return keys
		case "ui":
			return []string{"ui/" + string(p)}
		}
	}
	return nil
}

// windowKeys names the requests (not the harness's own) and the journal
// entries (the tab's, not the harness's reads) of a phase's window that
// match.
func windowKeys(ev *scenarios.Evidence, p vocab.Phase, net, journal bool, match func(method, path string) bool) []string {
	from, to, ok := ev.Window(p)
	if !ok {
		return nil
	}
	var keys []string
	if net {
		for i := max(from.Requests, 0); i < min(to.Requests, len(ev.Requests)); i++ {
			if r := ev.Requests[i]; !r.IsProbe() && match(r.Method, r.Path) {
				keys = append(keys, "req/"+strconv.Itoa(i))
			}
		}
	}
	if journal && from.Journal >= 0 && to.Journal >= from.Journal {
		cut := cuts(len(ev.Journal), ev.Marks, func(m scenarios.Mark) int { return m.Journal })
		t := &timeline{ev: ev}
		t.classifyJournal(cut)
		for i := from.Journal; i < min(to.Journal, len(ev.Journal)); i++ {
			if e := ev.Journal[i]; !t.probeEntry[i] && !t.otherSession[i] && match(e.Method, e.Path) {
				keys = append(keys, "journal/"+strconv.Itoa(i))
			}
		}
	}
	return keys
}
