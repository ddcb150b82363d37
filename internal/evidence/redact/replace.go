package redact

import (
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// spellings are the ways a value is written that String replaces by the
// same spelling of its stand-in: as it is, inside a JSON string, escaped for
// HTML (html/template writes + as &#43;), and escaped for a URL path, query
// or form, or by JavaScript's encodeURIComponent. A mix of literal
// characters and %XX escapes is found by encodedPattern.
var spellings = []func(string) string{
	func(s string) string { return s },
	func(s string) string { j, _ := json.Marshal(s); return string(j[1 : len(j)-1]) },
	html.EscapeString,
	func(s string) string { return strings.ReplaceAll(html.EscapeString(s), "+", "&#43;") },
	url.QueryEscape,
	url.PathEscape,
	encodeURIComponent,
}

// encodeURIComponent escapes like JavaScript's: all but letters, digits and
// -_.!~*'() as UTF-8 %XX.
func encodeURIComponent(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isLetter(c) || isDigit(c) || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// shortSecret is the length (in characters) under which a secret is
// replaced only where it stands alone, not glued to a letter or digit: a
// declared "Ann" is not the start of "Annual", nor a cookie's "dark" the
// end of "darkroom". Longer secrets are replaced wherever they are.
const shortSecret = 6

// glued tells whether two neighbouring runes belong to one word: both
// letters or digits of a script written with spaces between words (in Han,
// kana or Thai a word has no such edge, and a name is replaced wherever it
// is).
func glued(a, b rune) bool { return wordRune(a) && wordRune(b) }

func wordRune(r rune) bool {
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
		return false
	}
	return !unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

// alone tells whether s[a:b] is not glued to what is before and after it.
func alone(s string, a, b int) bool {
	if a > 0 {
		before, _ := utf8.DecodeLastRuneInString(s[:a])
		first, _ := utf8.DecodeRuneInString(s[a:])
		if glued(before, first) {
			return false
		}
	}
	if b < len(s) {
		after, _ := utf8.DecodeRuneInString(s[b:])
		last, _ := utf8.DecodeLastRuneInString(s[:b])
		if glued(last, after) {
			return false
		}
	}
	return true
}

// trie finds every spelling of every secret in one pass, the longest first
// at each position.
type trie struct {
	first [256]bool // at the root: the bytes a spelling starts with
	next  map[byte]*trie
	leaf  bool
	out   string // the stand-in, spelled as the secret was
	short bool   // replaced only where it stands alone
	pair  int    // the pair whose secret this spelling is, as it is; -1 for other spellings
}

func (t *trie) add(form, out string, short bool, pair int) {
	t.first[form[0]] = true
	n := t
	for i := range len(form) {
		if n.next == nil {
			n.next = map[byte]*trie{}
		}
		c, ok := n.next[form[i]]
		if !ok {
			c = &trie{}
			n.next[form[i]] = c
		}
		n = c
	}
	if !n.leaf { // the first pair wins: pairs come longest secret first
		n.leaf, n.out, n.short, n.pair = true, out, short, pair
	}
}

// pairsIn answers the pairs whose secrets s holds as they are.
func (t *trie) pairsIn(s string) []int {
	var out []int
	for i := 0; i < len(s); i++ {
		if !t.first[s[i]] {
			continue
		}
		n := t
		for j := i; j < len(s) && n.next != nil; j++ {
			if n = n.next[s[j]]; n == nil {
				break
			}
			if n.leaf && n.pair >= 0 && (!n.short || alone(s, i, j+1)) && !slices.Contains(out, n.pair) {
				out = append(out, n.pair)
			}
		}
	}
	return out
}

// replace replaces every spelling of a secret in s by its stand-in.
func (t *trie) replace(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		if !t.first[s[i]] {
			i++
			continue
		}
		n, end, out := t, -1, ""
		for j := i; j < len(s) && n.next != nil; j++ {
			if n = n.next[s[j]]; n == nil {
				break
			}
			if n.leaf && (!n.short || alone(s, i, j+1)) {
				end, out = j+1, n.out
			}
		}
		if end < 0 {
			i++
			continue
		}
		if last == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[last:i])
		b.WriteString(out)
		i, last = end, end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// String redacts one string, in one pass, so that no stand-in is ever
// redacted again.
func (r *Redaction) String(s string) string {
	if len(r.pairs) == 0 {
		return s
	}
	out := r.plain.replace(s)
	if !strings.ContainsAny(out, "%+") {
		return out
	}
	// The secrets that s still holds once decoded: it spells them with a
	// mix of characters and escapes that no single spelling is. A pattern
	// of those finds every spelling.
	var in []int
	for _, d := range []string{unescape(out, true), unescape(out, false)} {
		if d != out {
			for _, p := range r.plain.pairsIn(d) {
				if !slices.Contains(in, p) {
					in = append(in, p)
				}
			}
		}
	}
	if len(in) == 0 {
		return out
	}
	slices.Sort(in)
	re := r.encodedRE(in)
	var b strings.Builder
	last := 0
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		for g := 1; 2*g < len(m); g++ {
			if m[2*g] < 0 {
				continue
			}
			p := r.pairs[in[g-1]]
			if utf8.RuneCountInString(p.secret) < shortSecret && !alone(s, m[0], m[1]) {
				break
			}
			b.WriteString(r.plain.replace(s[last:m[0]]))
			b.WriteString(mirror(s[m[0]:m[1]], p.standIn))
			last = m[1]
			break
		}
	}
	b.WriteString(r.plain.replace(s[last:]))
	return b.String()
}

// Bytes redacts raw bytes as String does.
func (r *Redaction) Bytes(b []byte) []byte { return []byte(r.String(string(b))) }

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

// encodedPattern matches secret with each character as it is or escaped as
// %XX (in either case of hex), and a space also as +.
func encodedPattern(secret string) string {
	var b strings.Builder
	for _, r := range secret {
		b.WriteString("(?:" + regexp.QuoteMeta(string(r)) + "|")
		for _, c := range []byte(string(r)) {
			hi, lo := fmt.Sprintf("%X", c>>4), fmt.Sprintf("%X", c&0xF)
			b.WriteString("%" + hexClass(hi) + hexClass(lo))
		}
		if r == ' ' {
			b.WriteString(`|\+`)
		}
		b.WriteString(")")
	}
	return b.String()
}

func hexClass(h string) string {
	if h >= "A" {
		return "[" + h + strings.ToLower(h) + "]"
	}
	return h
}

// mirror writes stand-in as span wrote its secret: each character literal,
// %XX-escaped in the same case of hex, or a space as +.
func mirror(span, standIn string) string {
	type unit struct {
		b     byte
		style byte // 'l' literal, 'X' or 'x' escaped in that case of hex, '+' a space as +
	}
	var units []unit
	for i := 0; i < len(span); i++ {
		switch c := span[i]; {
		case c == '%' && i+2 < len(span) && isHex(span[i+1]) && isHex(span[i+2]):
			style := byte('X')
			if span[i+1] >= 'a' || span[i+2] >= 'a' {
				style = 'x'
			}
			units = append(units, unit{unhex(span[i+1])<<4 | unhex(span[i+2]), style})
			i += 2
		case c == '+':
			units = append(units, unit{' ', '+'})
		default:
			units = append(units, unit{c, 'l'})
		}
	}
	// The style of each character of the secret is that of its first byte.
	var styles []byte
	for i := 0; i < len(units); {
		var raw []byte
		for j := i; j < len(units) && j < i+utf8.UTFMax; j++ {
			raw = append(raw, units[j].b)
		}
		_, size := utf8.DecodeRune(raw)
		styles = append(styles, units[i].style)
		i += max(size, 1)
	}
	var b strings.Builder
	k := 0
	for _, r := range standIn {
		style := styles[min(k, len(styles)-1)]
		k++
		switch {
		case style == '+' && r == ' ':
			b.WriteByte('+')
		case style == 'X' || style == 'x':
			for _, c := range []byte(string(r)) {
				if style == 'x' {
					fmt.Fprintf(&b, "%%%02x", c)
				} else {
					fmt.Fprintf(&b, "%%%02X", c)
				}
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// unescape decodes the %XX escapes of s, in either case of hex, and + as a
// space when plus is set; unlike url.QueryUnescape, it leaves a % that
// starts no escape as it is ("50% off"), so that one stray % hides nothing.
func unescape(s string, plus bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
		case c == '+' && plus:
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
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
