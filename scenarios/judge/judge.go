// Package judge decides a scenario's verdict from its recorded evidence
// alone. It is a pure function of a scenario and its Evidence: it talks to
// no browser and no app, so a bundle is judged again offline to the same
// bytes. A test keeps browser code out of its imports. It owns the checks
// (one file per source), the evidence each names (Check.Evidence), the
// rule that a harness fault fails nothing (faults.go), and where a FAIL
// first departs (diagnosis.go).
package judge

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Check is one thing the judge looked at.
type Check struct {
	ID       string            `json:"id"`
	Source   vocab.Source      `json:"source"`
	Status   vocab.CheckStatus `json:"status"` // pass, fail or inconclusive
	Code     vocab.Code        `json:"code,omitempty"`
	Expected any               `json:"expected,omitempty"`
	Actual   any               `json:"actual,omitempty"`
	Message  string            `json:"message,omitempty"`
	// Differences are where a JSON value (an output, a schema) differs from
	// the expected one, each by JSON pointer with both sides (a side longer
	// than sideLimit is cut: the whole value is in the evidence).
	Differences []record.Difference `json:"differences,omitempty"`
	// Evidence names the pieces of the record the check used, where the
	// judge decided: the report links their rows, and Actual never copies
	// what they hold.
	Evidence []scenarios.Ref `json:"evidence"`
}

// Verdict is the judge's answer.
type Verdict struct {
	ScenarioID string        `json:"scenarioId"`
	Outcome    vocab.Outcome `json:"outcome"`
	Codes      []vocab.Code  `json:"codes"`
	Checks     []Check       `json:"checks"`
	// Diagnosis locates a FAIL: the first link of the recorded chain where
	// the evidence departs (diagnosis.go). Only a FAIL has one.
	Diagnosis *Diagnosis `json:"diagnosis,omitempty"`
	// Skipped are checks the judge did not make, each with why (a replay
	// that does not apply, an app without a clock): never passes.
	Skipped []Skip `json:"skipped,omitempty"`
}

// Failed lists the checks that did not pass.
func (v Verdict) Failed() []Check {
	return slices.DeleteFunc(slices.Clone(v.Checks), func(c Check) bool { return c.Status == vocab.CheckPass })
}

// AsMeant tells whether v is the verdict the scenario means to reach
// (scenarios.Scenario.Meant): PASS, or, for a known-answer case, exactly
// its outcome and codes (and, when it names one, the link where its
// evidence first departs).
func AsMeant(sc scenarios.Scenario, v Verdict) bool {
	if sc.Known == nil {
		return v.Outcome == vocab.Pass
	}
	meant := *sc.Known
	if v.Outcome != meant.Outcome || !slices.Equal(v.Codes, slices.Sorted(slices.Values(meant.Codes))) {
		return false
	}
	return meant.Departs == "" || (v.Diagnosis != nil && v.Diagnosis.Link == meant.Departs)
}

// Judge decides a scenario from its evidence alone. It is a pure function:
// the same scenario and evidence always give the same verdict.
func Judge(sc scenarios.Scenario, ev *scenarios.Evidence) Verdict {
	j := &judge{sc: sc, ev: ev}
	if ev == nil {
		j.inconclusive("evidence", vocab.SrcTrace, vocab.EvidenceMissing, nil, nil, "no evidence was recorded")
		return j.verdict()
	}
	j.judgeFaults()
	e := sc.Expect
	j.judgeCase(e.Case)
	j.judgeCatalog(e.Catalog)
	j.judgeCalls(e.Calls)
	j.judgeInputs()
	j.judgeCarried()
	j.judgeDirect()
	j.judgeWitnesses()
	j.judgeRequests(e.Requests)
	j.judgeGuarded(e.Guarded)
	j.judgeGuardedOnLeave(e.Guarded)
	j.judgeWrites(j.writesWithLeave(e.Writes))
	j.judgeContent(e.Content)
	j.judgeSubmitted(e.Submitted)
	j.judgeReviewedIsSent(e)
	j.judgeReplays()
	j.judgeState(e.State)
	j.judgeUI(e.UI)
	j.judgePage(e.Page)
	j.judgeDialogs(e.Dialogs)
	j.judgePopups(e.Popups)
	j.judgeReach(e.Reach)
	j.judgeAnswer(e.Answer)
	j.judgeAttack()
	j.judgeEmbedder(e.Embedder)
	j.requireNamedSources()
	return j.verdict()
}

type judge struct {
	sc      scenarios.Scenario
	ev      *scenarios.Evidence
	checks  []Check
	skipped []Skip
	harness map[int]bool // the network log's reads of the harness (harness.go)
}

// add keeps a check and answers it, for at to name its evidence.
func (j *judge) add(c Check) *Check {
	j.checks = append(j.checks, c)
	return &j.checks[len(j.checks)-1]
}

// at names the evidence a check used.
func (c *Check) at(refs ...scenarios.Ref) *Check {
	c.Evidence = append(c.Evidence, refs...)
	return c
}

