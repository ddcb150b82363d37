package webmcp

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/data/record"
)

// pageClock is a fake page: advance moves its time, and the tools
// scheduled at a page time are added when the time passes it.
type pageClock struct {
	r     *Recorder
	now   time.Duration
	at    map[time.Duration][]string // page time → tools added then
	drops map[time.Duration][]string // page time → tools removed then
}

func (p *pageClock) advance(_ context.Context, d time.Duration) error {
	due := func(m map[time.Duration][]string) []time.Duration {
		var out []time.Duration
		for t := range m {
			if t > p.now && t <= p.now+d {
				out = append(out, t)
			}
		}
		slices.Sort(out)
		return out
	}
	for _, t := range due(p.at) {
		for _, name := range p.at[t] {
			p.r.add(record.Event{Kind: record.ToolsAdded, Tools: []record.Tool{{Name: name}}})
		}
	}
	for _, t := range due(p.drops) {
		for _, name := range p.drops[t] {
			p.r.add(record.Event{Kind: record.ToolsRemoved, Tools: []record.Tool{{Name: name}}})
		}
	}
	p.now += d
	return nil
}

func TestSettleOnThePageClock(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		name        string
		at, drops   map[time.Duration][]string
		wantWaited  time.Duration
		wantArrived []string
		wantLeft    []string
		wantBounded bool
	}{
		{name: "a quiet page waits the quiet time", wantWaited: 300 * ms},
		{name: "a tool after a fetch is waited for", at: map[time.Duration][]string{120 * ms: {"search_books"}},
			wantWaited: 450 * ms, wantArrived: []string{"search_books"}},
		{name: "a tool withdrawn and another added", at: map[time.Duration][]string{40 * ms: {"list_loans"}}, drops: map[time.Duration][]string{40 * ms: {"search_books"}},
			wantWaited: 350 * ms, wantArrived: []string{"list_loans"}, wantLeft: []string{"search_books"}},
		{name: "a page that never stops changing is bounded", at: func() map[time.Duration][]string {
			m := map[time.Duration][]string{}
			for t := 100 * ms; t < 20*time.Second; t += 100 * ms {
				m[t] = []string{"tick"}
			}
			return m
		}(), wantWaited: 5 * time.Second, wantBounded: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := NewRecorder()
			p := &pageClock{r: r, at: c.at, drops: c.drops}
			s, err := r.Settle(t.Context(), DefaultSettle, p.advance)
			if err != nil {
				t.Fatal(err)
			}
			if s.Waited != c.wantWaited || s.Bounded != c.wantBounded {
				t.Errorf("waited %s bounded %v, want %s %v", s.Waited, s.Bounded, c.wantWaited, c.wantBounded)
			}
			if !c.wantBounded && (!slices.Equal(s.Arrived, c.wantArrived) || !slices.Equal(s.Left, c.wantLeft)) {
				t.Errorf("arrived %v left %v, want %v %v", s.Arrived, s.Left, c.wantArrived, c.wantLeft)
			}
			if s.Mark != r.Len() {
				t.Errorf("mark %d, trace %d", s.Mark, r.Len())
			}
		})
	}
}

func TestWaitLateFindsAToolAfterTheBound(t *testing.T) {
	r := NewRecorder()
	p := &pageClock{r: r, at: map[time.Duration][]string{4 * time.Second: {"search_books"}}}
	s, err := r.Settle(t.Context(), DefaultSettle, p.advance)
	if err != nil || s.Waited != 300*time.Millisecond || len(s.Arrived) != 0 {
		t.Fatalf("settle: %+v %v", s, err)
	}
	after, ok := r.WaitLate(t.Context(), "search_books", DefaultSettle.Max, p.advance)
	if !ok || after != 3700*time.Millisecond {
		t.Errorf("late by %s (%v), want 3.7s", after, ok)
	}
	// A tool that never comes is not late: it is absent.
	if _, ok := r.WaitLate(t.Context(), "renew_loan", DefaultSettle.Max, p.advance); ok {
		t.Error("a tool that never came was found late")
	}
}

func TestSettleInRealTime(t *testing.T) {
	r := NewRecorder()
	rule := SettleRule{Quiet: 30 * time.Millisecond, Max: testWait}
	go func() {
		r.add(record.Event{Kind: record.ToolsAdded, Tools: []record.Tool{{Name: "search_books"}}})
	}()
	s, err := r.Settle(t.Context(), rule, nil)
	if err != nil || s.Bounded || s.Waited < rule.Quiet {
		t.Fatalf("%+v %v", s, err)
	}
	// A canceled wait says so.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := r.Settle(ctx, SettleRule{Quiet: time.Hour, Max: 2 * time.Hour}, nil); err == nil {
		t.Error("a canceled wait answered no error")
	}
}

func TestSettleRuleCheck(t *testing.T) {
	if err := DefaultSettle.Check(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		rule SettleRule
		want string
	}{
		{SettleRule{Quiet: 0, Max: time.Second}, "--settle 0s"},
		{SettleRule{Quiet: -time.Second, Max: time.Second}, "more than 0"},
		{SettleRule{Quiet: time.Second, Max: 0}, "--max-wait 0s"},
		{SettleRule{Quiet: 6 * time.Second, Max: 5 * time.Second}, "longer than --max-wait"},
	} {
		if err := c.rule.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.rule, err, c.want)
		}
	}
}

// A catalog_after or wait_tool wait runs on the page's clock: a tool that
// arrives is waited for as long as the page takes to bring it, one that
// never comes ends the wait at the bound of the page's time (not of real
// time: the page clock here is instant), and one that must leave is seen gone.
func TestWaitToolOnThePageClock(t *testing.T) {
	ms := time.Millisecond
	r := NewRecorder()
	p := &pageClock{r: r, at: map[time.Duration][]string{700 * ms: {"pick_flight"}}, drops: map[time.Duration][]string{200 * ms: {"search_flights"}}}
	r.add(record.Event{Kind: record.ToolsAdded, Tools: []record.Tool{{Name: "search_flights"}}})
	c := NewClient(noTab, r)
	c.Bound = 3 * time.Second
	if err := c.WaitToolOn(t.Context(), "search_flights", false, p.advance); err != nil || p.now != 200*ms {
		t.Fatalf("the leaving tool: %v at %s, want gone at 200ms", err, p.now)
	}
	if err := c.WaitToolOn(t.Context(), "pick_flight", true, p.advance); err != nil || p.now != 700*ms {
		t.Fatalf("the arriving tool: %v at %s, want there at 700ms", err, p.now)
	}
	start := time.Now()
	err := c.WaitToolOn(t.Context(), "never", true, p.advance)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "not within 3s of the page's time") || p.now != 3700*ms {
		t.Fatalf("a tool that never comes: %v at %s, want bounded at 3.7s", err, p.now)
	}
	if real := time.Since(start); real > time.Second {
		t.Errorf("the bound was waited in real time (%s), not the page's", real)
	}
}
