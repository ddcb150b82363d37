package judge

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

func (j *judge) agentCalls() []scenarios.CallRecord {
	return slices.DeleteFunc(slices.Clone(j.ev.Calls), func(c scenarios.CallRecord) bool { return c.Phase != vocab.PhaseAgent })
}

func (j *judge) judgeCalls(want *scenarios.CallsExpect) {
	for _, c := range j.ev.Calls {
		j.judgeOneCall(c)
	}
	j.judgeTraceAgreement()
	if want == nil {
		return
	}
	calls := j.agentCalls()
	if len(want.Required) > 0 {
		m := &requiredMatch{j: j, calls: calls, used: make([]bool, len(calls)), optionalBefore: -1}
		m.ordered("calls.required", want.Required)
	}
	if len(want.Exactly) == 0 && !want.None {
		return
	}
	if want.None {
		if len(calls) == 0 {
			j.pass("calls.none", vocab.SrcTrace, 0, 0, "the agent made no call").at(scenarios.WindowRef(vocab.PhaseAgent))
		}
		for _, c := range calls {
			j.fail(fmt.Sprintf("calls.none.agent[%d]", c.Index), vocab.SrcTrace, vocab.UnexpectedToolCall, nil, nil, "the agent must make no call here, but called "+c.Call.Tool).at(callRef(c))
		}
		return
	}
	cursor := 0
	for i, w := range want.Exactly {
		id := fmt.Sprintf("calls.exactly[%d]", i)
		k := slices.IndexFunc(calls[cursor:], func(c scenarios.CallRecord) bool { return c.Call.Tool == w.Tool })
		if k < 0 {
			// Looked for in the agent's calls after the ones matched so far.
			j.fail(id, vocab.SrcTrace, vocab.MissingToolCall, w, nil, "the agent never called "+w.Tool).at(callRefs(calls[cursor:])...)
			continue
		}
		for _, extra := range calls[cursor : cursor+k] {
			j.fail(fmt.Sprintf("%s.before.agent[%d]", id, extra.Index), vocab.SrcTrace, vocab.UnexpectedToolCall, nil, nil, "a call the scenario does not allow: "+extra.Call.Tool).at(callRef(extra))
		}
		got := calls[cursor+k]
		cursor += k + 1
		if w.Input != nil {
			if diffs := record.Diff(w.Input, nonNilMap(got.Call.Input), false); len(diffs) > 0 {
				j.failDiffs(id, vocab.SrcTrace, vocab.WrongToolInput, w.Input, diffs, "the input of "+w.Tool+" differs from what the prompt gave", callRef(got))
				continue
			}
		}
		j.pass(id, vocab.SrcTrace, w, nil, "the agent called "+w.Tool+" as expected").at(callRef(got))
	}
	for _, extra := range calls[cursor:] {
		j.fail(fmt.Sprintf("calls.extra.agent[%d]", extra.Index), vocab.SrcTrace, vocab.UnexpectedToolCall, nil, nil, "a call the scenario does not allow: "+extra.Call.Tool).at(callRef(extra))
	}
}

func callRef(c scenarios.CallRecord) scenarios.Ref { return scenarios.CallRef(c.Phase, c.Index) }

// callRefs points at calls; none points at the agent's phase, where none
// was made.
func callRefs(calls []scenarios.CallRecord) []scenarios.Ref {
	if len(calls) == 0 {
		return []scenarios.Ref{scenarios.WindowRef(vocab.PhaseAgent)}
	}
	out := make([]scenarios.Ref, len(calls))
	for i, c := range calls {
		out[i] = callRef(c)
	}
	return out
}

// callExpect is what the scenario expects of a recorded call: the
// expectations come from the scenario being judged, not from the record, so
// that a changed expectation is judged against the same evidence.
func (j *judge) callExpect(c scenarios.CallRecord) *scenarios.CallExpect {
	var steps []scenarios.Step
	switch c.Phase {
	case vocab.PhaseAgent:
		if c.Index >= 0 && c.Index < len(j.sc.Agent.Calls) {
			return j.sc.Agent.Calls[c.Index].Expect
		}
		return nil
	case vocab.PhaseSetup:
		steps = j.sc.Setup
	case vocab.PhaseHuman:
		steps = j.sc.Human
	}
	if c.Index >= 0 && c.Index < len(steps) && steps[c.Index].Call != nil {
		return steps[c.Index].Call.Expect
	}
	return nil
}

