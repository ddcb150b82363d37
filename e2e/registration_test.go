package e2e

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentready/agentready/e2e/framework"
	"github.com/agentready/agentready/e2e/matchers"
	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/pages"
	"github.com/agentready/agentready/scenarios/vocab"
)

// The seed's demo values: never real personal data.
const (
	demoName  = "測試讀者"
	demoEmail = "reader@example.com"
)

var demoInput = map[string]any{"attendeeName": demoName, "email": demoEmail}

var _ = Own("Preparing a registration", MarkRegister, func() {
	It("answers CONFIRMATION_REQUIRED with no request at all, and only the person's click registers", framework.Timeout, func(ctx SpecContext) {
		f := framework.StartFixture(ctx, "")
		register := pages.Registration{EventID: pages.EventIntro}
		f.Open(ctx, register)
		Expect(f.Tab.Tools.WaitTool(ctx, pages.PrepareEventRegistration, true)).To(Succeed())
		mark, journalMark := f.Tab.Net.Len(), len(f.Journal(ctx))

		res := f.Tab.Tools.Invoke(ctx, pages.PrepareEventRegistration, demoInput, vocab.PageAPI)

		Expect(res.Status).To(Equal(vocab.Completed), res.ErrorText)
		Expect(res.Output).To(MatchJSON(`{"ok":false,"code":"CONFIRMATION_REQUIRED","retryable":false,"eventId":"evt-webmcp-intro"}`))
		Expect(f.Tab.Net.Requests().Since(mark)).To(BeEmpty(), "the agent's branch sends no request at all")
		Expect(f.Journal(ctx)[journalMark:]).To(BeEmpty())
		Expect(f.State(ctx).SeatsLeft).To(HaveKeyWithValue(pages.EventIntro, 8))
		form, err := pages.Snapshot(f.In(ctx), register.NameInput(), register.EmailInput(), register.SubmitButton(), register.PreparedNote())
		Expect(err).NotTo(HaveOccurred())
		Expect(form[0].Value).To(Equal(demoName))
		Expect(form[1].Value).To(Equal(demoEmail))
		Expect(form[2].Visible && form[2].Enabled).To(BeTrue(), "the person can submit")
		Expect(form[3].Visible).To(BeTrue(), "the page tells the person to check and submit")

		Expect(f.Tab.Do(ctx, register.Submit())).To(Succeed())
		Expect(register.WaitForResult(f.In(ctx), "REGISTERED", framework.Bound)).To(Succeed())

		Expect(f.Tab.Net).To(matchers.HaveRequested("POST", "/api/registrations").Times(1))
		post := f.Tab.Net.Requests().Filter("POST", "/api/registrations")[0]
		Expect(post.Status).To(Equal(201))
		Expect(post.Body).To(ContainSubstring(`"interactionMode":"human"`))
		Expect(f.Journal(ctx).Count("POST", "/api/registrations")).To(Equal(1))
		Expect(f.State(ctx).SeatsLeft).To(HaveKeyWithValue(pages.EventIntro, 7))
	})

	It("answers a missing email with INVALID_PARAMS and field errors, and sends nothing", framework.Timeout, func(ctx SpecContext) {
		f := framework.StartFixture(ctx, "")
		f.Open(ctx, pages.Registration{EventID: pages.EventIntro})
		Expect(f.Tab.Tools.WaitTool(ctx, pages.PrepareEventRegistration, true)).To(Succeed())

		res := f.Tab.Tools.Invoke(ctx, pages.PrepareEventRegistration, map[string]any{"attendeeName": demoName, "email": "not-an-email"}, vocab.CDP)

		Expect(res.Code()).To(Equal("INVALID_PARAMS"))
		Expect(res.Output).To(MatchJSON(`{"ok":false,"code":"INVALID_PARAMS","retryable":true,"errors":{"email":"not an email address"}}`))
		Expect(f.Tab.Net.Requests().Writes()).To(BeEmpty())
	})

	It("answers EVENT_FULL for a sold-out event without a request", framework.Timeout, func(ctx SpecContext) {
		f := framework.StartFixture(ctx, "")
		f.Open(ctx, pages.Registration{EventID: pages.EventSoldOut})
		Expect(f.Tab.Tools.WaitTool(ctx, pages.PrepareEventRegistration, true)).To(Succeed())
		mark := f.Tab.Net.Len()

		res := f.Tab.Tools.Invoke(ctx, pages.PrepareEventRegistration, demoInput, vocab.PageAPI)

		Expect(res.Code()).To(Equal("EVENT_FULL"))
		Expect(f.Tab.Net.Requests().Since(mark)).To(BeEmpty())
	})

	It("without toolautosubmit: no answer within the bound, the form filled and armed, and no POST", framework.Timeout, func(ctx SpecContext) {
		f := framework.StartFixture(ctx, refapp.NoAutosubmit)
		register := pages.Registration{EventID: pages.EventIntro}
		f.Open(ctx, register)
		Expect(f.Tab.Tools.WaitTool(ctx, pages.PrepareEventRegistration, true)).To(Succeed())
		f.Tab.Tools.Timeout = framework.Bound / 3
		var form []record.Element
		f.Tab.Tools.OnNoResponse = func(after context.Context, _ record.Result) {
			var err error
			form, err = pages.Snapshot(after, register.Form(), register.NameInput(), register.SubmitButton())
			Expect(err).NotTo(HaveOccurred())
		}

		res := f.Tab.Tools.Invoke(ctx, pages.PrepareEventRegistration, demoInput, vocab.PageAPI)

		Expect(res.Status).To(Equal(vocab.NoResponse))
		Expect(res.Duration).To(BeNumerically("<", f.Tab.Tools.Timeout+framework.Bound/3))
		Expect(res.InvocationID).NotTo(BeEmpty(), "the trace saw the call start")
		Expect(form).To(HaveLen(3), "the page was recorded before the call was canceled")
		Expect(form[0].ToolFormActive).To(BeTrue())
		Expect(form[1].Value).To(Equal(demoName), "the UI looks right…")
		Expect(form[2].ToolSubmitActive).To(BeTrue())
		Expect(f.Tab.Net).To(matchers.HaveRequested("POST", "/api/registrations").Times(0))
		Expect(f.Journal(ctx).Writes()).To(BeEmpty())
		responded := false
		for _, e := range f.Tab.Trace.Events() {
			if e.Kind == record.ToolResponded && e.InvocationID == res.InvocationID && e.Status == "Completed" {
				responded = true
			}
		}
		Expect(responded).To(BeFalse(), "…but the tool lifecycle never completed")
	})
})
