package bundle

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentready/agentready/internal/evidence/redact"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Redaction never changes a verdict: Seal judges the raw record and the
// redacted one, and the manifest records the raw record's outcome and codes
// (rawVerdict; nothing personal) beside the placeholders, so that anyone,
// and verify, can hold the bundle's verdict to it. When the two differ (a
// check depends on part of a redacted value), the bundle cannot show this
// run's verdict: the harness says so as a fault, and the bundle's verdict is
// INCONCLUSIVE with that cause, never a verdict the record does not bear.

// VerdictSummary is a verdict's outcome and codes.
type VerdictSummary struct {
	Outcome vocab.Outcome `json:"outcome"`
	Codes   []vocab.Code  `json:"codes"`
}

func summaryOf(v judge.Verdict) *VerdictSummary {
	return &VerdictSummary{Outcome: v.Outcome, Codes: slices.Clone(v.Codes)}
}

// redactRecord makes the redaction of a record and applies it to copies of
// the scenario and the evidence.
func redactRecord(sc scenarios.Scenario, ev *scenarios.Evidence, opts ...redact.Option) (*redact.Redaction, scenarios.Scenario, *scenarios.Evidence, error) {
	red, err := redact.New(sc, ev, opts...)
	if err != nil {
		return nil, scenarios.Scenario{}, nil, err
	}
	rsc, err := red.Scenario(sc)
	if err != nil {
		return nil, scenarios.Scenario{}, nil, fmt.Errorf("redact the scenario: %w", err)
	}
	rsc.File = filepath.Base(sc.File)
	rev, err := red.Evidence(ev)
	if err != nil {
		return nil, scenarios.Scenario{}, nil, fmt.Errorf("redact the evidence: %w", err)
	}
	return red, rsc, rev, nil
}

// placeholderList is the manifest's list of what replaced what kind of
// value: "email: qpx@bkwtzhq.zqa".
func placeholderList(red *redact.Redaction) []string {
	out := []string{}
	for _, p := range red.Placeholders() {
		out = append(out, string(p.Kind)+": "+p.Value)
	}
	return out
}

// keepVerdict holds the sealed bundle b, judged on the redacted record, to
// raw, the verdict of the raw record (sc, ev): it records raw in the
// manifest, and when the two differ, judges b again with a harness fault
// that says why (through red: the fault names checks, and their ids may
// quote a value).
func keepVerdict(b Bundle, raw judge.Verdict, red *redact.Redaction, sc scenarios.Scenario, ev *scenarios.Evidence) (Bundle, error) {
	b.Meta.RawVerdict = summaryOf(raw)
	if sameVerdict(raw, b.Verdict) {
		return b, nil
	}
	// Before blaming redaction, see whether the files alone lose something
	// the verdict depends on: that is a defect of agentready.
	if plain, err := throughFiles(Bundle{Meta: b.Meta, Scenario: sc, Evidence: ev}); err == nil {
		if v := judge.Judge(plain.Scenario, plain.Evidence); !sameVerdict(raw, v) {
			return Bundle{}, fmt.Errorf("the bundle's files, without any redaction, change the verdict from %s %v to %s %v: they lose part of the scenario or the evidence (a defect of agentready, not of the scenario)",
				raw.Outcome, raw.Codes, v.Outcome, v.Codes)
		}
	}
	fault := red.String(fmt.Sprintf("redaction would change the verdict from %s %v to %s %v (checks that differ: %s): a check depends on part of a value kept out of the bundle; quote personal values whole, or declare less of them personal",
		raw.Outcome, codeList(raw.Codes), b.Verdict.Outcome, codeList(b.Verdict.Codes), strings.Join(differingChecks(raw, b.Verdict), ", ")))
	b.Evidence.Faults = append(slices.Clone(b.Evidence.Faults), scenarios.WholeFault(fault))
	back, err := throughFiles(b)
	if err != nil {
		return Bundle{}, err
	}
	b.Scenario, b.Evidence = back.Scenario, back.Evidence
	b.Verdict = judge.Judge(b.Scenario, b.Evidence)
	return b, nil
}

func codeList(codes []vocab.Code) string {
	if len(codes) == 0 {
		return "[]"
	}
	return fmt.Sprint(codes)
}

// differingChecks names the checks whose status differs between two
// verdicts of one scenario, and those only one of them has.
func differingChecks(a, b judge.Verdict) []string {
	status := func(v judge.Verdict) map[string]vocab.CheckStatus {
		m := map[string]vocab.CheckStatus{}
		for _, c := range v.Checks {
			m[c.ID] = c.Status
		}
		return m
	}
	sa, sb := status(a), status(b)
	var out []string
	for _, c := range a.Checks {
		if s, ok := sb[c.ID]; !ok || s != c.Status {
			out = append(out, fmt.Sprintf("%s %s→%s", c.ID, c.Status, orNone(s)))
		}
	}
	for _, c := range b.Checks {
		if _, ok := sa[c.ID]; !ok {
			out = append(out, fmt.Sprintf("%s none→%s", c.ID, c.Status))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func orNone(s vocab.CheckStatus) string {
	if s == "" {
		return "none"
	}
	return string(s)
}

// redactionProblem tells what verify must say when a bundle's verdict is
// not the one its raw record reached (the manifest's rawVerdict): redaction
// changed it. Bundles sealed before rawVerdict was recorded say nothing.
func redactionProblem(m Manifest, v judge.Verdict) string {
	raw := m.RawVerdict
	if raw == nil || raw.Outcome == v.Outcome && slices.Equal(raw.Codes, v.Codes) {
		return ""
	}
	return fmt.Sprintf("the raw record was judged %s %s, the bundle's record %s %s: redaction changed the verdict (see the harness fault in run.json)",
		raw.Outcome, codeList(raw.Codes), v.Outcome, codeList(v.Codes))
}
