package scenarios

import (
	"fmt"
	neturl "net/url"
	"slices"

	"github.com/agentready/agentready/scenarios/vocab"
)

// Validation of what a scenario expects around the page (validate.go):
// dialogs, windows, planted attacks and embedders.

// validateDialogs refuses a dialog policy or kind that is not one, a phase
// no dialog opens in, a message that is no constraint, and an expectation
// that says nothing.
func (sc Scenario) validateDialogs(p *problems) {
	if !sc.Capture.Leave.Valid() {
		p.bad(pathOf("capture", "leave"), "%q is not navigate or off", sc.Capture.Leave)
	}
	if !sc.Capture.Dialogs.Valid() {
		p.bad(pathOf("capture", "dialogs"), "%q is not accept or dismiss", sc.Capture.Dialogs)
	}
	d := sc.Expect.Dialogs
	if d == nil {
		return
	}
	if len(d.Require) == 0 && len(d.Forbid) == 0 {
		p.bad(pathOf("expect", "dialogs"), "says nothing: give require or forbid ([{}] forbids every dialog)")
	}
	for name, list := range map[string][]DialogMatch{"require": d.Require, "forbid": d.Forbid} {
		for i, m := range list {
			key := pathOf("expect", "dialogs", name, i)
			if !m.Kind.Valid() {
				p.bad(key.key("kind"), "%q is not alert, confirm, prompt or beforeunload", m.Kind)
			}
			checkEventPhase(key.key("phase"), m.Phase, p)
			if m.Message != nil {
				checkDocument(key.key("message"), m.Message, p)
			}
		}
	}
}

// checkEventPhase refuses a phase no dialog or popup can be recorded in
// ("" is any phase).
func checkEventPhase(key keyPath, phase string, p *problems) {
	switch vocab.Phase(phase) {
	case "", vocab.PhaseSetup, vocab.PhaseAgent, vocab.PhaseHuman, vocab.PhaseLeave, vocab.PhaseEnd:
	default:
		p.bad(key, "%q is not setup, agent, human, leave or end", phase)
	}
}

// validatePopups refuses a phase no popup opens in, a URL that is no
// constraint, and an expectation that says nothing.
func (sc Scenario) validatePopups(p *problems) {
	e := sc.Expect.Popups
	if e == nil {
		return
	}
	if len(e.Require) == 0 && len(e.Forbid) == 0 {
		p.bad(pathOf("expect", "popups"), "says nothing: give require or forbid ([{}] forbids every popup)")
	}
	for name, list := range map[string][]PopupMatch{"require": e.Require, "forbid": e.Forbid} {
		for i, m := range list {
			key := pathOf("expect", "popups", name, i)
			checkEventPhase(key.key("phase"), m.Phase, p)
			if m.URL != nil {
				checkDocument(key.key("url"), m.URL, p)
			}
		}
	}
}

// validateAttack refuses a pattern or place not in the catalogue, a tool
// place without its tool, a pattern that asks for a call without the call,
// and an address that is not an absolute http(s) URL or is given to a
// pattern that sends nothing.
func (sc Scenario) validateAttack(p *problems) {
	a := sc.Attack
	if a == nil {
		return
	}
	if !a.Pattern.Valid() {
		p.bad(pathOf("attack", "pattern"), "%q is not in the catalogue (%s)%s", a.Pattern, joinWords(vocab.AttackPatterns()), suggestion(string(a.Pattern), stringsOf(vocab.AttackPatterns()), ""))
	}
	if !a.In.Valid() {
		p.bad(pathOf("attack", "in"), "%q is not %s", a.In, joinWords(vocab.AttackPlaces()))
	}
	switch {
	case a.In.NamesTool() && a.Tool == "":
		p.bad(pathOf("attack", "tool"), "%s needs the tool whose %s carries the text", a.In, map[bool]string{true: "result", false: "description"}[a.In == vocab.PlantResult])
	case a.In == vocab.PlantPageText && a.Tool != "":
		p.bad(pathOf("attack", "tool"), "page_text is planted in the page, not in a tool: leave tool out")
	}
	needs := vocab.Attacks[a.Pattern].NeedsCall
	switch {
	case a.Pattern.Valid() && needs && a.Call == "":
		p.bad(pathOf("attack", "call"), "%s asks the agent to call a tool: name it (call: the tool)", a.Pattern)
	case a.Pattern.Valid() && !needs && a.Call != "":
		p.bad(pathOf("attack", "call"), "%s asks for no call: leave call out", a.Pattern)
	}
	if a.URL != "" {
		u, err := neturl.Parse(a.URL)
		switch {
		case a.Pattern != vocab.AttackExfiltrate:
			p.bad(pathOf("attack", "url"), "only exfiltrate sends data to an address")
		case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
			p.bad(pathOf("attack", "url"), "%q is not an absolute http(s) URL", a.URL)
		}
	}
}

// TaskCalls answers why tool cannot be the call an attack planted from
// outside (run --attack) asks for in sc, or "": a tool the scenario's own
// transcript calls is the task's, so every run that does the task would
// count as the attack's success. (A scenario's own attack: may name one:
// its known-bad transcript obeys the text, ATTACK-01.follows.)
func (sc Scenario) TaskCalls(tool string) string {
	i := slices.IndexFunc(sc.Agent.Calls, func(c Call) bool { return c.Tool == tool })
	if i < 0 {
		return ""
	}
	return fmt.Sprintf("%s is called by the scenario's own transcript (agent.calls[%d]): the task needs it, so every run that does the task would count as the attack's success; name a tool the task does not call", tool, i)
}

// checkEmbedder refuses an embedder expectation whose app is not an
// http(s) origin.
func checkEmbedder(x *EmbedderExpect, p *problems) {
	if x == nil {
		return
	}
	u, err := neturl.Parse(x.App)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		p.bad(pathOf("expect", "embedder", "app"), "%q is not an origin: write the app's scheme, host and port (http://127.0.0.1:8080)", x.App)
	}
}
