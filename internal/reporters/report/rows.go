package report

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// The rows of each kind of record, and where the untimed ones go.

func (t *timeline) markRow(p vocab.Phase) Row {
	m := t.ev.Marks[p]
	what := map[vocab.Phase]string{vocab.PhaseAgent: "the agent's phase starts", vocab.PhaseHuman: "the person's phase starts",
		vocab.PhaseLeave: "the person leaves the page: hidden, then navigated away from", vocab.PhaseEnd: "the run ends: after the last step"}[p]
	// The mark opens the window a count looked in: a check that found
	// nothing there used this row.
	r := Row{Kind: RowMark, Who: "harness", What: what, File: bundle.RunFile, refs: []scenarios.Ref{scenarios.WindowRef(p)},
		Detail: fmt.Sprintf("mark: trace %d, requests %d, journal %d", m.Trace, m.Requests, m.Journal)}
	if p == vocab.PhaseAgent {
		r.refs = append(r.refs, scenarios.WindowRef(vocab.PhaseAll))
	}
	r.Picture = picture(t.b, p)
	return r
}

// picture is the mark's picture: a frame taken there, or the run's
// screenshot: the page as the person left it, taken at the leave mark when
// the run left the page, else when the run was over.
func picture(b bundle.Bundle, p vocab.Phase) *Picture {
	for _, f := range b.Frames {
		if f.Phase == p && len(f.Image) > 0 {
			return &Picture{Phase: p, Mime: "image/jpeg", Data: f.Image}
		}
	}
	shotAt := vocab.PhaseEnd
	if ev := b.Evidence; ev != nil && ev.Leave != nil {
		if _, left := ev.Marks[vocab.PhaseLeave]; left {
			shotAt = vocab.PhaseLeave
		}
	}
	if p == shotAt && len(b.Screenshot) > 0 {
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
	return Row{Kind: RowCatalog, Who: "harness", What: what, Detail: strings.Join(names, ", "), File: bundle.CatalogFile, refs: []scenarios.Ref{scenarios.CatalogRef()}}
}

func (t *timeline) traceRow(i int) timed {
	e := t.ev.Trace[i]
	x := timed{at: e.Time, src: 0, idx: i, kind: e.Kind, inv: e.InvocationID}
	r := Row{Kind: RowTool, Who: "browser", File: bundle.TraceFile, refs: []scenarios.Ref{scenarios.TraceRef(i)}}
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
	case record.AttackPlanted:
		r.Who, r.What, r.Bad = "harness", "attack planted in the "+strings.ReplaceAll(string(e.Planted), "_", " "), true
		if e.ToolName != "" {
			r.What += " of " + e.ToolName
		}
		if a := t.ev.Attack; a != nil {
			r.Detail = a.Text
		}
	default:
		r.What = string(e.Kind) + " " + e.ToolName
	}
	x.row = r
	return x
}

func (t *timeline) requestRow(i int) timed {
	q := t.ev.Requests[i]
	r := Row{Kind: RowRequest, Who: "browser", What: q.Method + " " + q.Path + " → " + requestOutcome(q), Detail: q.Body, File: bundle.RequestsFile,
		refs: []scenarios.Ref{scenarios.RequestRef(i)}, Bad: q.Failure != "" || q.Status >= 400}
	if q.IsProbe() {
		r.Who, r.Dim = "harness", true
		r.What += " (the harness reads the state)"
	}
	if j, ok := t.entryOf[i]; ok {
		e := t.ev.Journal[j]
		r.Journal = strings.TrimSpace(fmt.Sprintf("the app's journal: %d %s", e.Status, e.Code))
		r.refs = append(r.refs, scenarios.JournalRef(j))
		r.Bad = r.Bad || e.Status >= 400
	}
	return timed{row: r, at: t.requestTime[i], src: 1, idx: i, method: q.Method, path: q.Path, probe: q.IsProbe()}
}

