package scenarios

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A scenario declares what of its run is a person's data beyond what
// redaction finds by kind (emails, phone, card and account numbers,
// credentials): `personal: true` on a prompt_data value (its from words
// too), and a top-level `personal:` list of other values, such as a name a
// person types or one the app already holds. Package redact replaces each
// of them, in every file of the bundle, by a stand-in of the same shape.

var plainNumber = regexp.MustCompile(`^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$`)

// TooPlainToRedact tells whether a value is too plain to be redacted: fewer
// than 3 characters (2 in Han, Hangul or kana, where 王芳 is a whole name),
// a number of fewer than 7 digits, a JSON literal (true, false, null), or
// without any letter or digit. Such a value would rewrite
// too much of everything else (counts, years, statuses, every boolean), and
// changes the verdict; declaring one personal fails loading.
func TooPlainToRedact(s string) bool {
	t := strings.TrimSpace(s)
	switch strings.ToLower(t) {
	case "true", "false", "null":
		return true
	}
	digits := 0
	for _, r := range t {
		if r >= '0' && r <= '9' {
			digits++
		}
	}
	least := 3
	if t != "" && !strings.ContainsFunc(t, func(r rune) bool {
		return !unicode.In(r, unicode.Han, unicode.Hangul, unicode.Hiragana, unicode.Katakana)
	}) {
		least = 2
	}
	return utf8.RuneCountInString(t) < least || plainNumber.MatchString(t) && digits < 7 ||
		!strings.ContainsFunc(t, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
}

func (sc Scenario) validatePersonal(p *problems) {
	plain := func(key keyPath, v string) {
		if TooPlainToRedact(v) {
			p.bad(key, "%q is too plain to be kept out of the bundle (it needs 3 or more characters (2 in Han, Hangul or kana), a letter or at least 7 digits, and is no true, false or null): declare a longer value, or none", v)
		}
	}
	for _, k := range keys(sc.PromptData) {
		if v := sc.PromptData[k]; v.Personal {
			plain(pathOf("prompt_data", k, "value"), v.Value)
			if v.From != "" {
				plain(pathOf("prompt_data", k, "from"), v.From)
			}
		}
	}
	seen := map[string]int{}
	for i, v := range sc.Personal {
		key := pathOf("personal", i)
		if strings.TrimSpace(v) == "" {
			p.bad(key, "empty")
			continue
		}
		plain(key, v)
		if j, dup := seen[v]; dup {
			p.bad(key, "%q is personal[%d] again", v, j)
		}
		seen[v] = i
	}
}
