package redact

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// The patterns of the kinds found anywhere in a string: phone numbers, card
// numbers and IBANs. Every match must also stand alone (see standsAlone): a
// number glued to letters, digits or a longer dotted or dashed number (a
// version, an IP address, a date, a hash) is not one of them.

// rule finds one kind of number: a regexp, and a check of what it found.
type rule struct {
	re    *regexp.Regexp
	check func(string) bool
}

// find answers the matches of the rule in s[lo:hi] that stand alone in s
// and pass its check.
func (r rule) find(s string, lo, hi int) []string { return findAlone(r.re, s, lo, hi, r.check) }

// Phone numbers. A plain run of digits ("5551234567") is no phone here: it
// could be any number; declared personal it is hidden all the same. Nor is
// a local number without its area code ("123-4567").
var phoneRules = []rule{
	// International: + and the country code, then groups separated by
	// spaces, dashes or dots, perhaps an area code in parentheses:
	// +1 555 123 4567, +44 20 7946 0958, +49-30-1234567, +44 (0)20 7946 0958,
	// +1 (555) 123-4567, or all digits: +4930123456.
	{regexp.MustCompile(`\+\d{7,15}|\+\d{1,3}(?:[-. ]?\(\d{1,4}\))?[-. ]?\d{1,12}(?:[-. ]\d{1,12}){0,5}`),
		func(s string) bool { return between(digitCount(s), 8, 15) && !dateRE.MatchString(s) }},
	// North American: 555-123-4567, 555.123.4567, 555 123 4567 (one
	// separator throughout), (555) 123-4567, (555)123-4567, 1-800-555-0199.
	{regexp.MustCompile(`(?:1[-. ])?\(\d{3}\)[-. ]?\d{3}[-. ]\d{4}|(?:1[-. ])?\d{3}[-. ]\d{3}[-. ]\d{4}`),
		func(s string) bool { return strings.Contains(s, "(") || oneSeparator(s) }},
	// National with a trunk 0, one separator throughout, 10 or 11 digits:
	// 020 7946 0958, 030-1234567, 06 12 34 56 78; or the area code in
	// parentheses: (020) 7946 0958.
	{regexp.MustCompile(`0\d{1,4}(?:[-. ]\d{2,8}){1,4}|\(0\d{1,4}\)[-. ]?\d{3,4}[-. ]?\d{3,4}`),
		func(s string) bool {
			return between(digitCount(s), 10, 11) && (strings.Contains(s, "(") || oneSeparator(s))
		}},
}

var (
	// dateRE is an ISO date: a "+1 2026-03-14" is no phone.
	dateRE = regexp.MustCompile(`(?:19|20)\d\d-[01]\d-[0-3]\d`)
	// cardRE finds card-like numbers: 13 to 19 digits, whole or in groups of
	// 4 (4-6-5 and 4-6-4 for Amex and Diners) separated by one space or
	// dash; isCard then asks for a card's first digits and the Luhn check.
	cardRE = regexp.MustCompile(`\d{4}[ -]\d{4}[ -]\d{4}[ -]\d{4}(?:[ -]\d{3})?|\d{4}[ -]\d{6}[ -]\d{4,5}|\d{13,19}`)
	// ibanRE finds IBAN-like strings: a country code, 2 check digits, then
	// up to 30 letters and digits, whole or in groups of 4; isIBAN then asks
	// for the country's length and the mod-97 check.
	ibanRE = regexp.MustCompile(`(?i)[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,3})?`)
)

// findNumbers finds the phone, card and IBAN numbers in s. The patterns run
// only where such a number can be: phones and cards in runs of digits and
// the characters they are written with, IBANs from a country code followed
// by two digits.
func findNumbers(s string, add func(secret string, kind Kind)) {
	for i := 0; i < len(s); {
		if !numberChar(s[i]) {
			i++
			continue
		}
		lo, digits := i, 0
		for ; i < len(s) && numberChar(s[i]); i++ {
			if isDigit(s[i]) {
				digits++
			}
		}
		if digits < 8 { // the fewest a phone has
			continue
		}
		for _, r := range phoneRules {
			for _, m := range r.find(s, lo, i) {
				add(m, Phone)
			}
		}
		if digits >= 13 {
			for _, m := range findAlone(cardRE, s, lo, i, isCard) {
				add(m, Card)
			}
		}
	}
	for i := 0; i+4 <= len(s); i++ {
		if isLetter(s[i]) && isLetter(s[i+1]) && isDigit(s[i+2]) && isDigit(s[i+3]) && (i == 0 || !wordChar(s[i-1])) {
			for _, m := range findAlone(ibanRE, s, i, min(len(s), i+45), isIBAN) {
				add(m, IBAN)
			}
		}
	}
}

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// numberChar tells whether c can be part of a written phone or card number.
func numberChar(c byte) bool { return isDigit(c) || strings.IndexByte(" .-+()", c) >= 0 }

