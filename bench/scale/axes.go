package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/reporters/report"
	"github.com/agentready/agentready/internal/reporters/results"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/judge/judgetest"
)

// evidenceAxes are the kinds of work one scenario's record grows by, each
// measured through what happens to a record after the play: judge it, seal
// it (redact, judge raw and redacted), render its page, write the bundle,
// verify the bundle.
func evidenceAxes(tmp string) []Axis {
	return []Axis{
		recordAxis(tmp, "tools", "tools on the page", []int{10, 100, 500, 2000}, withTools),
		recordAxis(tmp, "requests", "requests in the log", []int{10, 100, 300, 1000}, withRequests),
		recordAxis(tmp, "calls", "calls in the transcript", []int{1, 5, 20, 50}, withCalls),
		recordAxis(tmp, "output", "bytes of one tool output", []int{1 << 10, 100 << 10, 2 << 20, 20 << 20}, withOutput),
	}
}

func meta() bundle.Meta {
	t := judgetest.At(0)
	return bundle.Meta{RunID: "bench-scale", Start: t, End: t.Add(time.Second), SuiteVersion: "bench", BaseURL: judgetest.BaseURL}
}

func recordAxis(tmp, name, unit string, sizes []int, g grower) Axis {
	return Axis{Name: name, Unit: unit, Sizes: sizes, Prepare: func(n int) (*Work, error) {
		sc, ev, err := build(g, n)
		if err != nil {
			return nil, err
		}
		var (
			b     bundle.Bundle
			page  []byte
			round int
			dir   string
		)
		w := &Work{Outcome: string(judge.Judge(sc, ev).Outcome)}
		w.Stages = []Stage{
			{"judge", func() error { judge.Judge(sc, ev); return nil }},
			{"seal", func() (err error) { b, err = bundle.Seal(meta(), sc, ev); return err }},
			{"report", func() error { page = report.HTML(b); return nil }},
			{"write", func() error {
				round++
				dir = filepath.Join(tmp, fmt.Sprintf("%s-%d-%d", name, n, round))
				return bundle.Write(dir, b, page)
			}},
			{"verify", func() error {
				rep := bundle.Verify(dir)
				if !rep.OK {
					return fmt.Errorf("the bundle does not verify: %v", rep.Problems)
				}
				return os.RemoveAll(dir) // counted, but small next to the verify
			}},
		}
		return w, nil
	}}
}

// runAxis grows the scenarios of one run: verifying its run folder and the
// reporters that are functions of its rows (the run page, the terminal
// table, the job summary).
func runAxis(tmp string) Axis {
	return Axis{Name: "scenarios", Unit: "scenarios in a run", Sizes: []int{10, 100, 300, 1000}, Prepare: func(n int) (*Work, error) {
		sc, ev, err := build(func(tb testing.TB, _ int) (scenarios.Scenario, *scenarios.Evidence) { return judgetest.Conf01(tb) }, 0)
		if err != nil {
			return nil, err
		}
		b, err := bundle.Seal(meta(), sc, ev)
		if err != nil {
			return nil, err
		}
		page := report.HTML(b)
		runDir := filepath.Join(tmp, fmt.Sprintf("run-%d", n))
		var rows []results.Row
		for i := range n {
			dir := filepath.Join(runDir, fmt.Sprintf("%s.%04d", sc.ID, i))
			if err := bundle.Write(dir, b, page); err != nil {
				return nil, err
			}
			row := results.Of(dir, sc, b, 700*time.Millisecond)
			row.ID = fmt.Sprintf("%s.%04d", sc.ID, i)
			rows = append(rows, row)
		}
		return &Work{Outcome: string(b.Verdict.Outcome), Stages: []Stage{
			{"verify run", func() error { return verifyRun(runDir) }},
			{"run page", func() error { return results.Page{RunID: "bench-scale", Rows: rows}.Write(runDir) }},
			{"terminal", func() error { results.PrintTable(io.Discard, rows); return nil }},
			{"summary", func() error { _ = results.Markdown(results.Totals(rows), rows); return nil }},
		}}, nil
	}}
}

// verifyRun verifies every bundle of a run folder, as `agentready verify
// RUN-FOLDER` does.
func verifyRun(runDir string) error {
	entries, err := os.ReadDir(runDir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if rep := bundle.Verify(filepath.Join(runDir, e.Name())); !rep.OK {
			return fmt.Errorf("%s does not verify: %v", e.Name(), rep.Problems)
		}
	}
	return nil
}
