// Command scale measures how the suite's cost grows with its work: wall
// time and bytes allocated of judge, seal, write, verify and report as the
// tools of a page (10 → 2000), the requests of a run (10 → 1000), the calls
// of a transcript (1 → 50) and a tool's output (1 KB → 20 MB) grow, and of
// the run's own reporters as the scenarios of a run grow (10 → 1000); and,
// with a browser, reading the catalog of a page of 10 → 2000 tools. Each
// stage's growth is fitted (the exponent k of time ∝ size^k between the two
// largest sizes, where fixed costs weigh least) and named: linear when k ≤
// 1.25. Sizes are measured in interleaved rounds (these machines are noisy)
// and each point is the median of its rounds. It prints a table and writes
// reports/bench-scale.json.
//
//	go run ./bench/scale [-rounds 5] [-out reports/bench-scale.json] [-browser=true]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentready/agentready/scenarios"
)

func main() {
	rounds := flag.Int("rounds", 5, "interleaved rounds per size (each point is their median)")
	out := flag.String("out", "reports/bench-scale.json", "where to write the results")
	withBrowser := flag.Bool("browser", true, "also read the catalog of pages of many tools in Chromium")
	small := flag.Bool("small", false, "the two smallest sizes of each axis only (a quick try)")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, *rounds, *out, *withBrowser, *small); err != nil {
		fmt.Fprintln(os.Stderr, "bench-scale:", err)
		os.Exit(1)
	}
}

// Result is what reports/bench-scale.json holds.
type Result struct {
	Rounds int       `json:"rounds"`
	Axes   []AxisRun `json:"axes"`
	// Worse lists the stages that grow worse than linearly ("axis/stage").
	Worse []string `json:"worseThanLinear"`
}

func run(ctx context.Context, w io.Writer, rounds int, out string, withBrowser, small bool) error {
	if rounds < 1 {
		return fmt.Errorf("-rounds %d: at least 1", rounds)
	}
	tmp, err := os.MkdirTemp("", "agentready-bench-scale-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	axes := evidenceAxes(tmp)
	axes = append(axes, runAxis(tmp))
	if withBrowser {
		ax, closeBrowser, err := catalogAxis(ctx)
		if err != nil {
			return err
		}
		defer closeBrowser()
		axes = append(axes, ax)
	}
	var res Result
	res.Rounds = rounds
	for _, ax := range axes {
		if small {
			ax.Sizes = ax.Sizes[:2]
		}
		r, err := measure(ax, rounds)
		if err != nil {
			return fmt.Errorf("%s: %w", ax.Name, err)
		}
		res.Axes = append(res.Axes, r)
		for _, f := range r.Fits {
			if f.Growth == worse {
				res.Worse = append(res.Worse, ax.Name+"/"+f.Stage)
			}
		}
	}
	printTable(w, res)
	return writeJSON(out, res)
}

func writeJSON(path string, v any) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// builderTB is the part of a testing.TB the record builders of judgetest
// use (Helper, Fatal): a failure there stops the build with an error,
// not a panic of the bench. Any other method of testing.TB is not
// expected, and would panic on the nil interface.
type builderTB struct{ testing.TB }

type buildFailure struct{ msg string }

func (builderTB) Helper()                      {}
func (builderTB) Fatal(args ...any)            { panic(buildFailure{fmt.Sprint(args...)}) }
func (builderTB) Fatalf(f string, args ...any) { panic(buildFailure{fmt.Sprintf(f, args...)}) }
func (builderTB) Errorf(f string, args ...any) { panic(buildFailure{fmt.Sprintf(f, args...)}) }

// build runs a record builder, its failure an error.
func build(g grower, n int) (sc scenarios.Scenario, ev *scenarios.Evidence, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(buildFailure)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("building the record of size %d: %s", n, f.msg)
		}
	}()
	sc, ev = g(builderTB{}, n)
	return sc, ev, nil
}
