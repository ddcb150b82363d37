package judge

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// The agent surface a run exercised (issue 44): per tool, per write the
// person made, per form they submitted, per look at text the server
// derives, per tool with a cancel path, each way it can be exercised and
// whether this run did. A pure function of the scenario and its evidence,
// like the verdict, but no part of it: coverage says what was left
// unexercised, never whether what was exercised held. The run's coverage
// (internal/reporters/results) is the union of its scenarios' surfaces.
// docs/decisions/2026-12-06-coverage-of-the-agent-surface.md says why each
// measure is read so.

// Measure is one kind of thing on the agent surface.
type Measure string

// The measures, in the order reports show them.
const (
	MeasureTools   Measure = "tools"
	MeasureWrites  Measure = "writes"
	MeasureForms   Measure = "forms"
	MeasureLooks   Measure = "looks"
	MeasureCancels Measure = "cancels"
)

// Measures lists every measure in report order.
var Measures = []Measure{MeasureTools, MeasureWrites, MeasureForms, MeasureLooks, MeasureCancels}

// The ways each thing can be exercised.
const (
	AspectValidInput   = "called with a valid input"
	AspectInvalidInput = "called with an invalid input"
	AspectAsPrepared   = "submitted as prepared"
	AspectChanged      = "changed before the submit"
	AspectTied         = "tied to a state read"
	AspectCancelled    = "cancelled while it ran"
)

// SurfaceItem is one thing of the agent surface and one way to exercise
// it: covered by this run, or not and why.
type SurfaceItem struct {
	Measure Measure `json:"measure"`
	// Subject names the thing: "prepare_tip" (a tool: its name, and its
	// frame's path when not the top document's), "POST /api/events/*/tips"
	// (a write: method and template), "form of #send-tip (amountTWD,
	// message)", "human · #seats-left" (a look), "add_task" (a cancel).
	Subject string `json:"subject"`
	// Aspect is the way (a replay kind for a write).
	Aspect  string `json:"aspect"`
	Covered bool   `json:"covered"`
	// Why says what the run did instead, when it did not cover it.
	Why string `json:"why,omitempty"`
	// Inapplicable: the thing has nothing this way exercises (a write
	// with no precondition for stale): listed, never counted.
	Inapplicable bool `json:"inapplicable,omitempty"`
}

// Surface lists the agent surface sc's run touched, in a stable order.
func Surface(sc scenarios.Scenario, ev *scenarios.Evidence) []SurfaceItem {
	if ev == nil {
		return nil
	}
	j := &judge{sc: sc, ev: ev}
	var out []SurfaceItem
	out = append(out, j.toolSurface()...)
	out = append(out, j.writeSurface()...)
	out = append(out, j.formSurface()...)
	out = append(out, j.lookSurface()...)
	out = append(out, j.cancelSurface()...)
	return out
}

// declaresProperties tells whether a schema names any property.
func declaresProperties(schema json.RawMessage) bool {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	return json.Unmarshal(schema, &s) == nil && len(s.Properties) > 0
}

// framePath is a frame's URL as a subject names it: its path, so that
// the frame of an app started on another port is the same frame.
func framePath(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Path != "" {
		return u.Path
	}
	return raw
}

