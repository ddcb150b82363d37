package judge

import (
	"regexp"
	"slices"
	"testing"

	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge/judgetest"
	"github.com/agentready/agentready/scenarios/vocab"
)

type judged struct {
	name    string
	verdict Verdict
}

// everyJudgedFixture judges every record the judge's tests hold: the good
// ones, judgetest's known-bad cases and each mutation table's rows.
func everyJudgedFixture(t *testing.T) []judged {
	var out []judged
	for _, g := range []struct {
		name string
		make func(testing.TB) (scenarios.Scenario, *scenarios.Evidence)
	}{{"Conf01", judgetest.Conf01}, {"Conf01Content", judgetest.Conf01Content}, {"Conf01Replayed", judgetest.Conf01Replayed}} {
		sc, ev := g.make(t)
		out = append(out, judged{g.name, Judge(sc, ev)})
	}
	for _, c := range judgetest.KnownBad() {
		sc, ev := c.Make(t)
		out = append(out, judged{"known-bad " + c.Name, Judge(sc, ev)})
	}
	// The replay kinds the known-bad cases leave out, each accepted.
	for _, r := range []struct {
		name string
		kind vocab.ReplayKind
	}{{"replays: a replay with no session accepted", vocab.ReplayNoSession},
		{"replays: a replay from another session accepted", vocab.ReplayOtherSession},
		{"replays: a replay with a stale precondition accepted", vocab.ReplayStale}} {
		sc, ev := judgetest.Conf01Replayed(t)
		judgetest.ReplayRun(ev, r.kind).Sent[0] = judgetest.ReplayAnswer{Status: 201, Code: "REGISTERED"}.Send()
		out = append(out, judged{r.name, Judge(sc, ev)})
	}
	{
		sc, ev := reviewedRun(t)
		out = append(out, judged{"reviewed", Judge(sc, ev)})
		setRegistration(ev, `{"eventId":"evt-webmcp-intro","attendeeName":"`+judgetest.Name+`","email":"last.visit@example.com","intentId":"int_1"}`)
		out = append(out, judged{"reviewed: the email sent is not the one the person saw", Judge(sc, ev)})
	}
	for _, table := range []struct {
		name string
		good func(*testing.T) (scenarios.Scenario, *scenarios.Evidence)
		rows []mutation
	}{{"CONF-01", goodConf01, conf01Mutations()}, {"AMB-01", goodAmb01, amb01Mutations()}, {"pizza", goodPizza, pizzaMutations()}} {
		sc, ev := table.good(t)
		out = append(out, judged{table.name, Judge(sc, ev)})
		for _, m := range table.rows {
			sc, ev := table.good(t)
			m.mutate(t, &sc, ev)
			out = append(out, judged{table.name + ": " + m.name, Judge(sc, ev)})
		}
	}
	return out
}

