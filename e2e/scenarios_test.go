package e2e

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentready/agentready/e2e/framework"
	"github.com/agentready/agentready/e2e/matchers"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/runner"
	"github.com/agentready/agentready/scenarios/vocab"
)

// One spec per scenario file, labelled with its ID, its family and its area,
// so that `make scenario ID=CONF-01` runs that family and nothing else. A
// file that does not load fails the whole run before any spec (see
// framework.RequireScenarios), whatever the label filter: no silent skips.
var _ = Describe("Scenarios", MarkScenario, MarkScenarioFile, func() {
	all, broken := framework.LoadScenarios()
	for _, fe := range broken {
		It("loads "+fe.Path, Label(fe.Labels...), func() { Fail(fe.Error()) })
	}
	for _, sc := range all {
		It(sc.ID+": "+sc.Title, Label(sc.Labels()...), framework.Timeout, func(ctx SpecContext) {
			verdict := framework.RunScenario(ctx, sc)

			Expect(verdict).To(matchers.HaveMeantVerdict(sc))
		})
	}
})

// The judge's checks bite on real evidence: one recorded run of CONF-01
// attempt 3, judged again against expectations changed one at a time.
var _ = Own("Judging a recorded CONF-01 attempt 3 against changed expectations", MarkScenario, Label("CONF-01", "judge"), func() {
	It("fails each changed expectation with its own code", framework.Timeout, func(ctx SpecContext) {
		sc, err := scenarios.Load("../" + scenarios.DefaultDir + "/CONF-01.attempt-3.yaml")
		Expect(err).NotTo(HaveOccurred())
		evidence := runner.Run(ctx, sc, framework.ScenarioTarget(ctx, sc.Variant))
		Expect(judge.Judge(sc, evidence)).To(matchers.HaveVerdict(vocab.Pass))

		for _, m := range []struct {
			name   string
			change func(e *scenarios.Expect)
			code   vocab.Code
		}{
			{"the human POST count to 2", func(e *scenarios.Expect) { e.Requests[1].Count = 2 }, vocab.RequestCountMismatch},
			{"the agent POST count to 1", func(e *scenarios.Expect) { e.Requests[0].Count = 1 }, vocab.RequestCountMismatch},
			{"seats after the person to 8", func(e *scenarios.Expect) { e.State["human"].Equals["$.event.seatsLeft"] = 8 }, vocab.StateMismatch},
			{"the change of registrations to 2", func(e *scenarios.Expect) { e.State["human"].Changes["$.observer.counts.registrations"] = 2 }, vocab.StateMismatch},
			{"the name in the form", func(e *scenarios.Expect) { v := "Someone else"; e.UI["agent"][0].Value = &v }, vocab.UIMismatch},
			{"the expected input", func(e *scenarios.Expect) {
				e.Calls.Exactly[0].Input = map[string]any{"attendeeName": "x", "email": "y"}
			}, vocab.WrongToolInput},
			{"the catalog", func(e *scenarios.Expect) { e.Catalog.Exactly = []string{"submit_registration"} }, vocab.CatalogMismatch},
			{"the schema", func(e *scenarios.Expect) {
				e.Catalog.Schemas["prepare_event_registration"]["required"] = []any{"email"}
			}, vocab.SchemaMismatch},
			{"writes by the agent to 1", func(e *scenarios.Expect) { e.Writes["agent"] = 1 }, vocab.RequestCountMismatch},
			{"an answer that must say 'done'", func(e *scenarios.Expect) { e.Answer.MustMention = append(e.Answer.MustMention, "done") }, vocab.AnswerIncomplete},
		} {
			changed, err := scenarios.Load("../" + scenarios.DefaultDir + "/CONF-01.attempt-3.yaml")
			Expect(err).NotTo(HaveOccurred())
			m.change(&changed.Expect)
			verdict := judge.Judge(changed, evidence)
			Expect(verdict.Outcome).To(Equal(vocab.Fail), "changing %s", m.name)
			Expect(verdict.Codes).To(ContainElement(m.code), "changing %s:\n%s", m.name, judge.Explain(verdict))
		}
	})
})
