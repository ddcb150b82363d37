package mutants

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Outcome of one killer against one app.
type Outcome struct {
	Variant refapp.Variant
	Killer  string
	Verdict judge.Verdict
	Err     error
}

// Row is one variant's line of the kill table.
type Row struct {
	Variant  refapp.Variant
	Code     string // the code that must kill it
	KilledBy []string
	Seen     []string // what the killers reached instead, when nothing killed it
}

// Killed tells whether some killer failed the variant with its code.
func (r Row) Killed() bool { return len(r.KilledBy) > 0 }

// Gate is the result of running every killer against every variant and the
// correct app.
type Gate struct {
	Rows         []Row
	FalseAlarms  []Outcome // the correct app not passing a killer
	Errors       []Outcome // harness errors
	KillerCounts int
}

// KillRate is killed variants over all variants.
func (g Gate) KillRate() float64 {
	killed := 0
	for _, r := range g.Rows {
		if r.Killed() {
			killed++
		}
	}
	return float64(killed) / float64(len(g.Rows))
}

// OK is the gate's answer: every variant killed by its code, the correct app
// passing every killer, and no harness error.
func (g Gate) OK() bool {
	return g.KillRate() == 1 && len(g.FalseAlarms) == 0 && len(g.Errors) == 0
}

// RunGate runs the killers of each variant's area against it, and every
// killer against the correct app, with workers in parallel.
func RunGate(ctx context.Context, env *Env, variants []refapp.Variant, killers []Killer, workers int) Gate {
	type job struct {
		v refapp.Variant
		k Killer
	}
	var jobs []job
	for _, k := range killers {
		jobs = append(jobs, job{"", k})
	}
	for _, v := range variants {
		info, _ := v.Info()
		for _, k := range killers {
			if k.Area == info.Area {
				jobs = append(jobs, job{v, k})
			}
		}
	}
	out := make([]Outcome, len(jobs))
	_ = Parallel(workers, len(jobs), func(i int) error {
		verdict, err := jobs[i].k.Run(ctx, env, jobs[i].v)
		out[i] = Outcome{Variant: jobs[i].v, Killer: jobs[i].k.Name, Verdict: verdict, Err: err}
		return nil
	})

	g := Gate{KillerCounts: len(killers)}
	rows := map[refapp.Variant]*Row{}
	for _, v := range variants {
		info, _ := v.Info()
		rows[v] = &Row{Variant: v, Code: info.CaughtBy}
	}
	for _, o := range out {
		switch {
		case o.Err != nil:
			g.Errors = append(g.Errors, o)
		case o.Variant == "":
			if o.Verdict.Outcome != vocab.Pass && !knownAnswer(env, o) {
				g.FalseAlarms = append(g.FalseAlarms, o)
			}
		default:
			row := rows[o.Variant]
			if o.Verdict.Outcome == vocab.Fail && slices.Contains(o.Verdict.Codes, vocab.Code(row.Code)) {
				row.KilledBy = append(row.KilledBy, o.Killer)
			} else {
				row.Seen = append(row.Seen, fmt.Sprintf("%s: %s %v", o.Killer, o.Verdict.Outcome, o.Verdict.Codes))
			}
		}
	}
	for _, v := range variants {
		g.Rows = append(g.Rows, *rows[v])
	}
	return g
}

// knownAnswer: a scenario whose file states a non-PASS known answer is no
// false alarm when the correct app reaches exactly that.
func knownAnswer(env *Env, o Outcome) bool {
	sc, ok := env.Scenarios[o.Killer]
	if !ok || sc.Known == nil {
		return false
	}
	return judge.AsMeant(sc, o.Verdict)
}

// Print writes the kill table.
func (g Gate) Print(w io.Writer) {
	fmt.Fprintf(w, "%-26s %-34s %s\n", "variant", "must be caught by", "killed by")
	for _, r := range g.Rows {
		killed := strings.Join(r.KilledBy, ", ")
		if !r.Killed() {
			killed = "SURVIVED — " + strings.Join(r.Seen, "; ")
		}
		fmt.Fprintf(w, "%-26s %-34s %s\n", r.Variant, r.Code, killed)
	}
	for _, o := range g.FalseAlarms {
		fmt.Fprintf(w, "FALSE ALARM on the correct app: %s\n%s", o.Killer, judge.Explain(o.Verdict))
	}
	for _, o := range g.Errors {
		fmt.Fprintf(w, "HARNESS ERROR: %s on %q: %v\n", o.Killer, o.Variant, o.Err)
	}
	fmt.Fprintf(w, "kill rate: %.0f%% (%d variants, %d killers); the correct app passed every killer: %v\n",
		100*g.KillRate(), len(g.Rows), g.KillerCounts, len(g.FalseAlarms) == 0)
}

// Parallel runs f(0..n-1) on workers goroutines and joins their errors.
func Parallel(workers, n int, f func(i int) error) error {
	next := make(chan int)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for range max(1, workers) {
		wg.Go(func() {
			for i := range next {
				errs[i] = f(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return errors.Join(errs...)
}
