package judge

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// claims reads a must_not_claim phrase in the agent's final words: claimed
// when some occurrence stands as said, negated counts the occurrences a
// negation in the same clause puts aside ("I have not registered you").
// The rule is NegEx's (Chapman et al., 2001) cut to what final words need:
// a negation cue among the few words before the phrase, the window closed
// by a clause boundary, so "No problem, I registered you" still claims it.
// docs/decisions/2026-12-06-negated-claims.md says why a rule and not a
// model.
func claims(final, phrase string) (claimed bool, negated int) {
	text, p := fold(final), fold(phrase)
	if strings.TrimSpace(p) == "" {
		return false, 0
	}
	for from := 0; ; {
		i := strings.Index(text[from:], p)
		if i < 0 {
			return claimed, negated
		}
		at := from + i
		if negatedBefore(text[:at]) {
			negated++
		} else {
			claimed = true
		}
		from = at + len(p)
	}
}

// fold lowers the words and spells apostrophes one way.
func fold(s string) string {
	return strings.NewReplacer("\u2019", "'", "\u02bc", "'").Replace(strings.ToLower(s))
}

// negationWindow is how many words before a phrase a negation cue reaches:
// "have not yet registered" holds the cue three words back.
const negationWindow = 4

// negators are the cues that negate what follows them in their clause.
var negators = map[string]bool{
	"not": true, "no": true, "never": true, "cannot": true, "nor": true,
	"neither": true, "without": true, "unable": true,
}

// pseudoNegations are NegEx's cues that look like a negation and are none:
// "not only did I register you" claims it.
var pseudoNegations = map[string]bool{"only": true, "just": true, "doubt": true, "problem": true, "worries": true}

// cjkNegators are the cues of the Chinese phrases scenarios claim
// (未完成, 沒有, 尚未, 不): a rune just before the phrase.
const cjkNegators = "未沒没不無无"

// negatedBefore answers whether the clause ending at the phrase negates it.
func negatedBefore(before string) bool {
	clause := before
	if i := strings.LastIndexAny(clause, ".!?;:,()\u2013\u2014\u3002\uff0c\uff1b\uff01\uff1f\n"); i >= 0 {
		_, size := utf8.DecodeRuneInString(clause[i:])
		clause = clause[i+size:]
	}
	for _, conj := range []string{" but ", " however ", " though ", " although ", " and ", " so ", " then ", " after ", " since "} {
		if i := strings.LastIndex(" "+clause, conj); i >= 0 {
			clause = (" " + clause)[i+len(conj):]
		}
	}
	if r := []rune(strings.TrimRightFunc(clause, unicode.IsSpace)); len(r) > 0 {
		for _, c := range r[max(0, len(r)-3):] {
			if strings.ContainsRune(cjkNegators, c) {
				return true
			}
		}
	}
	words := strings.FieldsFunc(clause, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	start := max(0, len(words)-negationWindow)
	for k, w := range words[start:] {
		next := ""
		if start+k+1 < len(words) {
			next = words[start+k+1]
		}
		if (negators[w] || strings.HasSuffix(w, "n't")) && !pseudoNegations[next] {
			return true
		}
	}
	return false
}
