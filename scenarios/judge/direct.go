package judge

import (
	"cmp"
	"encoding/json"
	"fmt"

	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// judgeDirect checks what the server answered the requests a scenario sent
// straight to it as the person's session: a rule the page enforces must
// hold on the server too.
func (j *judge) judgeDirect() {
	for _, d := range j.ev.Direct {
		want := j.directExpect(d)
		if want == nil {
			continue
		}
		id := fmt.Sprintf("direct.%s[%d] %s %s", d.Phase, d.Index, d.Method, d.Path)
		ref := scenarios.DirectRef(d.Phase, d.Index)
		if d.Status == 0 {
			j.inconclusive(id, vocab.SrcNetwork, vocab.EvidenceMissing, want.Expect, nil, "the request got no answer: "+d.Error).at(ref)
			continue
		}
		code, at := answerCode(d.Body, want.Expect.CodeAt)
		got := map[string]any{"status": d.Status, "code": code}
		switch {
		case d.Status != want.Expect.Status:
			j.fail(id, vocab.SrcNetwork, vocab.ServerRuleBroken, want.Expect, got,
				fmt.Sprintf("the server answered %d where the scenario expects %d: it does not hold the rule itself", d.Status, want.Expect.Status)).at(ref)
		case want.Expect.Code != "" && code != want.Expect.Code:
			j.fail(id, vocab.SrcNetwork, vocab.ServerRuleBroken, want.Expect, got,
				fmt.Sprintf("the server answered %d with code %q at %s, not %q", d.Status, code, at, want.Expect.Code)).at(ref)
		default:
			j.pass(id, vocab.SrcNetwork, want.Expect, got, "the server holds the rule").at(ref)
		}
	}
}

// answerCode is the code an answer carries at path ($.code when empty):
// the one string or number it picks (scenarios.TakeValue), else "".
func answerCode(body json.RawMessage, path string) (code, at string) {
	at = cmp.Or(path, "$.code")
	code, _ = scenarios.TakeValue(body, at)
	return code, at
}

// directExpect is the scenario's direct request behind a record.
func (j *judge) directExpect(d scenarios.DirectRecord) *scenarios.DirectRequest {
	var steps []scenarios.Step
	switch d.Phase {
	case vocab.PhaseSetup:
		steps = j.sc.Setup
	case vocab.PhaseHuman:
		steps = j.sc.Human
	}
	if d.Index >= 0 && d.Index < len(steps) {
		return steps[d.Index].Request
	}
	return nil
}
