package results

import (
	"encoding/json"
	"path/filepath"
	"slices"

	"github.com/onsi/ginkgo/v2/types"
)

// EntryName names the one report entry a scenario spec carries per
// scenario run: its Row. Ginkgo keeps it in the JSON report (as JSON) and
// in the JUnit report (a property whose value is the row's JSON); every
// reporter reads the row back from there with FromReport or FromEntry,
// never by a name of its own.
const EntryName = "scenario-run"

// FromEntry reads a row back from a report entry's value (the Row itself
// in the process that added it, its JSON everywhere else); ok is false for
// an entry of another name.
func FromEntry(e types.ReportEntry) (Row, bool) {
	if e.Name != EntryName {
		return Row{}, false
	}
	return decode(e.GetRawValue(), e.Value.AsJSON), true
}

func decode(raw any, asJSON string) Row {
	if r, ok := raw.(Row); ok {
		return r
	}
	data := []byte(asJSON)
	if raw != nil {
		data, _ = json.Marshal(raw)
	}
	var r Row
	if err := json.Unmarshal(data, &r); err != nil {
		return Row{Outcome: "INCONCLUSIVE", Error: "the report entry " + EntryName + " is not a row: " + err.Error()}
	}
	return r
}

// FromSpec is the rows a spec recorded, each with the spec's state.
func FromSpec(s types.SpecReport) []Row {
	var out []Row
	for _, e := range s.ReportEntries {
		if r, ok := FromEntry(e); ok {
			r.Spec = s.State.String()
			out = append(out, r)
		}
	}
	return out
}

// FromReport is the rows of every spec of a Ginkgo report, in its order.
func FromReport(rep types.Report) []Row {
	var out []Row
	for _, s := range rep.SpecReports {
		out = append(out, FromSpec(s)...)
	}
	return out
}

// Specs counts the specs of a Ginkgo run.
type Specs struct{ Passed, Failed, Skipped int }

// Tally counts a report's specs: each It passed, skipped (or pending) or
// failed, and a suite node (BeforeSuite, ReportAfterSuite, …) that did not
// pass as a failure too.
func Tally(rep types.Report) Specs {
	var t Specs
	for _, s := range rep.SpecReports {
		switch {
		case s.LeafNodeType != types.NodeTypeIt:
			if !s.State.Is(types.SpecStatePassed | types.SpecStateSkipped | types.SpecStatePending) {
				t.Failed++
			}
		case s.State == types.SpecStatePassed:
			t.Passed++
		case s.State.Is(types.SpecStateSkipped | types.SpecStatePending):
			t.Skipped++
		default:
			t.Failed++
		}
	}
	return t
}

// MoveBundles points the rows of a spec's entries at their bundles' new
// folder (a merged run's), each bundle keeping its name.
func MoveBundles(entries types.ReportEntries, dir string) types.ReportEntries {
	out := slices.Clone(entries)
	for i, e := range out {
		if r, ok := FromEntry(e); ok {
			r.Bundle = filepath.Join(dir, filepath.Base(r.Bundle))
			out[i].Value = types.WrapEntryValue(r)
		}
	}
	return out
}