func (j *judge) judgeOneCall(c scenarios.CallRecord) {
	id := fmt.Sprintf("call.%s[%d].%s", c.Phase, c.Index, c.Call.Tool)
	x := j.callExpect(c)
	if x == nil {
		x = &scenarios.CallExpect{}
	}
	j.judgeOffered(id, c, x)
	j.judgeStatus(id, c, x)
	j.judgeOutput(id, c, x)
	j.judgeCatalogAfter(id, c, x.CatalogAfter)
}

// judgeOffered: the agent may call only what the page offers; a probe of a
// tool that must be absent passes when it is.
func (j *judge) judgeOffered(id string, c scenarios.CallRecord, x *scenarios.CallExpect) {
	offered := slices.Contains(c.CatalogBefore, c.Call.Tool)
	where := ""
	if x.NotInCatalog && c.Probe != nil {
		// The runner's look, in the call's frame: another frame's tool of
		// the same name is another tool (a record without it is judged by
		// names, as it was made).
		offered = c.Probe.Offered
		if c.Probe.Frame != "" {
			where = " (in the frame " + c.Probe.Frame + ")"
		}
	}
	if x.NotInCatalog && (c.Result.Status == vocab.Completed || c.Result.InvocationID != "") {
		// Whatever the look said, a tool that answered or was invoked was
		// there: it registered between the look and the call.
		offered, where = true, " (it answered the probe's call)"
	}
	switch {
	case x.NotInCatalog && offered:
		j.fail(id+".absent", vocab.SrcCatalog, vocab.UnexpectedResult, "not offered", nil, c.Call.Tool+" is still offered"+where).at(callRef(c))
	case x.NotInCatalog:
		j.pass(id+".absent", vocab.SrcCatalog, "not offered", nil, c.Call.Tool+" is not offered").at(callRef(c))
	case !offered && c.Phase == vocab.PhaseAgent && j.late(c) != nil:
		s := j.late(c)
		j.fail(id+".offered", vocab.SrcTrace, vocab.ToolLate, fmt.Sprintf("%s within %d ms", c.Call.Tool, s.BoundMs), fmt.Sprintf("%s %d ms later", c.Call.Tool, *s.LateMs),
			fmt.Sprintf("%s arrived %d ms after the catalog had settled (waited %d ms of the %s for it to stop changing; the rule: %d ms quiet, %d ms at most): the agent called it before the page offered it",
				c.Call.Tool, *s.LateMs, s.WaitedMs, clockWord(s.PageTime), s.QuietMs, s.BoundMs)).at(callRef(c))
	case !offered && c.Phase == vocab.PhaseAgent:
		j.fail(id+".offered", vocab.SrcTrace, vocab.ToolNotInCatalog, c.Call.Tool, nil, "the agent called "+c.Call.Tool+", which the page did not offer").at(callRef(c))
	}
}

// late is the wait before call c when the tool it called arrived only
// after it (the runner looked), or nil.
func (j *judge) late(c scenarios.CallRecord) *scenarios.CatalogSettle {
	for i, s := range j.ev.CatalogSettles {
		if s.After == vocab.SettleCall && s.Phase == c.Phase && s.Index == c.Index && s.Tool == c.Call.Tool && s.LateMs != nil {
			return &j.ev.CatalogSettles[i]
		}
	}
	return nil
}

func clockWord(pageTime bool) string {
	if pageTime {
		return "page's time"
	}
	return "real time"
}

// judgeStatus: how the call ended; a declarative tool that never answered
// has its own code.
func (j *judge) judgeStatus(id string, c scenarios.CallRecord, x *scenarios.CallExpect) {
	res := c.Result
	want := x.Status
	if want == "" && len(x.ResultKeys()) > 0 {
		want = vocab.Completed
	}
	switch {
	case res.Status == vocab.NoResponse && want != vocab.NoResponse:
		code, what := vocab.ToolError, c.Call.Tool
		if j.declarative(c.Call.Tool) {
			code, what = vocab.DeclarativeCompletionMissing, "the declarative tool "+c.Call.Tool
		}
		j.fail(id+".status", vocab.SrcTrace, code, cmp.Or(string(want), "an answer"), res.Status, what+" was invoked and never answered: "+res.ErrorText).at(callRef(c))
	case want != "" && res.Status != want:
		code := vocab.ToolError
		if want != vocab.Completed {
			code = vocab.UnexpectedResult
		}
		j.fail(id+".status", vocab.SrcTrace, code, want, res.Status, strings.TrimSpace(c.Call.Tool+" ended "+string(res.Status)+": "+res.ErrorText)).at(callRef(c))
	case want != "":
		j.pass(id+".status", vocab.SrcTrace, want, res.Status, c.Call.Tool+" ended "+string(want)).at(callRef(c))
	}
}

