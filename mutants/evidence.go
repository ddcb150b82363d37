package mutants

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/agentready/agentready/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/vocab"
)

// A Mutation changes one thing in a recorded PASS and says what the judge
// must then answer. Apply reports false when the change does not apply to
// this scenario (there is nothing of that kind to change).
type Mutation struct {
	Name    string
	Outcome vocab.Outcome // FAIL, or INCONCLUSIVE for a dropped source
	Code    vocab.Code    // the code the verdict must hold
	Apply   func(sc scenarios.Scenario, ev *scenarios.Evidence) bool
}

// Mutations are the single changes of issue 6: each must flip a PASS.
func Mutations() []Mutation {
	return []Mutation{
		{"drop the counted request", vocab.Fail, vocab.RequestCountMismatch, dropCounted},
		{"duplicate the counted request", vocab.Fail, vocab.RequestCountMismatch, duplicateCounted},
		{"move the guarded request before the confirmation", vocab.Fail, vocab.SideEffectBeforeConfirmation, moveGuarded},
		{"change the result code", vocab.Fail, vocab.UnexpectedResult, changeResultCode},
		{"add an extra tool call", vocab.Fail, vocab.UnexpectedToolCall, addExtraCall},
		{"change an input value", vocab.Fail, vocab.WrongToolInput, changeInput},
		{"change the state after", vocab.Fail, "", changeStateAfter},
		{"drop the journal", vocab.Inconclusive, vocab.EvidenceMissing, dropSource("journal")},
		{"drop the network log", vocab.Inconclusive, vocab.EvidenceMissing, dropSource("network")},
		{"drop the state", vocab.Inconclusive, vocab.EvidenceMissing, dropSource("state")},
		{"drop the page record", vocab.Inconclusive, vocab.EvidenceMissing, dropSource("ui")},
		{"make the network log and the journal disagree", vocab.Fail, vocab.EvidenceDisagrees, disagree},
		{"take the question out of the final words", vocab.Fail, vocab.NoClarifyingQuestion, removeQuestion},
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

// counted finds a request the scenario counts (count > 0) that both records
// hold in its phase.
func counted(sc scenarios.Scenario, ev *scenarios.Evidence) (scenarios.RequestExpect, bool) {
	for _, r := range sc.Expect.Requests {
		if r.Count == 0 || ev.Requests == nil || ev.Journal == nil {
			continue
		}
		probe := Copy(ev)
		_, errNet := probe.RemoveRequest(r.Phase, r.Method, r.Path)
		_, errJournal := probe.RemoveJournalEntry(r.Phase, r.Method, r.Path)
		if errNet == nil && errJournal == nil {
			return r, true
		}
	}
	return scenarios.RequestExpect{}, false
}

func dropCounted(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	r, ok := counted(sc, ev)
	if ok {
		_, _ = ev.RemoveRequest(r.Phase, r.Method, r.Path)
		_, _ = ev.RemoveJournalEntry(r.Phase, r.Method, r.Path)
	}
	return ok
}

func duplicateCounted(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	r, ok := counted(sc, ev)
	if !ok {
		return false
	}
	req, _ := ev.RemoveRequest(r.Phase, r.Method, r.Path)
	entry, _ := ev.RemoveJournalEntry(r.Phase, r.Method, r.Path)
	for range 2 {
		_ = ev.InsertRequest(r.Phase, req)
		_ = ev.InsertJournalEntry(r.Phase, entry)
	}
	return true
}

func moveGuarded(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	for _, g := range sc.Expect.Guarded {
		method, path, _ := record.SplitRequest(g)
		probe := Copy(ev)
		r, errNet := probe.RemoveRequest(vocab.PhaseHuman, method, path)
		e, errJournal := probe.RemoveJournalEntry(vocab.PhaseHuman, method, path)
		if errNet != nil || errJournal != nil {
			continue
		}
		if probe.InsertRequest(vocab.PhaseAgent, r) != nil || probe.InsertJournalEntry(vocab.PhaseAgent, e) != nil {
			continue
		}
		*ev = *probe
		return true
	}
	return false
}

func firstAgentCall(ev *scenarios.Evidence) int {
	return slices.IndexFunc(ev.Calls, func(c scenarios.CallRecord) bool { return c.Phase == vocab.PhaseAgent })
}

func changeResultCode(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	for i, c := range ev.Calls {
		if c.Phase != vocab.PhaseAgent || c.Index >= len(sc.Agent.Calls) {
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
		if c.Phase == vocab.PhaseAgent {
			n++
		}
	}
	tool := "search_events"
	if len(ev.Catalog) > 0 {
		tool = ev.Catalog[0].Name
	}
	ev.Calls = append(ev.Calls, scenarios.CallRecord{Phase: vocab.PhaseAgent, Index: n,
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
	for _, k := range slices.Sorted(maps.Keys(ev.Calls[i].Call.Input)) {
		if _, ok := ev.Calls[i].Call.Input[k].(string); ok {
			ev.Calls[i].Call.Input[k] = "changed"
			return true
		}
	}
	return false
}

// changeStateAfter changes the first value the scenario expects of the
// state (in key order: every mutation is deterministic).
func changeStateAfter(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	for _, phase := range []vocab.Phase{vocab.PhaseHuman, vocab.PhaseAgent} {
		want, ok := sc.Expect.State[phase]
		got := ev.States[phase]
		if !ok || got == nil {
			continue
		}
		switch {
		case len(want.Seats) > 0:
			got.SeatsLeft[slices.Min(slices.Collect(maps.Keys(want.Seats)))]++
			return true
		case len(want.Counts) > 0:
			got.Counts[slices.Min(slices.Collect(maps.Keys(want.Counts)))]++
			return true
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
			ev.States = map[vocab.Phase]*record.State{}
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
		if _, err := ev.RemoveRequest(r.Phase, r.Method, r.Path); err == nil {
			return true // gone from the network log only
		}
		fake := record.Request{Method: r.Method, Path: r.Path, URL: ev.Env.BaseURL + r.Path, Status: 200, Done: true}
		return ev.InsertRequest(r.Phase, fake) == nil // seen by the browser only
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
	Got                judge.Verdict
	Want               string
}

// Flip applies every mutation to a copy of each PASS record and judges it.
func Flip(records map[string]*scenarios.Evidence, scs map[string]scenarios.Scenario) []FlipResult {
	var out []FlipResult
	for _, id := range slices.Sorted(maps.Keys(records)) {
		for _, m := range Mutations() {
			ev := Copy(records[id])
			r := FlipResult{Scenario: id, Mutation: m.Name, Want: fmt.Sprintf("%s %s", m.Outcome, m.Code)}
			if r.Applies = m.Apply(scs[id], ev); r.Applies {
				r.Got = judge.Judge(scs[id], ev)
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
