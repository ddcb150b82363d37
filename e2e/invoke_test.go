package e2e

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentready/agentready/e2e/framework"
	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/pages"
	"github.com/agentready/agentready/scenarios/vocab"
)

var _ = Own("Invoking tools", MarkHarness, func() {
	var f *framework.Fixture

	BeforeEach(func(ctx SpecContext) {
		f = framework.StartFixture(ctx, "")
		f.Open(ctx, pages.EventList{})
		Expect(f.Tab.Tools.WaitTool(ctx, pages.SearchEvents, true)).To(Succeed())
	})

	It("gives the same result through the page API and through CDP", framework.Timeout, func(ctx SpecContext) {
		input := map[string]any{"topic": "webmcp", "maxFeeTWD": 0}
		viaPage := f.Tab.Tools.Invoke(ctx, pages.SearchEvents, input, vocab.PageAPI)
		viaCDP := f.Tab.Tools.Invoke(ctx, pages.SearchEvents, input, vocab.CDP)

		Expect(viaPage.Status).To(Equal(vocab.Completed), viaPage.ErrorText)
		Expect(viaCDP.Status).To(Equal(vocab.Completed), viaCDP.ErrorText)
		Expect(viaPage.Output).To(MatchJSON(viaCDP.Output))
		Expect(viaPage.Code()).To(Equal("FOUND"))
		Expect(viaPage.InvocationID).NotTo(BeEmpty())
		Expect(viaCDP.InvocationID).NotTo(Equal(viaPage.InvocationID))
	})

	It("records both invocations in one ordered trace, each answer after its call", framework.Timeout, func(ctx SpecContext) {
		f.Tab.Tools.Invoke(ctx, pages.SearchEvents, map[string]any{"query": "agents"}, vocab.PageAPI)
		f.Tab.Tools.Invoke(ctx, pages.SearchEvents, map[string]any{"query": "forms"}, vocab.CDP)

		var kinds []record.Kind
		invokedAt := map[string]int{}
		for _, e := range f.Tab.Trace.Events() {
			switch e.Kind {
			case record.ToolInvoked:
				invokedAt[e.InvocationID] = e.Seq
				kinds = append(kinds, e.Kind)
			case record.ToolResponded:
				Expect(invokedAt).To(HaveKey(e.InvocationID), "a response before its invocation")
				Expect(e.Seq).To(BeNumerically(">", invokedAt[e.InvocationID]))
				kinds = append(kinds, e.Kind)
			}
		}
		Expect(kinds).To(Equal([]record.Kind{record.ToolInvoked, record.ToolResponded, record.ToolInvoked, record.ToolResponded}))
	})

	DescribeTable("answers an unknown tool with an error, at once",
		func(ctx SpecContext, via vocab.Transport) {
			res := f.Tab.Tools.Invoke(ctx, "no_such_tool", nil, via)
			Expect(res.Status).To(Equal(vocab.Failed))
			Expect(res.ErrorText).To(ContainSubstring("not found"))
			Expect(res.Duration).To(BeNumerically("<", time.Second))
		},
		Entry("page API", vocab.PageAPI),
		Entry("CDP", vocab.CDP),
	)

	DescribeTable("answers a tool that throws with an error",
		func(ctx SpecContext, via vocab.Transport) {
			_, err := chromedp.Run(f.In(ctx), chromedp.Evaluate[chromedp.Void](`document.modelContext.registerTool({
				name: "always_throws", description: "A tool whose execute throws.",
				inputSchema: {type: "object", properties: {}},
				execute: () => { throw new Error("boom from the page"); },
			})`, chromedp.EvalAwaitPromise))
			Expect(err).NotTo(HaveOccurred())
			Expect(f.Tab.Tools.WaitTool(ctx, "always_throws", true)).To(Succeed())

			res := f.Tab.Tools.Invoke(ctx, "always_throws", nil, via)
			Expect(res.Status).To(Equal(vocab.Failed))
			Expect(strings.ToLower(res.ErrorText)).To(Or(ContainSubstring("boom"), ContainSubstring("invocation failed")))
		},
		Entry("page API", vocab.PageAPI),
		Entry("CDP", vocab.CDP),
	)
})

var _ = Own("Invalid parameters", MarkHarness, MarkTasks, func() {
	DescribeTable("are answered by the page with INVALID_PARAMS, and nothing changes",
		func(ctx SpecContext, input map[string]any) {
			f := framework.StartFixture(ctx, "")
			f.Open(ctx, pages.TaskList{})
			Expect(f.Tab.Tools.WaitTool(ctx, pages.AddTask, true)).To(Succeed())
			before := f.State(ctx)

			res := f.Tab.Tools.Invoke(ctx, pages.AddTask, input, vocab.PageAPI)

			Expect(res.Status).To(Equal(vocab.Completed), "the browser does not validate imperative input: the page must")
			Expect(res.Code()).To(Equal("INVALID_PARAMS"))
			var out struct {
				Errors map[string]string `json:"errors"`
			}
			Expect(json.Unmarshal(res.Output, &out)).To(Succeed())
			Expect(out.Errors).NotTo(BeEmpty())
			Expect(f.State(ctx).Hash).To(Equal(before.Hash))
			Expect(f.Tab.Net.Requests().Writes()).To(BeEmpty())
		},
		Entry("empty text", map[string]any{"text": ""}),
		Entry("blank text", map[string]any{"text": "   "}),
		Entry("81 characters", map[string]any{"text": strings.Repeat("x", 81)}),
		Entry("missing text", map[string]any{}),
		Entry("text of the wrong type", map[string]any{"text": 42}),
		Entry("an unknown parameter", map[string]any{"text": "ok", "priority": "high"}),
	)
})
