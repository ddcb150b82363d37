package runner

// asks records the transcript's questions to the person asked after calls
// of its calls, each with the person's reply from the scenario's user:
// (scenarios.Scenario.ReplyTo), as a live agent's questions are recorded:
// the judge then reads one dialogue, whoever played the agent.
func (r *runner) asks(calls int) {
	for _, a := range r.sc.Agent.Asks {
		if a.After == calls {
			r.ev.Dialogue = append(r.ev.Dialogue, r.sc.ReplyTo(r.ev.Dialogue, calls, a.Text))
		}
	}
}
