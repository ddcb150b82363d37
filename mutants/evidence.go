package mutants

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/agentready/agentready/netlog"
	"github.com/agentready/agentready/observer"
	"github.com/agentready/agentready/scenarios"
)

// A Mutation changes one thing in a recorded PASS and says what the judge
// must then answer. Apply reports false when the change does not apply to
// this scenario (there is nothing of that kind to change).
type Mutation struct {
	Name    string
	Outcome scenarios.Outcome // FAIL, or INCONCLUSIVE for a dropped source
	Code    scenarios.Code    // the code the verdict must hold
	Apply   func(sc scenarios.Scenario, ev *scenarios.Evidence) bool
}

// Mutations are the single changes of issue 6: each must flip a PASS.
func Mutations() []Mutation {
	return []Mutation{
		{"drop the counted request", scenarios.Fail, scenarios.RequestCountMismatch, dropCounted},
		{"duplicate the counted request", scenarios.Fail, scenarios.RequestCountMismatch, duplicateCounted},
		{"move the guarded request before the confirmation", scenarios.Fail, scenarios.SideEffectBeforeConfirmation, moveGuarded},
		{"change the result code", scenarios.Fail, scenarios.UnexpectedResult, changeResultCode},
		{"add an extra tool call", scenarios.Fail, scenarios.UnexpectedToolCall, addExtraCall},
		{"change an input value", scenarios.Fail, scenarios.WrongToolInput, changeInput},
		{"change the state after", scenarios.Fail, "", changeStateAfter},
		{"drop the journal", scenarios.Inconclusive, scenarios.EvidenceMissing, dropSource("journal")},
		{"drop the network log", scenarios.Inconclusive, scenarios.EvidenceMissing, dropSource("network")},
		{"drop the state", scenarios.Inconclusive, scenarios.EvidenceMissing, dropSource("state")},
		{"drop the page record", scenarios.Inconclusive, scenarios.EvidenceMissing, dropSource("ui")},
		{"make the network log and the journal disagree", scenarios.Fail, scenarios.EvidenceDisagrees, disagree},
		{"take the question out of the final words", scenarios.Fail, scenarios.NoClarifyingQuestion, removeQuestion},
	}
}

// Copy deep-copies evidence through JSON, as a bundle would.
func Copy(ev *scenarios.Evidence) *scenarios.Evidence {
	b, err := json.Marshal(ev)
	if err != nil {
		panic(err)
	}
	var out scenarios.Evidence
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return &out
}

// window answers the [from, to) request and journal indexes of a phase.
func window(ev *scenarios.Evidence, phase string) (scenarios.Mark, scenarios.Mark) {
	from, to, _ := ev.Window(phase)
	return from, to
}

// shift moves every mark past index i of one record by delta.
func shift(ev *scenarios.Evidence, i, delta int, journal bool) {
	for k, m := range ev.Marks {
		if journal && m.Journal > i {
			m.Journal += delta
		}
		if !journal && m.Requests > i {
			m.Requests += delta
		}
		ev.Marks[k] = m
	}
}

func findRequest(ev *scenarios.Evidence, from, to int, method, path string) int {
	for i := from; i < min(to, len(ev.Requests)); i++ {
		if netlog.Match(ev.Requests[i], method, path) {
			return i
		}
	}
	return -1
}

func findEntry(ev *scenarios.Evidence, from, to int, method, path string) int {
	for i := from; i < min(to, len(ev.Journal)); i++ {
		if strings.EqualFold(ev.Journal[i].Method, method) && netlog.Match(netlog.Request{Method: method, Path: ev.Journal[i].Path}, method, path) {
			return i
		}
	}
	return -1
}

func removeRequest(ev *scenarios.Evidence, i int) netlog.Request {
	r := ev.Requests[i]
	ev.Requests = slices.Delete(ev.Requests, i, i+1)
	shift(ev, i, -1, false)
	return r
}

func insertRequest(ev *scenarios.Evidence, i int, r netlog.Request) {
	ev.Requests = slices.Insert(ev.Requests, i, r)
	shift(ev, i-1, +1, false)
}

// appendToWindow puts a request at the end of a phase's window, which may be
// empty: every mark at or past that point moves, but the window's own start.
func appendToWindow(ev *scenarios.Evidence, phase string, i int, r netlog.Request) {
	start := scenarios.PhaseAgent
	if phase == scenarios.PhaseHuman {
		start = scenarios.PhaseHuman
	}
	ev.Requests = slices.Insert(ev.Requests, i, r)
	for k, m := range ev.Marks {
		if k != start && m.Requests >= i {
			m.Requests++
			ev.Marks[k] = m
		}
	}
}

