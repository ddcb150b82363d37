package scenarios

import "github.com/agentready/agentready/scenarios/vocab"

// validateAnsweredIn: a call answered in the person's phase is an agent's
// call, in a scenario with the person's steps that answer it, that the
// suite may leave pending (no cancel_after, no probe).
func (sc Scenario) validateAnsweredIn(p *problems) {
	for i, c := range sc.Agent.Calls {
		x := c.Expect
		if x == nil || x.AnsweredIn == "" {
			continue
		}
		key := pathOf("agent", "calls", i).key("expect").key("answered_in")
		switch {
		case x.AnsweredIn == vocab.PhaseAgent:
			p.bad(key, "agent is where every call is answered when nothing is said: leave it out")
		case x.AnsweredIn != vocab.PhaseHuman:
			p.bad(key, "%q is not human (the person's steps answer the call)", x.AnsweredIn)
		case len(sc.Human) == 0:
			p.bad(key, "says the person's steps answer the call, and the scenario has no human steps: add the step that submits (human: [{click: \"button[type=submit]\"}])")
		case c.CancelAfter != nil:
			p.bad(key, "a call the person answers is left pending; cancel_after cancels it in the agent's window: give one of them")
		case x.NotInCatalog:
			p.bad(key, "a probe of a tool that must be absent is never left pending")
		}
	}
}
