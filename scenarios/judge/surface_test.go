package judge

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge/judgetest"
	"github.com/agentready/agentready/scenarios/vocab"
)

// conf01Reviewed is Conf01Replayed with the review of the person's click
// on Submit, the form as the agent prepared it.
func conf01Reviewed(t *testing.T) (scenarios.Scenario, *scenarios.Evidence) {
	sc, ev := judgetest.Conf01Replayed(t)
	ev.Reviews = []scenarios.Review{{Phase: vocab.PhaseHuman, Index: 0, Click: "#submit-registration", Requests: ev.Marks[vocab.PhaseHuman].Requests,
		Form: []scenarios.FormField{{Name: "attendeeName", Value: judgetest.Name, Required: true}, {Name: "email", Value: "reader@example.com", Required: true}}}}
	return sc, ev
}

func item(items []SurfaceItem, m Measure, subject, aspect string) (SurfaceItem, bool) {
	for _, it := range items {
		if it.Measure == m && strings.Contains(it.Subject, subject) && it.Aspect == aspect {
			return it, true
		}
	}
	return SurfaceItem{}, false
}

// CONF-01 attempt 3 with its replays: every kind of the person's write
// covered; the tool called with a valid input only; the form submitted as
// prepared only; the seats tied to the state read.
func TestTheSurfaceOfARecordedRun(t *testing.T) {
	sc, ev := conf01Reviewed(t)
	items := Surface(sc, ev)
	for _, kind := range vocab.ReplayKinds {
		if it, ok := item(items, MeasureWrites, "POST /api/registrations", string(kind)); !ok || !it.Covered {
			t.Errorf("write, %s: %+v (found %v)", kind, it, ok)
		}
	}
	for _, want := range []struct {
		m               Measure
		subject, aspect string
		covered         bool
	}{
		{MeasureTools, "prepare_event_registration", AspectValidInput, true},
		{MeasureTools, "prepare_event_registration", AspectInvalidInput, false},
		{MeasureForms, "form of #submit-registration (attendeeName, email)", AspectAsPrepared, true},
		{MeasureForms, "form of #submit-registration (attendeeName, email)", AspectChanged, false},
		{MeasureLooks, "human · #seats-left", AspectTied, true},
	} {
		it, ok := item(items, want.m, want.subject, want.aspect)
		if !ok || it.Covered != want.covered || (!it.Covered && it.Why == "") {
			t.Errorf("%s %s %s: %+v (found %v), want covered %v", want.m, want.subject, want.aspect, it, ok, want.covered)
		}
	}
}

// Known bad: each gap a run leaves is named, never covered.
func TestWhatARunLeavesIsNotCovered(t *testing.T) {
	sc, ev := conf01Reviewed(t)
	ev.Replays = &scenarios.Replays{Off: "agentready run --replays off"}
	if it, _ := item(Surface(sc, ev), MeasureWrites, "POST /api/registrations", string(vocab.ReplayNoSession)); it.Covered || !strings.Contains(it.Why, "replays were off") {
		t.Errorf("replays off: %+v", it)
	}
	ev.Replays = nil
	if it, _ := item(Surface(sc, ev), MeasureWrites, "POST /api/registrations", string(vocab.ReplayRace)); it.Covered || !strings.Contains(it.Why, "expect.guarded") {
		t.Errorf("no replays: %+v", it)
	}
	sc, ev = conf01Reviewed(t)
	judgetest.ReplayRun(ev, vocab.ReplayExpired).Skipped = "the app serves no clock endpoint"
	if it, _ := item(Surface(sc, ev), MeasureWrites, "POST /api/registrations", string(vocab.ReplayExpired)); it.Covered || !strings.Contains(it.Why, "no clock") {
		t.Errorf("a skipped kind: %+v", it)
	}
	for i, u := range sc.Expect.UI[vocab.PhaseHuman] {
		if u.Selector == "#seats-left" {
			sc.Expect.UI[vocab.PhaseHuman][i].TextContainsState = ""
		}
	}
	if it, ok := item(Surface(sc, ev), MeasureLooks, "human · #seats-left", AspectTied); !ok || it.Covered || !strings.Contains(it.Why, "text_contains_state") {
		t.Errorf("a look not tied: %+v (found %v)", it, ok)
	}
	sc.Human = append([]scenarios.Step{{Fill: map[string]string{"#email": "other@example.com"}}}, sc.Human...)
	ev.Reviews[0].Index++
	if it, _ := item(Surface(sc, ev), MeasureForms, "form of #submit-registration (attendeeName, email)", AspectChanged); !it.Covered {
		t.Errorf("a form changed first: %+v", it)
	}
}

// A write the scenario names by no pattern is named by its template: the
// segments that name an object (a digit, an id of the state) as *.
func TestAWriteIsNamedByItsTemplate(t *testing.T) {
	sc, ev := conf01Reviewed(t)
	j := &judge{sc: sc, ev: ev}
	for path, want := range map[string]string{
		"/api/tasks/task-0008":              "/api/tasks/*",
		"/api/events/evt-webmcp-intro/tips": "/api/events/*/tips",
		"/api/registrations":                "/api/registrations",
		"/api/events/evt-not-in-state/tips": "/api/events/evt-not-in-state/tips",
	} {
		if got := j.template(path); got != want {
			t.Errorf("%s: %s, want %s", path, got, want)
		}
	}
}

