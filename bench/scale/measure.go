package main

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// An Axis is one kind of work that grows: its sizes, and for a size the
// stages to measure, built outside the measurement.
type Axis struct {
	Name, Unit string
	Sizes      []int
	Prepare    func(n int) (*Work, error)
}

// Work is one size's stages, run in order once per round: a stage may use
// what the one before it made (seal, then write what was sealed).
type Work struct {
	Stages []Stage
	// Outcome is the verdict the work reached, to show what was measured
	// was the usual path (a PASS where the record allows one).
	Outcome string
}

// Stage is one measured step.
type Stage struct {
	Name string
	Run  func() error
}

// AxisRun is an axis as measured.
type AxisRun struct {
	Axis   string  `json:"axis"`
	Unit   string  `json:"unit"`
	Points []Point `json:"points"`
	Fits   []Fit   `json:"fits"`
}

// Point is one size: the median of its rounds per stage.
type Point struct {
	Size    int               `json:"size"`
	Outcome string            `json:"outcome,omitempty"`
	Stages  map[string]Figure `json:"stages"`
}

// Figure is a stage's median wall time and bytes allocated.
type Figure struct {
	Seconds    float64 `json:"seconds"`
	AllocBytes uint64  `json:"allocBytes"`
}

// Growth names how a stage's cost grows with its size.
type Growth string

const (
	linear Growth = "linear or better"
	worse  Growth = "worse than linear"
	// flat: too fast to fit (under a tenth of a millisecond at its
	// largest size), so it does not grow in any way that matters.
	flat Growth = "flat"
)

// linearBound is the largest exponent read as linear: the two largest sizes
// of an axis are 2× to 10× apart, and on a noisy 2-core machine a linear
// stage measured at 1.0–1.2.
const linearBound = 1.25

// Fit is a stage's fitted growth: time ∝ size^Exponent between the two
// largest sizes, and the same for bytes allocated.
type Fit struct {
	Stage         string  `json:"stage"`
	Exponent      float64 `json:"exponent"`
	AllocExponent float64 `json:"allocExponent"`
	Growth        Growth  `json:"growth"`
}

func measure(ax Axis, rounds int) (AxisRun, error) {
	works := make([]*Work, len(ax.Sizes))
	for i, n := range ax.Sizes {
		w, err := ax.Prepare(n)
		if err != nil {
			return AxisRun{}, err
		}
		works[i] = w
	}
	type sample struct {
		secs  []float64
		alloc []uint64
	}
	samples := make([]map[string]*sample, len(ax.Sizes))
	for i := range samples {
		samples[i] = map[string]*sample{}
	}
	for range rounds {
		for i, w := range works {
			for _, st := range w.Stages {
				secs, alloc, err := once(st.Run)
				if err != nil {
					return AxisRun{}, fmt.Errorf("size %d, %s: %w", ax.Sizes[i], st.Name, err)
				}
				s := samples[i][st.Name]
				if s == nil {
					s = &sample{}
					samples[i][st.Name] = s
				}
				s.secs, s.alloc = append(s.secs, secs), append(s.alloc, alloc)
			}
		}
	}
	run := AxisRun{Axis: ax.Name, Unit: ax.Unit}
	for i, n := range ax.Sizes {
		p := Point{Size: n, Outcome: works[i].Outcome, Stages: map[string]Figure{}}
		for name, s := range samples[i] {
			p.Stages[name] = Figure{Seconds: median(s.secs), AllocBytes: median(s.alloc)}
		}
		run.Points = append(run.Points, p)
	}
	for _, st := range works[0].Stages {
		run.Fits = append(run.Fits, fit(st.Name, run.Points))
	}
	return run, nil
}

// once runs a stage, answering its wall time and the bytes it allocated.
func once(f func() error) (float64, uint64, error) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	err := f()
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	return took.Seconds(), after.TotalAlloc - before.TotalAlloc, err
}

func median[T float64 | uint64](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func fit(stage string, points []Point) Fit {
	f := Fit{Stage: stage}
	if len(points) < 2 {
		f.Growth = flat
		return f
	}
	a, b := points[len(points)-2], points[len(points)-1]
	ratio := math.Log(float64(b.Size) / float64(a.Size))
	ta, tb := a.Stages[stage].Seconds, b.Stages[stage].Seconds
	if ta > 0 && tb > 0 {
		f.Exponent = round2(math.Log(tb/ta) / ratio)
	}
	ma, mb := a.Stages[stage].AllocBytes, b.Stages[stage].AllocBytes
	if ma > 0 && mb > 0 {
		f.AllocExponent = round2(math.Log(float64(mb)/float64(ma)) / ratio)
	}
	switch {
	case tb < 1e-4:
		f.Growth = flat
	case f.Exponent > linearBound || f.AllocExponent > linearBound:
		f.Growth = worse
	default:
		f.Growth = linear
	}
	return f
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

func printTable(w io.Writer, res Result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, ax := range res.Axes {
		fmt.Fprintf(tw, "%s (%s)\tgrowth\tk time\tk alloc", ax.Axis, ax.Unit)
		for _, p := range ax.Points {
			fmt.Fprintf(tw, "\t%d", p.Size)
		}
		fmt.Fprintln(tw)
		for _, f := range ax.Fits {
			fmt.Fprintf(tw, "  %s\t%s\t%.2f\t%.2f", f.Stage, f.Growth, f.Exponent, f.AllocExponent)
			for _, p := range ax.Points {
				fig := p.Stages[f.Stage]
				fmt.Fprintf(tw, "\t%s %s", seconds(fig.Seconds), bytesOf(fig.AllocBytes))
			}
			fmt.Fprintln(tw)
		}
		var outcomes []string
		for _, p := range ax.Points {
			outcomes = append(outcomes, p.Outcome)
		}
		if strings.Join(outcomes, "") != "" {
			fmt.Fprintf(tw, "  (verdicts)\t\t\t")
			for _, o := range outcomes {
				fmt.Fprintf(tw, "\t%s", o)
			}
			fmt.Fprintln(tw)
		}
	}
	_ = tw.Flush()
	if len(res.Worse) == 0 {
		fmt.Fprintf(w, "every stage grows linearly or better in its size (k ≤ %.2f between the two largest sizes, medians of %d rounds)\n", linearBound, res.Rounds)
	} else {
		fmt.Fprintf(w, "worse than linear (k > %.2f): %s\n", linearBound, strings.Join(res.Worse, ", "))
	}
}

func seconds(s float64) string {
	switch {
	case s >= 1:
		return fmt.Sprintf("%.2fs", s)
	case s >= 1e-3:
		return fmt.Sprintf("%.1fms", s*1e3)
	default:
		return fmt.Sprintf("%.0fµs", s*1e6)
	}
}

func bytesOf(b uint64) string {
	switch {
	case b >= 1<<20:
		return fmt.Sprintf("%.1fMB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.0fKB", float64(b)/(1<<10))
	default:
		return fmt.Sprintf("%dB", b)
	}
}
