package e2e

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentready/agentready/e2e/framework"
	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/pages"
	"github.com/agentready/agentready/scenarios/vocab"
)

var _ = Own("The task list", MarkTasks, func() {
	It("takes add_task out of the catalog at 8 tasks, says why, and brings it back when a slot frees", framework.Timeout, func(ctx SpecContext) {
		f := framework.StartFixture(ctx, "")
		f.Open(ctx, pages.TaskList{})
		Expect(f.Tab.Tools.WaitTool(ctx, pages.AddTask, true)).To(Succeed())

		var ids []string
		for i := 1; i <= 8; i++ {
			res := f.Tab.Tools.Invoke(ctx, pages.AddTask, map[string]any{"text": fmt.Sprintf("task %d", i)}, vocab.PageAPI)
			Expect(res.Code()).To(Equal("TASK_ADDED"), string(res.Output))
			ids = append(ids, gjsonString(res.Output, "task", "id"))
		}
		lastID := ids[7]
		Expect(f.Tab.Tools.WaitTool(ctx, pages.AddTask, false)).To(Succeed())
		Expect(traceKinds(f.Tab.Trace.Events(), pages.AddTask)).To(ContainElement(record.ToolsRemoved))

		status, err := pages.SnapshotOne(f.In(ctx), pages.TaskList{}.AddStatus())
		Expect(err).NotTo(HaveOccurred())
		Expect(status.Present).To(BeTrue())
		Expect(status.Text).To(ContainSubstring("full"))
		button, err := pages.SnapshotOne(f.In(ctx), pages.TaskList{}.AddButton())
		Expect(err).NotTo(HaveOccurred())
		Expect(button.Present).To(BeTrue(), "the add button must be on the page, disabled")
		Expect(button.Enabled).To(BeFalse())

		// The whole answer of the read-only tool, compared with an expected
		// document written here: every task, the count, and why add_task is gone.
		tasks := make([]string, len(ids))
		for i, id := range ids {
			tasks[i] = fmt.Sprintf(`{"id": %q, "text": "task %d", "done": false}`, id, i+1)
		}
		list := f.Tab.Tools.Invoke(ctx, pages.ListTasks, nil, vocab.PageAPI)
		Expect(list.Status).To(Equal(vocab.Completed), list.ErrorText)
		Expect(list.Output).To(MatchJSON(fmt.Sprintf(`{
			"ok": true, "code": "FOUND", "total": 8, "max": 8,
			"tasks": [%s],
			"unavailableActions": [{"name": "add_task", "reason": "LIST_FULL",
				"message": "The list is full (8 of 8). Remove a task to add another."}]
		}`, strings.Join(tasks, ", "))))

		gone := f.Tab.Tools.Invoke(ctx, pages.AddTask, map[string]any{"text": "ninth"}, vocab.CDP)
		Expect(gone.Status).To(Equal(vocab.Failed))
		Expect(f.State(ctx).Counts).To(HaveKeyWithValue("tasks", 8))

		Expect(f.Tab.Tools.Invoke(ctx, pages.RemoveTask, map[string]any{"id": lastID}, vocab.PageAPI).Code()).To(Equal("TASK_REMOVED"))
		Expect(f.Tab.Tools.WaitTool(ctx, pages.AddTask, true)).To(Succeed())
		Expect(f.Tab.Tools.Invoke(ctx, pages.AddTask, map[string]any{"text": "eighth again"}, vocab.PageAPI).Code()).To(Equal("TASK_ADDED"))
	})

	It("answers success with the observed expectation and the records that changed", framework.Timeout, func(ctx SpecContext) {
		f := framework.StartFixture(ctx, "")
		f.Open(ctx, pages.TaskList{})
		Expect(f.Tab.Tools.WaitTool(ctx, pages.AddTask, true)).To(Succeed())

		res := f.Tab.Tools.Invoke(ctx, pages.AddTask, map[string]any{"text": "write the checker first"}, vocab.PageAPI)

		Expect(res.Code()).To(Equal("TASK_ADDED"))
		id := gjsonString(res.Output, "task", "id")
		Expect(res.Output).To(MatchJSON(fmt.Sprintf(`{
			"ok": true, "code": "TASK_ADDED",
			"task": {"id": %q, "text": "write the checker first", "done": false},
			"expectation": {"description": "a row with the new task is in the list", "observed": true},
			"changes": {"added": [%q], "removed": [], "updated": [], "total": {"from": 0, "to": 1}}
		}`, id, id)))
		row, err := pages.SnapshotOne(f.In(ctx), pages.TaskList{}.Row(id))
		Expect(err).NotTo(HaveOccurred())
		Expect(row.Visible).To(BeTrue())
	})
})

func traceKinds(events []record.Event, tool string) []record.Kind {
	var kinds []record.Kind
	for _, e := range events {
		for _, t := range e.Tools {
			if t.Name == tool {
				kinds = append(kinds, e.Kind)
			}
		}
	}
	return kinds
}
