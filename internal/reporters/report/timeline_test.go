package report

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/judge/judgetest"
	"github.com/agentready/agentready/scenarios/vocab"
)

// line is a row as a test names it: kind, phase and what.
func line(r Row) string { return fmt.Sprintf("%s %s: %s", r.Phase, r.Kind, r.What) }

func TestTheTimelineOrdersEverySourceByPhaseAndTime(t *testing.T) {
	sc, ev := judgetest.Confirm(t)
	b := bundle.Bundle{Scenario: sc, Evidence: ev, Verdict: judge.Judge(sc, ev)}
	if b.Verdict.Outcome != vocab.Pass {
		t.Fatalf("the record should pass:\n%s", judge.Explain(b.Verdict))
	}
	var got []string
	for _, r := range BuildTimeline(b).Rows {
		got = append(got, line(r))
	}
	want := []string{
		"setup request: GET /register → 200",
		"setup tool: tools added: prepare",
		"setup catalog: the start page offers 1 tool(s)",
		"agent mark: the agent's phase starts",
		"agent request: GET /api/event → 200 (the harness reads the state)",
		"agent state: the state before the agent: read event",
		"agent call: calls prepare",
		"agent answer: prepare answered: completed in 10 ms",
		"agent final: the agent's final words",
		"agent ui: the page after the agent: 1 element(s) read",
		"agent window: the person's review: 3s of page time",
		"human mark: the person's phase starts",
		"human request: GET /api/event → 200 (the harness reads the state)",
		"human state: the state after the agent: unchanged",
		"human step: clicks #submit",
		"human request: POST /api/registrations → 201",
		"human step: waits for POST /api/registrations",
		"end mark: the run ends: after the last step",
		"end request: GET /api/event → 200 (the harness reads the state)",
		"end state: the state after the person: event changed",
	}
	if !slices.Equal(got, want) {
		t.Errorf("timeline:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestARequestTheJournalRecordedShowsBothAndTheStateShowsWhatChanged(t *testing.T) {
	sc, ev := judgetest.Confirm(t)
	tl := BuildTimeline(bundle.Bundle{Scenario: sc, Evidence: ev, Verdict: judge.Judge(sc, ev)})
	post := rowWhere(t, tl, "POST /api/registrations → 201")
	if post.Journal != "the app's journal: 201 REGISTERED" || !slices.Contains(post.refs, scenarios.JournalRef(3)) {
		t.Errorf("the POST's row: journal %q, refs %v", post.Journal, post.refs)
	}
	for _, r := range tl.Rows {
		if r.Kind == RowJournal {
			t.Errorf("every journal entry has its request: %s", line(r))
		}
	}
	state := rowWhere(t, tl, "the state after the person: event changed")
	if len(state.Changes) != 1 || state.Changes[0].Source != "event" || state.Changes[0].Pointer != "/seats" ||
		string(state.Changes[0].Expected) != "8" || string(state.Changes[0].Actual) != "7" {
		t.Errorf("what changed: %+v", state.Changes)
	}
}

func rowWhere(t *testing.T, tl Timeline, what string) Row {
	t.Helper()
	for _, r := range tl.Rows {
		if r.What == what {
			return r
		}
	}
	t.Fatalf("no row %q", what)
	return Row{}
}

// Every check is tied to the rows it used, and each of those rows to it.
func TestChecksLinkTheRowsTheyUsed(t *testing.T) {
	sc, ev := judgetest.Confirm(t)
	sc.Expect.Requests[1].Count = 2 // one POST in the human phase: this fails
	b := bundle.Bundle{Scenario: sc, Evidence: ev, Verdict: judge.Judge(sc, ev)}
	tl := BuildTimeline(b)
	rowsOf := func(id string) []string {
		t.Helper()
		k := slices.IndexFunc(b.Verdict.Checks, func(c judge.Check) bool { return c.ID == id })
		if k < 0 {
			t.Fatalf("no check %s among %v", id, checkIDs(b.Verdict))
		}
		var out []string
		for _, n := range tl.Checks[k] {
			r := tl.Rows[n-1]
			if !slices.Contains(r.Checks, k) {
				t.Errorf("row %d is used by %s but does not say so", n, id)
			}
			out = append(out, line(r))
		}
		return out
	}
	for _, tt := range []struct {
		id   string
		want []string
	}{
		{"requests[1] POST /api/registrations (human).network", []string{"human request: POST /api/registrations → 201"}},
		{"requests[1] POST /api/registrations (human).journal", []string{"human request: POST /api/registrations → 201"}},
		// a count that found nothing links the window it looked in
		{"requests[0] POST /api/registrations (agent).network", []string{"agent mark: the agent's phase starts"}},
		{"guarded[0] POST /api/registrations", []string{"agent mark: the agent's phase starts"}},
		{"call.agent[0].prepare.status", []string{"agent call: calls prepare", "agent answer: prepare answered: completed in 10 ms"}},
		{"call.agent[0].prepare.output", []string{"agent call: calls prepare", "agent answer: prepare answered: completed in 10 ms"}},
		{"state.agent.unchanged", []string{"agent state: the state before the agent: read event", "human state: the state after the agent: unchanged"}},
		{"state.human.equals $.event.seats", []string{"end state: the state after the person: event changed"}},
		{"ui.agent[0] #submit", []string{"agent ui: the page after the agent: 1 element(s) read"}},
		{"answer.must_mention[0]", []string{"agent final: the agent's final words"}},
		{"trace.agreement", []string{"agent call: calls prepare", "agent answer: prepare answered: completed in 10 ms"}},
	} {
		if got := rowsOf(tt.id); !slices.Equal(got, tt.want) {
			t.Errorf("%s uses\n  %s\nwant\n  %s", tt.id, strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
		}
	}
	// The failed check, in the page: its rows are links, and the rows link back.
	page := string(HTML(b))
	k := slices.IndexFunc(b.Verdict.Checks, func(c judge.Check) bool { return c.Status == vocab.CheckFail })
	post := rowWhere(t, tl, "POST /api/registrations → 201")
	for _, want := range []string{
		fmt.Sprintf(`<div class="check fail" id="check-%d">`, k+1),
		fmt.Sprintf(`<a href="#ev-%d">#%d human: POST /api/registrations → 201</a>`, post.N, post.N),
		fmt.Sprintf(`<a class="chk fail" href="#check-%d"`, k+1),
		fmt.Sprintf(`<tr id="ev-%d" class="request counted">`, post.N),
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
}

func checkIDs(v judge.Verdict) []string {
	var out []string
	for _, c := range v.Checks {
		out = append(out, c.ID)
	}
	return out
}

// A check's JSON differences are shown one a line, by JSON pointer, with
// "nothing" where a side holds nothing.
func TestDifferencesShowByPointer(t *testing.T) {
	sc, ev := judgetest.Confirm(t)
	ev.Calls[0].Result.Output = json.RawMessage(`{"code":"REGISTERED","extra":1}`)
	sc.Agent.Calls[0].Expect.Match = scenarios.MatchExact
	sc.Agent.Calls[0].Expect.Output = map[string]any{"code": "CONFIRMATION_REQUIRED", "retryable": false}
	b := bundle.Bundle{Scenario: sc, Evidence: ev, Verdict: judge.Judge(sc, ev)}
	page := string(HTML(b))
	for _, want := range []string{
		`<tr><td class="v">/code</td><td class="v">&#34;CONFIRMATION_REQUIRED&#34;</td><td class="v">&#34;REGISTERED&#34;</td></tr>`,
		`<tr><td class="v">/extra</td><td class="v">nothing</td><td class="v">1</td></tr>`,
		`<tr><td class="v">/retryable</td><td class="v">false</td><td class="v">nothing</td></tr>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks the difference %s", want)
		}
	}
}

// Whatever the record holds, the page stays markup of ours: values are
// escaped, no script, no handler, the CSP as it is.
func TestTheReportEscapesEveryRecordedValue(t *testing.T) {
	sc, ev := judgetest.Confirm(t)
	evil := `<script>document.title="pwned"</script><img src=x onerror="document.title='pwned'">`
	final := "Please submit. " + evil
	ev.Final = &final
	ev.Calls[0].Result.Output = json.RawMessage(`{"code":"CONFIRMATION_REQUIRED","note":` + string(mustJSON(evil)) + `}`)
	ev.Requests[3].Body = evil
	ev.Requests[3].Path = "/api/registrations?q=" + evil
	ev.States[vocab.PhaseHuman] = &record.Snapshot{Docs: map[string]json.RawMessage{"event": json.RawMessage(`{"seats":7,` + string(mustJSON(evil)) + `:1}`)}}
	ev.UI[vocab.PhaseAgent][0].Text = evil
	ev.Console = []record.ConsoleEntry{{Type: "error", Text: evil}}
	b := bundle.Bundle{Scenario: sc, Evidence: ev, Verdict: judge.Judge(sc, ev)}
	page := string(HTML(b))
	if n := strings.Count(page, "&lt;script&gt;"); n < 5 {
		t.Errorf("the hostile value shows escaped %d times, want it everywhere it was recorded", n)
	}
	// Outside markup of ours, every < is escaped: a tag with a handler
	// could only be one the page itself holds.
	if m := regexp.MustCompile(`(?i)<script|<[^>]*\son\w+\s*=`).FindString(page); m != "" {
		t.Errorf("the page has a script or an event handler: %s", m)
	}
	if !strings.Contains(page, `content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`) {
		t.Error("the CSP changed")
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// A run cut short has no marks: the timeline still shows what the tab held,
// in one segment, and nothing links to a mark that is not there.
func TestATimelineWithoutMarks(t *testing.T) {
	sc, ev := judgetest.Confirm(t)
	ev.Marks = map[vocab.Phase]scenarios.Mark{}
	ev.States, ev.UI, ev.Calls, ev.Windows = map[vocab.Phase]*record.Snapshot{}, map[vocab.Phase][]record.Element{}, []scenarios.CallRecord{}, nil
	b := bundle.Bundle{Scenario: sc, Evidence: ev, Verdict: judge.Judge(sc, ev)}
	tl := BuildTimeline(b)
	for _, r := range tl.Rows {
		if r.Phase != vocab.PhaseSetup || r.Kind == RowMark {
			t.Errorf("without marks every row is before the agent: %s", line(r))
		}
	}
	if n := len(tl.Rows); n < len(ev.Requests)+len(ev.Trace)-1 {
		t.Errorf("%d rows for %d requests and %d events", n, len(ev.Requests), len(ev.Trace))
	}
	_ = HTML(b) // renders
}

// The records one by one show everything a UI check or a submitted check
// reads: the page's URL, an element's frame, count, checked state and
// attributes, and what the person had before them at each click.
func TestTheReportShowsWhatTheNewerChecksRead(t *testing.T) {
	sc, ev := judgetest.Confirm(t)
	ev.Pages = map[vocab.Phase]string{vocab.PhaseHuman: "https://app.test/registrations?after=confirm-page-url"}
	el := &ev.UI[vocab.PhaseAgent][0]
	el.Frame, el.Count, el.Checked, el.Attributes = "#frame-seen", 7, true, map[string]string{"aria-expanded": "attribute-seen"}
	ev.Reviews = []scenarios.Review{{Phase: vocab.PhaseHuman, Index: 1, Click: "#save-clicked", Requests: 4,
		Form: []scenarios.FormField{{Name: "title", Value: "value-at-the-click"}, {Name: "csrf", Value: "hidden-value", Hidden: true}},
		Seen: map[string]string{"#preview .title": "text-seen-at-the-click", "#hidden-named": "x"}, SeenHidden: []string{"#hidden-named"}}}
	page := string(HTML(bundle.Bundle{Scenario: sc, Evidence: ev, Verdict: judge.Judge(sc, ev)}))
	for _, want := range []string{"confirm-page-url", "#frame-seen", "<td>7</td>", "attribute-seen", "#save-clicked",
		"value-at-the-click", "hidden-value (hidden)", "text-seen-at-the-click", "not visible: #hidden-named"} {
		if !strings.Contains(page, want) {
			t.Errorf("the report does not show %q", want)
		}
	}
}

// A call the person's step answered (answered_in: human) spans both
// phases: the call in the agent's, its answer in the person's, after the
// person's submit sent its request, where the browser reported it.
func TestACallAnsweredLaterShowsItsAnswerInThatPhase(t *testing.T) {
	sc, ev := judgetest.Confirm(t)
	i := slices.IndexFunc(ev.Trace, func(e record.Event) bool { return e.Kind == record.ToolResponded })
	human, end := ev.Marks[vocab.PhaseHuman], ev.Marks[vocab.PhaseEnd]
	if i < 0 || i >= human.Trace {
		t.Fatalf("the sample's answer is at %d, the person's mark at %d", i, human.Trace)
	}
	answer := ev.Trace[i]
	answer.Time = answer.Time.Add(time.Minute) // well after the person's request
	trace := slices.Delete(slices.Clone(ev.Trace), i, i+1)
	ev.Trace = slices.Insert(trace, end.Trace-1, answer) // the person's segment's last event
	human.Trace--
	ev.Marks[vocab.PhaseHuman] = human
	b := bundle.Bundle{Scenario: sc, Evidence: ev, Verdict: judge.Judge(sc, ev)}
	var got []string
	for _, r := range BuildTimeline(b).Rows {
		if r.Kind == RowCall || r.Kind == RowAnswer || r.Kind == RowTool && strings.Contains(r.What, "answered") {
			got = append(got, line(r))
		}
	}
	want := []string{"agent call: calls prepare", "human answer: prepare answered: completed in 10 ms"}
	if !slices.Equal(got, want) {
		t.Errorf("the call's rows: %q, want %q", got, want)
	}
}