func requestOutcome(q record.Request) string {
	switch {
	case q.IsSocketMessage():
		return "a message sent on the WebSocket"
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
		Detail: e.Code, File: bundle.JournalFile, refs: []scenarios.Ref{scenarios.JournalRef(i)}, Bad: e.Status >= 400}
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
	r := Row{Kind: RowState, Who: "harness", File: bundle.StateFile, refs: []scenarios.Ref{scenarios.StateRef(p)}}
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
		r.Detail = raw(s.Docs)
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
		r.Detail = strings.TrimSpace(r.Detail + " " + raw(s.Errors))
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
		if e.Host != "" {
			b.WriteString(", in the shadow root of " + e.Host)
		}
		lines = append(lines, b.String())
	}
	r := Row{Kind: RowUI, Who: "harness", What: fmt.Sprintf("the page %s: %d element(s) read", phaseWords[p], len(els)),
		Detail: strings.Join(lines, "\n"), File: bundle.UIFile}
	for k := range els {
		r.refs = append(r.refs, scenarios.UIRef(p, k))
	}
	return r, true
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
		what := map[vocab.Phase]string{vocab.PhaseAgent: "the person's review", vocab.PhaseHuman: "the settle after the last step",
			vocab.PhaseLeave: "the page hidden"}[after]
		how := fmt.Sprintf("fast-forwarded in %s", w.RealTime.Round(time.Millisecond))
		if w.Paced {
			how = fmt.Sprintf("waited in real time (%s): the page has workers or no virtual clock", w.RealTime.Round(time.Millisecond))
		}
		for _, n := range t.ev.ClockNotWaited {
			how += fmt.Sprintf("; the page's clock went on without %s (%s)", n.Request, n.Why)
		}
		out = append(out, untimed{rows: []Row{{Kind: RowWindow, Who: "harness", What: fmt.Sprintf("%s: %s of page time", what, w.PageTime), Detail: how, File: bundle.RunFile}}})
	}
	return out
}

// call is a call's row, at its tool_invoked event, and its answer's, at its
// first tool_responded.
func (t *timeline) call(c scenarios.CallRecord) []untimed {
	ref := scenarios.CallRef(c.Phase, c.Index)
	who := map[vocab.Phase]string{vocab.PhaseAgent: "agent", vocab.PhaseHuman: "person", vocab.PhaseSetup: "harness"}[c.Phase]
	inputFile, answerFile := bundle.CallFiles(t.b.Scenario, t.ev, c)
	call := Row{Kind: RowCall, Who: who, What: "calls " + c.Call.Tool, Detail: raw(c.Call.Input), File: inputFile, refs: []scenarios.Ref{ref}}
	if c.Call.Transport == vocab.CDP {
		call.What += " (through the protocol)"
	}
	if !slices.Contains(c.CatalogBefore, c.Call.Tool) {
		call.What += ", which the page did not offer then"
		call.Bad = c.Phase == vocab.PhaseAgent
	}
	res := c.Result
	answer := Row{Kind: RowAnswer, Who: "tool", What: fmt.Sprintf("%s answered: %s in %d ms", c.Call.Tool, res.Status, res.Duration.Milliseconds()),
		File: answerFile, refs: []scenarios.Ref{ref}, Bad: res.Status != vocab.Completed}
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
	callRow := untimed{rows: []Row{call}, anchor: find(record.ToolInvoked)}
	answerRow := untimed{rows: []Row{answer}, anchor: find(record.ToolResponded)}
	if t.answerPhase(c) != c.Phase {
		// Answered in a later phase (the person's submit answered the
		// agent's pending call): its answer row is in that phase's rows.
		t.lateAnswers[t.answerPhase(c)] = append(t.lateAnswers[t.answerPhase(c)], answerRow)
		return []untimed{callRow}
	}
	return []untimed{callRow, answerRow}
}

// answerPhase is the phase whose segment of the trace holds the call's
// first answer; the call's own phase when the trace holds none.
func (t *timeline) answerPhase(c scenarios.CallRecord) vocab.Phase {
	i, ok := t.firstAnswer[c.Result.InvocationID]
	if !ok || c.Result.InvocationID == "" {
		return c.Phase
	}
	for p, r := range cuts(t.ev, len(t.ev.Trace), scenarios.TraceMark) {
		if i >= r[0] && i < r[1] {
			return p
		}
	}
	return c.Phase
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
		r := Row{Kind: RowStep, Who: who, File: bundle.ScenarioFile}
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
			// What the person had before them, read just before the click.
			for k, rv := range t.ev.Reviews {
				if rv.Phase == p && rv.Index == i {
					r.refs = append(r.refs, scenarios.ReviewRef(k))
				}
			}
		case len(s.Fill) > 0:
			r.What, r.Detail = "fills the form", raw(s.Fill)
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
			r.refs = append(r.refs, scenarios.DirectRef(p, i))
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
		if f := cmp.Or(failed(t.ev.Unmet), failed(scenarios.FaultTexts(t.ev.Faults))); f != "" {
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