// checkKinds is every kind of check the judge makes, each with the
// known-bad record (a fixture's name in everyJudgedFixture) that FAILs a
// check of that kind, or why no check of the kind ever fails. Issue 43
// item 10: the gate counted codes, and catalog.agreement, the witnesses and
// every *.agreement share one code, so a new check needed no failing case.
var checkKinds = []struct {
	kind    string
	pattern string // the check IDs of the kind
	failsIn string // the fixture that fails it
	never   string // or why it never fails
}{
	{"answer.asks", `^answer\.asks$`, "known-bad the final words ask nothing", ""},
	{"answer.asks_first", `^answer\.asks_first$`, "known-bad the agent called before it asked the person", ""},
	{"answer.must_mention", `^answer\.must_mention\[\d+\]$`, "known-bad the final words do not say to submit", ""},
	{"answer.must_not_claim", `^answer\.must_not_claim\[\d+\]$`, "known-bad the final words claim the registration", ""},
	{"call.input", `^call\.\w+\[\d+\]\.[\w.-]+\.input$`, "known-bad a call the scenario does not allow", ""},
	{"call.output", `^call\.\w+\[\d+\]\.[\w.-]+\.output$`, "known-bad another result code", ""},
	{"call.output_contains", `^call\.\w+\[\d+\]\.[\w.-]+\.output_contains$`, "pizza: the offers' text does not mention the Margherita", ""},
	{"call.output_text", `^call\.\w+\[\d+\]\.[\w.-]+\.output_text$`, "pizza: the page API's text names another size", ""},
	{"call.status", `^call\.\w+\[\d+\]\.[\w.-]+\.status$`, "known-bad a declarative tool that never answered", ""},
	{"call.offered", `^call\.\w+\[\d+\]\.[\w.-]+\.offered$`, "known-bad a call of a tool the page did not offer", ""},
	{"calls.exactly", `^calls\.exactly\[\d+\]$`, "known-bad no call at all", ""},
	{"calls.extra", `^calls\.extra\.\w+\[\d+\]$`, "known-bad a call the scenario does not allow", ""},
	{"calls.none", `^calls\.none$`, "", "the line of a run with no call; each call made fails as calls.none.<phase>[i]"},
	{"calls.none.phase", `^calls\.none\.\w+\[\d+\]$`, "AMB-01: the agent calls search_events", ""},
	{"case.prompt", `^case\.prompt$`, "", "case_incomplete is a defect of the case: INCONCLUSIVE"},
	{"case.tool", `^case\.tool$`, "", "case_incomplete is a defect of the case: INCONCLUSIVE"},
	{"catalog.agreement", `^catalog\.agreement$`, "CONF-01: getTools() disagrees with the protocol catalog", ""},
	{"catalog.autosubmit", `^catalog\.autosubmit\.[\w.-]+$`, "CONF-01: the tool lacks toolautosubmit", ""},
	{"catalog.contract", `^catalog\.contract$`, "known-bad the tool's description drifted from its contract", ""},
	{"catalog.exactly", `^catalog\.exactly$`, "known-bad the page offers another tool too", ""},
	{"catalog.read_only", `^catalog\.read_only\.[\w.-]+$`, "AMB-01: search_events is not read-only", ""},
	{"catalog.schemas", `^catalog\.schemas\.[\w.-]+$`, "known-bad the schema lost a required field", ""},
	{"content.body", `^content\[\d+\] \S+ \S+ \(\w+\)\.body\[\d+\]$`, "known-bad the registration carried another email", ""},
	{"dialogs.forbid", `^dialogs\.forbid\[\d+\]$`, "known-bad a dialog the scenario forbids", ""},
	{"dialogs.require", `^dialogs\.require\[\d+\]$`, "known-bad no dialog where the scenario requires one", ""},
	{"direct", `^direct\.\w+\[\d+\] \S+ \S+$`, "known-bad the server takes a second registration sent straight to it", ""},
	{"embedder.tools", `^embedder\.tools$`, "known-bad the embedder's page offers the app's tools, unasked", ""},
	{"embedder.writes", `^embedder\.writes$`, "known-bad the embedder's agent made the app write", ""},
	{"guarded", `^guarded\[\d+\] \S+ \S+$`, "known-bad the registration posted before the person's click", ""},
	{"guarded.leave", `^guarded\[\d+\] \S+ \S+ \(leave\)$`, "known-bad a registration beaconed as the person left the page", ""},
	{"harness", `^harness\[\d+\]$`, "", "a harness fault is never the app's: INCONCLUSIVE"},
	{"harness.call", `^harness\.call\.\w+\[\d+\]\.[\w.-]+$`, "", "a call that never began is the harness's or the browser's: INCONCLUSIVE"},
	{"harness.cut", `^harness\.cut$`, "", "a run cut short: INCONCLUSIVE"},
	{"page", `^page\.\w+$`, "known-bad the page ends up elsewhere", ""},
	{"popups.forbid", `^popups\.forbid\[\d+\]$`, "known-bad a popup the scenario forbids", ""},
	{"popups.require", `^popups\.require\[\d+\]$`, "known-bad no popup where the scenario requires one", ""},
	{"reach.not_offered", `^reach\.not_offered\[\d+\] .+$`, "known-bad a widget's tool the shop's script must not reach, exposed to it", ""},
	{"reach.not_offered.ran", `^reach\.not_offered\[\d+\]\.ran .+$`, "known-bad a tool that must not be reachable ran", ""},
	{"reach.offered", `^reach\.offered\[\d+\] .+$`, "known-bad a widget's tool the shop's script must reach, not exposed to it", ""},
	{"call.carried", `^call\.\w+\[\d+\]\.[\w.-]+\.carried/.+$`, "known-bad a carried value the call did not send", ""},
	{"replays.again", `^replays\[\d+\] again \S+ \S+$`, "known-bad a replay answered as idempotent that registered again", ""},
	{"replays.expired", `^replays\[\d+\] expired \S+ \S+$`, "known-bad a replay after the confirmation's lifetime accepted", ""},
	{"replays.no_csrf", `^replays\[\d+\] no_csrf \S+ \S+$`, "known-bad a replay without the CSRF header accepted", ""},
	{"replays.no_session", `^replays\[\d+\] no_session \S+ \S+$`, "replays: a replay with no session accepted", ""},
	{"replays.other_session", `^replays\[\d+\] other_session \S+ \S+$`, "replays: a replay from another session accepted", ""},
	{"replays.race", `^replays\[\d+\] race \S+ \S+$`, "known-bad two of five racing copies registered", ""},
	{"replays.other_token", `^replays\[\d+\] other_token\(.+\) \S+ \S+$`, "known-bad a replay with another session's CSRF token accepted", ""},
	{"replays.drop_field", `^replays\[\d+\] drop_field\(.+\) \S+ \S+$`, "known-bad a replay without its intent accepted", ""},
	{"replays.other_object", `^replays\[\d+\] other_object\(.+\) \S+ \S+$`, "known-bad a replay for another event accepted", ""},
	{"replays.other_target", `^replays\[\d+\] other_target\(.+\) \S+ \S+$`, "known-bad a replay to another target accepted", ""},
	{"replays.stale", `^replays\[\d+\] stale \S+ \S+$`, "replays: a replay with a stale precondition accepted", ""},
	{"requests", `^requests\[\d+\] \S+ \S+ \(\w+\)$`, "", "the line of a count neither witness recorded: INCONCLUSIVE"},
	{"requests.agreement", `^requests\[\d+\] \S+ \S+ \(\w+\)\.agreement$`, "known-bad the journal lacks the registration", ""},
	{"requests.journal", `^requests\[\d+\] \S+ \S+ \(\w+\)\.journal$`, "known-bad the registration posted before the person's click", ""},
	{"requests.network", `^requests\[\d+\] \S+ \S+ \(\w+\)\.network$`, "known-bad the registration posted before the person's click", ""},
	{"requests.status.journal", `^requests\[\d+\] \S+ \S+ \(\w+\)\.status\.journal$`, "known-bad the registration answered 409", ""},
	{"requests.status.network", `^requests\[\d+\] \S+ \S+ \(\w+\)\.status\.network$`, "known-bad the registration answered 409", ""},
	{"state", `^state\.\w+$`, "", "the line of a state that was not read: INCONCLUSIVE"},
	{"state.answered", `^state\.\w+\.answered \S+$`, "CONF-01: the app answers the state read after the person's step with 500", ""},
	{"state.changes", `^state\.\w+\.changes \S+$`, "known-bad two seats went", ""},
	{"state.equals", `^state\.\w+\.equals \S+$`, "known-bad two seats went", ""},
	{"state.unchanged", `^state\.\w+\.unchanged$`, "known-bad the state changed in the agent's phase", ""},
	{"reviewed_is_sent", `^reviewed_is_sent(\[\d+\] \S+ \S+)?$`, "reviewed: the email sent is not the one the person saw", ""},
	{"submitted", `^submitted\[\d+\] \S+ \S+$`, "known-bad the person saw another email than was sent", ""},
	{"trace.agreement", `^trace\.agreement$`, "CONF-01: the transcript's email differs from the trace's", ""},
	{"ui", `^ui\.\w+\[\d+\] \S+$`, "known-bad the form shows another email", ""},
	{"ui.visible", `^ui\.\w+\[\d+\] \S+ visible$`, "", "an element's visibility on a page whose stylesheet did not load: page_incomplete, INCONCLUSIVE"},
	{"ui.text_contains_state", `^ui\.\w+\[\d+\] \S+ text_contains_state$`, "known-bad registered with the old seat count on screen", ""},
	{"witnesses", `^witnesses\.\w+$`, "known-bad the journal lacks the registration", ""},
	{"writes", `^writes\.\w+$`, "known-bad the registration posted before the person's click", ""},
	{"writes.agreement", `^writes\.\w+\.agreement$`, "known-bad the journal lacks the registration", ""},
}

