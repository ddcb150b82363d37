package scenarios

import (
	"strings"
	"testing"
)

// A prompt_data value may come from a reply of the person instead of the
// prompt; the person's replies and the transcript's asks are checked at
// their lines.
func TestUserRepliesAndAsksLoadAndAreChecked(t *testing.T) {
	answered := edit(t,
		"prompt: Register reader@example.com for me.\n", "prompt: Register me.\nuser:\n  - {says: 'Use reader@example.com.', when: email}\n",
		"  final: Please check and submit.\n", "  asks:\n    - {text: Which email should I use?}\n  final: Please check and submit.\n")
	sc, err := Parse(badName, []byte(answered))
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.User) != 1 || sc.User[0].When != "email" || len(sc.Agent.Asks) != 1 || sc.Agent.Asks[0].After != 0 {
		t.Fatalf("loaded user %+v, asks %+v", sc.User, sc.Agent.Asks)
	}
	for _, c := range []struct{ old, new, want, at string }{
		{"when: email}", "when: '(email'}", "user[0].when: \"(email\" is not a regular expression", "(email"},
		{"{text: Which email should I use?}", "{text: I will use your email.}", "agent.asks[0].text: \"I will use your email.\" asks nothing", "I will use"},
		{"{text: Which email should I use?}", "{after: 2, text: Which email?}", "agent.asks[0].after: 2, but the transcript makes 1 call(s)", "after: 2"},
		{"{says: 'Use reader@example.com.', when: email}", "{says: 'Use my usual one.', when: email}", "prompt_data.email: \"reader@example.com\" does not appear in the prompt, nor in a reply of user:", "prompt_data"},
	} {
		y := strings.Replace(answered, c.old, c.new, 1)
		_, err := Parse(badName, []byte(y))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), badName+lineOf(t, y, c.at)) {
			t.Errorf("%s → %s: %v", c.old, c.new, err)
		}
	}
}

// ReplyTo gives each reply once: the first not given whose when matches
// the question (case ignored); words that ask nothing get none.
func TestReplyToMatchesInOrderOrByTheQuestion(t *testing.T) {
	sc := Scenario{User: []Reply{{Says: "Online.", When: "city|online"}, {Says: "WebMCP."}, {Says: "Free."}}}
	var turns []Turn
	for _, q := range []string{"Which TOPIC?", "Which city, or Online?", "Any fee limit?", "Anything else?"} {
		turns = append(turns, sc.ReplyTo(turns, 0, q))
	}
	got := []int{turns[0].Reply, turns[1].Reply, turns[2].Reply, turns[3].Reply}
	if got[0] != 1 || got[1] != 0 || got[2] != 2 || got[3] != -1 || turns[1].Says != "Online." {
		t.Fatalf("replies %v (%+v)", got, turns)
	}
	if tr := sc.ReplyTo(nil, 0, "Done."); tr.Answered() {
		t.Fatalf("words that ask nothing got %+v", tr)
	}
}