// toolSurface: each tool the start page offered, called with an input its
// schema accepts and with one it refuses (a tool without a schema takes
// any input: only the first).
func (j *judge) toolSurface() []SurfaceItem {
	var out []SurfaceItem
	for _, t := range j.ev.Catalog {
		// A tool is its frame and its name (one identity per thing): the
		// page a scenario read it on is not part of it, or one tool read
		// on a sign-in page and on the page it leads to is two.
		subject := t.Name
		if t.Frame != "" {
			subject += " (in " + framePath(t.Frame) + ")"
		}
		valid := SurfaceItem{Measure: MeasureTools, Subject: subject, Aspect: AspectValidInput, Why: "no call of it"}
		invalid := SurfaceItem{Measure: MeasureTools, Subject: subject, Aspect: AspectInvalidInput, Why: "no call of it with an input its schema refuses"}
		schema, err := compileSchema(t.InputSchema)
		// A tool that declares no input has nothing an agent could get
		// wrong but extra fields, which it may ignore: no invalid way.
		takesInput := err == nil && len(t.InputSchema) > 0 && declaresProperties(t.InputSchema)
		for _, c := range j.ev.Calls {
			// The tool the call ran, by the judge's one reading of it (the
			// trace's invocation, its frame's catalog): a tool is its
			// frame and its name.
			if ran, _, ok := j.toolAtCall(c); !ok || ran.Name != t.Name || ran.FrameID != t.FrameID {
				continue
			}
			switch {
			case len(t.InputSchema) == 0 || err != nil:
				valid.Covered, valid.Why = true, ""
			case schema.Validate(record.Normalize(nonNilMap(c.Call.Input))) == nil:
				valid.Covered, valid.Why = true, ""
			default:
				invalid.Covered, invalid.Why = true, ""
			}
		}
		out = append(out, valid)
		if takesInput {
			out = append(out, invalid)
		}
	}
	return out
}

// writeSurface: each write the person's phase sent to the app, by its
// request line (the scenario's pattern for it, when one names it), and
// each replay kind: performed, or why not.
func (j *judge) writeSurface() []SurfaceItem {
	from, to, ok := j.ev.Window(vocab.PhaseHuman)
	if !ok || j.ev.Requests == nil {
		return nil
	}
	var out []SurfaceItem
	seen := map[string]bool{}
	plan := j.sc.Expect.ReplayPlan()
	for i := from.Requests; i < min(to.Requests, len(j.ev.Requests)); i++ {
		q := j.ev.Requests[i]
		if !q.Counted() || !record.IsWrite(q.Method) || !j.sc.OfApp(j.ev.Env.BaseURL, q.URL) {
			continue
		}
		line := j.lineOf(q)
		if seen[line] {
			continue
		}
		seen[line] = true
		for _, kind := range vocab.ReplayKinds {
			it := j.replayItem(line, i, kind)
			if off := offFor(plan, q, kind); off != "" && !it.Covered {
				// The scenario says this kind is not for this write, and
				// why: listed with its reason, not counted.
				it.Inapplicable, it.Why = true, "off in the scenario: "+off
			}
			out = append(out, it)
		}
	}
	return out
}

// offFor is the reason the replay plan's entry for q's write gives for
// not sending kind (the entry's or the kind's off), or "".
func offFor(plan []scenarios.ReplayExpect, q record.Request, kind vocab.ReplayKind) string {
	for _, e := range plan {
		m, p, _ := e.Request.Split()
		if e.PhaseOrDefault() != vocab.PhaseHuman || !record.MatchRequest(q.Method, q.Path, m, p) {
			continue
		}
		return cmp.Or(e.Off, e.Rule(kind).Off)
	}
	return ""
}

// lineOf is the request line a scenario names q by (a guarded write, a
// replay entry, a request expectation), else q's own method and path.
func (j *judge) lineOf(q record.Request) string {
	var lines []scenarios.RequestLine
	lines = append(lines, j.sc.Expect.Guarded...)
	for _, r := range j.sc.Expect.Replays {
		lines = append(lines, r.Request)
	}
	for _, r := range j.sc.Expect.Requests {
		lines = append(lines, scenarios.RequestLine(r.Method+" "+r.Path))
	}
	for _, l := range lines {
		if m, p, ok := l.Split(); ok && record.MatchRequest(q.Method, q.Path, m, p) {
			return m + " " + j.template(record.PathOnly(p))
		}
	}
	return q.Method + " " + j.template(record.PathOnly(q.Path))
}

