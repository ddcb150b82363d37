package judge

// harnessRead tells whether request i of the network log is a read the
// harness made itself (a state probe), which no count of the app's or the
// agent's requests holds. Page script can set any header, so the header
// alone proves nothing (issue 43 item 6): the request must be a read, and
// when the record holds the tokens the harness drew for its probes, carry
// one of them, each taken once. A bundle from before the tokens has none,
// and is read as it was judged then.
func (j *judge) harnessRead(i int) bool {
	if j.harness == nil {
		j.harness = j.harnessReads()
	}
	return j.harness[i]
}

// counted: request i is the app's or the agent's to count: no read of the
// harness's, and not the duplicate a service worker made of a page's
// request (record.Request.FromSW).
func (j *judge) counted(i int) bool {
	return !j.harnessRead(i) && !j.ev.Requests[i].FromSW
}

func (j *judge) harnessReads() map[int]bool {
	out := map[int]bool{}
	tokens := map[string]int{}
	for _, p := range j.ev.ProbeReads {
		if p.Token != "" {
			tokens[p.Token]++
		}
	}
	drew := j.drewTokens()
	for i, r := range j.ev.Requests {
		if !r.IsProbe() {
			continue
		}
		t, _ := r.ProbeToken()
		switch {
		case !drew:
			out[i] = true // a record from before the tokens
		case tokens[t] > 0:
			tokens[t]--
			out[i] = true
		}
	}
	return out
}

// drewTokens: the record is of a runner that draws probe tokens (whether
// or not the scenario has probes), or its probe reads carry them.
func (j *judge) drewTokens() bool {
	if j.ev.Env.ProbeTokens {
		return true
	}
	for _, p := range j.ev.ProbeReads {
		if p.Token != "" {
			return true
		}
	}
	return false
}
