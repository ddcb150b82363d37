package results

import (
	"encoding/xml"
	"fmt"
	"os"
	"strings"

	"github.com/onsi/ginkgo/v2/reporters"

	"github.com/agentready/agentready/vocab"
)

// WriteRowsJUnit writes a run that no Ginkgo ran (agentready run, and the
// merge of its shards) as JUnit, by the rule make e2e's report follows: a
// scenario as meant passes, one that is not fails, and one that ended
// INCONCLUSIVE when it means another verdict is an <error
// type="INCONCLUSIVE"> with its codes: the app was not judged.
func WriteRowsJUnit(rows []Row, path string) error {
	suite := reporters.JUnitTestSuite{Name: "agentready", Package: "agentready", Tests: len(rows)}
	for _, r := range Sorted(rows) {
		tc := reporters.JUnitTestCase{Name: r.ID, Classname: "agentready", Status: "passed", Time: r.Seconds}
		if r.NotAsMeant() {
			msg := fmt.Sprintf("%s: %s, meant %s", r.ID, strings.TrimSpace(string(r.Outcome)+" "+codes(r.Codes)), r.Meant)
			var why []string
			for _, c := range r.Failed {
				why = append(why, fmt.Sprintf("%s %s: %s", c.Code, c.ID, c.Message))
			}
			if r.Error != "" {
				why = append(why, "no bundle: "+r.Error)
			}
			desc := msg + "\n" + strings.Join(why, "\n") + "\nbundle: " + r.Bundle
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
	doc := reporters.JUnitTestSuites{Tests: suite.Tests, Errors: suite.Errors, Failures: suite.Failures, Time: suite.Time, TestSuites: []reporters.JUnitTestSuite{suite}}
	b, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append([]byte(xml.Header), append(b, '\n')...), 0o644)
}
