package mutants

import (
	"encoding/json"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

// A baseline agent rewrites a scenario's transcript into what a useless
// agent would have done. None may pass any scenario.
type Baseline struct {
	Name  string
	Agent func(sc scenarios.Scenario, catalog record.Catalog) scenarios.Agent
}

// Rejects tells whether a baseline agent's run was rejected: its verdict
// FAILs, on evidence the harness recorded without a fault.
//
// Decision: "passes nothing" means "FAILs everything", not "never PASSes".
// INCONCLUSIVE is no rejection: it says the evidence could not decide, so a
// scenario that reaches it against a useless agent has not shown that agent
// useless, and an INCONCLUSIVE caused by a harness fault (evidence.Faults)
// says nothing about the agent at all. A FAIL next to a harness fault is not
// counted either, as a scenario killer does not count one: the failing check
// may only have seen what the fault left out.
func Rejects(ev *scenarios.Evidence, v judge.Verdict) bool {
	return ev != nil && len(ev.Faults) == 0 && ev.Cut == "" && v.Outcome == vocab.Fail
}

// Baselines are the silent agent, the agent that calls every tool, and the
// agent whose transcript stops half way.
func Baselines() []Baseline {
	return []Baseline{
		{"silent", func(scenarios.Scenario, record.Catalog) scenarios.Agent { return scenarios.Agent{} }},
		{"calls every tool", func(_ scenarios.Scenario, catalog record.Catalog) scenarios.Agent {
			var calls []scenarios.Call
			for _, t := range catalog {
				calls = append(calls, scenarios.Call{Tool: t.Name, Input: ValidInput(t.InputSchema)})
			}
			done := "Done: I used every tool there is."
			return scenarios.Agent{Calls: calls, Final: &done}
		}},
		{"stops half way", func(sc scenarios.Scenario, _ record.Catalog) scenarios.Agent {
			return scenarios.Agent{Calls: sc.Agent.Calls[:len(sc.Agent.Calls)/2]}
		}},
	}
}

// ValidInput makes an input that satisfies a schema's types and required
// properties: strings "x" (or the first enum value), numbers at their minimum.
func ValidInput(schema json.RawMessage) map[string]any {
	var s struct {
		Properties map[string]struct {
			Type    string  `json:"type"`
			Enum    []any   `json:"enum"`
			Minimum float64 `json:"minimum"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	_ = json.Unmarshal(schema, &s)
	in := map[string]any{}
	for _, name := range s.Required {
		p := s.Properties[name]
		switch {
		case len(p.Enum) > 0:
			in[name] = p.Enum[0]
		case p.Type == "number" || p.Type == "integer":
			in[name] = p.Minimum
		case p.Type == "boolean":
			in[name] = true
		default:
			in[name] = "x"
		}
	}
	return in
}
