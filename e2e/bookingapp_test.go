package e2e

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentready/agentready/e2e/framework"
	"github.com/agentready/agentready/e2e/matchers"
	"github.com/agentready/agentready/fixtures/bookingapp"
	"github.com/agentready/agentready/internal/runs/play"
)

// The booking app with every trait of a modern app at once
// (fixtures/bookingapp): sign-in on another origin, a client router, shadow
// roots, a service worker, an EventSource that never ends, a WebSocket hold
// and times in Europe/Berlin. Each scenario file reaches the verdict it
// states, its known-bads each with their code.
var _ = Own("A modern booking app", MarkScenario, Label("booking-app"), func() {
	all, broken := framework.LoadScenarioDir("../fixtures/bookingapp/scenarios")
	for _, fe := range broken {
		It("loads "+fe.Path, Label(fe.Labels...), func() { Fail(fe.Error()) })
	}
	for _, sc := range all {
		It(sc.ID+": "+sc.Title, Label(sc.Labels()...), framework.Timeout, func(ctx SpecContext) {
			srv, err := bookingapp.Start()
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(srv.Close)
			verdict := framework.RunScenarioOn(ctx, sc, play.App{BaseURL: srv.URL})
			Expect(verdict).To(matchers.HaveMeantVerdict(sc))
			if sc.ID == "BOOK-02.at-the-provider" {
				// Its one fault is the clock's, not any fault from setup.
				var faults []string
				for _, c := range verdict.Checks {
					if strings.HasPrefix(c.ID, "harness[") {
						faults = append(faults, c.Message)
					}
				}
				Expect(faults).To(ConsistOf(ContainSubstring("the page's fixed clock")))
			}
		})
	}
})
