package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Each builder's record holds the work it claims, and the judge still
// passes it: a bench whose record did not grow would fit nothing.
func TestTheRecordsGrowAndStayPassing(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    grower
		n    int
	}{
		{"tools", withTools, 300},
		{"requests", withRequests, 300},
		{"calls", withCalls, 30},
		{"output", withOutput, 3 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, ev := tc.g(t, tc.n)
			var got int
			switch tc.name {
			case "tools":
				got = len(ev.Catalog)
			case "requests":
				got = len(ev.Requests)
			case "calls":
				got = len(ev.Calls)
			case "output":
				got = len(ev.Calls[0].Result.Output)
			}
			if got != tc.n {
				t.Errorf("the record holds %d, want %d", got, tc.n)
			}
			if v := judge.Judge(sc, ev); v.Outcome != vocab.Pass {
				t.Errorf("judged %s %v, want PASS", v.Outcome, v.Codes)
			}
		})
	}
}

// The fit names a cost that grows with the square of its size, and one
// that grows in a straight line after a fixed cost, for what they are.
func TestTheFitTellsLinearFromWorse(t *testing.T) {
	points := func(cost func(n float64) float64) []Point {
		var ps []Point
		for _, n := range []int{10, 100, 1000} {
			ps = append(ps, Point{Size: n, Stages: map[string]Figure{"s": {Seconds: cost(float64(n)), AllocBytes: uint64(cost(float64(n)) * 1e9)}}})
		}
		return ps
	}
	if f := fit("s", points(func(n float64) float64 { return 1e-6 * n * n })); f.Growth != worse || f.Exponent < 1.9 {
		t.Errorf("n²: %+v", f)
	}
	if f := fit("s", points(func(n float64) float64 { return 0.01 + 1e-5*n })); f.Growth != linear {
		t.Errorf("a + b·n: %+v", f)
	}
	if f := fit("s", points(func(n float64) float64 { return 1e-9 * n })); f.Growth != flat {
		t.Errorf("a microsecond: %+v", f)
	}
}

// A quick run of the record axes (two sizes, one round) prints the table
// and writes the JSON with a fit for every stage.
func TestAQuickRunWritesTheTableAndTheJSON(t *testing.T) {
	out := filepath.Join(t.TempDir(), "bench-scale.json")
	var table strings.Builder
	if err := run(t.Context(), &table, 1, out, false, true); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var res Result
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"tools": 5, "requests": 5, "calls": 5, "output": 5, "scenarios": 4}
	for _, ax := range res.Axes {
		if len(ax.Points) != 2 {
			t.Errorf("%s: %d points, want 2", ax.Axis, len(ax.Points))
		}
		if len(ax.Fits) != want[ax.Axis] {
			t.Errorf("%s: %d fits, want %d", ax.Axis, len(ax.Fits), want[ax.Axis])
		}
		for _, p := range ax.Points {
			if p.Outcome != string(vocab.Pass) {
				t.Errorf("%s %d: %s", ax.Axis, p.Size, p.Outcome)
			}
		}
		if !strings.Contains(table.String(), ax.Axis+" (") {
			t.Errorf("the table has no %s section:\n%s", ax.Axis, table.String())
		}
		delete(want, ax.Axis)
	}
	if len(want) > 0 {
		t.Errorf("axes missing from the JSON: %v", want)
	}
}

func TestRoundsBelowOneAreRefused(t *testing.T) {
	err := run(t.Context(), &strings.Builder{}, 0, filepath.Join(t.TempDir(), "x.json"), false, true)
	if err == nil || !strings.Contains(err.Error(), "-rounds 0") {
		t.Fatalf("got %v", err)
	}
}
