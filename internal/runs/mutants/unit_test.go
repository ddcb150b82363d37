package mutants

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/url"
	"slices"
	"syscall"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

// These tests need no browser: they run on hand-made records
// (handmade_test.go) or drive the reference app over HTTP.

// TestEveryMutationNamesItsOwnCode: a mutation without a code would accept
// any verdict of its outcome, so a judge that answered for the wrong reason
// would still count as flipped. Every mutation names a known code whose kind
// (failing or inconclusive) is its outcome.
func TestEveryMutationNamesItsOwnCode(t *testing.T) {
	names := map[string]bool{}
	for _, m := range Mutations() {
		if names[m.Name] {
			t.Errorf("two mutations are called %q", m.Name)
		}
		names[m.Name] = true
		if m.Apply == nil {
			t.Errorf("mutation %q changes nothing", m.Name)
		}
		info, ok := vocab.Codes[m.Code]
		if !ok {
			t.Errorf("mutation %q names code %q: not a code of the table (an empty code accepts anything)", m.Name, m.Code)
			continue
		}
		want := vocab.Inconclusive
		if info.Fails {
			want = vocab.Fail
		}
		if m.Outcome != want {
			t.Errorf("mutation %q wants %s with %s, a code that makes a verdict %s", m.Name, m.Outcome, m.Code, want)
		}
	}
}

