package bundle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/agentready/agentready/scenarios"
)

// Redaction replaces personal data and credentials by stable placeholders in
// every byte the bundle holds. The same value always becomes the same
// placeholder, so the judge, which runs on the redacted record, still sees
// that the tool input equals the prompt's value: equality survives a
// consistent substitution. Values that differ only in case get placeholders
// that differ only in case, so that the judge's case-insensitive checks
// (must_mention, must_not_claim) keep their answers too.
//
// What is hidden:
//   - every value of the scenario's prompt_data, and its from words (see
//     NewRedaction), in any case;
//   - personal tool input (by parameter name) and what a person's steps type;
//   - email addresses, phone numbers, card numbers and IBANs found anywhere
//     in a string value (phoneRules, cardRE, ibanRE);
//   - the reference app's tokens, and credential headers and cookies.
//
// Only string values change, never keys or numbers, nor the record's own
// times (see Apply); a value under minSecret characters, or a number of
// fewer than minDigits digits, is never hidden. The patterns leave alone
// what only looks like a number of theirs: ISO dates and times, versions,
// IP addresses, request ids such as 1000.7, ports, statuses, hashes and
// other ids glued to letters (redact_test.go keeps a list).
type Redaction struct {
	pairs []pair // secret → placeholder, longest secret first
	plain *strings.Replacer
	// encoded finds secrets written with any mix of literal characters,
	// %XX escapes and + for a space, as a URL or a form may hold them (a
	// HAR decodes a query string, so no spelling of a secret may survive
	// there); by the set of secrets it looks for (see encodedRE).
	mu      sync.Mutex
	encoded map[string]*regexp.Regexp
}

type pair struct{ secret, placeholder string }

// rule finds one kind of number: a regexp, and a check of what it found.
type rule struct {
	re    *regexp.Regexp
	check func(string) bool
}

// find answers the matches of the rule in s[lo:hi] that stand alone in s
// and pass its check.
func (r rule) find(s string, lo, hi int) []string { return findAlone(r.re, s, lo, hi, r.check) }

var (
	emailRE = regexp.MustCompile(`[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}`)
	// The reference app's session ids, CSRF tokens and intent ids; a user's
	// app is covered by the header and cookie rules below.
	tokenRE = regexp.MustCompile(`\b(?:s|c|int)_[0-9a-f]{32}\b`)
	// Input parameters that hold personal data, by name.
	personalKey = regexp.MustCompile(`(?i)(name|email|e-mail|phone|mobile|address|birth|passport|card|iban)`)
	// Headers whose values are credentials.
	secretHeaders = []string{"cookie", "set-cookie", "authorization", "x-csrf-token", "proxy-authorization"}
)

// Phone numbers, found anywhere in a string. Each rule is a regexp and a
// check of what it found; every match must also stand alone (see
// standsAlone): a number glued to letters, digits or a longer dotted or
// dashed number (a version, an IP address, a date, a hash) is not a phone.
// A plain run of digits ("5551234567") is no phone here: it could be any
// number; as a prompt_data value or a phone parameter it is hidden all the
// same. Nor is a local number without its area code ("123-4567").
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
	// numberRE is a plain decimal number.
	numberRE = regexp.MustCompile(`^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$`)
)

// Kinds of secret, most telling first: a value found as two kinds is named
// by the first.
var kinds = []string{"credential", "token", "email", "card", "iban", "phone", "name", "personal"}

