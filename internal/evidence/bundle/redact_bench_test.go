package bundle

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// benchRecord is a run with a tool output of benchSize bytes of text that
// holds thousands of emails and phones, and 200 requests with JSON bodies:
// redaction must cost about the size of the record, whatever the number of
// secrets (the wave-2 code took minutes and gigabytes on 64 KiB of it).
func benchRecord() (scenarios.Scenario, *scenarios.Evidence) {
	var out strings.Builder
	for i := 0; out.Len() < benchSize; i++ {
		fmt.Fprintf(&out, "Row %d: order hotel-%d-budget for guest%d@example.org, call +44 20 7946 %04d, from SFO to NRT on 2026-12-%02d. ", i, i%9, i%50, i%10000, i%28+1)
	}
	text := out.String()
	sc := scenarios.Scenario{ID: "bench", Title: "b", Start: "/", Prompt: "Find SFO to NRT for ann@example.org",
		PromptData: map[string]scenarios.PromptValue{"from": {Value: "SFO"}, "to": {Value: "NRT"}, "email": {Value: "ann@example.org"}},
		Agent:      scenarios.Agent{Calls: []scenarios.Call{{Tool: "search", Input: map[string]any{"from": "SFO", "to": "NRT"}}}}}
	o, _ := json.Marshal(text)
	ev := &scenarios.Evidence{ScenarioID: "bench", Final: new("done"),
		Calls: []scenarios.CallRecord{{Phase: vocab.PhaseAgent, Call: sc.Agent.Calls[0], Result: record.Result{Tool: "search", Status: vocab.Completed, Output: o}}}}
	for i := range 200 {
		ev.Requests = append(ev.Requests, record.Request{Seq: i + 1, Method: "POST", Path: "/api/x", URL: fmt.Sprintf("http://127.0.0.1:1/api/x?q=%d", i),
			Body: fmt.Sprintf(`{"email":"guest%d@example.org","from":"SFO","n":%d}`, i%50, i), RequestHeaders: map[string]string{"Content-Type": "application/json"}})
	}
	return sc, ev
}

func BenchmarkSealManySecrets(b *testing.B) {
	sc, ev := benchRecord()
	for b.Loop() {
		if _, err := Seal(Meta{RunID: "r"}, sc, ev); err != nil {
			b.Fatal(err)
		}
	}
}

var benchSize = 256 << 10
