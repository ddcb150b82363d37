// Package results is the one model of a run's outcome: a typed Row per
// scenario run (built once, where its bundle is sealed), and the reporters
// that are functions of rows: the run's page (index.html), the terminal
// table, GitHub's job summary, the JUnit rule for an INCONCLUSIVE
// scenario, and the one Ginkgo report entry a scenario spec carries. The
// Ginkgo suite, agentready run, evals and mcp, merge and ci/summarize all
// build or read these rows; none keeps a shape of its own. The words
// (meant, as meant) are docs/glossary.md's.
package results

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Row is one scenario run: what its bundle says of it, in a few fields.
type Row struct {
	ID     string `json:"id"`
	Title  string `json:"title,omitempty"`
	Bundle string `json:"bundle"` // the bundle's folder
	// Outcome and Codes are the verdict's.
	Outcome vocab.Outcome `json:"outcome"`
	Codes   []vocab.Code  `json:"codes"`
	// Meant is the verdict the scenario means to reach: PASS, or its known
	// answer; AsMeant tells whether the verdict is that one.
	Meant   scenarios.Known `json:"meant"`
	AsMeant bool            `json:"asMeant"`
	// Diagnosis is where a FAIL first departs; nil for other verdicts.
	Diagnosis *Departure `json:"diagnosis,omitempty"`
	// Failed are the checks that did not pass, in the verdict's order.
	Failed  []Check `json:"failed,omitempty"`
	Seconds float64 `json:"seconds"` // playing the scenario and sealing its bundle
	Calls   int     `json:"calls"`   // the agent's calls
	Final   bool    `json:"final"`   // the agent gave final words
	// Faults are the harness faults recorded on the way; Error says why
	// there is no bundle, when there is none.
	Faults []string `json:"faults,omitempty"`
	Error  string   `json:"error,omitempty"`
	// Spec is how the spec that ran the scenario ended ("passed",
	// "failed", …), when Ginkgo ran it; FromReport fills it in.
	Spec string `json:"spec,omitempty"`
	// Run is the run's number when the scenario was played more than
	// once (agentready run --runs k), 0 otherwise; its bundle is then
	// RunName(ID, Run).
	Run int `json:"run,omitempty"`
	// Attack is what the run measured under a planted attack (utility,
	// attack success), read from the verdict by judge.UnderAttackOf; nil
	// when the scenario planted nothing.
	Attack *judge.UnderAttack `json:"attack,omitempty"`
	// File is the scenario's file, as it was loaded: the coverage gate
	// of our own app counts the rows of its scenario folder.
	File string `json:"file,omitempty"`
	// Surface is the agent surface the run exercised and left
	// (judge.Surface): what the run's coverage is the union of.
	Surface []judge.SurfaceItem `json:"surface,omitempty"`
}

// Check is a check that did not pass, as the reports list it.
type Check struct {
	ID      string            `json:"id"`
	Status  vocab.CheckStatus `json:"status"`
	Code    vocab.Code        `json:"code,omitempty"`
	Message string            `json:"message,omitempty"`
}

// Departure is where a FAIL's evidence first departs (the verdict's
// diagnosis), and what the record cannot tell.
type Departure struct {
	Link    vocab.Link `json:"link"`
	Checks  []string   `json:"checks,omitempty"` // the failing checks at that link
	Summary string     `json:"summary"`
	Open    string     `json:"open"`
}

// MessageLimit is how many characters of a check's message a row keeps:
// the rest is in the bundle's verdict.json, one click away.
const MessageLimit = 400

