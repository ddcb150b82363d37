package e2e

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentready/agentready/e2e/framework"
	"github.com/agentready/agentready/e2e/matchers"
	"github.com/agentready/agentready/pages"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Every page of the reference app keeps its tool contract
// (fixtures/refapp/contracts): a reworded description, a parameter's type,
// an annotation, a tool added or gone fails with contract_broken. To change
// a tool on purpose: agentready catalog URL --update-contract FILE.
var _ = Own("Tool contracts of the reference app", MarkCatalog, Label("contracts"), func() {
	contractScenario := func(p pages.Page, file, variant string) scenarios.Scenario {
		GinkgoHelper()
		id := "contract-" + file
		if variant != "" {
			id += "." + variant
		}
		sc, err := scenarios.Parse("../fixtures/refapp/contracts/"+file+".scenario.yaml", []byte(`id: `+id+`
title: the tool contract of `+p.Path()+`
start: `+p.Path()+`
prompt: (no agent; the page's tools are held to their contract)
agent: {final: null}
expect:
  catalog:
    contract: `+file+`.json
`))
		Expect(err).NotTo(HaveOccurred())
		sc.Variant = variant
		return sc
	}

	DescribeTable("every tool of the page is as its contract pins it",
		func(ctx SpecContext, p pages.Page, file string) {
			Expect(framework.RunScenario(ctx, contractScenario(p, file, ""))).To(matchers.HaveVerdict(vocab.Pass))
		},
		Entry("/events", framework.Timeout, pages.EventList{}, "events"),
		Entry("/events/{id}", framework.Timeout, pages.EventDetails{ID: pages.EventIntro}, "event"),
		Entry("/events/{id}/register", framework.Timeout, pages.Registration{EventID: pages.EventIntro}, "register"),
		Entry("/registrations", framework.Timeout, pages.Registrations{}, "registrations"),
		Entry("/tasks", framework.Timeout, pages.TaskList{}, "tasks"),
		Entry("/drafts/{id}/edit", framework.Timeout, pages.DraftEdit{ID: pages.DraftWebMCPDay}, "draft"),
	)

	It("fails with contract_broken when a parameter's schema changes (the email-not-required variant)", framework.Timeout, func(ctx SpecContext) {
		sc := contractScenario(pages.Registration{EventID: pages.EventIntro}, "register", "email-not-required")
		sc.Known = &scenarios.Known{Outcome: vocab.Fail, Codes: []vocab.Code{vocab.ContractBroken}} // the run page: "FAIL, as meant"
		Expect(framework.RunScenario(ctx, sc)).To(matchers.HaveVerdict(vocab.Fail, vocab.ContractBroken))
	})
})
