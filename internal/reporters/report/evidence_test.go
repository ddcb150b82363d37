package report

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/judge/judgetest"
	"github.com/agentready/agentready/scenarios/vocab"
)

// verdictLevel are the checks about the verdict as a whole, which no row
// stands for: no evidence at all, and a scenario that expects nothing.
var verdictLevel = []string{"evidence", "expectations"}

// TestEveryCheckLinksARow: over the known-bad records (every code the judge
// can answer, and every kind of check among them) and the known-good ones,
// every check links at least one row of the timeline, and each of those
// rows shows evidence the check named. A check kind whose evidence no row
// shows (a new kind of reference, a row that forgot its own) fails here.
func TestEveryCheckLinksARow(t *testing.T) {
	type record struct {
		name string
		make func(testing.TB) (scenarios.Scenario, *scenarios.Evidence)
	}
	records := []record{{"CONF-01 as it should be", judgetest.Conf01}, {"CONF-01 with content", judgetest.Conf01Content}, {"the confirm record", judgetest.Confirm}}
	for _, c := range judgetest.KnownBad() {
		records = append(records, record{c.Name, c.Make})
	}
	kinds := map[string]bool{}
	for _, r := range records {
		t.Run(r.name, func(t *testing.T) {
			sc, ev := r.make(t)
			b := bundle.Bundle{Scenario: sc, Evidence: ev, Verdict: judge.Judge(sc, ev)}
			tl := BuildTimeline(b)
			for k, c := range b.Verdict.Checks {
				kinds[checkKind(c)] = true
				if len(tl.Checks[k]) == 0 && !slices.Contains(verdictLevel, c.ID) {
					t.Errorf("%s (%s %s, evidence %v) links no row of the timeline", c.ID, c.Status, c.Code, c.Evidence)
				}
				for _, n := range tl.Checks[k] {
					row := tl.Rows[n-1]
					if !slices.ContainsFunc(row.refs, func(ref scenarios.Ref) bool { return slices.Contains(c.Evidence, ref) }) {
						t.Errorf("%s links row %d (%s), which shows none of its evidence", c.ID, n, line(row))
					}
				}
			}
		})
	}
	// The kinds of check the records reach: a kind the judge makes and no
	// record reaches is not proven here.
	for _, want := range []string{"fail content_mismatch", "fail submitted_not_reviewed", "fail ui_mismatch page", "fail server_rule_broken",
		"inconclusive harness_fault", "inconclusive browser_lost", "inconclusive run_interrupted"} {
		if !kinds[want] {
			t.Errorf("no record reaches a %s check", want)
		}
	}
}

// checkKind names a check by its status, code and (for a page check, which
// shares its code with the UI's) what it looked at.
func checkKind(c judge.Check) string {
	k := fmt.Sprintf("%s %s", c.Status, c.Code)
	if slices.ContainsFunc(c.Evidence, func(r scenarios.Ref) bool { return r.Kind == vocab.RefPage }) {
		k += " page"
	}
	return k
}

// A failing content, submitted and page check each name the request or the
// look they used, and the report links those rows, in the timeline and
// from the check.
func TestContentSubmittedAndPageChecksLinkWhatTheyUsed(t *testing.T) {
	for _, tt := range []struct {
		bad  string // a judgetest.KnownBad case
		code vocab.Code
		rows []string // what the failing check's rows say
	}{
		{"the registration carried another email", vocab.ContentMismatch, []string{"human request: POST /api/registrations → 201"}},
		{"the person saw another email than was sent", vocab.SubmittedNotReviewed, []string{"human step: clicks #submit-registration", "human request: POST /api/registrations → 201"}},
		{"the page ends up elsewhere", vocab.UIMismatch, []string{"human page: the page after the person is at https://localhost:8443/events"}},
	} {
		t.Run(tt.bad, func(t *testing.T) {
			i := slices.IndexFunc(judgetest.KnownBad(), func(c judgetest.Case) bool { return c.Name == tt.bad })
			if i < 0 {
				t.Fatalf("no known-bad case %q", tt.bad)
			}
			sc, ev := judgetest.KnownBad()[i].Make(t)
			b := bundle.Bundle{Scenario: sc, Evidence: ev, Verdict: judge.Judge(sc, ev)}
			tl := BuildTimeline(b)
			k := slices.IndexFunc(b.Verdict.Checks, func(c judge.Check) bool { return c.Status == vocab.CheckFail && c.Code == tt.code })
			if k < 0 {
				t.Fatalf("no failing %s check:\n%s", tt.code, judge.Explain(b.Verdict))
			}
			var got []string
			for _, n := range tl.Checks[k] {
				got = append(got, line(tl.Rows[n-1]))
			}
			if !slices.Equal(got, tt.rows) {
				t.Errorf("%s links\n  %s\nwant\n  %s", b.Verdict.Checks[k].ID, strings.Join(got, "\n  "), strings.Join(tt.rows, "\n  "))
			}
			page := string(HTML(b))
			for _, n := range tl.Checks[k] {
				if want := fmt.Sprintf(`<a href="#ev-%d">#%d `, n, n); !strings.Contains(page, want) {
					t.Errorf("the failed check does not link row %d in the page", n)
				}
			}
			if strings.Contains(page, "no row of the timeline") {
				t.Error(`a check of the page says "no row of the timeline"`)
			}
		})
	}
}