func (j *judge) pass(id string, src vocab.Source, expected, actual any, msg string) *Check {
	return j.add(Check{ID: id, Source: src, Status: vocab.CheckPass, Expected: expected, Actual: actual, Message: msg})
}

func (j *judge) fail(id string, src vocab.Source, code vocab.Code, expected, actual any, msg string) *Check {
	return j.add(Check{ID: id, Source: src, Status: vocab.CheckFail, Code: code, Expected: expected, Actual: actual, Message: msg})
}

func (j *judge) inconclusive(id string, src vocab.Source, code vocab.Code, expected, actual any, msg string) *Check {
	return j.add(Check{ID: id, Source: src, Status: vocab.CheckInconclusive, Code: code, Expected: expected, Actual: actual, Message: msg})
}

// expectEqual passes when got is want (as JSON values; want may hold
// constraints such as {$pattern: …}), else fails with code.
func (j *judge) expectEqual(id string, src vocab.Source, code vocab.Code, want, got any, msg string, refs ...scenarios.Ref) bool {
	if len(record.Diff(want, got, false)) == 0 {
		j.pass(id, src, want, got, msg).at(refs...)
		return true
	}
	j.fail(id, src, code, want, got, msg).at(refs...)
	return false
}

// diffLimit is how many differences a check's message lists; the check
// holds them all.
const diffLimit = 20

// expectMatch passes when got matches want (equal, or holding at least what
// want says when subset), else fails with code and every difference by JSON
// pointer. what names the value: "the output of save_event (subset)". got
// is recorded evidence that refs point at: the check does not copy it.
func (j *judge) expectMatch(id string, src vocab.Source, code vocab.Code, want, got any, subset bool, what string, refs ...scenarios.Ref) bool {
	diffs := record.Diff(want, got, subset)
	if len(diffs) == 0 {
		j.pass(id, src, want, nil, what+" is as expected").at(refs...)
		return true
	}
	j.failDiffs(id, src, code, want, diffs, what+" differs", refs...)
	return false
}

// failDiffs fails a check with its differences, each side cut to
// sideLimit, and a message that lists the first diffLimit of them.
func (j *judge) failDiffs(id string, src vocab.Source, code vocab.Code, want any, diffs []record.Difference, what string, refs ...scenarios.Ref) *Check {
	places := "1 place"
	if len(diffs) > 1 {
		places = fmt.Sprintf("%d places", len(diffs))
	}
	diffs = cutSides(diffs)
	return j.add(Check{ID: id, Source: src, Status: vocab.CheckFail, Code: code, Expected: want, Differences: diffs,
		Message: fmt.Sprintf("%s in %s: %s", what, places, record.DiffText(diffs, diffLimit))}).at(refs...)
}

// sideLimit is how many bytes of JSON one side of a difference keeps in a
// verdict: a 20 MB output that differs at its root is in the evidence
// already, and the verdict refers to it.
const sideLimit = 1024

// cutSides cuts every side longer than sideLimit to a JSON string that
// says so: its first bytes, and its length.
func cutSides(diffs []record.Difference) []record.Difference {
	cut := func(raw json.RawMessage) json.RawMessage {
		if len(raw) <= sideLimit {
			return raw
		}
		head := strings.ToValidUTF8(string(raw[:sideLimit]), "") // a rune cut in two goes
		return record.CompactJSON(fmt.Sprintf("%s… [cut: %d bytes of JSON in all; the whole value is in the evidence]", head, len(raw)))
	}
	out := slices.Clone(diffs)
	for i := range out {
		out[i].Expected, out[i].Actual = cut(out[i].Expected), cut(out[i].Actual)
	}
	return out
}

func (j *judge) verdict() Verdict {
	j.faultsFirst()
	v := Verdict{ScenarioID: j.sc.ID, Checks: j.checks, Codes: []vocab.Code{}, Skipped: j.skipped}
	if v.Checks == nil {
		v.Checks = []Check{}
	}
	for i := range v.Checks {
		if v.Checks[i].Evidence == nil {
			v.Checks[i].Evidence = []scenarios.Ref{}
		}
	}
	failed, inconclusive := false, false
	for _, c := range j.checks {
		switch c.Status {
		case vocab.CheckFail:
			failed = true
		case vocab.CheckInconclusive:
			inconclusive = true
		}
		if c.Code != "" && !slices.Contains(v.Codes, c.Code) {
			v.Codes = append(v.Codes, c.Code)
		}
	}
	slices.Sort(v.Codes)
	switch {
	case failed:
		v.Outcome = vocab.Fail
	case inconclusive:
		v.Outcome = vocab.Inconclusive
	default:
		v.Outcome = vocab.Pass
	}
	if v.Outcome == vocab.Fail {
		v.Diagnosis = diagnose(v.Checks)
	}
	return v
}