// NewRedaction finds the values to hide, wherever they appear in the
// scenario and the evidence: the prompt's data, personal tool input, what a
// person typed, email addresses, phone, card and IBAN numbers, tokens and
// credential headers.
//
// prompt_data: every value is hidden, whatever its parameter, and so are its
// from words, which are the prompt's own words for the value: when they say
// it differently ("17 May 1990" for 1990-05-17), hiding the value alone would
// leave it in the prompt. Both are hidden in every case in which they appear
// (the prompt may give them in any case), each case by its own placeholder.
// An expectation that quotes part of them makes Seal refuse the record.
func NewRedaction(sc scenarios.Scenario, ev *scenarios.Evidence) (*Redaction, error) {
	found := map[string]string{} // secret → kind
	add := func(secret, kind string) {
		if old, ok := found[secret]; !ok || slices.Index(kinds, kind) < slices.Index(kinds, old) {
			found[secret] = kind
		}
	}
	// Each prompt_data text, to be found again in any case.
	type listed struct {
		re          *regexp.Regexp
		lower, kind string
	}
	var data []listed
	for _, k := range slices.Sorted(maps.Keys(sc.PromptData)) {
		pv := sc.PromptData[k]
		for _, v := range []string{pv.Value, pv.From} {
			if tooPlain(v) {
				continue
			}
			kind := kindOf(k, v)
			add(v, kind)
			data = append(data, listed{regexp.MustCompile(`(?i)` + regexp.QuoteMeta(v)), strings.ToLower(v), kind})
		}
	}
	addInput := func(in map[string]any) {
		for k, v := range in {
			if s, ok := v.(string); ok && s != "" && personalKey.MatchString(k) {
				add(s, kindOf(k, s))
			}
		}
	}
	for _, c := range sc.Agent.Calls {
		addInput(c.Input)
	}
	for _, steps := range [][]scenarios.Step{sc.Setup, sc.Human} {
		for _, s := range steps {
			if s.Call != nil {
				addInput(s.Call.Input)
			}
			for sel, v := range s.Fill {
				// What a person types is personal unless shown otherwise.
				add(v, kindOf(sel, v))
			}
		}
	}
	if ev != nil {
		for _, c := range ev.Calls {
			addInput(c.Call.Input)
		}
		for _, r := range ev.Requests {
			for _, h := range []map[string]string{r.RequestHeaders, r.ResponseHeaders} {
				for k, v := range h {
					if slices.Contains(secretHeaders, strings.ToLower(k)) {
						for _, part := range credentialParts(k, v) {
							add(part, "credential")
						}
					}
				}
			}
		}
	}
	all, err := json.Marshal(struct {
		S scenarios.Scenario
		E *scenarios.Evidence
	}{sc, ev})
	if err != nil {
		return nil, err
	}
	// Look in the decoded strings, not in the JSON text, where an escape
	// such as \u003c would glue itself to a match; and in each string as a
	// URL, a form or a page would decode it, where a HAR or a reader sees it.
	var doc any
	if err := json.Unmarshal(all, &doc); err != nil {
		return nil, err
	}
	walkStrings(doc, func(s string) {
		for _, d := range decodings(s) {
			if strings.Contains(d, "@") {
				for _, m := range emailRE.FindAllString(d, -1) {
					add(m, "email")
				}
			}
			if strings.Contains(d, "_") {
				for _, m := range tokenRE.FindAllString(d, -1) {
					add(m, "token")
				}
			}
			findNumbers(d, add)
			if len(data) > 0 {
				lower := strings.ToLower(d)
				for _, l := range data {
					if strings.Contains(lower, l.lower) {
						for _, m := range l.re.FindAllString(d, -1) {
							add(m, l.kind)
						}
					}
				}
			}
		}
	})
	return newRedaction(found), nil
}

func kindOf(key, value string) string {
	nums := map[string]bool{}
	findNumbers(value, func(_, kind string) { nums[kind] = true })
	switch {
	case emailRE.MatchString(value):
		return "email"
	case nums["card"]:
		return "card"
	case nums["iban"]:
		return "iban"
	case nums["phone"] || strings.Contains(strings.ToLower(key), "phone"):
		return "phone"
	case strings.Contains(strings.ToLower(key), "name"):
		return "name"
	}
	return "personal"
}