// Of is the row of a sealed bundle written to dir: sc is the scenario as
// judged, took the time from the start of its play to the bundle written.
func Of(dir string, sc scenarios.Scenario, b bundle.Bundle, took time.Duration) Row {
	v := b.Verdict
	r := Row{ID: sc.ID, Title: b.Scenario.Title, Bundle: dir, Outcome: v.Outcome, Codes: v.Codes, Meant: sc.Meant(),
		AsMeant: judge.AsMeant(sc, v), Seconds: took.Seconds(), Attack: judge.UnderAttackOf(v)}
	if d := v.Diagnosis; d != nil {
		r.Diagnosis = &Departure{Link: d.Link, Checks: d.Checks, Summary: d.Summary, Open: d.Open}
	}
	for _, c := range v.Failed() {
		r.Failed = append(r.Failed, Check{ID: c.ID, Status: c.Status, Code: c.Code, Message: OneLine(message(c), MessageLimit)})
	}
	if ev := b.Evidence; ev != nil {
		for _, c := range ev.Calls {
			if c.Phase == vocab.PhaseAgent {
				r.Calls++
			}
		}
		r.Final, r.Faults = ev.Final != nil, scenarios.FaultTexts(ev.Faults)
		r.Surface = judge.Surface(sc, ev)
		r.File = sc.File
	}
	return r
}

// message is a check's message with what was expected and found, when the
// message does not say it already.
func message(c judge.Check) string {
	if (c.Expected == nil && c.Actual == nil) || strings.Contains(c.Message, "expected") {
		return c.Message
	}
	return fmt.Sprintf("%s: expected %s, actual %s", c.Message, compact(c.Expected), compact(c.Actual))
}

// compact is a value as short JSON, cut.
func compact(v any) string {
	if v == nil {
		return "nothing"
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return OneLine(string(data), 80)
}

// Unsealed is the row of a scenario whose bundle could not be sealed or
// written: INCONCLUSIVE, with the reason.
func Unsealed(dir string, sc scenarios.Scenario, err error) Row {
	return Row{ID: sc.ID, Title: sc.Title, Bundle: dir, Outcome: vocab.Inconclusive, Meant: sc.Meant(), Error: err.Error()}
}

// SpecPassed is the state of a Ginkgo spec that passed.
const SpecPassed = "passed"

// NotAsMeant tells whether the row fails the run: its spec did not pass
// or, without a spec, its verdict is not the one it means to reach. (A
// spec may run a scenario to assert another verdict itself: that verdict
// is then the one meant.)
func (r Row) NotAsMeant() bool {
	if r.Spec != "" {
		return r.Spec != SpecPassed
	}
	return !r.AsMeant
}

// verdictAsMeant: the verdict is the one meant, by the scenario or by the
// passing spec that asserted it.
func (r Row) verdictAsMeant() bool { return r.AsMeant || r.Spec == SpecPassed }

// Departs is the link a FAIL first departs at ("" for other verdicts).
func (r Row) Departs() vocab.Link {
	if r.Diagnosis == nil {
		return ""
	}
	return r.Diagnosis.Link
}

// Verdict words the verdict against the one meant: "PASS", "FAIL, as
// meant" (a known-answer case that reached its answer), "FAIL, as its spec
// means", or "INCONCLUSIVE ✗ meant PASS".
func (r Row) Verdict() string {
	switch {
	case !r.verdictAsMeant():
		return string(r.Outcome) + " ✗ meant " + r.Meant.String()
	case r.Outcome == vocab.Pass:
		return string(r.Outcome)
	case r.AsMeant:
		return string(r.Outcome) + ", as meant"
	}
	return string(r.Outcome) + ", as its spec means"
}

// WhyLimit is how many failed checks the terminal names under a scenario
// that is not as meant; WhyWidth how long each such line may be.
const (
	WhyLimit = 3
	WhyWidth = 200
)

// Why says in a few lines why a row is not as meant: its first failed
// checks, one line each, and where its evidence is; or why it has no bundle.
func (r Row) Why() []string {
	var out []string
	if r.Error != "" {
		out = append(out, OneLine("no bundle: "+r.Error, WhyWidth))
	}
	for i, c := range r.departingFirst() {
		if i == WhyLimit {
			out = append(out, fmt.Sprintf("… and %d more check(s) that did not pass", len(r.Failed)-WhyLimit))
			break
		}
		out = append(out, OneLine(fmt.Sprintf("%s %s %s: %s", mark(c.Status), c.Code, c.ID, c.Message), WhyWidth))
	}
	if len(r.Failed) == 0 && len(r.Faults) > 0 {
		out = append(out, OneLine("harness fault: "+r.Faults[0], WhyWidth))
	}
	if r.Error != "" {
		return out
	}
	return append(out, "evidence: "+r.Bundle)
}

// Cause is why a row is INCONCLUSIVE, in one line: why it has no bundle,
// its first harness fault, or its first check that could not be judged
// (its code and words); "" for any other outcome.
func (r Row) Cause() string {
	if r.Outcome != vocab.Inconclusive && r.Error == "" {
		return ""
	}
	switch {
	case r.Error != "":
		return OneLine("no bundle: "+r.Error, WhyWidth)
	case len(r.Faults) > 0:
		return OneLine("harness fault: "+r.Faults[0], WhyWidth)
	}
	for _, c := range r.Failed {
		if c.Status == vocab.CheckInconclusive {
			return OneLine(fmt.Sprintf("%s %s: %s", c.Code, c.ID, c.Message), WhyWidth)
		}
	}
	return ""
}

// departingFirst are the failed checks, those where a FAIL first departs
// (its diagnosis names them) first: the first lines say where to look.
func (r Row) departingFirst() []Check {
	if r.Diagnosis == nil {
		return r.Failed
	}
	at := func(c Check) bool { return slices.Contains(r.Diagnosis.Checks, c.ID) }
	out := slices.DeleteFunc(slices.Clone(r.Failed), func(c Check) bool { return !at(c) })
	return append(out, slices.DeleteFunc(slices.Clone(r.Failed), at)...)
}

// String is what a failed spec prints of its scenario run: the verdict
// against the one meant, then why and where the bundle is.
func (r Row) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", r.ID, r.Verdict())
	if len(r.Codes) > 0 {
		fmt.Fprintf(&b, " %v", r.Codes)
	}
	for _, line := range r.Why() {
		b.WriteString("\n  " + line)
	}
	return b.String()
}

