package e2e

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/chromedp/chromedp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentready/agentready/e2e/framework"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/pages"
)

// The server's gate, driven from real pages: what a same-origin script (or a
// forged request) can try, and what two people racing can do.
var _ = Own("The registration gate", MarkRegister, MarkServerRules, func() {
	It("restores a seat once when a registration is cancelled twice", framework.Timeout, func(ctx SpecContext) {
		f := framework.StartFixture(ctx, "")
		regID := registerAsPerson(ctx, f.Tab, f.App.URL, pages.EventIntro)
		Expect(f.State(ctx).SeatsLeft).To(HaveKeyWithValue(pages.EventIntro, 7))

		Expect(f.Tab.Navigate(ctx, f.App.URL+pages.Registrations{}.Path())).To(Succeed())
		Expect(f.Tab.Do(ctx, pages.Registrations{}.Cancel(regID))).To(Succeed())
		Expect(pages.Registrations{}.WaitCancelled(f.In(ctx), regID, framework.Bound)).To(Succeed())
		Expect(f.State(ctx).SeatsLeft).To(HaveKeyWithValue(pages.EventIntro, 8))
		hash := f.State(ctx).Hash

		again := postFromPage(ctx, f.Tab, "/api/registrations/"+regID+"/cancel", map[string]any{})
		Expect(again.Status).To(Equal(409))
		Expect(again.Code()).To(Equal("ALREADY_CANCELLED"))
		Expect(f.State(ctx).SeatsLeft).To(HaveKeyWithValue(pages.EventIntro, 8))
		Expect(f.State(ctx).Hash).To(Equal(hash))
	})

	It("gives the last seat to exactly one of two people who submit at once", framework.Timeout, func(ctx SpecContext) {
		f := framework.StartFixture(ctx, "")
		other := framework.NewTab(ctx)
		tabs := []*browser.Tab{f.Tab, other}
		form := pages.Registration{EventID: pages.EventOfficeHours}
		for i, tab := range tabs {
			Expect(tab.Navigate(ctx, f.App.URL+form.Path())).To(Succeed())
			Expect(tab.Do(ctx, form.Fill("Racer", []string{"a@example.com", "b@example.com"}[i]))).To(Succeed())
		}

		var wg sync.WaitGroup
		codes := make([]string, len(tabs))
		for i, tab := range tabs {
			wg.Go(func() {
				defer GinkgoRecover()
				Expect(tab.Do(ctx, form.Submit())).To(Succeed())
				Expect(form.WaitForResult(framework.In(ctx, tab), "", framework.Bound)).To(Succeed())
				codes[i], _ = form.ResultData(framework.In(ctx, tab), "code")
			})
		}
		wg.Wait()

		Expect(codes).To(ConsistOf("REGISTERED", "EVENT_FULL"))
		Expect(f.State(ctx).SeatsLeft).To(HaveKeyWithValue(pages.EventOfficeHours, 0))
		Expect(f.Journal(ctx).Count("POST", "/api/registrations")).To(Equal(2))
	})

	DescribeTable("refuses a confirmation intent used the wrong way, and writes nothing",
		func(ctx SpecContext, misuse func(ctx context.Context, f *framework.Fixture) pageResponse, status int, code string) {
			f := framework.StartFixture(ctx, "")
			Expect(f.Tab.Navigate(ctx, f.App.URL+pages.Registration{EventID: pages.EventIntro}.Path())).To(Succeed())

			res := misuse(ctx, f)

			Expect(res.Status).To(Equal(status), string(res.Body))
			Expect(res.Code()).To(Equal(code))
		},
		Entry("reused after it registered once", func(ctx context.Context, f *framework.Fixture) pageResponse {
			intent := intentFromPage(ctx, f.Tab, pages.EventIntro)
			Expect(postFromPage(ctx, f.Tab, "/api/registrations", registration(pages.EventIntro, intent, "first@example.com")).Status).To(Equal(201))
			return unchangedState(ctx, f, func() pageResponse {
				return postFromPage(ctx, f.Tab, "/api/registrations", registration(pages.EventIntro, intent, "second@example.com"))
			})
		}, 403, "INTENT_USED"),
		Entry("for another event", func(ctx context.Context, f *framework.Fixture) pageResponse {
			intent := intentFromPage(ctx, f.Tab, pages.EventIntro)
			return unchangedState(ctx, f, func() pageResponse {
				return postFromPage(ctx, f.Tab, "/api/registrations", registration("evt-paid-workshop", intent, "reader@example.com"))
			})
		}, 403, "INTENT_WRONG_EVENT"),
		Entry("from another session", func(ctx context.Context, f *framework.Fixture) pageResponse {
			other := framework.NewTab(ctx)
			Expect(other.Navigate(ctx, f.App.URL+pages.Registration{EventID: pages.EventIntro}.Path())).To(Succeed())
			stolen := intentFromPage(ctx, other, pages.EventIntro)
			return unchangedState(ctx, f, func() pageResponse {
				return postFromPage(ctx, f.Tab, "/api/registrations", registration(pages.EventIntro, stolen, "reader@example.com"))
			})
		}, 403, "INTENT_WRONG_SESSION"),
		Entry("made up", func(ctx context.Context, f *framework.Fixture) pageResponse {
			return unchangedState(ctx, f, func() pageResponse {
				return postFromPage(ctx, f.Tab, "/api/registrations", registration(pages.EventIntro, "int_forged", "reader@example.com"))
			})
		}, 403, "INTENT_NOT_FOUND"),
		Entry("without the CSRF header", func(ctx context.Context, f *framework.Fixture) pageResponse {
			intent := intentFromPage(ctx, f.Tab, pages.EventIntro)
			return unchangedState(ctx, f, func() pageResponse {
				return fetchFromPage(ctx, f.Tab, "/api/registrations", registration(pages.EventIntro, intent, "reader@example.com"), false)
			})
		}, 403, "CSRF_INVALID"),
	)
})

