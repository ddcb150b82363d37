package agentmodel

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// AsScenario is a recorded live run written out as a scenario for the
// deterministic suite: the bundle's scenario as it was judged, whose
// transcript is what the model did (its calls with their inputs, its
// questions to the person and the person's replies, its final words),
// under id, with the live run's verdict as its known answer: running the
// file checks that the transcript still reaches it. The values are the
// bundle's: personal ones are its stand-ins, throughout (prompt, replies,
// calls, expectations), so the file is whole and holds no person's data.
//
// A bundle of no model's run, a run with a harness fault (it records no
// play of the model to keep) and a run in which the model clicked in the
// page (page_click: no transcript holds a click) are refused, saying why.
func AsScenario(b bundle.Bundle, id string) (scenarios.Scenario, Record, error) {
	var rec Record
	if b.Evidence == nil || len(b.Evidence.Model) == 0 {
		return scenarios.Scenario{}, rec, fmt.Errorf("%s is not a model's run: it has no %s (run it with --agent openai)", b.Scenario.ID, File)
	}
	if err := json.Unmarshal(b.Evidence.Model, &rec); err != nil {
		return scenarios.Scenario{}, rec, fmt.Errorf("%s: %w", File, err)
	}
	switch {
	case rec.Fault != "" || len(b.Evidence.Faults) > 0:
		fault := rec.Fault
		if fault == "" {
			fault = b.Evidence.Faults[0].Text
		}
		return scenarios.Scenario{}, rec, fmt.Errorf("the run had a harness fault, so it holds no whole play of the model to keep: %s", fault)
	case b.Evidence.Cut != "":
		return scenarios.Scenario{}, rec, fmt.Errorf("the run was cut short (%s): it holds no whole play of the model to keep", b.Evidence.Cut)
	case len(rec.Clicks) > 0:
		return scenarios.Scenario{}, rec, fmt.Errorf("the model clicked in the page (%s %s), which a transcript cannot hold: replay the bundle with --agent replay: instead", PageClick, rec.Clicks[0].Selector)
	}
	sc := b.Scenario
	sc.ID, sc.Family, sc.Extends, sc.File = id, "", "", ""
	sc.Title = fmt.Sprintf("%s (recorded: %s, run %s)", strings.TrimSpace(sc.Title), rec.Model, b.Meta.RunID)
	known := scenarios.Known{Outcome: b.Verdict.Outcome, Codes: b.Verdict.Codes}
	if d := b.Verdict.Diagnosis; d != nil && b.Verdict.Outcome == vocab.Fail {
		known.Departs = d.Link
	}
	sc.Known = &known
	if err := sc.Validate(); err != nil {
		return scenarios.Scenario{}, rec, fmt.Errorf("the recorded run does not make a valid scenario: %w", err)
	}
	return sc, rec, nil
}

// ScenarioFile is AsScenario as a file's bytes: a header that says where
// the transcript comes from, then the scenario as YAML.
func ScenarioFile(b bundle.Bundle, id string) ([]byte, error) {
	sc, rec, err := AsScenario(b, id)
	if err != nil {
		return nil, err
	}
	y, err := yaml.Marshal(sc)
	if err != nil {
		return nil, errors.Join(errors.New("the scenario as YAML"), err)
	}
	head := fmt.Sprintf(`# Recorded from a model's run: %s at %s played %s in run %s (%s, %d
# request(s), %d tokens). The transcript is what the model did: its calls and
# their inputs, its questions to the person with the person's replies, its
# final words. Personal values are the bundle's stand-ins. known: is the
# live run's verdict: the suite checks that this transcript still reaches it.
`, rec.Model, rec.BaseURL, b.Scenario.ID, b.Meta.RunID, b.Meta.Start.Format("2006-01-02"), len(rec.Exchanges), rec.Usage.Total)
	return append([]byte(head), y...), nil
}
