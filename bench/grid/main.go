// Command grid measures, in one run with the ways interleaved, what a
// browser from a Selenium Grid costs against a local Chromium: the start
// (session, attach, preflight), the end, and one scenario (CONF-01 attempt
// 3, recorded into a bundle as agentready run does); and what merging
// shards costs. It prints medians and the ratios grid/local, and writes them
// as JSON. Only ratios from one run mean anything on a shared machine.
//
//	AGENTREADY_GRID_URL=http://127.0.0.1:4444 go run ./bench/grid [-n 5] [-out reports/grid-bench.json]
//
// make grid-bench starts a grid (ci/grid.sh), runs this, and stops it.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/reporters/results"
	"github.com/agentready/agentready/internal/reporters/shard"
	"github.com/agentready/agentready/internal/runs/play"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

func main() {
	n := flag.Int("n", 5, "iterations of each way")
	out := flag.String("out", "reports/grid-bench.json", "where to write the results")
	flag.Parse()
	grid := os.Getenv(browser.EnvGridURL)
	if grid == "" || *n < 1 {
		fmt.Fprintln(os.Stderr, "grid bench: set "+browser.EnvGridURL+" (make grid-bench starts a grid) and -n ≥ 1")
		os.Exit(2)
	}
	if err := run(grid, *n, *out); err != nil {
		fmt.Fprintln(os.Stderr, "grid bench:", err)
		os.Exit(1)
	}
}

type launcher struct {
	name   string
	launch func() (*browser.Browser, func() error, error)
}

func run(grid string, n int, out string) error {
	sc, err := scenarios.Load(filepath.Join(scenarios.DefaultDir, "CONF-01.attempt-3.yaml"))
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "agentready-grid-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	ways := []launcher{
		{"local", func() (*browser.Browser, func() error, error) {
			b, err := browser.Launch(browser.OptionsFromEnv())
			if err != nil {
				return nil, nil, err
			}
			return b, func() error { b.Close(); return nil }, nil
		}},
		{"grid", func() (*browser.Browser, func() error, error) {
			return browser.LaunchOnGrid(context.Background(), grid, browser.DefaultGridKeepAlive)
		}},
	}
	start, end, scenario := map[string][]time.Duration{}, map[string][]time.Duration{}, map[string][]time.Duration{}
	var chromium string
	bundles := 0
	for i := range n + 1 { // the first round warms the JVM, the page cache and the grid
		order := slices.Clone(ways)
		if i%2 == 1 {
			slices.Reverse(order)
		}
		for _, w := range order {
			t0 := time.Now()
			b, release, err := w.launch()
			if err != nil {
				return fmt.Errorf("%s: %w", w.name, err)
			}
			started := time.Since(t0)
			chromium = b.Version.Product
			var took []time.Duration
			for range 3 {
				d, err := oneScenario(b, sc, filepath.Join(work, "shards", fmt.Sprint(bundles%2)), fmt.Sprintf("%s-%d", sc.ID, bundles))
				if err != nil {
					release()
					return fmt.Errorf("%s: %w", w.name, err)
				}
				bundles++
				took = append(took, d)
			}
			t1 := time.Now()
			if err := release(); err != nil {
				return fmt.Errorf("%s: %w", w.name, err)
			}
			if i > 0 {
				start[w.name] = append(start[w.name], started)
				end[w.name] = append(end[w.name], time.Since(t1))
				scenario[w.name] = append(scenario[w.name], took...)
			}
		}
	}
	merged, err := timeMerge(work, bundles)
	if err != nil {
		return err
	}
	res := map[string]any{"chromium": chromium, "grid": grid, "n": n}
	fmt.Printf("grid against local, %d rounds interleaved (%s):\n", n, chromium)
	for _, m := range []struct {
		name string
		took map[string][]time.Duration
	}{{"start (session, attach, preflight)", start}, {"end (close, delete)", end}, {"one scenario (CONF-01 attempt 3 + bundle)", scenario}} {
		l, g := median(m.took["local"]), median(m.took["grid"])
		fmt.Printf("  %-42s local %7.1f ms   grid %7.1f ms   ratio %.2f\n", m.name, ms(l), ms(g), float64(g)/float64(l))
		res[m.name] = map[string]float64{"localMs": ms(l), "gridMs": ms(g), "ratio": float64(g) / float64(l)}
	}
	perScenario := median(append(slices.Clone(scenario["local"]), scenario["grid"]...))
	fmt.Printf("  merge of 2 shards, %d bundles: %.1f ms (%.1f ms a bundle, %.1f%% of running them)\n",
		bundles, ms(merged), ms(merged)/float64(bundles), 100*float64(merged)/float64(perScenario*time.Duration(bundles)))
	res["merge"] = map[string]float64{"bundles": float64(bundles), "ms": ms(merged), "msPerBundle": ms(merged) / float64(bundles),
		"shareOfRunning": float64(merged) / float64(perScenario*time.Duration(bundles))}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	data, _ := json.MarshalIndent(res, "", "  ")
	return os.WriteFile(out, append(data, '\n'), 0o644)
}

// oneScenario plays the scenario against a fresh reference app in a fresh
// tab and seals its bundle, as agentready run does (play.Scenario).
func oneScenario(b *browser.Browser, sc scenarios.Scenario, runDir, name string) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	t0 := time.Now()
	sc.ID = name
	s, err := play.Scenario(ctx, sc, play.Options{Browser: b, RunID: "grid-bench", Dir: runDir})
	if err != nil {
		return 0, err
	}
	if !s.Row.AsMeant || s.Row.Outcome != vocab.Pass {
		return 0, fmt.Errorf("%s: %s\n%s", sc.ID, s.Row.Outcome, judge.Explain(s.Verdict))
	}
	took := time.Since(t0)
	b.Settle() // the tab closed and the next opened ahead are the scenario's cost too
	return took, nil
}

// timeMerge makes the bundles two shards' run folders and times merging them.
func timeMerge(work string, bundles int) (time.Duration, error) {
	var dirs []string
	for k := range 2 {
		dir := filepath.Join(work, "shards", fmt.Sprint(k))
		entries, err := os.ReadDir(dir)
		if err != nil {
			return 0, err
		}
		var rows []results.Row
		for _, e := range entries {
			rows = append(rows, results.Row{ID: e.Name(), Outcome: vocab.Pass, Meant: scenarios.Known{Outcome: vocab.Pass}, AsMeant: true})
		}
		s := shard.Shard{K: k + 1, N: 2}
		named := filepath.Join(work, shard.RunID("bench", s))
		if err := os.Rename(dir, named); err != nil {
			return 0, err
		}
		if err := shard.WriteRecord(named, s, shard.KindRun, "", rows); err != nil {
			return 0, err
		}
		dirs = append(dirs, named)
	}
	t0 := time.Now()
	res, err := shard.Merge(dirs, filepath.Join(work, "bench"), "bench")
	took := time.Since(t0)
	if err != nil {
		return 0, err
	}
	if len(res.Rows) != bundles || len(res.Mismatch) > 0 {
		return 0, fmt.Errorf("the merge has %d rows for %d bundles, mismatches %v", len(res.Rows), bundles, res.Mismatch)
	}
	return took, nil
}

func median(d []time.Duration) time.Duration {
	d = slices.Clone(d)
	slices.Sort(d)
	return d[len(d)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