func removeEntry(ev *scenarios.Evidence, i int) observer.Entry {
	e := ev.Journal[i]
	ev.Journal = slices.Delete(ev.Journal, i, i+1)
	shift(ev, i, -1, true)
	return e
}

func insertEntry(ev *scenarios.Evidence, i int, e observer.Entry) {
	ev.Journal = slices.Insert(ev.Journal, i, e)
	shift(ev, i-1, +1, true)
}

// counted finds a request the scenario counts (count > 0) in both records.
func counted(sc scenarios.Scenario, ev *scenarios.Evidence) (netIdx, jIdx int, r scenarios.RequestExpect, ok bool) {
	for _, r := range sc.Expect.Requests {
		if r.Count == 0 || ev.Requests == nil || ev.Journal == nil {
			continue
		}
		from, to := window(ev, r.Phase)
		n, j := findRequest(ev, from.Requests, to.Requests, r.Method, r.Path), findEntry(ev, from.Journal, to.Journal, r.Method, r.Path)
		if n >= 0 && j >= 0 {
			return n, j, r, true
		}
	}
	return 0, 0, scenarios.RequestExpect{}, false
}

func dropCounted(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	n, j, _, ok := counted(sc, ev)
	if ok {
		removeRequest(ev, n)
		removeEntry(ev, j)
	}
	return ok
}

func duplicateCounted(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	n, j, _, ok := counted(sc, ev)
	if ok {
		insertRequest(ev, n+1, ev.Requests[n])
		insertEntry(ev, j+1, ev.Journal[j])
	}
	return ok
}

func moveGuarded(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	for _, g := range sc.Expect.Guarded {
		method, path, _ := scenarios.SplitRequest(g)
		from, to := window(ev, scenarios.PhaseHuman)
		n, j := findRequest(ev, from.Requests, to.Requests, method, path), findEntry(ev, from.Journal, to.Journal, method, path)
		if n < 0 || j < 0 {
			continue
		}
		human := ev.Marks[scenarios.PhaseHuman]
		r, e := removeRequest(ev, n), removeEntry(ev, j)
		ev.Requests = slices.Insert(ev.Requests, human.Requests, r)
		ev.Journal = slices.Insert(ev.Journal, human.Journal, e)
		human.Requests++
		human.Journal++
		ev.Marks[scenarios.PhaseHuman] = human
		return true
	}
	return false
}

func firstAgentCall(ev *scenarios.Evidence) int {
	return slices.IndexFunc(ev.Calls, func(c scenarios.CallRecord) bool { return c.Phase == scenarios.PhaseAgent })
}

func changeResultCode(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	for i, c := range ev.Calls {
		if c.Phase != scenarios.PhaseAgent || c.Index >= len(sc.Agent.Calls) {
			continue
		}
		x := sc.Agent.Calls[c.Index].Expect
		if x == nil || x.Output["code"] == nil {
			continue
		}
		var out map[string]any
		if json.Unmarshal(c.Result.Output, &out) != nil {
			continue
		}
		out["code"] = "OK"
		ev.Calls[i].Result.Output, _ = json.Marshal(out)
		return true
	}
	return false
}

func addExtraCall(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	if sc.Expect.Calls == nil {
		return false
	}
	n := 0
	for _, c := range ev.Calls {
		if c.Phase == scenarios.PhaseAgent {
			n++
		}
	}
	tool := "search_events"
	if len(ev.Catalog) > 0 {
		tool = ev.Catalog[0].Name
	}
	ev.Calls = append(ev.Calls, scenarios.CallRecord{Phase: scenarios.PhaseAgent, Index: n,
		Call: scenarios.Call{Tool: tool}, CatalogBefore: ev.Catalog.Names(), CatalogAfter: ev.Catalog.Names()})
	return true
}

func changeInput(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	if sc.Expect.Calls == nil || !slices.ContainsFunc(sc.Expect.Calls.Exactly, func(c scenarios.CallSketch) bool { return c.Input != nil }) {
		return false
	}
	i := firstAgentCall(ev)
	if i < 0 {
		return false
	}
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range ev.Calls[i].Call.Input {
			if !yield(k) {
				return
			}
		}
	}) {
		if _, ok := ev.Calls[i].Call.Input[k].(string); ok {
			ev.Calls[i].Call.Input[k] = "changed"
			return true
		}
	}
	return false
}