// TestFlippedNeedsItsOutcomeItsCodeAndNoFault: a verdict counts as a flip
// only with the mutation's exact outcome and its own code, on evidence
// without a harness fault.
func TestFlippedNeedsItsOutcomeItsCodeAndNoFault(t *testing.T) {
	clean, faulty := &scenarios.Evidence{}, &scenarios.Evidence{Faults: []scenarios.Fault{scenarios.WholeFault("the tab crashed")}}
	verdict := func(o vocab.Outcome, codes ...vocab.Code) judge.Verdict {
		return judge.Verdict{Outcome: o, Codes: codes}
	}
	fail := Mutation{Name: "fail", Outcome: vocab.Fail, Code: vocab.StateChanged}
	drop := Mutation{Name: "drop", Outcome: vocab.Inconclusive, Code: vocab.EvidenceMissing}
	noCode := Mutation{Name: "no code", Outcome: vocab.Fail}
	lost := Mutation{Name: "lost", Outcome: vocab.Inconclusive, Code: vocab.BrowserLost}
	cut := &scenarios.Evidence{Cut: vocab.BrowserLost, Faults: []scenarios.Fault{scenarios.WholeFault("human step 0: context canceled")}}
	for _, c := range []struct {
		name string
		m    Mutation
		ev   *scenarios.Evidence
		v    judge.Verdict
		want bool
	}{
		{"its outcome and code", fail, clean, verdict(vocab.Fail, vocab.StateChanged, vocab.UIMismatch), true},
		{"its outcome, another code", fail, clean, verdict(vocab.Fail, vocab.StateMismatch), false},
		{"another outcome, its code", fail, clean, verdict(vocab.Inconclusive, vocab.StateChanged), false},
		{"still a pass", fail, clean, verdict(vocab.Pass), false},
		{"its outcome and code next to a harness fault", fail, faulty, verdict(vocab.Fail, vocab.EvidenceMissing, vocab.StateChanged), false},
		{"a dropped source", drop, clean, verdict(vocab.Inconclusive, vocab.EvidenceMissing), true},
		{"an inconclusive from a harness fault", drop, faulty, verdict(vocab.Inconclusive, vocab.EvidenceMissing), false},
		{"no code", noCode, clean, verdict(vocab.Fail, vocab.StateChanged), false},
		{"a harness fault's own mutation, over its fault", lost, cut, verdict(vocab.Inconclusive, vocab.BrowserLost), true},
		{"a harness fault's own mutation, without one", lost, clean, verdict(vocab.Inconclusive, vocab.BrowserLost), false},
		{"a harness fault's own mutation, another fault's code", lost, cut, verdict(vocab.Inconclusive, vocab.HarnessFault), false},
		{"a harness fault's own mutation, and a FAIL", lost, cut, verdict(vocab.Fail, vocab.BrowserLost), false},
		{"no evidence", fail, nil, verdict(vocab.Fail, vocab.StateChanged), false},
	} {
		if got := c.m.Flipped(c.ev, c.v); got != c.want {
			t.Errorf("%s: Flipped = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestFlipCountsNoFaultAndNoWrongCode runs Flip's loop on a hand-made PASS
// with known-bad mutations: one that only makes the harness fault (the
// judge answers INCONCLUSIVE harness_fault) under a code that is no fault's,
// one that names the wrong code, one that names none. None may count; the
// same change under its own code must.
func TestFlipCountsNoFaultAndNoWrongCode(t *testing.T) {
	records, scs := handMade(t)
	fault := func(_ scenarios.Scenario, ev *scenarios.Evidence) bool {
		ev.Faults = append(ev.Faults, scenarios.WholeFault("observer: connection refused"))
		return true
	}
	ms := []Mutation{
		{"a harness fault", vocab.Inconclusive, vocab.EvidenceMissing, fault},
		{"the hash, as a mismatch", vocab.Fail, vocab.StateMismatch, changeStateDoc},
		{"the hash, no code", vocab.Fail, "", changeStateDoc},
		{"the hash, its own code", vocab.Fail, vocab.StateChanged, changeStateDoc},
	}
	for _, r := range FlipWith(ms, records, scs) {
		if !r.Applies {
			t.Fatalf("%s on %s: does not apply, so this test proves nothing", r.Mutation, r.Scenario)
		}
		if want := r.Mutation == "the hash, its own code"; r.Flipped != want {
			t.Errorf("%s on %s: flipped %v, want %v (got %s %v, faults %v)", r.Mutation, r.Scenario, r.Flipped, want, r.Got.Outcome, r.Got.Codes, r.Faults)
		}
		if r.Mutation == "a harness fault" && (r.Got.Outcome != vocab.Inconclusive || !slices.Contains(r.Got.Codes, vocab.HarnessFault)) {
			t.Errorf("the harness fault gave %s %v: the known-bad case is not the one meant", r.Got.Outcome, r.Got.Codes)
		}
	}
}

// TestHandMadeRecordsFlipUnderEveryMutation is the evidence-mutation gate
// without a browser: every mutation applies to a hand-made PASS and flips it
// to exactly its outcome with its own code. The two state mutations show
// their codes apart: seats or counts give state_mismatch, the hash
// state_changed.
func TestHandMadeRecordsFlipUnderEveryMutation(t *testing.T) {
	records, scs := handMade(t)
	results := Flip(records, scs)
	var table bytes.Buffer
	if rate := PrintFlips(&table, results); rate < 1 {
		t.Errorf("flip rate %.0f%%:\n%s", 100*rate, table.String())
	}
	for _, m := range Mutations() {
		if !slices.ContainsFunc(results, func(r FlipResult) bool { return r.Mutation == m.Name && r.Applies }) {
			t.Errorf("mutation %q applies to no hand-made record: nothing here proves it", m.Name)
		}
	}
	// Each state mutation raises its own state code and not the other's.
	other := map[string]vocab.Code{
		"change seats or counts after a phase": vocab.StateChanged,
		"change the state hash after a phase":  vocab.StateMismatch,
	}
	for _, r := range results {
		if code, ok := other[r.Mutation]; ok && r.Applies && slices.Contains(r.Got.Codes, code) {
			t.Errorf("%s on %s: %s %v, which holds the other state code %s", r.Mutation, r.Scenario, r.Got.Outcome, r.Got.Codes, code)
		}
	}
}

// repeats is how often a determinism test applies the same change. Go
// randomizes map iteration, but unevenly: of a small map's two keys, the
// one stored first also comes out first about 7 times in 8. Two tries would
// miss a pick of "the first key" 3 times in 4; 100 miss it about once in
// 10^6 (TestTheDeterminismCheckCatchesAMapPick).
const repeats = 100

// differs applies m to n copies of ev and answers the first result whose
// JSON differs from the first one's, or "" when all are the same.
func differs(t *testing.T, n int, m Mutation, sc scenarios.Scenario, ev *scenarios.Evidence) (applies bool, diff string) {
	t.Helper()
	var first []byte
	for i := range n {
		c := Copy(ev)
		ok := m.Apply(sc, c)
		b, err := json.Marshal(struct {
			Applies  bool
			Evidence *scenarios.Evidence
		}{ok, c})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first, applies = b, ok
		} else if !bytes.Equal(first, b) {
			return applies, around(first, b)
		}
	}
	return applies, ""
}

// around shows where two JSON texts first differ.
func around(a, b []byte) string {
	i := 0
	for i < min(len(a), len(b)) && a[i] == b[i] {
		i++
	}
	from := max(i-120, 0)
	return fmt.Sprintf("…%s…\n---\n…%s…", a[from:min(i+60, len(a))], b[from:min(i+60, len(b))])
}

// richConf01 is hmConf01 with more expected keys in the state, so that a
// mutation picking among map keys has a choice to make.
func richConf01(t *testing.T) (scenarios.Scenario, *scenarios.Evidence) {
	sc, ev := hmConf01(t)
	sc.ID += ".rich"
	sc.Expect.State = maps.Clone(sc.Expect.State)
	sc.Expect.State[vocab.PhaseHuman] = scenarios.State{
		Equals: map[string]any{"$.observer.seatsLeft['evt-webmcp-intro']": 7, "$.observer.seatsLeft['evt-forms-deep-dive']": 0,
			"$.observer.counts.registrations": 1, "$.observer.counts.intentsIssued": 1, "$.observer.counts.intentsUsed": 1},
		Changes: map[string]float64{"$.event.seatsLeft": -1, "$.observer.counts.registrations": 1}}
	sc.Expect.State[vocab.PhaseAgent] = scenarios.State{Unchanged: true,
		Equals: map[string]any{"$.observer.seatsLeft['evt-webmcp-intro']": 8, "$.observer.seatsLeft['evt-forms-deep-dive']": 0,
			"$.observer.counts.registrations": 0, "$.observer.counts.intentsIssued": 0, "$.observer.counts.intentsUsed": 0}}
	if v := judge.Judge(sc, ev); v.Outcome != vocab.Pass {
		t.Fatalf("the rich record does not pass:\n%s", judge.Explain(v))
	}
	return sc, ev
}

// TestMutationsAreDeterministic: every mutation, applied to copies of one
// record, makes byte-identical records (and applies or not the same way).
func TestMutationsAreDeterministic(t *testing.T) {
	var fixtures [][2]any
	for _, mk := range []func(*testing.T) (scenarios.Scenario, *scenarios.Evidence){hmConf01, hmAmb01, richConf01, hmConf01Content, hmConf01Replayed} {
		sc, ev := mk(t)
		fixtures = append(fixtures, [2]any{sc, ev})
	}
	for _, m := range Mutations() {
		appliedOnce := false
		for _, f := range fixtures {
			sc, ev := f[0].(scenarios.Scenario), f[1].(*scenarios.Evidence)
			applies, diff := differs(t, repeats, m, sc, ev)
			if diff != "" {
				t.Errorf("%q on %s is not deterministic:\n%s", m.Name, sc.ID, diff)
			}
			appliedOnce = appliedOnce || applies
		}
		if !appliedOnce {
			t.Errorf("%q applies to no hand-made record: its determinism is not shown", m.Name)
		}
	}
}

// TestTheDeterminismCheckCatchesAMapPick: a mutation that changes "the first
// key" of a Go map (here the input of the agent's call, two string keys)
// must be caught by the check above.
func TestTheDeterminismCheckCatchesAMapPick(t *testing.T) {
	sc, ev := hmConf01(t)
	pickFirst := Mutation{Name: "change the first input value", Outcome: vocab.Fail, Code: vocab.WrongToolInput,
		Apply: func(_ scenarios.Scenario, ev *scenarios.Evidence) bool {
			for k := range ev.Calls[0].Call.Input {
				ev.Calls[0].Call.Input[k] = "changed"
				return true
			}
			return false
		}}
	if _, diff := differs(t, repeats, pickFirst, sc, ev); diff == "" {
		t.Errorf("a mutation that picks the first key of a map passed the determinism check %d times in a row", repeats)
	}
}

// TestBaselinesAreDeterministic: each baseline agent, made twice from the
// same scenario and catalog, is the same transcript.
func TestBaselinesAreDeterministic(t *testing.T) {
	for _, mk := range []func(*testing.T) (scenarios.Scenario, *scenarios.Evidence){hmConf01, hmAmb01} {
		sc, ev := mk(t)
		catalog := append(slices.Clone(ev.Catalog), record.Tool{Name: "list_tasks", InputSchema: json.RawMessage(`{"type":"object"}`)})
		for _, b := range Baselines() {
			var first []byte
			for i := range repeats {
				got, err := json.Marshal(b.Agent(sc, catalog))
				if err != nil {
					t.Fatal(err)
				}
				if i == 0 {
					first = got
				} else if !bytes.Equal(first, got) {
					t.Errorf("the %q agent for %s is not deterministic:\n%s\n---\n%s", b.Name, sc.ID, first, got)
					break
				}
			}
		}
	}
}

// TestRejectsOnlyAFaultlessFail: a baseline agent "passes nothing" only
// when its run FAILs on evidence without a harness fault. The known-bad
// cases: an INCONCLUSIVE caused by a harness fault (it is not PASS, so the
// old check counted it as a rejection), an INCONCLUSIVE from a source left
// unrecorded, and a FAIL next to a fault.
func TestRejectsOnlyAFaultlessFail(t *testing.T) {
	silent := func(t *testing.T) (scenarios.Scenario, *scenarios.Evidence) {
		sc, ev := hmAmb01(t)
		ev.Final = nil // the silent agent: no question asked
		return sc, ev
	}
	for _, c := range []struct {
		name    string
		mk      func(*testing.T) (scenarios.Scenario, *scenarios.Evidence)
		edit    func(*scenarios.Evidence)
		outcome vocab.Outcome
		want    bool
	}{
		{"a plain FAIL", silent, func(*scenarios.Evidence) {}, vocab.Fail, true},
		// The judge itself fails nothing next to a fault now (faults first):
		// the would-be FAIL is INCONCLUSIVE, and no rejection either.
		{"a would-be FAIL next to a harness fault", silent, func(ev *scenarios.Evidence) {
			ev.Faults = []scenarios.Fault{scenarios.WholeFault("screenshot: timeout")}
		}, vocab.Inconclusive, false},
		{"a would-be FAIL in a run cut short", silent, func(ev *scenarios.Evidence) { ev.Cut = vocab.BrowserLost }, vocab.Inconclusive, false},
		{"an INCONCLUSIVE from a harness fault", hmAmb01, func(ev *scenarios.Evidence) { ev.Faults = []scenarios.Fault{scenarios.WholeFault("the tab crashed")} }, vocab.Inconclusive, false},
		{"an INCONCLUSIVE from a source not recorded", hmAmb01, func(ev *scenarios.Evidence) { ev.States = nil }, vocab.Inconclusive, false},
		{"a PASS", hmAmb01, func(*scenarios.Evidence) {}, vocab.Pass, false},
	} {
		sc, ev := c.mk(t)
		c.edit(ev)
		v := judge.Judge(sc, ev)
		if v.Outcome != c.outcome {
			t.Fatalf("%s: the judge answers %s %v, not the %s this case is about", c.name, v.Outcome, v.Codes, c.outcome)
		}
		if got := Rejects(ev, v); got != c.want {
			t.Errorf("%s: Rejects = %v, want %v", c.name, got, c.want)
		}
	}
	// Should a FAIL ever come next to a fault (a judge of another
	// version), it is still no rejection.
	for _, ev := range []*scenarios.Evidence{{Faults: []scenarios.Fault{scenarios.WholeFault("screenshot: timeout")}}, {Cut: vocab.RunInterrupted}} {
		if Rejects(ev, judge.Verdict{Outcome: vocab.Fail}) {
			t.Errorf("a FAIL next to faults %q, cut %q, counts as a rejection", ev.Faults, ev.Cut)
		}
	}
}

// refused checks that nothing listens at an app's URL any more.
func refused(t *testing.T, app string) {
	t.Helper()
	u, err := url.Parse(app)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.DialTimeout("tcp", u.Host, Bound)
	switch {
	case err == nil:
		conn.Close()
		t.Errorf("%s still accepts connections after the check: the app was left open", app)
	case !errors.Is(err, syscall.ECONNREFUSED):
		t.Errorf("%s: %v, want connection refused", app, err)
	}
}

// TestLastSeatRaceClosesEveryApp: the race check starts a fresh app for
// each round (10 against the correct app); once it returns, every one of
// them refuses connections. A close bound to the first app left the last
// one open.
func TestLastSeatRaceClosesEveryApp(t *testing.T) {
	set := &appSet{}
	v, err := runRule(set, "rule.last-seat-race", "", lastSeatRace)
	if err != nil {
		t.Fatal(err)
	}
	if v.Outcome != vocab.Pass {
		t.Errorf("the correct app loses the race:\n%s", judge.Explain(v))
	}
	if len(set.urls) < 2 {
		t.Fatalf("the check started %d app(s): it never replaced its app, so this test proves nothing", len(set.urls))
	}
	if len(set.open) != 0 {
		t.Errorf("%d of %d apps still open", len(set.open), len(set.urls))
	}
	for _, u := range set.urls {
		refused(t, u)
	}
}

// TestAFailedRuleCheckClosesEveryApp: a check that replaced its app and
// then failed leaves no app open either.
func TestAFailedRuleCheckClosesEveryApp(t *testing.T) {
	set := &appSet{}
	boom := errors.New("boom")
	_, err := runRule(set, "rule.fails", "", func(r *ruleRun) error {
		fresh, err := newRuleRun(r.sc.ID, "", r.apps)
		if err != nil {
			return err
		}
		*r = *fresh
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if len(set.urls) != 2 {
		t.Fatalf("started %d apps, want 2", len(set.urls))
	}
	for _, u := range set.urls {
		refused(t, u)
	}
}

// The carried-value mutation reaches a form's body as well as a JSON one,
// and flips a content check on it.
func TestAChangedFormValueFlipsContent(t *testing.T) {
	sc, ev := hmConf01Content(t)
	sc.Expect.Submitted = nil
	sc.Expect.Content[0].Body = map[string]any{"eventId": "evt-webmcp-intro", "attendeeName": hmName, "email": hmEmail, "intentId": "int_1"}
	i := slices.IndexFunc(ev.Requests, func(r record.Request) bool { return r.Method == "POST" && r.Path == "/api/registrations" })
	ev.Requests[i].RequestHeaders = map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
	ev.Requests[i].Body = url.Values{"eventId": {"evt-webmcp-intro"}, "attendeeName": {hmName}, "email": {hmEmail}, "intentId": {"int_1"}}.Encode()
	if v := judge.Judge(sc, ev); v.Outcome != vocab.Pass {
		t.Fatalf("the form-body record does not pass:\n%s", judge.Explain(v))
	}
	m := Mutations()[slices.IndexFunc(Mutations(), func(m Mutation) bool { return m.Name == "change a value a write carried" })]
	mutated := Copy(ev)
	if !m.Apply(sc, mutated) {
		t.Fatal("the mutation does not apply to a form body")
	}
	if v := judge.Judge(sc, mutated); !m.Flipped(mutated, v) {
		t.Errorf("a changed form value: %s %v, want FAIL with content_mismatch", v.Outcome, v.Codes)
	}
}