func mark(s vocab.CheckStatus) string {
	if s == vocab.CheckFail {
		return "✗"
	}
	return "?"
}

// OneLine keeps a text on one line and at most n characters, an ellipsis
// where it was cut: a message in a report, a description in a table.
func OneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// Sorted are the rows, the ones not as meant first, then by ID.
func Sorted(rows []Row) []Row {
	rows = slices.Clone(rows)
	slices.SortStableFunc(rows, func(a, b Row) int {
		if a.NotAsMeant() != b.NotAsMeant() {
			if a.NotAsMeant() {
				return -1
			}
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	return rows
}

// NotAsMeant are the rows that fail the run.
func NotAsMeant(rows []Row) []Row {
	return slices.DeleteFunc(slices.Clone(rows), func(r Row) bool { return !r.NotAsMeant() })
}

// Count is how many rows reached an outcome, and how many of those as meant.
func Count(rows []Row, o vocab.Outcome) (n, asMeant int) {
	for _, r := range rows {
		if r.Outcome == o {
			n++
			if r.verdictAsMeant() {
				asMeant++
			}
		}
	}
	return n, asMeant
}

// Totals words the rows' verdicts: "30 PASS, 20 FAIL (20 as meant), 1
// INCONCLUSIVE (0 as meant); 1 not as meant".
func Totals(rows []Row) string {
	pass, _ := Count(rows, vocab.Pass)
	fail, failMeant := Count(rows, vocab.Fail)
	inc, incMeant := Count(rows, vocab.Inconclusive)
	return fmt.Sprintf("%d PASS, %d FAIL (%d as meant), %d INCONCLUSIVE (%d as meant); %d not as meant", pass, fail, failMeant, inc, incMeant, len(NotAsMeant(rows)))
}