func (j *judge) judgeCatalogAfter(id string, c scenarios.CallRecord, d *scenarios.CatalogDelta) {
	if d == nil {
		return
	}
	var wrong []string
	for _, t := range d.Present {
		if !slices.Contains(c.CatalogAfter, t) {
			wrong = append(wrong, t+" missing")
		}
	}
	for _, t := range d.Absent {
		if slices.Contains(c.CatalogAfter, t) {
			wrong = append(wrong, t+" still offered")
		}
	}
	if len(wrong) > 0 {
		j.fail(id+".catalog_after", vocab.SrcCatalog, vocab.UnexpectedResult, d, nil, "after the call: "+strings.Join(wrong, ", ")).at(callRef(c))
	} else {
		j.pass(id+".catalog_after", vocab.SrcCatalog, d, nil, "the catalog after the call is as expected").at(callRef(c))
	}
}

func nonNilMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// requiredMatch finds required calls in the agent's calls: a top-level list
// and {ordered: [...]} in order, each after the one before (other calls may
// come between); {unordered: [...]} in any order, each after the group's
// start; optional calls may be missing. A call that met one requirement
// meets no other.
type requiredMatch struct {
	j     *judge
	calls []scenarios.CallRecord
	used  []bool
	pos   int // the agent's calls before it are behind the current requirement
	// optionalBefore bounds where an optional call may be found: before the
	// first call that could meet the next required call of its list, so
	// that taking it never leaves that one unmet (-1: no bound).
	optionalBefore int
}

func (m *requiredMatch) ordered(key string, nodes []scenarios.CallNode) {
	for i, n := range nodes {
		m.optionalBefore = -1
		if n.Optional && i+1 < len(nodes) {
			if next := nodes[i+1]; next.Tool != "" && !next.Optional {
				for k := m.pos; k < len(m.calls); k++ {
					if !m.used[k] && m.calls[k].Call.Tool == next.Tool {
						m.optionalBefore = k
						break
					}
				}
			}
		}
		m.node(fmt.Sprintf("%s[%d]", key, i), n)
	}
}

func (m *requiredMatch) node(id string, n scenarios.CallNode) {
	switch {
	case n.Ordered != nil:
		m.ordered(id+".ordered", n.Ordered)
	case n.Unordered != nil:
		start, end := m.pos, m.pos
		for i, c := range n.Unordered {
			m.pos = start
			m.node(fmt.Sprintf("%s.unordered[%d]", id, i), c)
			end = max(end, m.pos)
		}
		m.pos = end
	default:
		m.call(id, n)
	}
}

func (m *requiredMatch) call(id string, n scenarios.CallNode) {
	fits := func(c scenarios.CallRecord) bool {
		return n.Input == nil || len(record.Diff(n.Input, nonNilMap(c.Call.Input), false)) == 0
	}
	sameTool := -1
	end := len(m.calls)
	if n.Optional && m.optionalBefore >= 0 {
		end = m.optionalBefore
	}
	for k := m.pos; k < end; k++ {
		c := m.calls[k]
		if m.used[k] || c.Call.Tool != n.Tool {
			continue
		}
		if fits(c) {
			m.used[k], m.pos = true, k+1
			m.j.pass(id, vocab.SrcTrace, n, nil, "the agent called "+n.Tool+" as required").at(callRef(c))
			return
		}
		if sameTool < 0 {
			sameTool = k
		}
	}
	// Looked for among the agent's calls from the requirement's place on.
	looked := callRefs(m.calls[min(m.pos, end):end])
	switch {
	case n.Optional:
		m.j.pass(id, vocab.SrcTrace, n, nil, n.Tool+" is optional, and was not called as written").at(looked...)
	case sameTool >= 0:
		c := m.calls[sameTool]
		diffs := cutSides(record.Diff(n.Input, nonNilMap(c.Call.Input), false))
		m.j.add(Check{ID: id, Source: vocab.SrcTrace, Status: vocab.CheckFail, Code: vocab.WrongToolInput, Expected: n, Differences: diffs,
			Message: "the agent called " + n.Tool + " with other input than required: " + record.DiffText(diffs, diffLimit)}).at(callRef(c))
	default:
		m.j.fail(id, vocab.SrcTrace, vocab.MissingToolCall, n, nil, "the agent never called "+n.Tool+" where it is required").at(looked...)
	}
}
