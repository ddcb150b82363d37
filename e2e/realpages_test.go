package e2e

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentready/agentready/e2e/framework"
	"github.com/agentready/agentready/e2e/matchers"
	"github.com/agentready/agentready/fixtures/realpages"
	"github.com/agentready/agentready/internal/runs/play"
)

// Pages that behave as public WebMCP demos do (fixtures/realpages): forms
// that navigate, tools that answer text or arrays, decorated schemas, a page
// without tools. Each scenario file reaches the verdict it states.
var _ = Own("Real page patterns", MarkScenario, Label("real-pages"), func() {
	all, broken := framework.LoadScenarioDir("../fixtures/realpages/scenarios")
	for _, fe := range broken {
		It("loads "+fe.Path, Label(fe.Labels...), func() { Fail(fe.Error()) })
	}
	for _, sc := range all {
		It(sc.ID+": "+sc.Title, Label(sc.Labels()...), framework.Timeout, func(ctx SpecContext) {
			srv, err := realpages.Start()
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(srv.Close)
			verdict := framework.RunScenarioOn(ctx, sc, play.App{BaseURL: srv.URL})
			Expect(verdict).To(matchers.HaveMeantVerdict(sc))
		})
	}
})
