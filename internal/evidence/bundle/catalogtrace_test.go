package bundle

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
)

// catalogFromTraceNaive is the quadratic definition catalogFromTrace must
// agree with: the first n at which CatalogAt equals the recorded catalog.
func catalogFromTraceNaive(ev *scenarios.Evidence) *int {
	if ev.Catalog == nil {
		return nil
	}
	want := compact(ev.Catalog)
	for n := 0; n <= len(ev.Trace); n++ {
		if n > 0 && ev.Trace[n-1].Kind != record.ToolsAdded && ev.Trace[n-1].Kind != record.ToolsRemoved {
			continue
		}
		if bytes.Equal(compact(record.CatalogAt(ev.Trace, n)), want) {
			return &n
		}
	}
	return nil
}

func show(n *int) string {
	if n == nil {
		return "nil"
	}
	return fmt.Sprint(*n)
}

// Random traces of adds, removes, replacements and other events, against
// catalogs taken at some point of them (or changed, or unsorted): the
// linear walk answers what the definition answers.
func TestCatalogFromTraceIsTheDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	tool := func() record.Tool {
		return record.Tool{Name: fmt.Sprintf("t%d", r.IntN(6)), FrameID: fmt.Sprintf("f%d", r.IntN(2)), Description: fmt.Sprintf("d%d", r.IntN(2))}
	}
	for i := range 3000 {
		var trace []record.Event
		for range r.IntN(12) {
			switch r.IntN(4) {
			case 0, 1:
				trace = append(trace, record.Event{Kind: record.ToolsAdded, Tools: []record.Tool{tool(), tool()}[:1+r.IntN(2)]})
			case 2:
				trace = append(trace, record.Event{Kind: record.ToolsRemoved, Tools: []record.Tool{tool()}})
			default:
				trace = append(trace, record.Event{Kind: record.ToolInvoked, ToolName: "t0"})
			}
		}
		cat := record.CatalogAt(trace, r.IntN(len(trace)+1))
		switch r.IntN(4) {
		case 0:
			cat = append(cat, tool()) // maybe never seen, maybe unsorted
		case 1:
			if len(cat) > 1 {
				cat[0], cat[1] = cat[1], cat[0]
			}
		}
		ev := &scenarios.Evidence{Trace: trace, Catalog: cat}
		if got, want := catalogFromTrace(ev), catalogFromTraceNaive(ev); show(got) != show(want) {
			t.Fatalf("case %d: catalogFromTrace = %s, the definition says %s\ntrace %+v\ncatalog %+v", i, show(got), show(want), trace, cat)
		}
	}
	if catalogFromTrace(&scenarios.Evidence{}) != nil {
		t.Fatal("no catalog recorded, yet a point in the trace")
	}
}

// manyTools is a page of n tools, each added by its own event, as the
// 2000-tool page (realpages /many) records them.
func manyTools(n int) *scenarios.Evidence {
	ev := &scenarios.Evidence{}
	for i := range n {
		t := record.Tool{Name: fmt.Sprintf("report_%04d", i), FrameID: "F", Description: fmt.Sprintf("Show report number %d.", i),
			InputSchema: []byte(`{"type":"object","properties":{"period":{"type":"string","enum":["day","week","month"]}},"required":["period"]}`)}
		ev.Trace = append(ev.Trace, record.Event{Kind: record.ToolsAdded, Tools: []record.Tool{t}})
	}
	ev.Catalog = record.CatalogAt(ev.Trace, len(ev.Trace))
	return ev
}

// Thousands of tools get their answer (the quadratic walk took 22.8 s on
// 2000): speed is shown by BenchmarkCatalogFromTrace2000, against the
// definition in the same run, never by a timed test.
func TestCatalogFromTraceOnThousandsOfTools(t *testing.T) {
	for _, n := range []int{1000, 4000} {
		if got := catalogFromTrace(manyTools(n)); got == nil || *got != n {
			t.Fatalf("%d tools: catalogFromTrace = %s, want %d", n, show(got), n)
		}
	}
}

// The indexed walk against the definition on the same trace, in the same
// run (the machines are noisy): the ratio is the number to read.
func BenchmarkCatalogFromTrace2000(b *testing.B) {
	ev := manyTools(2000)
	start := time.Now()
	catalogFromTraceNaive(ev)
	naive := time.Since(start)
	start = time.Now()
	for b.Loop() {
		catalogFromTrace(ev)
	}
	b.ReportMetric(float64(naive)/(float64(time.Since(start))/float64(b.N)), "x-faster-than-definition")
}