// A kind the write has nothing for (no precondition for stale) is not a
// gap: listed as inapplicable, never counted. Known bad: the same skip
// for a cause of the run's (no clock) is a gap.
func TestAnInapplicableKindIsNoGap(t *testing.T) {
	sc, ev := conf01Reviewed(t)
	stale := judgetest.ReplayRun(ev, vocab.ReplayStale)
	stale.Sent, stale.After, stale.Skipped, stale.Inapplicable = nil, nil, "the request carries no precondition", true
	if it, _ := item(Surface(sc, ev), MeasureWrites, "POST /api/registrations", string(vocab.ReplayStale)); it.Covered || !it.Inapplicable {
		t.Errorf("stale with nothing to change: %+v", it)
	}
	stale.Inapplicable = false
	if it, _ := item(Surface(sc, ev), MeasureWrites, "POST /api/registrations", string(vocab.ReplayStale)); it.Covered || it.Inapplicable {
		t.Errorf("a skip of the run's: %+v", it)
	}
}

// A kind the scenario turns off for a write, with its reason, is listed
// with the reason and not counted; known bad: without the off, the same
// missing run is a gap.
func TestAKindTurnedOffIsListedWithItsReason(t *testing.T) {
	sc, ev := conf01Reviewed(t)
	ev.Replays.Runs = slices.DeleteFunc(ev.Replays.Runs, func(r scenarios.ReplayRun) bool { return r.Kind == vocab.ReplayRace })
	if it, _ := item(Surface(sc, ev), MeasureWrites, "POST /api/registrations", string(vocab.ReplayRace)); it.Covered || it.Inapplicable {
		t.Errorf("race missing: %+v", it)
	}
	sc.Expect.Replays = []scenarios.ReplayExpect{{Request: "POST /api/registrations", Race: &scenarios.ReplayRule{Off: "each copy is a new registration on purpose"}}}
	if it, _ := item(Surface(sc, ev), MeasureWrites, "POST /api/registrations", string(vocab.ReplayRace)); !it.Inapplicable || !strings.Contains(it.Why, "on purpose") {
		t.Errorf("race off: %+v", it)
	}
}

// A tool is its name (and frame), whatever page a scenario read it on. One
// that declares no input has no invalid way; known bad: one that declares
// a property has.
func TestAToolIsItsNameAndWhatItTakes(t *testing.T) {
	sc, ev := conf01Reviewed(t)
	sc.Start = "/login?next=/events/evt-webmcp-intro/register"
	ev.Catalog = append(ev.Catalog, record.Tool{Name: "list_all", InputSchema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)})
	items := Surface(sc, ev)
	if it, ok := item(items, MeasureTools, "prepare_event_registration", AspectInvalidInput); !ok || it.Subject != "prepare_event_registration" {
		t.Errorf("the tool is not named by its name alone: %+v", it)
	}
	if _, ok := item(items, MeasureTools, "list_all", AspectInvalidInput); ok {
		t.Error("a tool that takes no input has an invalid way")
	}
	if _, ok := item(items, MeasureTools, "list_all", AspectValidInput); !ok {
		t.Error("a tool that takes no input has no valid way")
	}
}

// A look is its frame and its selector, as the ui checks read it: the
// same selector in another frame is another element. Known bad, before:
// the top document's #seats-left stood in for a frame's.
func TestALookIsItsFrameAndSelector(t *testing.T) {
	sc, ev := conf01Reviewed(t)
	for i, u := range sc.Expect.UI[vocab.PhaseHuman] {
		if u.Selector == "#seats-left" {
			sc.Expect.UI[vocab.PhaseHuman][i].Frame = "#widget"
			sc.Expect.UI[vocab.PhaseHuman][i].TextContainsState = ""
		}
	}
	if _, ok := item(Surface(sc, ev), MeasureLooks, "human · #seats-left", AspectTied); ok {
		t.Error("the top document's element was read as the frame's")
	}
}

// A call covers the tool it ran, by the trace's invocation: the frame's,
// not the top document's of the same name. Known bad, before: calls and
// tools were matched by name and whether either named a frame.
func TestACallCoversTheToolItRan(t *testing.T) {
	sc, ev := conf01Reviewed(t)
	top := ev.Catalog[0]
	framed := top
	framed.FrameID, framed.Frame = "F2", "http://127.0.0.1:1/widget"
	ev.Catalog = append(ev.Catalog, framed)
	ev.Trace = []record.Event{
		{Kind: record.ToolsAdded, Tools: []record.Tool{top, framed}},
		{Kind: record.ToolInvoked, ToolName: top.Name, FrameID: "F2", InvocationID: "inv-f2"},
	}
	for i := range ev.Calls {
		ev.Calls[i].Result.InvocationID = "inv-f2"
	}
	items := Surface(sc, ev)
	if it, _ := item(items, MeasureTools, top.Name+" (in /widget)", AspectValidInput); !it.Covered {
		t.Errorf("the frame's tool, which the call ran: %+v", it)
	}
	for _, it := range items {
		if it.Subject == top.Name && it.Aspect == AspectValidInput && it.Covered {
			t.Errorf("the top document's tool, which no call ran, is covered: %+v", it)
		}
	}
}
