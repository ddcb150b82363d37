package e2e

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentready/agentready/e2e/framework"
)

func TestE2E(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "agentready e2e")
}

var _ = SynchronizedBeforeSuite(func(ctx SpecContext) []byte {
	framework.RequireScenarios()
	framework.CheckApp(ctx)
	return framework.NewRun()
}, func(ctx SpecContext, runID []byte) {
	framework.SetUpRun(runID)
	framework.SetUpBrowser(ctx)
})

var _ = AfterSuite(framework.RecordPeakRSS)

var _ = ReportAfterSuite("scenario verdicts and the run's index", framework.SummarizeRun)