// A long value shows as an excerpt, and the whole of it is one click away:
// a link to the bundle file that holds it, once (the trace, for a call's
// answer stored there).
func TestALongValueIsAnExcerptWithTheWholeOneClickAway(t *testing.T) {
	sc, ev := judgetest.Conf01(t)
	out := []byte(`{"ok":false,"code":"CONFIRMATION_REQUIRED","retryable":false,"eventId":"evt-webmcp-intro","note":"` + strings.Repeat("y", 50_000) + `END"}`)
	ev.Calls[0].Result.Output, ev.Trace[2].Output = out, out
	page := string(HTML(bundle.Bundle{Scenario: sc, Evidence: ev, Verdict: judge.Judge(sc, ev)}))
	if strings.Contains(page, "yyyyEND") {
		t.Error("the page holds the whole value")
	}
	if !strings.Contains(page, "[cut: 50") || !strings.Contains(page, `<a class="whole" href="trace.json">the whole value: trace.json</a>`) {
		t.Error("the answer's excerpt does not say it is cut, or does not link to the trace that holds it")
	}
	if len(page) > 200_000 {
		t.Errorf("the page is %d bytes for a 50 kB value: it copies it", len(page))
	}
}

// TestTheAppsOutputIsShownWhenTheSuiteStartedIt: a bundle of a started app
// shows its last lines (escaped); one without says nothing about an app.
func TestTheAppsOutputIsShownWhenTheSuiteStartedIt(t *testing.T) {
	sc, ev := judgetest.Conf01(t)
	without := string(HTML(bundle.Bundle{Scenario: sc, Evidence: ev, Verdict: judge.Judge(sc, ev)}))
	if strings.Contains(without, "The app's output") {
		t.Error("a bundle without app output shows an app output section")
	}
	ev.AppOutput = []string{"listening on :4173", "panic: <nil map>"}
	with := string(HTML(bundle.Bundle{Scenario: sc, Evidence: ev, Verdict: judge.Judge(sc, ev)}))
	if !strings.Contains(with, "The app&#39;s output") && !strings.Contains(with, "The app's output") {
		t.Fatal("the app's output has no section")
	}
	for _, line := range []string{"listening on :4173", "panic: &lt;nil map&gt;"} {
		if !strings.Contains(with, line) {
			t.Errorf("the page does not show the app's line %q", line)
		}
	}
}

// The dialogue is shown: each question and the person's reply, or that
// none fitted; a bundle without one shows none.
func TestTheDialogueIsShown(t *testing.T) {
	sc, ev := judgetest.Conf01(t)
	if page := string(HTML(bundle.Bundle{Scenario: sc, Evidence: ev, Verdict: judge.Judge(sc, ev)})); strings.Contains(page, "The agent asked") {
		t.Error("a bundle without a dialogue shows one")
	}
	ev.Dialogue = []scenarios.Turn{{Asked: "Which email?", Reply: 0, Says: "reader@example.com"}, {AfterCalls: 1, Asked: "Anything else?", Reply: -1}}
	page := string(HTML(bundle.Bundle{Scenario: sc, Evidence: ev, Verdict: judge.Judge(sc, ev)}))
	for _, want := range []string{"Which email?", "reader@example.com", "(after 1 call(s))", "Anything else?", "the dialogue ended"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