func changeStateAfter(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	for _, phase := range []string{scenarios.PhaseHuman, scenarios.PhaseAgent} {
		want, ok := sc.Expect.State[phase]
		got := ev.States[phase]
		if !ok || got == nil {
			continue
		}
		switch {
		case len(want.Seats) > 0:
			for k := range want.Seats {
				got.SeatsLeft[k]++
				return true
			}
		case len(want.Counts) > 0:
			for k := range want.Counts {
				got.Counts[k]++
				return true
			}
		case want.Unchanged:
			got.Hash = strings.Repeat("0", len(got.Hash))
			got.Version++
			return true
		}
	}
	return false
}

func dropSource(which string) func(scenarios.Scenario, *scenarios.Evidence) bool {
	return func(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
		e := sc.Expect
		switch which {
		case "journal":
			if ev.Journal == nil || (len(e.Writes) == 0 && len(e.Requests) == 0 && len(e.Guarded) == 0) {
				return false
			}
			ev.Journal = nil
			if len(e.Requests) > 0 || len(e.Guarded) > 0 {
				ev.Requests = nil // a count with one of two sources left is still a count
			}
		case "network":
			if ev.Requests == nil || (len(e.Requests) == 0 && len(e.Guarded) == 0) {
				return false
			}
			ev.Requests, ev.Journal = nil, nil
		case "state":
			if len(e.State) == 0 {
				return false
			}
			ev.States = map[string]*observer.State{}
		case "ui":
			if len(e.UI) == 0 {
				return false
			}
			ev.UI = nil
		}
		return true
	}
}

func disagree(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	for _, r := range sc.Expect.Requests {
		if ev.Requests == nil || ev.Journal == nil {
			return false
		}
		from, to := window(ev, r.Phase)
		if n := findRequest(ev, from.Requests, to.Requests, r.Method, r.Path); n >= 0 {
			removeRequest(ev, n) // gone from the network log only
			return true
		}
		fake := netlog.Request{Method: r.Method, Path: r.Path, URL: ev.Env.BaseURL + r.Path, Status: 200, Done: true}
		appendToWindow(ev, r.Phase, to.Requests, fake) // seen by the browser only
		return true
	}
	return false
}

func removeQuestion(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	if sc.Expect.Answer == nil || !sc.Expect.Answer.Asks || ev.Final == nil {
		return false
	}
	s := strings.NewReplacer("?", ".", "？", "。").Replace(*ev.Final)
	ev.Final = &s
	return true
}

// FlipResult is one mutation of one recorded PASS.
type FlipResult struct {
	Scenario, Mutation string
	Applies, Flipped   bool
	Got                scenarios.Verdict
	Want               string
}

// Flip applies every mutation to a copy of each PASS record and judges it.
func Flip(records map[string]*scenarios.Evidence, scs map[string]scenarios.Scenario) []FlipResult {
	var out []FlipResult
	for _, id := range slices.Sorted(func(yield func(string) bool) {
		for k := range records {
			if !yield(k) {
				return
			}
		}
	}) {
		for _, m := range Mutations() {
			ev := Copy(records[id])
			r := FlipResult{Scenario: id, Mutation: m.Name, Want: fmt.Sprintf("%s %s", m.Outcome, m.Code)}
			if r.Applies = m.Apply(scs[id], ev); r.Applies {
				r.Got = scenarios.Judge(scs[id], ev)
				r.Flipped = r.Got.Outcome == m.Outcome && (m.Code == "" || slices.Contains(r.Got.Codes, m.Code))
			}
			out = append(out, r)
		}
	}
	return out
}

// PrintFlips writes the flip table and rate.
func PrintFlips(w io.Writer, results []FlipResult) (rate float64) {
	applies, flipped := 0, 0
	for _, r := range results {
		if !r.Applies {
			continue
		}
		applies++
		mark := "flipped"
		if r.Flipped {
			flipped++
		} else {
			mark = fmt.Sprintf("NOT FLIPPED: got %s %v, want %s", r.Got.Outcome, r.Got.Codes, r.Want)
		}
		fmt.Fprintf(w, "%-22s %-50s %s\n", r.Scenario, r.Mutation, mark)
	}
	rate = float64(flipped) / float64(max(applies, 1))
	fmt.Fprintf(w, "evidence-mutation flip rate: %.0f%% (%d of %d mutants; %d did not apply)\n", 100*rate, flipped, applies, len(results)-applies)
	return rate
}
