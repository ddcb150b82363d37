package scenarios

import (
	"regexp"
	"strings"
)

// Reply is one of the person's answers to the agent (the scenario's
// user: list). The agent's question gets the first reply not given yet
// whose when matches it; a reply without when matches any question, so
// replies without when are given in order.
type Reply struct {
	// What the person answers, word for word.
	Says string `yaml:"says" json:"says" jsonschema:"required" examples:"['My name is 測試讀者, email reader@example.com.']"`
	// A regular expression (RE2, case ignored) the agent's question must
	// match for this reply: a reply keyed by what the agent asked.
	When string `yaml:"when,omitempty" json:"when,omitempty" examples:"['name|email', 'topic']"`
}

// Ask is a question the agent put to the person in a transcript, before
// its further calls: the person's reply to it is looked up in user: as a
// live agent's question is.
type Ask struct {
	// How many of the transcript's calls the agent made before it asked
	// (0: before the first).
	After int `yaml:"after,omitempty" json:"after,omitempty" examples:"[0]"`
	// The agent's words to the person.
	Text string `yaml:"text" json:"text" jsonschema:"required" examples:"['What name and email should I put on the registration?']"`
}

// Turn is one turn of the dialogue a run recorded: the agent's question
// and the person's reply to it, or none (the dialogue ended there).
type Turn struct {
	AfterCalls int    `json:"afterCalls"` // the agent's calls made before the question
	Asked      string `json:"asked"`
	// Reply is the index in user: of the reply given; -1 when none fitted,
	// and the dialogue ended with the question.
	Reply int    `json:"reply"`
	Says  string `json:"says,omitempty"`
}

// Answered tells whether the person replied in this turn.
func (t Turn) Answered() bool { return t.Reply >= 0 }

// IsQuestion tells whether an agent's words ask the person something: they
// hold a question mark (also the full-width one). Only a question gets a
// reply; other words of the agent are its final words.
func IsQuestion(words string) bool { return strings.ContainsAny(words, "?？") }

// ReplyTo answers the turn of a question asked after calls calls: the
// first reply of user: not among the turns before whose when matches the
// question, or Reply -1 when none does (or the words are no question).
func (sc Scenario) ReplyTo(before []Turn, calls int, asked string) Turn {
	t := Turn{AfterCalls: calls, Asked: asked, Reply: -1}
	if !IsQuestion(asked) {
		return t
	}
	given := map[int]bool{}
	for _, b := range before {
		given[b.Reply] = true
	}
	for i, r := range sc.User {
		if given[i] {
			continue
		}
		if r.When != "" {
			re, err := regexp.Compile("(?i)" + r.When)
			if err != nil || !re.MatchString(asked) {
				continue
			}
		}
		t.Reply, t.Says = i, r.Says
		return t
	}
	return t
}

// validateDialogue checks user: and agent.asks.
func (sc Scenario) validateDialogue(p *problems) {
	for i, r := range sc.User {
		at := pathOf("user", i)
		if strings.TrimSpace(r.Says) == "" {
			p.bad(at.key("says"), "missing: what the person answers")
		}
		if r.When != "" {
			if _, err := regexp.Compile("(?i)" + r.When); err != nil {
				p.bad(at.key("when"), "%q is not a regular expression Go's RE2 reads: %v", r.When, err)
			}
		}
	}
	last := 0
	for i, a := range sc.Agent.Asks {
		at := pathOf("agent", "asks", i)
		switch {
		case strings.TrimSpace(a.Text) == "":
			p.bad(at.key("text"), "missing: the agent's question")
		case !IsQuestion(a.Text):
			p.bad(at.key("text"), "%q asks nothing (no question mark): the person answers only a question", a.Text)
		}
		switch {
		case a.After < last:
			p.bad(at.key("after"), "%d comes before the question above it (after %d): asks are in the order asked", a.After, last)
		case a.After > len(sc.Agent.Calls):
			p.bad(at.key("after"), "%d, but the transcript makes %d call(s)", a.After, len(sc.Agent.Calls))
		}
		last = max(last, a.After)
	}
}

// givenByReply tells whether a value is said in one of the person's replies.
func (sc Scenario) givenByReply(words string) bool {
	for _, r := range sc.User {
		if containsFold(r.Says, words) {
			return true
		}
	}
	return false
}
