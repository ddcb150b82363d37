package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentready/agentready/e2e/framework"
	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/pages"
)

var _ = Own("The catalog of each page", MarkSmoke, MarkCatalog, func() {
	DescribeTable("exposes exactly the page's tools, and the protocol and getTools() agree",
		func(ctx SpecContext, p pages.Page) {
			f := framework.StartFixture(ctx, "")
			f.Open(ctx, p)
			catalog, err := f.Tab.Tools.Catalog(ctx)
			Expect(err).NotTo(HaveOccurred())
			want := p.Tools()
			if want == nil {
				want = []string{}
			}
			Expect(catalog.Names()).To(Equal(want))
		},
		Entry("/events", pages.EventList{}),
		Entry("/events/{id}", pages.EventDetails{ID: pages.EventIntro}),
		Entry("/events/{id}/register", pages.Registration{EventID: pages.EventIntro}),
		Entry("/registrations", pages.Registrations{}),
		Entry("/tasks", pages.TaskList{}),
	)

	It("marks search_events read-only", framework.Timeout, func(ctx SpecContext) {
		f := framework.StartFixture(ctx, "")
		f.Open(ctx, pages.EventList{})
		catalog, err := f.Tab.Tools.Catalog(ctx)
		Expect(err).NotTo(HaveOccurred())
		tool, ok := catalog.Get(pages.SearchEvents)
		Expect(ok).To(BeTrue(), "search_events is not in the catalog %v", catalog.Names())
		Expect(tool.Annotations.ReadOnly).To(BeTrue())
		Expect(tool.Declarative).To(BeFalse())
	})

	It("declares prepare_event_registration on the form, with autosubmit and the schema the browser builds from its controls", framework.Timeout, func(ctx SpecContext) {
		f := framework.StartFixture(ctx, "")
		f.Open(ctx, pages.Registration{EventID: pages.EventIntro})
		catalog, err := f.Tab.Tools.Catalog(ctx)
		Expect(err).NotTo(HaveOccurred())
		tool, ok := catalog.Get(pages.PrepareEventRegistration)
		Expect(ok).To(BeTrue())
		Expect(tool.Declarative).To(BeTrue())
		Expect(tool.Annotations.Autosubmit).To(BeTrue())
		// Pinned: labels become descriptions, required carries over; type=email
		// gives no "format" and maxlength no "maxLength" (Chromium 156).
		Expect(tool.InputSchema).To(MatchJSON(`{
			"type": "object",
			"properties": {
				"attendeeName": {"type": "string", "description": "Attendee name"},
				"email": {"type": "string", "description": "Email"}
			},
			"required": ["attendeeName", "email"]
		}`))
	})

	It("loses the autosubmit annotation on the no-autosubmit variant", framework.Timeout, func(ctx SpecContext) {
		f := framework.StartFixture(ctx, "no-autosubmit")
		f.Open(ctx, pages.Registration{EventID: pages.EventIntro})
		catalog, err := f.Tab.Tools.Catalog(ctx)
		Expect(err).NotTo(HaveOccurred())
		tool, ok := catalog.Get(pages.PrepareEventRegistration)
		Expect(ok).To(BeTrue(), "the form is still a tool without toolautosubmit: %v", catalog.Names())
		Expect(tool.Annotations.Autosubmit).To(BeFalse())
	})

	It("offers add_task with the seed-000 schema", framework.Timeout, func(ctx SpecContext) {
		f := framework.StartFixture(ctx, "")
		f.Open(ctx, pages.TaskList{})
		catalog, err := f.Tab.Tools.Catalog(ctx)
		Expect(err).NotTo(HaveOccurred())
		tool, ok := catalog.Get(pages.AddTask)
		Expect(ok).To(BeTrue(), "add_task is not in the catalog %v", catalog.Names())
		var schema map[string]any
		Expect(json.Unmarshal(tool.InputSchema, &schema)).To(Succeed())
		Expect(schema).To(HaveKeyWithValue("required", ConsistOf("text")))
		Expect(schema).To(HaveKeyWithValue("properties", HaveKeyWithValue("text", SatisfyAll(
			HaveKeyWithValue("type", "string"),
			HaveKeyWithValue("minLength", BeNumerically("==", 1)),
			HaveKeyWithValue("maxLength", BeNumerically("==", 80)),
			HaveKeyWithValue("pattern", `\S`),
		))))
	})
})

// Chromium 156 reports the hints under two spellings: getTools() names
// readOnlyHint, consequentialHint, untrustedContentHint but plain
// "debugging"; the protocol names them without "Hint". The agreement check
// must read both, and see every hint.
var _ = Own("The protocol and getTools()", MarkCatalog, func() {
	It("agree on every hint of an imperative tool, and see a hint that differs", framework.Timeout, func(ctx SpecContext) {
		page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `<!doctype html><title>hints</title><script>
document.modelContext.registerTool({name: "hinted", description: "every hint", inputSchema: {type: "object", properties: {}},
  annotations: {readOnlyHint: true, consequentialHint: true, untrustedContentHint: true, debugging: true}, execute: () => "ok"});
</script>`)
		}))
		DeferCleanup(page.Close)
		tab := framework.NewTab(ctx)
		Expect(tab.Navigate(ctx, page.URL)).To(Succeed())
		catalog, pageTools, err := tab.Tools.CatalogAndPage(ctx)
		Expect(err).NotTo(HaveOccurred())
		tool, ok := catalog.Get("hinted")
		Expect(ok).To(BeTrue())
		Expect(tool.Annotations).To(Equal(record.Annotations{ReadOnly: true, Consequential: true, UntrustedContent: true, Debugging: true}))
		Expect(pageTools).To(HaveLen(1))
		Expect(pageTools[0].Annotations).To(HaveKeyWithValue("debugging", true), "Chromium 156 spells it without Hint")

		// Known-bad: the protocol without the debugging hint disagrees.
		tool.Annotations.Debugging = false
		Expect(record.Disagreement(record.Catalog{tool}, pageTools)).To(MatchError(ContainSubstring("annotations differ")))
	})
})
