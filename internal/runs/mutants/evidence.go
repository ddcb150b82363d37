package mutants

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
	"github.com/theory/jsonpath"
	"github.com/theory/jsonpath/spec"
)

// A Mutation changes one thing in a recorded PASS and says what the judge
// must then answer. Apply reports false when the change does not apply to
// this scenario (there is nothing of that kind to change).
//
// Every mutation is deterministic: applied to two copies of one record it
// makes byte-identical records (it never picks "the first" key of a Go map;
// where it must choose among keys, it takes the least).
type Mutation struct {
	Name    string
	Outcome vocab.Outcome // FAIL, or INCONCLUSIVE for a dropped source
	// Code is the code the verdict must hold. It is mandatory: a mutation
	// without one flips nothing (see Flipped).
	Code  vocab.Code
	Apply func(sc scenarios.Scenario, ev *scenarios.Evidence) bool
}

// Flipped tells whether v, the verdict on ev after m was applied, is the one
// m names: exactly its outcome, holding its own code, from evidence recorded
// without a harness fault. An empty code would accept any verdict of the
// outcome, so it flips nothing; and a verdict reached over a harness fault
// (an INCONCLUSIVE from evidence.Faults, or a FAIL next to one) says nothing
// about the check the mutation is there to prove. A mutation that makes a
// harness fault (its code is one) proves what a fault does, so its record
// holds one.
func (m Mutation) Flipped(ev *scenarios.Evidence, v judge.Verdict) bool {
	if m.Code == "" || ev == nil || v.Outcome != m.Outcome || !slices.Contains(v.Codes, m.Code) {
		return false
	}
	faulty := len(ev.Faults) > 0 || ev.Cut != ""
	return faulty == m.Code.Fault()
}

// Mutations are the single changes of issue 6: each must flip a PASS.
func Mutations() []Mutation {
	return append([]Mutation{
		{"drop the counted request", vocab.Fail, vocab.RequestCountMismatch, dropCounted},
		{"duplicate the counted request", vocab.Fail, vocab.RequestCountMismatch, duplicateCounted},
		{"move the guarded request before the confirmation", vocab.Fail, vocab.SideEffectBeforeConfirmation, moveGuarded},
		{"change the result code", vocab.Fail, vocab.UnexpectedResult, changeResultCode},
		{"add an extra tool call", vocab.Fail, vocab.UnexpectedToolCall, addExtraCall},
		{"change an input value", vocab.Fail, vocab.WrongToolInput, changeInput},
		{"change a value the scenario expects of the state", vocab.Fail, vocab.StateMismatch, changeStateValue},
		{"change a document the scenario expects unchanged", vocab.Fail, vocab.StateChanged, changeStateDoc},
		{"drop the network log and the journal", vocab.Inconclusive, vocab.EvidenceMissing, dropSource("requests")},
		{"drop the state", vocab.Inconclusive, vocab.EvidenceMissing, dropSource("state")},
		{"drop the page record", vocab.Inconclusive, vocab.EvidenceMissing, dropSource("ui")},
		{"make the network log and the journal disagree", vocab.Fail, vocab.EvidenceDisagrees, disagree},
		{"take the question out of the final words", vocab.Fail, vocab.NoClarifyingQuestion, removeQuestion},
		{"change a value a write carried", vocab.Fail, vocab.ContentMismatch, changeCarriedValue},
		{"change what the person saw at the click", vocab.Fail, vocab.SubmittedNotReviewed, changeReviewed},
		{"lose the browser after the agent", vocab.Inconclusive, vocab.BrowserLost, cutAfterAgent(vocab.BrowserLost)},
		{"interrupt the run after the agent", vocab.Inconclusive, vocab.RunInterrupted, cutAfterAgent(vocab.RunInterrupted)},
		{"fail to open the start page", vocab.Inconclusive, vocab.HarnessFault, notOpened},
	}, replayMutations()...)
}

// The harness's own failures: each applies only where the record it makes
// would FAIL were its fault not there (a count of the person's requests
// that the cut leaves at 0, a call the unopened page never answered), so
// that the flip proves a fault turns a would-be failure inconclusive, not
// only that a fault is inconclusive itself.

func cutAfterAgent(how vocab.Code) func(scenarios.Scenario, *scenarios.Evidence) bool {
	return func(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
		if _, ok := ev.Marks[vocab.PhaseHuman]; !ok {
			return false
		}
		ev.CutAfter(vocab.PhaseAgent, how, "human step 0: lost the connection to the browser: context canceled")
		return wouldFail(sc, ev)
	}
}

func notOpened(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	ev.NotOpened("net::ERR_CONNECTION_REFUSED")
	return wouldFail(sc, ev)
}

