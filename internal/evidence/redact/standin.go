package redact

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"strings"
	"sync"
	"time"
	"unicode"
)

// A stand-in takes a secret's place and keeps the shape the checks depend
// on: the same number of characters, each letter a letter of the same case
// and script, each digit a digit, every other character (@ . - + space and
// the like) as it was, so that an email stays a valid email, a phone number
// the same digits' count with its separators, a UUID a UUID, and a pattern,
// a format or a length in a schema accepts the stand-in when it accepted the
// secret. A card number keeps its first digit and passes the Luhn check, an
// IBAN keeps its country and passes mod 97, a date becomes another day
// written the same way.
//
// Stand-ins are drawn from a keyed pseudo-random function (HMAC-SHA256) of
// the secret as written in lower case, then given the secret's case letter
// by letter: two spellings that differ only in case get stand-ins that
// differ only in case, so that the judge's case-insensitive checks keep
// their answers. The key is random for each bundle: the same secret has the
// same stand-in throughout one bundle, and an unrelated one in the next, so
// that nobody can test a guess of a value against a stand-in.
type standIns struct{ key []byte }

// stream is a keyed pseudo-random sequence.
type stream struct {
	key, seed []byte
	block     []byte
	counter   uint32
}

func (k standIns) stream(parts ...string) *stream {
	return &stream{key: k.key, seed: []byte(strings.Join(parts, "\x00"))}
}

// next answers a number in [0, n).
func (s *stream) next(n int) int {
	if len(s.block) < 4 {
		mac := hmac.New(sha256.New, s.key)
		mac.Write(s.seed)
		_ = binary.Write(mac, binary.BigEndian, s.counter)
		s.counter++
		s.block = mac.Sum(nil)
	}
	v := binary.BigEndian.Uint32(s.block)
	s.block = s.block[4:]
	return int(v % uint32(n))
}

// make answers the stand-in of secret, of kind, at the given attempt (a
// stand-in that collides with another value is drawn again).
func (k standIns) make(kind Kind, secret string, attempt int) string {
	folded := fold(secret)
	st := k.stream(string(kind), folded, string(rune('0'+attempt%10)), strings.Repeat("+", attempt/10))
	var base string
	switch kind {
	case Date:
		if d, layout, ok := parseDate(folded); ok {
			shift := 30 + st.next(700)
			if st.next(2) == 0 {
				shift = -shift
			}
			base = fold(d.AddDate(0, 0, shift).Format(layout))
			break
		}
		base = k.generic(folded, st)
	case Card:
		base = card(folded, k.generic(folded, st))
	case IBAN:
		base = iban(folded, k.generic(folded, st))
	default:
		base = k.generic(folded, st)
	}
	// A token's prefix says which of the app's tokens it is (s_ a session,
	// c_ a CSRF token, int_ an intent), whatever kind it was found as (a
	// cookie's value is a credential); its stand-in's says only that it is
	// one, so that no reader takes it for a live token of a kind.
	if prefix, rest, ok := strings.Cut(base, "_"); ok && tokenRE.MatchString(folded) {
		base = strings.Repeat("x", len(prefix)) + "_" + rest
	}
	return withCaseOf(base, secret)
}

// fold writes s in lower case rune by rune (one rune for one, unlike
// strings.ToLower for a few letters), so that stand-ins line up with their
// secrets.
func fold(s string) string { return strings.Map(unicode.ToLower, s) }

// withCaseOf gives base, which is in lower case, the case of original
// letter by letter.
func withCaseOf(base, original string) string {
	o := []rune(original)
	b := []rune(base)
	for i := range b {
		if i < len(o) && unicode.IsUpper(o[i]) {
			b[i] = unicode.ToUpper(b[i])
		}
	}
	return string(b)
}

// generic keeps every character's class: a letter of the same script and
// case, a digit (the first of a run of digits is 0 only where it was), and
// everything else as it is. A run of 8 or more hexadecimal digits with both
// letters and digits in it (a hash, a UUID's group, a token) stays
// hexadecimal.
func (k standIns) generic(folded string, st *stream) string {
	rs := []rune(folded)
	hex := hexRuns(rs)
	out := make([]rune, len(rs))
	for i, r := range rs {
		switch {
		case r >= 'a' && r <= 'z' && hex[i]:
			out[i] = rune('a' + st.next(6))
		case r >= 'a' && r <= 'z':
			out[i] = rune('a' + st.next(26))
		case r >= '0' && r <= '9' && (i == 0 || !unicode.IsDigit(rs[i-1])) && !hex[i]:
			if r == '0' {
				out[i] = '0'
			} else {
				out[i] = rune('1' + st.next(9))
			}
		case r >= '0' && r <= '9':
			out[i] = rune('0' + st.next(10))
		case r > unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if c := candidates(r); len(c) > 0 {
				out[i] = c[st.next(len(c))]
			} else {
				out[i] = r
			}
		default:
			out[i] = r
		}
	}
	return string(out)
}

