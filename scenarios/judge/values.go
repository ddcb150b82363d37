package judge

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// showsValue answers whether text shows a value of the app's state as that
// value, not as a piece of another word or number: the seats left 0 is not
// in "30 seats", and the title "Intro" is not in "Introduction" (issue 43
// item 5). A number is found as a number among the text's numbers, however
// it is written: 12 in "$12.00", 12.5 in "12.50", 1234 in "1,234"; 8 is not
// in "8.5". Any other value's edges may not touch a letter or digit; in
// scripts written without spaces (Han, kana, Hangul) it is found as
// written.
func showsValue(text, value string, number bool) bool {
	if value == "" {
		return true
	}
	if number {
		if want, err := strconv.ParseFloat(value, 64); err == nil {
			return slices.ContainsFunc(numbersIn(text), func(n float64) bool { return n == want })
		}
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
		if !touches {
			return true
		}
		from = at + max(1, utf8.RuneLen(first))
	}
}

// numberToken is a number as a page writes it: digits grouped by commas
// (or not), a decimal part; its sign is read apart.
var (
	numberToken = regexp.MustCompile(`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?`)
	grouped     = regexp.MustCompile(`^\d{1,3}(,\d{3})+(\.\d+)?$`)
)

// numbersIn answers the numbers a text shows. A comma followed by three
// digits groups thousands; any other comma is a decimal one ("12,50"). A
// minus sign counts when no letter or digit stands before it ("-3", not
// the "-12" of "2026-12-01").
func numbersIn(text string) []float64 {
	var out []float64
	for _, at := range numberToken.FindAllStringIndex(text, -1) {
		tok := text[at[0]:at[1]]
		if grouped.MatchString(tok) {
			tok = strings.ReplaceAll(tok, ",", "")
		} else {
			tok = strings.Replace(tok, ",", ".", 1)
		}
		n, err := strconv.ParseFloat(tok, 64)
		if err != nil {
			continue
		}
		if before := text[:at[0]]; strings.HasSuffix(before, "-") {
			if prev, _ := utf8.DecodeLastRuneInString(strings.TrimSuffix(before, "-")); !unicode.IsLetter(prev) && !unicode.IsDigit(prev) {
				n = -n
			}
		}
		out = append(out, n)
	}
	return out
}

// wordRune is a letter or digit of a script written with spaces.
func wordRune(r rune) bool {
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
		return false
	}
	return !unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// isNumber: a value of the state that is a JSON number.
func isNumber(v any) bool {
	_, ok := v.(float64)
	return ok
}