// template is a path with each segment that names one object written *
// (the request lines' pattern), so that the writes to two tasks are one
// write, and a scenario that names the write by its literal path and one
// that names it by a pattern name one write: a segment with a digit in
// it, or one the run's state reads show under a key named like an id.
func (j *judge) template(path string) string {
	ids := map[string]bool{}
	for _, s := range j.ev.States {
		if s == nil {
			continue
		}
		for _, doc := range s.Docs {
			var v any
			if json.Unmarshal(doc, &v) == nil {
				collectIDs(v, ids)
			}
		}
	}
	segs := strings.Split(path, "/")
	for i, seg := range segs {
		if seg != "" && (strings.ContainsAny(seg, "0123456789") || ids[seg]) {
			segs[i] = "*"
		}
	}
	return strings.Join(segs, "/")
}

// collectIDs gathers the string values under keys named like an id (id,
// eventId, event_id) and the keys of objects keyed by such values.
func collectIDs(v any, into map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if s, ok := e.(string); ok && record.IDName(k) {
				into[s] = true
			}
			collectIDs(e, into)
		}
	case []any:
		for _, e := range v {
			collectIDs(e, into)
		}
	}
}

func (j *judge) replayItem(line string, of int, kind vocab.ReplayKind) SurfaceItem {
	it := SurfaceItem{Measure: MeasureWrites, Subject: line, Aspect: string(kind)}
	rp := j.ev.Replays
	switch {
	case rp == nil:
		it.Why = "not replayed: name it in expect.guarded (or expect.replays) for the replay catalogue"
		return it
	case rp.Off != "":
		it.Why = "replays were off: " + rp.Off
		return it
	}
	var why []string
	applies := false
	for _, r := range rp.Runs {
		if r.Kind != kind || r.Of != of {
			continue
		}
		applies = applies || !r.Inapplicable
		switch {
		case r.Skipped != "":
			why = append(why, r.Skipped)
		case r.Fault != "":
			why = append(why, "not performed: "+r.Fault)
		case slices.ContainsFunc(r.Sent, func(s scenarios.ReplaySend) bool { return !s.Prerequisite }):
			it.Covered = true
		}
	}
	switch {
	case it.Covered:
	case !applies && len(why) > 0:
		it.Inapplicable, it.Why = true, strings.Join(slices.Compact(why), "; ")
	case len(why) > 0:
		it.Why = strings.Join(slices.Compact(why), "; ")
	default:
		it.Why = "not replayed: name it in expect.guarded (or expect.replays) for the replay catalogue"
	}
	return it
}

// formSurface: each form the person submitted, as the agent prepared it
// and changed first (a fill step before the click).
func (j *judge) formSurface() []SurfaceItem {
	var out []SurfaceItem
	seen := map[string]int{}
	for _, rv := range j.ev.Reviews {
		if rv.Phase != vocab.PhaseHuman || rv.Form == nil {
			continue
		}
		subject := formSubject(rv)
		k, ok := seen[subject]
		if !ok {
			k = len(out)
			seen[subject] = k
			out = append(out,
				SurfaceItem{Measure: MeasureForms, Subject: subject, Aspect: AspectAsPrepared, Why: "every submit followed a change"},
				SurfaceItem{Measure: MeasureForms, Subject: subject, Aspect: AspectChanged, Why: "no fill step changed it before the click"})
		}
		if j.changedBefore(rv.Index) {
			out[k+1].Covered, out[k+1].Why = true, ""
		} else {
			out[k].Covered, out[k].Why = true, ""
		}
	}
	return out
}

// formSubject names a form by the control clicked and the names of its
// fields: the same form whichever page a scenario starts on (a sign-in
// page first) and whichever of its pages it is reached from.
func formSubject(rv scenarios.Review) string {
	var names []string
	for _, f := range rv.Form {
		if !f.Hidden && !slices.Contains(names, f.Name) {
			names = append(names, f.Name)
		}
	}
	const most = 4
	if len(names) > most {
		names = append(names[:most], "…")
	}
	return "form of " + rv.Click + " (" + strings.Join(names, ", ") + ")"
}

// changedBefore tells whether a human fill step came before the click at
// step i: the form the click submits is no longer the one the agent
// prepared (a review in between does not undo the change).
func (j *judge) changedBefore(i int) bool {
	return slices.ContainsFunc(j.sc.Human[:min(i, len(j.sc.Human))], func(st scenarios.Step) bool { return len(st.Fill) > 0 })
}