// hexRuns marks the hexadecimal characters of rs: all its letters and
// digits when they are 8 or more, all hexadecimal, with both letters and
// digits among them (a hash, a UUID, a hex token); else those of each such
// run of 8 or more between other characters ("s_" and 32 hex digits).
func hexRuns(rs []rune) []bool {
	out := make([]bool, len(rs))
	alnum := func(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }
	hexOf := func(from, to int, only func(rune) bool) bool {
		n, letters, digits := 0, false, false
		for _, r := range rs[from:to] {
			switch {
			case r >= '0' && r <= '9':
				digits = true
			case r >= 'a' && r <= 'f':
				letters = true
			case alnum(r) || only(r):
				return false
			default:
				continue
			}
			n++
		}
		return n >= 8 && letters && digits
	}
	if hexOf(0, len(rs), func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		for i, r := range rs {
			out[i] = alnum(r)
		}
		return out
	}
	for i := 0; i < len(rs); {
		if !alnum(rs[i]) {
			i++
			continue
		}
		j := i
		for j < len(rs) && alnum(rs[j]) {
			j++
		}
		if hexOf(i, j, func(rune) bool { return false }) {
			for x := i; x < j; x++ {
				out[x] = true
			}
		}
		i = j
	}
	return out
}

// scripts are the writing systems whose letters a stand-in keeps within.
var scripts = []*unicode.RangeTable{unicode.Latin, unicode.Greek, unicode.Cyrillic, unicode.Armenian, unicode.Hebrew,
	unicode.Arabic, unicode.Devanagari, unicode.Bengali, unicode.Thai, unicode.Hangul, unicode.Hiragana, unicode.Katakana, unicode.Han}

var (
	candidatesMu    sync.Mutex
	candidatesCache = map[[2]int][]rune{}
)

// candidates are the runes a non-ASCII letter or digit r may become: those
// of its block of 128 that are of its class (a lower-case letter with an
// upper case, another letter, a digit) and of its script, none of them
// ASCII.
func candidates(r rune) []rune {
	class := func(c rune) int {
		switch {
		case unicode.IsDigit(c):
			return 1
		case unicode.IsLetter(c) && unicode.IsLower(c) && unicode.ToLower(unicode.ToUpper(c)) == c && unicode.ToUpper(c) != c:
			return 2
		case unicode.IsLetter(c) && unicode.ToLower(c) == c && unicode.ToUpper(c) == c:
			return 3
		}
		return 0
	}
	cl := class(r)
	if cl == 0 {
		return nil
	}
	var script *unicode.RangeTable
	for _, s := range scripts {
		if unicode.Is(s, r) {
			script = s
			break
		}
	}
	key := [2]int{int(r &^ 0x7F), cl}
	candidatesMu.Lock()
	defer candidatesMu.Unlock()
	if c, ok := candidatesCache[key]; ok {
		return c
	}
	var out []rune
	for c := r &^ 0x7F; c <= r|0x7F; c++ {
		if c > unicode.MaxASCII && class(c) == cl && (script == nil || unicode.Is(script, c)) {
			out = append(out, c)
		}
	}
	candidatesCache[key] = out
	return out
}

// card keeps the secret's first digit (its network) and makes the last one
// the Luhn check digit of the others.
func card(secret, s string) string {
	b := []byte(s)
	var at []int
	for i, c := range b {
		if isDigit(c) {
			at = append(at, i)
		}
	}
	if len(at) < 2 {
		return s
	}
	b[at[0]] = secret[at[0]]
	last := at[len(at)-1]
	b[last] = '0'
	if sum := luhnSum(digitsOf(string(b))); sum%10 != 0 {
		b[last] = byte('0' + 10 - sum%10)
	}
	return string(b)
}

// iban keeps the secret's country code and writes the check digits that
// make the stand-in pass mod 97.
func iban(secret, s string) string {
	b := []byte(s)
	var at []int
	for i, c := range b {
		if c != ' ' {
			at = append(at, i)
		}
	}
	if len(at) < 5 {
		return s
	}
	b[at[0]], b[at[1]] = secret[at[0]], secret[at[1]]
	b[at[2]], b[at[3]] = '0', '0'
	compact := strings.ReplaceAll(string(b), " ", "")
	rem, ok := ibanRemainder(compact[4:] + compact[:4])
	if !ok {
		return s
	}
	check := 98 - rem
	b[at[2]], b[at[3]] = byte('0'+check/10), byte('0'+check%10)
	return string(b)
}

// dateLayouts are the ways a date is written that a stand-in keeps.
var dateLayouts = []string{
	"2006-01-02", time.RFC3339, "2006-01-02T15:04", "2006/01/02", "02/01/2006", "01/02/2006", "02.01.2006",
	"2 January 2006", "2 Jan 2006", "January 2, 2006", "Jan 2, 2006", "Monday, 2 January 2006", "Monday, January 2, 2006",
}

// parseDate reads s, in lower case, as a date in one of dateLayouts that
// writes it back the same way.
func parseDate(s string) (time.Time, string, bool) {
	for _, layout := range dateLayouts {
		// In upper case too: a layout's T and Z are.
		for _, spelt := range []string{s, strings.ToUpper(s)} {
			if d, err := time.Parse(layout, spelt); err == nil && fold(d.Format(layout)) == s {
				return d, layout, true
			}
		}
	}
	return time.Time{}, "", false
}