// pageResponse is what a fetch made by the page's own script got back.
type pageResponse struct {
	Status int             `json:"status"`
	Body   json.RawMessage `json:"body"`
}

func (r pageResponse) Code() string { return gjsonString(r.Body, "code") }

const fetchJS = `(async (path, body, withCSRF) => {
  const headers = { "Content-Type": "application/json" };
  if (withCSRF) headers["X-CSRF-Token"] = document.querySelector('meta[name="csrf-token"]').content;
  const r = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
})`

func fetchFromPage(ctx context.Context, tab *browser.Tab, path string, body any, withCSRF bool) pageResponse {
	GinkgoHelper()
	args, _ := json.Marshal([]any{path, body, withCSRF})
	ctx, cancel := tab.Bind(ctx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, framework.Bound)
	defer cancel()
	res, err := chromedp.Run(ctx, chromedp.Evaluate[pageResponse](fetchJS+"(..."+string(args)+")", chromedp.EvalAwaitPromise))
	Expect(err).NotTo(HaveOccurred())
	return res
}

func postFromPage(ctx context.Context, tab *browser.Tab, path string, body any) pageResponse {
	GinkgoHelper()
	return fetchFromPage(ctx, tab, path, body, true)
}

func intentFromPage(ctx context.Context, tab *browser.Tab, eventID string) string {
	GinkgoHelper()
	res := postFromPage(ctx, tab, "/api/intents", map[string]any{"action": "register", "eventId": eventID})
	Expect(res.Status).To(Equal(201), string(res.Body))
	return gjsonString(res.Body, "intentId")
}

func registration(eventID, intentID, email string) map[string]any {
	return map[string]any{"eventId": eventID, "attendeeName": demoName, "email": email, "intentId": intentID, "interactionMode": "human"}
}

// unchangedState runs a request that must be refused and checks that the
// app's state hash did not move.
func unchangedState(ctx context.Context, f *framework.Fixture, do func() pageResponse) pageResponse {
	GinkgoHelper()
	before := f.State(ctx)
	res := do()
	after := f.State(ctx)
	Expect(after.Hash).To(Equal(before.Hash), "a refused request changed the state")
	Expect(after.Version).To(Equal(before.Version))
	return res
}

// registerAsPerson fills and submits the form as a person and answers the
// new registration's id.
func registerAsPerson(ctx context.Context, tab *browser.Tab, baseURL, eventID string) string {
	GinkgoHelper()
	form := pages.Registration{EventID: eventID}
	Expect(tab.Navigate(ctx, baseURL+form.Path())).To(Succeed())
	Expect(tab.Do(ctx, form.Fill(demoName, demoEmail), form.Submit())).To(Succeed())
	Expect(form.WaitForResult(framework.In(ctx, tab), "REGISTERED", framework.Bound)).To(Succeed())
	id, err := form.ResultData(framework.In(ctx, tab), "registrationId")
	Expect(err).NotTo(HaveOccurred())
	return id
}