// lookSurface: each look at an element whose text the scenario reads and
// whose recorded text shows a value of the phase's probes (text the server
// derives), tied to a state read (text_contains_state) or not. A scenario
// without probes has no look this can tell.
func (j *judge) lookSurface() []SurfaceItem {
	var out []SurfaceItem
	for _, ph := range slices.Sorted(maps.Keys(j.sc.Expect.UI)) {
		state := j.ev.States[ph]
		if state == nil {
			continue
		}
		values := stateValues(state)
		for _, u := range j.sc.Expect.UI[ph] {
			if u.TextContains == "" && u.Text == nil && u.TextContainsState == "" {
				continue
			}
			k := elementOf(j.ev.UI[ph], u)
			if k < 0 || !j.ev.UI[ph][k].Present {
				continue
			}
			el := j.ev.UI[ph][k]
			shown := stateShown(el.Text, values)
			if shown == "" && u.TextContainsState == "" {
				continue
			}
			subject := string(ph) + " · " + u.Selector
			if u.Frame != "" {
				subject += " (in " + u.Frame + ")"
			}
			it := SurfaceItem{Measure: MeasureLooks, Subject: subject, Aspect: AspectTied, Covered: u.TextContainsState != ""}
			if !it.Covered {
				it.Why = fmt.Sprintf("its text shows %q, a value of the state read after the %s phase, and no text_contains_state ties it to one", shown, ph)
			}
			out = append(out, it)
		}
	}
	return out
}

// stateValue is a leaf of a state read, as text.
type stateValue struct {
	text   string
	number bool
}

// stateValues are the string (of three letters or more) and number
// leaves of a state read's probes (the app's own read API, which its
// pages show; the observer's counts and versions are the harness's, and
// matched a date's day by chance), in a stable order.
func stateValues(s *record.Snapshot) []stateValue {
	set := map[stateValue]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		case string:
			if t := strings.TrimSpace(v); len([]rune(t)) >= 3 {
				set[stateValue{t, false}] = true
			}
		case float64:
			set[stateValue{strconv.FormatFloat(v, 'f', -1, 64), true}] = true
		}
	}
	for src, doc := range s.Docs {
		if src == record.ObserverSource {
			continue // the harness's view of the app, not what its pages read
		}
		var v any
		if json.Unmarshal(doc, &v) == nil {
			walk(v)
		}
	}
	return slices.SortedFunc(maps.Keys(set), func(a, b stateValue) int {
		return cmp.Or(strings.Compare(a.text, b.text), cmp.Compare(boolRank(a.number), boolRank(b.number)))
	})
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// stateShown is the first state value text shows as that value
// (showsValue: the rule the ui checks use), or "".
func stateShown(text string, values []stateValue) string {
	for _, v := range values {
		if showsValue(text, v.text, v.number) {
			return v.text
		}
	}
	return ""
}

// cancelSurface: each tool an agent call cancels (cancel_after), and
// whether the cancel landed while it ran (the call's status canceled)
// rather than after its answer.
func (j *judge) cancelSurface() []SurfaceItem {
	var out []SurfaceItem
	seen := map[string]int{}
	for _, c := range j.ev.Calls {
		if c.Call.CancelAfter == nil {
			continue
		}
		k, ok := seen[c.Call.Tool]
		if !ok {
			k = len(out)
			seen[c.Call.Tool] = k
			out = append(out, SurfaceItem{Measure: MeasureCancels, Subject: c.Call.Tool, Aspect: AspectCancelled})
		}
		if c.Result.Status == vocab.Canceled {
			out[k].Covered, out[k].Why = true, ""
		} else if !out[k].Covered {
			out[k].Why = fmt.Sprintf("the call %s (after %s) before its cancel landed: the cancel raced the answer", endedWords(c.Result.Status), c.Result.Duration)
		}
	}
	return out
}

func endedWords(s vocab.Status) string {
	if s == "" {
		return "was not answered"
	}
	return "ended " + string(s)
}
