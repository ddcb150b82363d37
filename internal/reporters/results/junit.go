package results

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"fmt"
	"os"
	"slices"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/agentready/agentready/scenarios/vocab"
)

// FixJUnit rewrites a JUnit report Ginkgo wrote: a scenario spec that
// failed because its verdict was INCONCLUSIVE (when it means to reach
// another) becomes an <error type="INCONCLUSIVE"> whose message names the
// codes, and the counts follow (docs/decisions/2026-11-30-reports-in-ci.md).
// A spec that panicked (a harness fault) is an error already. It answers
// how many it rewrote; a second pass rewrites none.
func FixJUnit(path string) (int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	var suites reporters.JUnitTestSuites
	if err := xml.Unmarshal(data, &suites); err != nil {
		return 0, err
	}
	n := 0
	for si := range suites.TestSuites {
		suite := &suites.TestSuites[si]
		for ci := range suite.TestCases {
			tc := &suite.TestCases[ci]
			if tc.Failure == nil || tc.Properties == nil {
				continue
			}
			var rows []Row
			for _, p := range tc.Properties.Properties {
				if p.Name == EntryName {
					rows = append(rows, decode(nil, p.Value))
				}
			}
			k := slices.IndexFunc(rows, func(r Row) bool { return r.Outcome == vocab.Inconclusive && !r.AsMeant })
			if k < 0 {
				continue
			}
			r := rows[k]
			msg := fmt.Sprintf("INCONCLUSIVE %s: %s was not judged (meant %s); the evidence: %s", cmp.Or(codes(r.Codes), "-"), r.ID, r.Meant, r.Bundle)
			tc.Error = &reporters.JUnitError{Type: "INCONCLUSIVE", Message: msg, Description: msg + "\n\n" + tc.Failure.Description}
			tc.Failure = nil
			suite.Failures--
			suite.Errors++
			suites.Failures--
			suites.Errors++
			n++
		}
	}
	if n == 0 {
		return 0, nil
	}
	var out bytes.Buffer
	out.WriteString(xml.Header)
	enc := xml.NewEncoder(&out)
	enc.Indent("  ", "    ")
	if err := enc.Encode(suites); err != nil {
		return 0, err
	}
	return n, os.WriteFile(path, out.Bytes(), 0o644)
}

// WriteJUnit writes a Ginkgo report as JUnit with Ginkgo's own reporter,
// then applies FixJUnit: what make e2e's report is, for a merged run too.
func WriteJUnit(rep types.Report, path string) error {
	if err := reporters.GenerateJUnitReport(rep, path); err != nil {
		return err
	}
	_, err := FixJUnit(path)
	return err
}

func codes(cs []vocab.Code) string {
	var b bytes.Buffer
	for i, c := range cs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(string(c))
	}
	return b.String()
}