// expectationKinds is every kind of expectation a scenario can write, with
// the sources a check of it comes from: one table, so that a kind cannot be
// left out of the rule below (issue 43 item 5: page and popups were, and a
// scenario with only expect.page could never PASS). The test holds it to
// scenarios.Expect field by field.
var expectationKinds = []struct {
	key     string // the YAML key under expect:
	named   func(e scenarios.Expect) bool
	sources []vocab.Source // a check from any of them satisfies it
}{
	{"case", func(e scenarios.Expect) bool { return e.Case != nil }, []vocab.Source{vocab.SrcCase}},
	{"catalog", func(e scenarios.Expect) bool { return e.Catalog != nil }, []vocab.Source{vocab.SrcCatalog}},
	{"calls", func(e scenarios.Expect) bool { return e.Calls != nil }, []vocab.Source{vocab.SrcTrace}},
	{"requests", func(e scenarios.Expect) bool { return len(e.Requests) > 0 }, []vocab.Source{vocab.SrcNetwork, vocab.SrcJournal}},
	{"guarded", func(e scenarios.Expect) bool { return len(e.Guarded) > 0 }, []vocab.Source{vocab.SrcNetwork, vocab.SrcJournal}},
	{"writes", func(e scenarios.Expect) bool { return len(e.Writes) > 0 }, []vocab.Source{vocab.SrcNetwork, vocab.SrcJournal}},
	{"state", func(e scenarios.Expect) bool { return len(e.State) > 0 }, []vocab.Source{vocab.SrcState}},
	{"ui", func(e scenarios.Expect) bool { return len(e.UI) > 0 }, []vocab.Source{vocab.SrcUI}},
	{"page", func(e scenarios.Expect) bool { return len(e.Page) > 0 }, []vocab.Source{vocab.SrcUI}},
	{"content", func(e scenarios.Expect) bool { return len(e.Content) > 0 }, []vocab.Source{vocab.SrcNetwork}},
	{"submitted", func(e scenarios.Expect) bool { return len(e.Submitted) > 0 }, []vocab.Source{vocab.SrcNetwork, vocab.SrcUI}},
	{"dialogs", func(e scenarios.Expect) bool { return e.Dialogs != nil }, []vocab.Source{vocab.SrcUI}},
	{"popups", func(e scenarios.Expect) bool { return e.Popups != nil }, []vocab.Source{vocab.SrcUI}},
	{"reach", func(e scenarios.Expect) bool { return e.Reach != nil }, []vocab.Source{vocab.SrcCatalog}},
	{"answer", func(e scenarios.Expect) bool { return e.Answer != nil }, []vocab.Source{vocab.SrcAnswer}},
	{"embedder", func(e scenarios.Expect) bool { return e.Embedder != nil }, []vocab.Source{vocab.SrcCatalog, vocab.SrcNetwork}},
}

// notExpectationKinds are the keys under expect: that tune checks the run
// makes anyway rather than name a source: they can neither add nor remove
// a PASS of their own.
var notExpectationKinds = map[string]string{
	"reviewed_is_sent": "turns the reviewed-is-sent check off, with a reason",
	"replays":          "tunes the replays the runner makes of every write; their checks skip when a run made none",
}

// requireNamedSources makes sure every source the scenario names was
// checked at least once: no PASS with nothing checked.
func (j *judge) requireNamedSources() {
	e := j.sc.Expect
	var named [][]vocab.Source
	for _, k := range expectationKinds {
		if k.named(e) {
			named = append(named, k.sources)
		}
	}
	// Inline expectations and a step's request name their sources too.
	if slices.ContainsFunc(j.ev.Calls, func(c scenarios.CallRecord) bool { return j.callExpect(c) != nil }) {
		named = append(named, []vocab.Source{vocab.SrcTrace})
	}
	if slices.ContainsFunc(append(slices.Clone(j.sc.Setup), j.sc.Human...), func(s scenarios.Step) bool { return s.Request != nil }) {
		named = append(named, []vocab.Source{vocab.SrcNetwork})
	}
	if len(named) == 0 {
		j.inconclusive("expectations", vocab.SrcCase, vocab.EvidenceMissing, nil, nil, "the scenario expects nothing: nothing was checked")
		return
	}
	for _, srcs := range named {
		if !slices.ContainsFunc(j.checks, func(c Check) bool { return slices.Contains(srcs, c.Source) }) {
			// Nothing from it was checked: the evidence looked at is the
			// whole run, where nothing of it was recorded.
			j.inconclusive("source."+string(srcs[0]), srcs[0], vocab.EvidenceMissing, nil, nil, "the scenario names this source, but nothing from it could be checked").
				at(scenarios.WindowRef(vocab.PhaseAll))
		}
	}
}

// keys answers a map's keys in order: the judge visits maps in one order,
// so that the same evidence always gives the same bytes.
func keys[K ~string, V any](m map[K]V) []K { return slices.Sorted(maps.Keys(m)) }

var (
	inputError  = regexp.MustCompile(`(?i)parameter|invalid|required|validation`)
	invalidCode = regexp.MustCompile(`(?i)invalid|validation`)
)

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