func wordChar(c byte) bool { return isDigit(c) || isLetter(c) || c == '_' }

// findAlone finds the matches of re in s[lo:hi] that stand alone in s and
// pass check. A match that does not is given up, and the search goes on
// from its second character, so that nothing inside a longer number is
// taken either.
func findAlone(re *regexp.Regexp, s string, lo, hi int, check func(string) bool) []string {
	var out []string
	for i := lo; i < hi; {
		loc := re.FindStringIndex(s[i:hi])
		if loc == nil {
			break
		}
		a, b := i+loc[0], i+loc[1]
		if standsAlone(s, a, b) && check(s[a:b]) {
			out = append(out, s[a:b])
			i = b
			continue
		}
		_, size := utf8.DecodeRuneInString(s[a:])
		i = a + max(size, 1)
	}
	return out
}

// standsAlone tells whether s[a:b] is a token of its own: not glued to a
// letter, digit or underscore, nor part of a longer number written with dots,
// dashes or a leading + (a version, an IP address, a date, a dashed id), nor,
// when it is written with spaces, one more group of digits in a row of them.
func standsAlone(s string, a, b int) bool {
	seps := ".-"
	if strings.Contains(s[a:b], " ") {
		seps = ".- "
	}
	if a > 0 {
		p := s[a-1]
		if wordChar(p) || p == '+' || strings.IndexByte(seps, p) >= 0 && a > 1 && isDigit(s[a-2]) {
			return false
		}
	}
	if b < len(s) {
		n := s[b]
		if wordChar(n) || (n == '+' || strings.IndexByte(seps, n) >= 0) && b+1 < len(s) && isDigit(s[b+1]) {
			return false
		}
	}
	return true
}

func digitCount(s string) int {
	n := 0
	for i := range len(s) {
		if isDigit(s[i]) {
			n++
		}
	}
	return n
}

func between(n, lo, hi int) bool { return n >= lo && n <= hi }

// oneSeparator tells whether the groups of digits of s are separated by one
// and the same character throughout.
func oneSeparator(s string) bool {
	var sep rune
	for _, r := range s {
		if r >= '0' && r <= '9' {
			continue
		}
		if sep != 0 && r != sep {
			return false
		}
		sep = r
	}
	return true
}

// isCard: 13 to 19 digits, one separator throughout, a card network's first
// digits (3 to 6, or 2221 to 2720), and the Luhn check digit. A timestamp
// in milliseconds or nanoseconds starts with 1 and is never taken.
func isCard(s string) bool {
	if !oneSeparator(s) {
		return false
	}
	d := digitsOf(s)
	if !between(len(d), 13, 19) {
		return false
	}
	switch {
	case d[0] >= '3' && d[0] <= '6':
	case d[0] == '2' && d[:4] >= "2221" && d[:4] <= "2720":
	default:
		return false
	}
	return luhnSum(d)%10 == 0
}

// luhnSum is the Luhn sum of a string of digits, its last digit the check
// digit.
func luhnSum(d string) int {
	sum := 0
	for i := range len(d) {
		n := int(d[len(d)-1-i] - '0')
		if i%2 == 1 {
			if n *= 2; n > 9 {
				n -= 9
			}
		}
		sum += n
	}
	return sum
}

func digitsOf(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// ibanLength is the length of an IBAN, by country (the SWIFT IBAN registry).
var ibanLength = map[string]int{
	"AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BI": 27,
	"BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27, "DK": 18, "DO": 28,
	"EE": 20, "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23,
	"GL": 18, "GR": 27, "GT": 28, "HN": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26,
	"IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21,
	"LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28,
	"NL": 18, "NO": 15, "OM": 23, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22,
	"RU": 33, "SA": 24, "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25,
	"SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
}

// isIBAN: the country's length, then the mod-97 check (ISO 13616).
func isIBAN(s string) bool {
	s = strings.ToUpper(strings.ReplaceAll(s, " ", ""))
	if n, ok := ibanLength[s[:2]]; !ok || len(s) != n {
		return false
	}
	rem, ok := ibanRemainder(s[4:] + s[:4])
	return ok && rem == 1
}

// ibanRemainder is the mod-97 remainder of an IBAN's characters in the order
// given, letters as 10 to 35: the first four moved to the end, a valid IBAN
// leaves 1.
func ibanRemainder(s string) (int, bool) {
	rem := 0
	for _, c := range strings.ToUpper(s) {
		switch {
		case c >= '0' && c <= '9':
			rem = (rem*10 + int(c-'0')) % 97
		case c >= 'A' && c <= 'Z':
			rem = (rem*100 + int(c-'A') + 10) % 97
		default:
			return 0, false
		}
	}
	return rem, true
}