// wouldFail tells whether ev, its harness faults taken out, FAILs.
func wouldFail(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	clean := Copy(ev)
	clean.Faults, clean.Cut = nil, ""
	return judge.Judge(sc, clean).Outcome == vocab.Fail
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
		method, path, _ := g.Split()
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
	// Required calls allow others between and after them: an extra call is
	// news only to calls.exactly and calls.none.
	if sc.Expect.Calls == nil || sc.Expect.Calls.Exactly == nil && !sc.Expect.Calls.None {
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

// stateOrder is the order in which the state mutations look for a phase
// whose state the scenario expects: the last phase first.
var stateOrder = []vocab.Phase{vocab.PhaseHuman, vocab.PhaseAgent}

// editState replaces the recorded state after phase with a copy for the
// mutation to change, so that no other phase's record that shares it
// changes too.
func editState(ev *scenarios.Evidence, phase vocab.Phase) *record.Snapshot {
	c := &record.Snapshot{Docs: maps.Clone(ev.States[phase].Docs), Errors: maps.Clone(ev.States[phase].Errors)}
	ev.States[phase] = c
	return c
}

// changeStateValue changes the value at the least path the scenario expects
// (a value, else a change) after the last phase that expects any: the judge
// must answer state_mismatch. Every other value is left alone, so that this
// mutation proves the path checks and nothing else.
func changeStateValue(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	for _, phase := range stateOrder {
		want, ok := sc.Expect.State[phase]
		if !ok || ev.States[phase] == nil {
			continue
		}
		for _, q := range append(slices.Sorted(maps.Keys(want.Equals)), slices.Sorted(maps.Keys(want.Changes))...) {
			if changeAt(editState(ev, phase), q) {
				return true
			}
		}
	}
	return false
}

// changeAt changes the one value q selects in the snapshot: a number by one,
// anything else to another string.
func changeAt(s *record.Snapshot, q string) bool {
	p, err := jsonpath.Parse(q)
	if err != nil {
		return false
	}
	nodes := p.SelectLocated(s.Document())
	if len(nodes) != 1 || len(nodes[0].Path) < 2 {
		return false
	}
	source, ok := nodes[0].Path[0].(spec.Name)
	if !ok {
		return false
	}
	doc := record.Normalize(s.Docs[string(source)])
	changed := "changed by a mutation"
	if n, isNum := nodes[0].Node.(float64); isNum {
		n++
		if !setAt(&doc, nodes[0].Path[1:], n) {
			return false
		}
	} else if !setAt(&doc, nodes[0].Path[1:], changed) {
		return false
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return false
	}
	s.Docs[string(source)] = raw
	return true
}

// setAt replaces the value at a normalized path inside a decoded document.
func setAt(doc *any, path spec.NormalizedPath, v any) bool {
	if len(path) == 0 {
		*doc = v
		return true
	}
	switch sel := path[0].(type) {
	case spec.Name:
		m, ok := (*doc).(map[string]any)
		if !ok {
			return false
		}
		child := m[string(sel)]
		if !setAt(&child, path[1:], v) {
			return false
		}
		m[string(sel)] = child
		return true
	case spec.Index:
		l, ok := (*doc).([]any)
		if !ok || int(sel) < 0 || int(sel) >= len(l) {
			return false
		}
		return setAt(&l[int(sel)], path[1:], v)
	}
	return false
}

// changeStateDoc changes a document of the state after the last phase the
// scenario expects unchanged (the first source in order gains a member):
// the judge must answer state_changed. No value a path names changes.
func changeStateDoc(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	for _, phase := range stateOrder {
		if !sc.Expect.State[phase].Unchanged || ev.States[phase] == nil || len(ev.States[phase].Docs) == 0 {
			continue
		}
		st := editState(ev, phase)
		source := slices.Min(slices.Collect(maps.Keys(st.Docs)))
		doc, ok := record.Normalize(st.Docs[source]).(map[string]any)
		if !ok {
			doc = map[string]any{"was": record.Normalize(st.Docs[source])}
		}
		doc["__mutated"] = true
		raw, err := json.Marshal(doc)
		if err != nil {
			return false
		}
		st.Docs[source] = raw
		return true
	}
	return false
}

func dropSource(which string) func(scenarios.Scenario, *scenarios.Evidence) bool {
	return func(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
		e := sc.Expect
		switch which {
		case "requests":
			// The network log and the app's journal are two witnesses of
			// the same requests, and the judge counts requests and writes
			// from either one when the other is missing: only with both
			// gone is a count unknown.
			if (ev.Requests == nil && ev.Journal == nil) || (len(e.Writes) == 0 && len(e.Requests) == 0 && len(e.Guarded) == 0) {
				return false
			}
			ev.Requests, ev.Journal = nil, nil
		case "state":
			if len(e.State) == 0 {
				return false
			}
			ev.States = map[vocab.Phase]*record.Snapshot{}
		case "ui":
			if len(e.UI) == 0 {
				return false
			}
			ev.UI = nil
		}
		return true
	}
}

// disagree makes the two witnesses differ on the first counted request: it
// leaves the network log (when there) or appears in it alone.
func disagree(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	if len(sc.Expect.Requests) == 0 || ev.Requests == nil || ev.Journal == nil {
		return false
	}
	r := sc.Expect.Requests[0]
	if _, err := ev.RemoveRequest(r.Phase, r.Method, r.Path); err == nil {
		return true // gone from the network log only
	}
	fake := record.Request{Method: r.Method, Path: r.Path, URL: ev.Env.BaseURL + r.Path, Status: 200, Done: true}
	return ev.InsertRequest(r.Phase, fake) == nil // seen by the browser only
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
	Faults             []string // harness faults in the mutated record: no flip
}

// Flip applies every mutation to a copy of each PASS record and judges it.
func Flip(records map[string]*scenarios.Evidence, scs map[string]scenarios.Scenario) []FlipResult {
	return FlipWith(Mutations(), records, scs)
}

// FlipWith is Flip with the mutations given.
func FlipWith(ms []Mutation, records map[string]*scenarios.Evidence, scs map[string]scenarios.Scenario) []FlipResult {
	var out []FlipResult
	for _, id := range slices.Sorted(maps.Keys(records)) {
		for _, m := range ms {
			ev := Copy(records[id])
			r := FlipResult{Scenario: id, Mutation: m.Name, Want: fmt.Sprintf("%s %s", m.Outcome, m.Code)}
			if r.Applies = m.Apply(scs[id], ev); r.Applies {
				r.Got = judge.Judge(scs[id], ev)
				r.Flipped = m.Flipped(ev, r.Got)
				r.Faults = scenarios.FaultTexts(ev.Faults)
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
			if len(r.Faults) > 0 {
				mark += fmt.Sprintf(" (harness faults: %v)", r.Faults)
			}
		}
		fmt.Fprintf(w, "%-22s %-50s %s\n", r.Scenario, r.Mutation, mark)
	}
	rate = float64(flipped) / float64(max(applies, 1))
	fmt.Fprintf(w, "evidence-mutation flip rate: %.0f%% (%d of %d mutants; %d did not apply)\n", 100*rate, flipped, applies, len(results)-applies)
	return rate
}

// changeCarriedValue changes the first string (by JSON pointer order) of the
// JSON body, or the first value (by key) of the form body, of the first
// request a content expectation judges, as if the page had sent another
// value.
func changeCarriedValue(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	for _, c := range sc.Expect.Content {
		method, pattern, ok := c.Request.Split()
		phase := c.Phase
		if phase == "" {
			phase = vocab.PhaseAll
		}
		from, to, inWindow := ev.Window(phase)
		if !ok || !inWindow {
			continue
		}
		for i := from.Requests; i < min(to.Requests, len(ev.Requests)); i++ {
			r := ev.Requests[i]
			if !record.MatchRequest(r.Method, r.Path, method, pattern) {
				continue
			}
			if ct, _ := r.Header("Content-Type"); strings.HasPrefix(strings.ToLower(ct), "application/x-www-form-urlencoded") {
				form, err := url.ParseQuery(r.Body)
				if err != nil || len(form) == 0 {
					continue
				}
				k := slices.Sorted(maps.Keys(form))[0]
				form[k][0] += " (changed)"
				ev.Requests[i].Body = form.Encode()
				return true
			}
			var doc any
			if json.Unmarshal([]byte(r.Body), &doc) != nil || !changeFirstString(&doc) {
				continue
			}
			b, _ := json.Marshal(doc)
			ev.Requests[i].Body = string(b)
			return true
		}
	}
	return false
}

// changeFirstString changes the first string leaf of v, visiting object
// keys in sorted order so that the change is the same on every copy.
func changeFirstString(v *any) bool {
	switch x := (*v).(type) {
	case string:
		*v = x + " (changed)"
		return true
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			e := x[k]
			if changeFirstString(&e) {
				x[k] = e
				return true
			}
		}
	case []any:
		for i := range x {
			if changeFirstString(&x[i]) {
				return true
			}
		}
	}
	return false
}

// changeReviewed changes every value the person had before them (the
// visible controls of the form and the elements named) at the reviews a
// submitted expectation judges, as if the page had shown one thing and
// sent another.
func changeReviewed(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	if len(sc.Expect.Submitted) == 0 {
		return false
	}
	changed := false
	for i := range ev.Reviews {
		r := &ev.Reviews[i]
		for j := range r.Form {
			if !r.Form[j].Hidden {
				r.Form[j].Value += " (changed)"
				changed = true
			}
		}
		for _, k := range slices.Sorted(maps.Keys(r.Seen)) {
			r.Seen[k] += " (changed)"
			changed = true
		}
	}
	return changed
}
