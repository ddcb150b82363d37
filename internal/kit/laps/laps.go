// Package laps times the stages of a play for the bench: a stopwatch that
// rides on the context, and costs nothing where the context carries none.
// It is how the bench says where a scenario's time goes, without a build
// of its own or timings in the evidence (which is judged, and must be the
// same bytes on every re-judge).
package laps

import (
	"context"
	"sync"
	"time"
)

// Lap is the time one stage took.
type Lap struct {
	Stage string
	Took  time.Duration
}

// Watch is a stopwatch: each Lap ends a stage, started where the last ended.
type Watch struct {
	mu   sync.Mutex
	last time.Time
	laps []Lap
}

type key struct{}

// Start returns ctx carrying a new watch, started now.
func Start(ctx context.Context) (context.Context, *Watch) {
	w := &Watch{last: time.Now()}
	return context.WithValue(ctx, key{}, w), w
}

// Mark ends a stage of the watch ctx carries, if it carries one.
func Mark(ctx context.Context, stage string) {
	w, _ := ctx.Value(key{}).(*Watch)
	if w == nil {
		return
	}
	now := time.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.laps = append(w.laps, Lap{Stage: stage, Took: now.Sub(w.last)})
	w.last = now
}

// Laps are the stages timed so far, in order; a stage timed more than once
// (a state read per phase) is summed, at the place it first ended.
func (w *Watch) Laps() []Lap {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []Lap
	at := map[string]int{}
	for _, l := range w.laps {
		if i, ok := at[l.Stage]; ok {
			out[i].Took += l.Took
			continue
		}
		at[l.Stage] = len(out)
		out = append(out, l)
	}
	return out
}