// The gate: every check the judge made on every fixture is of a kind in
// the table; every kind's known-bad fixture FAILs a check of that kind, and
// a kind that never fails does not. A new kind of check lands with its row
// and a fixture that fails it, or with the reason it cannot.
func TestEveryCheckKindHasAKnownBadCaseThatFailsIt(t *testing.T) {
	type kindRE struct {
		kind, failsIn, never string
		re                   *regexp.Regexp
	}
	var kinds []kindRE
	for _, k := range checkKinds {
		if (k.failsIn == "") == (k.never == "") {
			t.Errorf("%s: name a known-bad fixture or why it never fails, not both or neither", k.kind)
		}
		kinds = append(kinds, kindRE{k.kind, k.failsIn, k.never, regexp.MustCompile(k.pattern)})
	}
	seen := map[string]bool{}
	failedIn := map[string][]string{}
	byName := map[string]bool{}
	for _, j := range everyJudgedFixture(t) {
		byName[j.name] = true
		for _, c := range j.verdict.Checks {
			var of []string
			for _, k := range kinds {
				if k.re.MatchString(c.ID) {
					of = append(of, k.kind)
				}
			}
			if len(of) != 1 {
				t.Errorf("check %q (fixture %q) is of %d kinds %v, want 1: add its row to checkKinds", c.ID, j.name, len(of), of)
				continue
			}
			seen[of[0]] = true
			if c.Status == vocab.CheckFail {
				failedIn[of[0]] = append(failedIn[of[0]], j.name)
			}
		}
	}
	for _, k := range kinds {
		switch {
		case !seen[k.kind]:
			t.Errorf("%s: no fixture makes a check of this kind", k.kind)
		case k.never != "" && len(failedIn[k.kind]) > 0:
			t.Errorf("%s never fails (%s), yet fails in %v", k.kind, k.never, failedIn[k.kind])
		case k.failsIn != "" && !byName[k.failsIn]:
			t.Errorf("%s: no fixture is named %q", k.kind, k.failsIn)
		case k.failsIn != "" && !slices.Contains(failedIn[k.kind], k.failsIn):
			t.Errorf("%s: the fixture %q fails no check of this kind", k.kind, k.failsIn)
		}
	}
}
