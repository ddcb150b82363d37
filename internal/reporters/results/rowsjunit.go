package results

import (
	"encoding/xml"
	"fmt"
	"os"
	"strings"

	"github.com/onsi/ginkgo/v2/reporters"

	"github.com/agentready/agentready/scenarios/vocab"
)

// WriteRowsJUnit writes a run that no Ginkgo ran (agentready run, and the
// merge of its shards) as JUnit, by the rule make e2e's report follows: a
// scenario as meant passes, one that is not fails, and one that ended
// INCONCLUSIVE when it means another verdict is an <error
// type="INCONCLUSIVE"> with its codes: the app was not judged.
func WriteRowsJUnit(rows []Row, path string) error { return WriteRunsJUnit(rows, 0, path) }

// WriteRunsJUnit is WriteRowsJUnit for a run that played each scenario k
// times (agentready run --runs k): a scenario's runs are one testcase,
// which carries pass^k, pass@k, the runs as meant and the spread of
// verdicts as properties, and fails unless pass^k holds (every run as
// meant); with none as meant and an INCONCLUSIVE among them it is an
// error, as a single INCONCLUSIVE run is.
func WriteRunsJUnit(rows []Row, k int, path string) error {
	suite := reporters.JUnitTestSuite{Name: "agentready", Package: "agentready"}
	repeats := map[string]Repeat{}
	for _, r := range Repeats(rows, k) {
		repeats[r.ID] = r
	}
	attacks := Attacks(rows, k)
	done := map[string]bool{}
	for _, r := range Sorted(rows) {
		if rep, ok := repeats[r.ID]; ok {
			if !done[r.ID] {
				done[r.ID] = true
				tc := repeatCase(rep, rows, &suite)
				attackProperties(&tc, attacks)
				suite.TestCases = append(suite.TestCases, tc)
			}
			suite.Time += r.Seconds
			continue
		}
		tc := reporters.JUnitTestCase{Name: r.ID, Classname: "agentready", Status: "passed", Time: r.Seconds}
		attackProperties(&tc, attacks)
		if r.NotAsMeant() {
			msg, desc := whyNot(r)
			if r.Outcome == vocab.Inconclusive || r.Outcome == "" {
				tc.Status, tc.Error = "errored", &reporters.JUnitError{Type: "INCONCLUSIVE", Message: msg, Description: desc}
				suite.Errors++
			} else {
				tc.Status, tc.Failure = "failed", &reporters.JUnitFailure{Type: string(r.Outcome), Message: msg, Description: desc}
				suite.Failures++
			}
		}
		suite.Time += r.Seconds
		suite.TestCases = append(suite.TestCases, tc)
	}
	suite.Tests = len(suite.TestCases)
	doc := reporters.JUnitTestSuites{Tests: suite.Tests, Errors: suite.Errors, Failures: suite.Failures, Time: suite.Time, TestSuites: []reporters.JUnitTestSuite{suite}}
	b, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append([]byte(xml.Header), append(b, '\n')...), 0o644)
}

// attackProperties adds to a scenario's testcase the tally of its runs
// under attack (utility_under_attack, attack_success, …), when it has one.
func attackProperties(tc *reporters.JUnitTestCase, attacks []AttackTally) {
	t, ok := tallyOf(attacks, tc.Name)
	if !ok {
		return
	}
	if tc.Properties == nil {
		tc.Properties = &reporters.JUnitProperties{}
	}
	for _, p := range t.properties() {
		tc.Properties.Properties = append(tc.Properties.Properties, reporters.JUnitProperty{Name: p[0], Value: p[1]})
	}
}

// whyNot is a row's message and description when it is not as meant.
func whyNot(r Row) (msg, desc string) {
	msg = fmt.Sprintf("%s: %s, meant %s", r.ID, strings.TrimSpace(string(r.Outcome)+" "+codes(r.Codes)), r.Meant)
	var why []string
	for _, c := range r.Failed {
		why = append(why, fmt.Sprintf("%s %s: %s", c.Code, c.ID, c.Message))
	}
	if r.Error != "" {
		why = append(why, "no bundle: "+r.Error)
	}
	return msg, msg + "\n" + strings.Join(why, "\n") + "\nbundle: " + r.Bundle
}

// repeatCase is the testcase of a scenario's k runs.
func repeatCase(rep Repeat, rows []Row, suite *reporters.JUnitTestSuite) reporters.JUnitTestCase {
	tc := reporters.JUnitTestCase{Name: rep.ID, Classname: "agentready", Status: "passed", Properties: &reporters.JUnitProperties{}}
	prop := func(name, value string) {
		tc.Properties.Properties = append(tc.Properties.Properties, reporters.JUnitProperty{Name: name, Value: value})
	}
	prop("runs", fmt.Sprint(rep.K))
	prop(fmt.Sprintf("pass^%d", rep.K), fmt.Sprint(b2i(rep.PassHat())))
	prop(fmt.Sprintf("pass@%d", rep.K), fmt.Sprint(b2i(rep.PassAt())))
	prop("as_meant", fmt.Sprintf("%d of %d", rep.AsMeant, rep.K))
	for _, s := range rep.Spread {
		prop("spread "+s.What, fmt.Sprintf("%d of %d", s.Runs, rep.K))
	}
	inconclusive := false
	var descs []string
	for _, r := range rows {
		if r.ID != rep.ID || r.Run == 0 {
			continue
		}
		tc.Time += r.Seconds
		if r.NotAsMeant() {
			_, desc := whyNot(r)
			descs = append(descs, fmt.Sprintf("run %d: %s", r.Run, desc))
			inconclusive = inconclusive || r.Outcome == vocab.Inconclusive || r.Outcome == ""
		}
	}
	if rep.PassHat() {
		return tc
	}
	msg := rep.Summary()
	if s := rep.Spreads(); len(s) > 0 {
		msg += "; " + strings.Join(s, "; ")
	}
	desc := msg + "\n" + strings.Join(descs, "\n")
	if !rep.PassAt() && inconclusive {
		tc.Status, tc.Error = "errored", &reporters.JUnitError{Type: "INCONCLUSIVE", Message: msg, Description: desc}
		suite.Errors++
		return tc
	}
	tc.Status, tc.Failure = "failed", &reporters.JUnitFailure{Type: "pass^k", Message: msg, Description: desc}
	suite.Failures++
	return tc
}