// findNumbers finds the phone, card and IBAN numbers in s. The patterns run
// only where such a number can be: phones and cards in runs of digits and
// the characters they are written with, IBANs from a country code followed
// by two digits.
func findNumbers(s string, add func(secret, kind string)) {
	for i := 0; i < len(s); {
		if !numberChar(s[i]) {
			i++
			continue
		}
		lo, digits := i, 0
		for ; i < len(s) && numberChar(s[i]); i++ {
			if s[i] >= '0' && s[i] <= '9' {
				digits++
			}
		}
		if digits < 8 { // the fewest a phone has
			continue
		}
		for _, r := range phoneRules {
			for _, m := range r.find(s, lo, i) {
				add(m, "phone")
			}
		}
		if digits >= 13 {
			for _, m := range findAlone(cardRE, s, lo, i, isCard) {
				add(m, "card")
			}
		}
	}
	letter := func(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
	digit := func(c byte) bool { return c >= '0' && c <= '9' }
	for i := 0; i+4 <= len(s); i++ {
		if letter(s[i]) && letter(s[i+1]) && digit(s[i+2]) && digit(s[i+3]) && (i == 0 || !wordChar(s[i-1])) {
			for _, m := range findAlone(ibanRE, s, i, min(len(s), i+45), isIBAN) {
				add(m, "iban")
			}
		}
	}
}

// numberChar tells whether c can be part of a written phone or card number.
func numberChar(c byte) bool { return c >= '0' && c <= '9' || strings.IndexByte(" .-+()", c) >= 0 }

func wordChar(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_'
}

// decodings are s and what it reads as once decoded as a URL (with + as
// itself, as in a path, and as a space, as in a query or a form) or as
// HTML, when that differs.
func decodings(s string) []string {
	out := []string{s}
	try := func(d string) {
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	if strings.Contains(s, "%") {
		try(unescape(s, false))
	}
	// + is a space in a query or a form only: "ann+1@example.org" is no
	// "ann 1@example.org".
	if strings.ContainsAny(s, "%=") && strings.Contains(s, "+") {
		try(unescape(s, true))
	}
	if strings.Contains(s, "&") {
		try(html.UnescapeString(s))
	}
	return out
}

// unescape decodes the %XX escapes of s, in either case of hex, and + as a
// space when plus is set; unlike url.QueryUnescape, it leaves a % that
// starts no escape as it is ("50% off"), so that one stray % hides nothing.
func unescape(s string, plus bool) string {
	unhex := func(c byte) (byte, bool) {
		switch {
		case c >= '0' && c <= '9':
			return c - '0', true
		case c >= 'a' && c <= 'f':
			return c - 'a' + 10, true
		case c >= 'A' && c <= 'F':
			return c - 'A' + 10, true
		}
		return 0, false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%' && i+2 < len(s):
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if ok1 && ok2 {
				b.WriteByte(hi<<4 | lo)
				i += 2
			} else {
				b.WriteByte(c)
			}
		case c == '+' && plus:
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

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
	digit := func(c byte) bool { return c >= '0' && c <= '9' }
	seps := ".-"
	if strings.Contains(s[a:b], " ") {
		seps = ".- "
	}
	if a > 0 {
		p := s[a-1]
		if wordChar(p) || p == '+' || strings.IndexByte(seps, p) >= 0 && a > 1 && digit(s[a-2]) {
			return false
		}
	}
	if b < len(s) {
		n := s[b]
		if wordChar(n) || (n == '+' || strings.IndexByte(seps, n) >= 0) && b+1 < len(s) && digit(s[b+1]) {
			return false
		}
	}
	return true
}

func digitCount(s string) int {
	n := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
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
	return sum%10 == 0
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

// isIBAN: the country's length, then the mod-97 check (ISO 13616): the first
// four characters moved to the end, letters as 10 to 35, the whole number
// leaves 1 divided by 97.
func isIBAN(s string) bool {
	s = strings.ToUpper(strings.ReplaceAll(s, " ", ""))
	if n, ok := ibanLength[s[:2]]; !ok || len(s) != n {
		return false
	}
	rem := 0
	for _, c := range s[4:] + s[:4] {
		switch {
		case c >= '0' && c <= '9':
			rem = (rem*10 + int(c-'0')) % 97
		case c >= 'A' && c <= 'Z':
			rem = (rem*100 + int(c-'A') + 10) % 97
		default:
			return false
		}
	}
	return rem == 1
}

// credentialParts splits a credential header into the values to hide: each
// cookie's value, or the credential of the others.
func credentialParts(name, value string) []string {
	var out []string
	keep := func(v string) {
		if v = strings.TrimSpace(v); len(v) >= 4 {
			out = append(out, v)
		}
	}
	switch strings.ToLower(name) {
	case "cookie":
		for _, c := range strings.Split(value, ";") {
			if _, v, ok := strings.Cut(c, "="); ok {
				keep(v)
			}
		}
	case "set-cookie":
		for _, line := range strings.Split(value, "\n") {
			first, _, _ := strings.Cut(line, ";") // what follows are attributes, not secrets
			if _, v, ok := strings.Cut(first, "="); ok {
				keep(v)
			}
		}
	case "authorization", "proxy-authorization":
		if _, cred, ok := strings.Cut(value, " "); ok {
			keep(cred)
		}
		keep(value)
	default:
		keep(value)
	}
	return out
}

// minSecret is the shortest value worth hiding, and minDigits the fewest
// digits of a number worth hiding: shorter ones (a count, a fee, a year, a
// port, a status) would match too much of everything else. A phone or card
// number written as plain digits has more.
const (
	minSecret = 3
	minDigits = 7
)

// tooPlain tells whether a value is too short, too plain a number, or a
// JSON literal to hide. A prompt_data value true (a ticked box) is no one's
// secret, and hiding it would rewrite every boolean of every JSON body the
// record holds, which changes the verdict.
func tooPlain(s string) bool {
	t := strings.TrimSpace(s)
	switch strings.ToLower(t) {
	case "true", "false", "null":
		return true
	}
	return utf8.RuneCountInString(t) < minSecret || numberRE.MatchString(t) && digitCount(t) < minDigits
}

// newRedaction numbers the placeholders in sorted order of the secrets, so
// that the same record always redacts to the same bytes. Secrets that differ
// only in case share a number and differ in the case of their placeholder.
func newRedaction(found map[string]string) *Redaction {
	secrets := slices.DeleteFunc(slices.Sorted(maps.Keys(found)), tooPlain)
	// Number within each kind in the same width, so that no placeholder is
	// the start of another (REDACTED-PHONE-1 of REDACTED-PHONE-10).
	groups := map[string]int{} // kind → how many values, whatever their case
	seen := map[string]bool{}
	for _, s := range secrets {
		if f := strings.ToLower(s); !seen[f] {
			seen[f] = true
			groups[found[s]]++
		}
	}
	counts := map[string]int{}
	base := map[string]string{} // folded secret → its placeholder
	variants := map[string]int{}
	r := &Redaction{}
	for _, s := range secrets {
		f := strings.ToLower(s)
		p, ok := base[f]
		if !ok {
			kind := found[s]
			counts[kind]++
			p = fmt.Sprintf("REDACTED-%s-%0*d", strings.ToUpper(kind), len(fmt.Sprint(groups[kind])), counts[kind])
			base[f] = p
		} else {
			variants[f]++
			p = caseVariant(p, variants[f])
		}
		r.pairs = append(r.pairs, pair{s, p})
	}
	// Longest first, so that a secret inside another does not split it.
	slices.SortStableFunc(r.pairs, func(a, b pair) int { return len(b.secret) - len(a.secret) })

	// At each position the longest form wins: strings.Replacer tries its
	// pairs in order.
	type formPair struct{ form, placeholder string }
	var all []formPair
	for _, p := range r.pairs {
		for _, f := range forms(p.secret) {
			all = append(all, formPair{f, p.placeholder})
		}
	}
	slices.SortStableFunc(all, func(a, b formPair) int { return len(b.form) - len(a.form) })
	var args []string
	seen = map[string]bool{}
	for _, fp := range all {
		if !seen[fp.form] {
			seen[fp.form] = true
			args = append(args, fp.form, fp.placeholder)
		}
	}
	r.plain = strings.NewReplacer(args...)
	r.encoded = map[string]*regexp.Regexp{}
	return r
}

// caseVariant is placeholder p with its letters in another case, by the bits
// of n: the nth other case of a secret gets the nth variant of its
// placeholder, equal to it but for case.
func caseVariant(p string, n int) string {
	b := []byte(p)
	bit := 0
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			if n&(1<<bit) != 0 {
				b[i] = c + 'a' - 'A'
			}
			bit++
		}
	}
	if n >= 1<<bit {
		return fmt.Sprintf("%s-%d", p, n) // more cases than letters: never met
	}
	return string(b)
}

// Bytes redacts raw bytes: each secret as it is, as it looks inside a JSON
// string, in HTML, and in a URL or form however it is escaped there.
func (r *Redaction) Bytes(b []byte) []byte {
	return []byte(r.String(string(b)))
}

// String redacts one string, in one pass, so that no placeholder is ever
// redacted again.
func (r *Redaction) String(s string) string {
	if !strings.ContainsAny(s, "%+") {
		return r.plain.Replace(s)
	}
	// The secrets that s holds once decoded, which it may spell with any mix
	// of characters and escapes: a pattern of those finds every spelling.
	decoded := []string{unescape(s, true), unescape(s, false)}
	var in []int
	for i, p := range r.pairs {
		if slices.ContainsFunc(decoded, func(d string) bool { return strings.Contains(d, p.secret) }) {
			in = append(in, i)
		}
	}
	if len(in) == 0 {
		return r.plain.Replace(s)
	}
	re := r.encodedRE(in)
	var b strings.Builder
	last := 0
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		for g := 1; 2*g < len(m); g++ {
			if m[2*g] >= 0 {
				b.WriteString(r.plain.Replace(s[last:m[0]]))
				b.WriteString(r.pairs[in[g-1]].placeholder)
				last = m[1]
				break
			}
		}
	}
	b.WriteString(r.plain.Replace(s[last:]))
	return b.String()
}

// encodedRE matches the secrets pairs[i] for i in in, longest first, each
// with every character as it is or escaped as %XX (in either case of hex),
// and a space also as +; group k+1 is pairs[in[k]]. Compiled once per set.
func (r *Redaction) encodedRE(in []int) *regexp.Regexp {
	key := fmt.Sprint(in)
	r.mu.Lock()
	defer r.mu.Unlock()
	if re, ok := r.encoded[key]; ok {
		return re
	}
	alts := make([]string, len(in))
	for k, i := range in {
		alts[k] = "(" + encodedPattern(r.pairs[i].secret) + ")"
	}
	re := regexp.MustCompile(strings.Join(alts, "|"))
	r.encoded[key] = re
	return re
}

// forms are the spellings of a secret that Bytes replaces literally: as it
// is, inside a JSON string, escaped for HTML (html/template writes + as
// &#43;), and escaped for a URL path, query or form, or by JavaScript's
// encodeURIComponent.
func forms(secret string) []string {
	out := []string{secret}
	addForm := func(f string) {
		if f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	if j, err := json.Marshal(secret); err == nil {
		addForm(string(j[1 : len(j)-1]))
	}
	h := html.EscapeString(secret)
	addForm(h)
	addForm(strings.ReplaceAll(h, "+", "&#43;"))
	addForm(url.QueryEscape(secret))
	addForm(url.PathEscape(secret))
	addForm(encodeURIComponent(secret))
	return out
}

// encodeURIComponent escapes like JavaScript's: all but letters, digits and
// -_.!~*'() as UTF-8 %XX.
func encodeURIComponent(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// encodedPattern matches secret with each character as it is or escaped as
// %XX (in either case of hex), and a space also as +.
func encodedPattern(secret string) string {
	hex := func(c byte) string {
		var b strings.Builder
		b.WriteByte('%')
		for _, h := range fmt.Sprintf("%02X", c) {
			if h >= 'A' {
				fmt.Fprintf(&b, "[%c%c]", h, h+'a'-'A')
			} else {
				b.WriteRune(h)
			}
		}
		return b.String()
	}
	var b strings.Builder
	for _, r := range secret {
		var enc bytes.Buffer
		for _, c := range []byte(string(r)) {
			enc.WriteString(hex(c))
		}
		b.WriteString("(?:" + regexp.QuoteMeta(string(r)) + "|" + enc.String())
		if r == ' ' {
			b.WriteString(`|\+`)
		}
		b.WriteString(")")
	}
	return b.String()
}

// Placeholders lists what replaced what kind of value (never the values).
func (r *Redaction) Placeholders() []string {
	out := make([]string, len(r.pairs))
	for i, p := range r.pairs {
		out[i] = p.placeholder
	}
	slices.Sort(out)
	return out
}

// Apply redacts a value by way of its JSON form and decodes it back into
// dst. Only string values change: never keys, numbers (kept digit for digit)
// or booleans, so the record keeps its shape whatever the secrets are. The
// times of the record itself (src's time.Time fields) are left as they are:
// they are the run's, not anyone's data, and must read back as times.
func (r *Redaction) Apply(src, dst any) error {
	b, err := json.Marshal(src)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return err
	}
	b, err = json.Marshal(r.values(doc, timesOf(reflect.TypeOf(src), map[reflect.Type]bool{})))
	if err != nil {
		return err
	}
	return json.Unmarshal(b, dst)
}

// values redacts every string value of a decoded JSON document but the
// times that t places in it.
func (r *Redaction) values(v any, t *times) any {
	if t != nil && t.here {
		return v
	}
	switch v := v.(type) {
	case string:
		return r.String(v)
	case []any:
		for i := range v {
			v[i] = r.values(v[i], t.elem())
		}
	case map[string]any:
		for k := range v {
			v[k] = r.values(v[k], t.field(k))
		}
	}
	return v
}

// times tells where a type's JSON form holds a time.Time: here, in one of
// its fields (a struct's), or in each of its elements (a slice's, an array's
// or a map's). Nil where there is none.
type times struct {
	here   bool
	fields map[string]*times
	each   *times
}

func (t *times) elem() *times {
	if t == nil {
		return nil
	}
	return t.each
}

func (t *times) field(name string) *times {
	if t == nil {
		return nil
	}
	if t.fields != nil {
		return t.fields[name]
	}
	return t.each
}

var timeType = reflect.TypeFor[time.Time]()

func timesOf(t reflect.Type, seen map[reflect.Type]bool) *times {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || seen[t] {
		return nil
	}
	if t == timeType {
		return &times{here: true}
	}
	seen[t] = true
	defer delete(seen, t)
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		if e := timesOf(t.Elem(), seen); e != nil {
			return &times{each: e}
		}
	case reflect.Struct:
		out := &times{fields: map[string]*times{}}
		addFields(out, t, seen)
		if len(out.fields) > 0 {
			return out
		}
	}
	return nil
}

// addFields adds the time-holding fields of struct type t under their JSON
// names, those of an untagged embedded struct as its own.
func addFields(out *times, t reflect.Type, seen map[reflect.Type]bool) {
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" || !f.IsExported() && !f.Anonymous:
			continue
		case f.Anonymous && name == "" && (f.Type.Kind() == reflect.Struct || f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct) && f.Type != timeType:
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			addFields(out, et, seen)
			continue
		case name == "":
			name = f.Name
		}
		if ft := timesOf(f.Type, seen); ft != nil {
			out.fields[name] = ft
		}
	}
}

// walkStrings calls fn with every string of a decoded JSON value, keys too.
func walkStrings(v any, fn func(string)) {
	switch v := v.(type) {
	case string:
		fn(v)
	case []any:
		for _, x := range v {
			walkStrings(x, fn)
		}
	case map[string]any:
		for k, x := range v {
			fn(k)
			walkStrings(x, fn)
		}
	}
}
