package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge/judgetest"
	"github.com/agentready/agentready/scenarios/vocab"
)

// A grower turns the known-good CONF-01 attempt 3 record into one with n
// units of a kind of work, keeping it a run the judge passes where it can,
// so that what is measured is the usual path, not a failure's.
type grower func(tb testing.TB, n int) (scenarios.Scenario, *scenarios.Evidence)

// withTools: the page offers n tools; the scenario pins all of them.
func withTools(tb testing.TB, n int) (scenarios.Scenario, *scenarios.Evidence) {
	sc, ev := judgetest.Conf01(tb)
	for i := 1; i < n; i++ {
		t := record.Tool{Name: fmt.Sprintf("lookup_item_%04d", i),
			Description: fmt.Sprintf("Look up item %d of the catalogue by its code; read-only.", i),
			InputSchema: json.RawMessage(`{"type":"object","properties":{"code":{"type":"string","description":"the item's code"}},"required":["code"]}`),
			Annotations: record.Annotations{ReadOnly: true}, FrameID: "F1"}
		ev.Catalog = append(ev.Catalog, t)
		ev.PageTools = append(ev.PageTools, judgetest.PageTool(t))
		ev.Trace[0].Tools = append(ev.Trace[0].Tools, t)
		sc.Expect.Catalog.Exactly = append(sc.Expect.Catalog.Exactly, t.Name)
	}
	for i := range ev.Calls {
		ev.Calls[i].CatalogBefore = toolNames(ev.Catalog)
		ev.Calls[i].CatalogAfter = toolNames(ev.Catalog)
	}
	return sc, ev
}

func toolNames(c record.Catalog) []string {
	var names []string
	for _, t := range c {
		names = append(names, t.Name)
	}
	return names
}

// withRequests: n requests in the network log, the extra ones the page's
// assets loaded before the agent acts (with their journal entries).
func withRequests(tb testing.TB, n int) (scenarios.Scenario, *scenarios.Evidence) {
	sc, ev := judgetest.Conf01(tb)
	extra := max(0, n-len(ev.Requests))
	var log record.Log
	for i := 1; i <= extra; i++ {
		log = append(log, judgetest.Req(i, "GET", fmt.Sprintf("/assets/chunk-%04d.js", i), 200))
	}
	for _, r := range ev.Requests {
		r.Seq += extra
		r.ID = fmt.Sprintf("1000.%d", r.Seq)
		r.Started = judgetest.At(r.Seq * 10)
		r.SentAt = float64(r.Seq)
		log = append(log, r)
	}
	ev.Requests = log
	var journal record.Journal
	for i := 1; i <= extra; i++ {
		journal = append(journal, judgetest.Entry(i, "GET", fmt.Sprintf("/api/items/%04d", i), 200, ""))
	}
	for _, e := range ev.Journal {
		e.Seq += extra
		e.Time = judgetest.At(e.Seq * 10)
		journal = append(journal, e)
	}
	ev.Journal = journal
	for p, m := range ev.Marks {
		m.Requests += extra
		m.Journal += extra
		ev.Marks[p] = m
	}
	for i := range ev.Reviews {
		ev.Reviews[i].Requests += extra
	}
	return sc, ev
}

// withCalls: the agent calls the prepare tool n times (the same call, the
// same answer), each one in the transcript and in the trace.
func withCalls(tb testing.TB, n int) (scenarios.Scenario, *scenarios.Evidence) {
	sc, ev := judgetest.Conf01(tb)
	call, rec := sc.Agent.Calls[0], ev.Calls[0]
	invoked, responded := ev.Trace[1], ev.Trace[2]
	ev.Trace = ev.Trace[:1]
	sc.Agent.Calls, ev.Calls = nil, nil
	for i := range n {
		sc.Agent.Calls = append(sc.Agent.Calls, call)
		r := rec
		r.Index = i
		r.Result.InvocationID = fmt.Sprintf("%s-%d", rec.Result.InvocationID, i)
		ev.Calls = append(ev.Calls, r)
		in, out := invoked, responded
		in.InvocationID, out.InvocationID = r.Result.InvocationID, r.Result.InvocationID
		in.Seq, out.Seq = len(ev.Trace)+1, len(ev.Trace)+2
		ev.Trace = append(ev.Trace, in, out)
	}
	if c := sc.Expect.Calls; c != nil && len(c.Exactly) == 1 {
		c.Exactly = slices.Repeat(c.Exactly, n)
	}
	for p, m := range ev.Marks {
		if p != vocab.PhaseAgent {
			m.Trace = len(ev.Trace)
			ev.Marks[p] = m
		}
	}
	return sc, ev
}

// withOutput: the prepare tool answers with size bytes: its usual answer
// and a note that fills the rest (the expectation, a subset, still holds).
func withOutput(tb testing.TB, size int) (scenarios.Scenario, *scenarios.Evidence) {
	sc, ev := judgetest.Conf01(tb)
	var answer map[string]any
	if err := json.Unmarshal([]byte(judgetest.Prepared), &answer); err != nil {
		tb.Fatal(err)
	}
	base, err := json.Marshal(answer)
	if err != nil {
		tb.Fatal(err)
	}
	answer["notes"] = strings.Repeat("n", max(0, size-len(base)-len(`,"notes":""`)))
	out, err := json.Marshal(answer)
	if err != nil {
		tb.Fatal(err)
	}
	ev.Calls[0].Result.Output = out
	for i := range ev.Trace {
		if ev.Trace[i].Kind == record.ToolResponded {
			ev.Trace[i].Output = out
		}
	}
	return sc, ev
}
