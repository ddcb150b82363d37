package e2e

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentready/agentready/e2e/framework"
	"github.com/agentready/agentready/pages"
	"github.com/agentready/agentready/record"
	"github.com/agentready/agentready/vocab"
)

var _ = Describe("The task list", MarkTasks, func() {
	It("takes add_task out of the catalog at 8 tasks, says why, and brings it back when a slot frees", func() {
		f := framework.StartFixture("")
		f.Open(pages.Tasks())
		Expect(f.Tab.Tools.WaitTool(pages.AddTask, true, framework.Bound)).To(Succeed())

		var lastID string
		for i := 1; i <= 8; i++ {
			res := f.Tab.Tools.Invoke(pages.AddTask, map[string]any{"text": fmt.Sprintf("task %d", i)}, vocab.PageAPI)
			Expect(res.Code()).To(Equal("TASK_ADDED"), string(res.Output))
			lastID = gjsonString(res.Output, "task", "id")
		}
		Expect(f.Tab.Tools.WaitTool(pages.AddTask, false, framework.Bound)).To(Succeed())
		Expect(traceKinds(f.Tab.Trace.Events(), pages.AddTask)).To(ContainElement(record.ToolsRemoved))

		status, err := pages.SnapshotOne(f.Tab.Ctx, pages.AddTaskStatus)
		Expect(err).NotTo(HaveOccurred())
		Expect(status.Text).To(ContainSubstring("full"))
		button, _ := pages.SnapshotOne(f.Tab.Ctx, pages.AddTaskButton)
		Expect(button.Enabled).To(BeFalse())
		list := f.Tab.Tools.Invoke(pages.ListTasks, nil, vocab.PageAPI)
		Expect(list.Output).To(MatchJSON(fmt.Sprintf(`%s`, list.Output)))
		Expect(gjsonString(list.Output, "unavailableActions", "0", "reason")).To(Equal("LIST_FULL"))

		gone := f.Tab.Tools.Invoke(pages.AddTask, map[string]any{"text": "ninth"}, vocab.CDP)
		Expect(gone.Status).To(Equal(vocab.Failed))
		Expect(f.State().Counts).To(HaveKeyWithValue("tasks", 8))

		Expect(f.Tab.Tools.Invoke(pages.RemoveTask, map[string]any{"id": lastID}, vocab.PageAPI).Code()).To(Equal("TASK_REMOVED"))
		Expect(f.Tab.Tools.WaitTool(pages.AddTask, true, framework.Bound)).To(Succeed())
		Expect(f.Tab.Tools.Invoke(pages.AddTask, map[string]any{"text": "eighth again"}, vocab.PageAPI).Code()).To(Equal("TASK_ADDED"))
	})

	It("answers success with the observed expectation and the records that changed", func() {
		f := framework.StartFixture("")
		f.Open(pages.Tasks())
		Expect(f.Tab.Tools.WaitTool(pages.AddTask, true, framework.Bound)).To(Succeed())

		res := f.Tab.Tools.Invoke(pages.AddTask, map[string]any{"text": "write the checker first"}, vocab.PageAPI)

		Expect(res.Code()).To(Equal("TASK_ADDED"))
		id := gjsonString(res.Output, "task", "id")
		Expect(res.Output).To(MatchJSON(fmt.Sprintf(`{
			"ok": true, "code": "TASK_ADDED",
			"task": {"id": %q, "text": "write the checker first", "done": false},
			"expectation": {"description": "a row with the new task is in the list", "observed": true},
			"changes": {"added": [%q], "removed": [], "updated": [], "total": {"from": 0, "to": 1}}
		}`, id, id)))
		row, err := pages.SnapshotOne(f.Tab.Ctx, pages.TaskRow(id))
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
