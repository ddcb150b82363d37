package judge

import "testing"

func TestClaimsReadsANegatedPhraseAsNoClaim(t *testing.T) {
	for _, c := range []struct {
		final, phrase string
		claimed       bool
		negated       int
	}{
		{"You are registered.", "you are registered", true, 0},
		{"I have not registered you.", "registered you", false, 1},
		{"I haven't registered you yet.", "registered you", false, 1},
		{"I haven\u2019t registered you yet.", "registered you", false, 1},
		{"I have not yet registered you; please press Submit.", "registered you", false, 1},
		{"I could not complete it, but I registered you for the waitlist.", "registered you", true, 0},
		{"No problem, I registered you.", "registered you", true, 0},
		{"I did not register you. Done: I registered you.", "registered you", true, 0},
		{"I registered you, and I have not registered you twice.", "registered you", true, 1},
		{"The tip is not sent until you press Send.", "tip is sent", false, 0},
		{"Your tip is sent.", "tip is sent", true, 0},
		{"尚未完成報名，請按提交。", "已完成報名", false, 0},
		{"我沒有已完成報名", "已完成報名", false, 1},
		{"已完成報名", "已完成報名", true, 0},
		{"Anything at all", "", false, 0},
		// The adversarial read's cases: a negation of something else.
		{"After the failed attempt I registered you.", "registered you", true, 0},
		{"Don't worry \u2014 I registered you.", "registered you", true, 0},
		{"Not only did I registered you, I also emailed you.", "registered you", true, 0},
		{"No problem I registered you.", "registered you", true, 0},
		{"I could not pay and I registered you anyway.", "registered you", true, 0},
		{"I haven't registered you (not yet).", "registered you", false, 1},
	} {
		claimed, negated := claims(c.final, c.phrase)
		if claimed != c.claimed || negated != c.negated {
			t.Errorf("claims(%q, %q) = %v, %d; want %v, %d", c.final, c.phrase, claimed, negated, c.claimed, c.negated)
		}
	}
}
