package judge

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// showsValue answers whether text shows a value of the app's state as that
// value, not as a piece of another word or number: the seats left 0 is not
// in "30 seats", and the title "Intro" is not in "Introduction" (issue 43
// item 5). A value's edge may not touch a letter or digit of the text; a
// number's, not a decimal point with a digit past it either ("8" is not in
// "8.5"). Scripts written without spaces (Han, kana, Hangul) have no such
// edges, so there a value is found as written.
func showsValue(text, value string, number bool) bool {
	if value == "" {
		return true
	}
	for from := 0; ; {
		i := strings.Index(text[from:], value)
		if i < 0 {
			return false
		}
		at := from + i
		before, after := text[:at], text[at+len(value):]
		first, _ := utf8.DecodeRuneInString(value)
		last, _ := utf8.DecodeLastRuneInString(value)
		prev, _ := utf8.DecodeLastRuneInString(before)
		next, _ := utf8.DecodeRuneInString(after)
		touches := (before != "" && wordRune(first) && wordRune(prev)) || (after != "" && wordRune(last) && wordRune(next))
		if number && !touches {
			touches = decimalPast(after) || decimalPast(reverse(before))
		}
		if !touches {
			return true
		}
		from = at + max(1, utf8.RuneLen(first))
	}
}

// wordRune is a letter or digit of a script written with spaces.
func wordRune(r rune) bool {
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
		return false
	}
	return !unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// decimalPast: s goes on with a decimal point and a digit.
func decimalPast(s string) bool {
	return len(s) >= 2 && (s[0] == '.' || s[0] == ',') && s[1] >= '0' && s[1] <= '9'
}

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// isNumber: a value of the state that is a JSON number.
func isNumber(v any) bool {
	_, ok := v.(float64)
	return ok
}
