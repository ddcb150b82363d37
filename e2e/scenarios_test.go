package e2e

import (
	"context"
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentready/agentready/e2e/framework"
	"github.com/agentready/agentready/scenarios"
)

// One spec per scenario file, labelled with its ID, its family and its area,
// so that `make scenario ID=CONF-01` runs that family and nothing else.
var _ = Describe("Scenarios", MarkScenario, func() {
	dir := os.Getenv("AGENTREADY_SCENARIOS")
	if dir == "" {
		dir = "../" + scenarios.DefaultDir
	}
	all, err := scenarios.LoadDir(dir)
	if err != nil {
		It("load from "+dir, func() { Fail(err.Error()) })
	}
	for _, sc := range all {
		It(sc.ID+": "+sc.Title, Label(sc.ID, sc.Family, sc.Area), func() {
			target := framework.ScenarioTarget(sc.Variant)
			evidence := scenarios.Run(context.Background(), sc, target)
			verdict := scenarios.Judge(sc, evidence)
			AddReportEntry("verdict", scenarios.Explain(verdict))

			if sc.Known != nil {
				Expect(verdict).To(scenarios.HaveVerdict(sc.Known.Outcome, sc.Known.Codes...))
			} else {
				Expect(verdict).To(scenarios.HaveVerdict(scenarios.Pass))
			}
		})
	}
})
