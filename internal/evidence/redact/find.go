package redact

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
)

var (
	emailRE = regexp.MustCompile(`[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}`)
	// The reference app's session ids, CSRF tokens and intent ids; a user's
	// app is covered by the names of headers, cookies and fields.
	tokenRE = regexp.MustCompile(`\b(?:s|c|int)_[0-9a-f]{32}\b`)
	// A JSON Web Token: three base64url parts, the first two JSON objects.
	jwtRE = regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{8,}`)
)

// The shortest credentials worth hiding (besides scenarios.TooPlainToRedact,
// which every secret must pass): one found by its name needs 4 characters
// (a PIN), a cookie's value 8 (shorter ones are preferences: lang=en,
// theme=dark).
const (
	minCredential = 4
	minCookie     = 8
)

// finder collects the secrets of one record.
type finder struct {
	sc    scenarios.Scenario
	ev    *scenarios.Evidence
	found map[string]Kind // secret → kind
	// doc is the record as decoded JSON, without the page's tools; public
	// the page's tools' strings in lower case, NUL-separated; blob every
	// string of the record in lower case, the tools' included.
	doc          any
	public, blob string
	declared     []*regexp.Regexp
	declaredKind map[string]Kind // folded declared value → its kind
}

func newFinder(sc scenarios.Scenario, ev *scenarios.Evidence) (*finder, error) {
	f := &finder{sc: sc, ev: ev, found: map[string]Kind{}, declaredKind: map[string]Kind{}}
	// What the page offers as its tools: the catalog the protocol and
	// getTools() reported, every catalog the trace saw, and what the
	// scenario expects of them (copied from the page).
	private, tools := sc, any(sc.Expect.Catalog)
	private.Expect.Catalog = nil
	var evPrivate *scenarios.Evidence
	if ev != nil {
		e := *ev
		e.Catalog, e.PageTools = nil, nil
		e.Trace = slices.Clone(ev.Trace)
		var seen [][]record.Tool
		for i := range e.Trace {
			seen = append(seen, e.Trace[i].Tools)
			e.Trace[i].Tools = nil
		}
		evPrivate = &e
		tools = []any{sc.Expect.Catalog, ev.Catalog, ev.PageTools, seen}
	}
	var err error
	if f.public, err = foldedStrings(tools); err != nil {
		return nil, err
	}
	raw, err := json.Marshal(struct {
		S scenarios.Scenario
		E *scenarios.Evidence
	}{private, evPrivate})
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, &f.doc); err != nil {
		return nil, err
	}
	var all []string
	walkStrings(f.doc, func(s string) { all = append(all, fold(s)) })
	f.blob = strings.Join(all, "\x00") + "\x00" + f.public
	return f, nil
}

func foldedStrings(v any) (string, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return "", err
	}
	var out []string
	walkStrings(doc, func(s string) { out = append(out, fold(s)) })
	return strings.Join(out, "\x00"), nil
}

// add records secret as kind, unless it is plain or public.
func (f *finder) add(secret string, kind Kind) {
	if scenarios.TooPlainToRedact(secret) || f.isPublic(secret) {
		return
	}
	if old, ok := f.found[secret]; !ok || slices.Index(kinds, kind) < slices.Index(kinds, old) {
		f.found[secret] = kind
	}
}

// isPublic tells whether the page's tools show secret (in any case, and
// standing alone when it is short): the app's own words are no one's data,
// and are never rewritten.
func (f *finder) isPublic(secret string) bool {
	return occurs(f.public, fold(secret), utf8.RuneCountInString(secret) < shortSecret)
}

// occurs tells whether sub is in text, standing alone if short.
func occurs(text, sub string, short bool) bool {
	for from := 0; ; {
		i := strings.Index(text[from:], sub)
		if i < 0 {
			return false
		}
		if !short || alone(text, from+i, from+i+len(sub)) {
			return true
		}
		from += i + 1
	}
}

// addNamed records a value by the name it was given, if the name makes it
// a credential or an account number.
func (f *finder) addNamed(name, value string) {
	switch nameKind(name) {
	case Credential:
		least := minCredential
		if strings.Contains(strings.ToLower(name), "cookie") {
			least = minCookie
		}
		for _, part := range headerSecrets(name, value) {
			if utf8.RuneCountInString(part) >= least {
				f.add(part, Credential)
			}
		}
	case Account:
		if utf8.RuneCountInString(value) >= minCredential {
			f.add(value, Account)
		}
	}
}

func (f *finder) find() map[string]Kind {
	f.findDeclared()
	// Named values are the record's data: the scenario's steps and calls,
	// and the evidence. Its expectations only mirror that data, and name
	// places by what they are (submitted.fields: "/password" → "#password",
	// a selector, which is no secret).
	if doc, ok := f.doc.(map[string]any); ok {
		if sc, ok := doc["S"].(map[string]any); ok {
			for k, v := range sc {
				if k != "expect" {
					f.findNamed(v)
				}
			}
		}
		f.findNamed(doc["E"])
	}
	if ev := f.ev; ev != nil {
		for _, r := range ev.Requests {
			for _, nv := range bodyValues(r.Body, header(r.RequestHeaders, "Content-Type")) {
				f.addNamed(nv.name, nv.value)
			}
		}
		for _, rv := range ev.Reviews {
			for _, field := range rv.Form {
				f.addNamed(field.Name, field.Value)
			}
		}
		for _, els := range ev.UI {
			for _, el := range els {
				if el.Attributes["type"] == "password" || nameKind(el.Attributes["name"]) == Credential ||
					nameKind(el.Attributes["id"]) == Credential || nameKind(el.Selector) == Credential {
					for _, v := range []string{el.Value, el.Attributes["value"], el.Attributes["content"]} {
						if utf8.RuneCountInString(v) >= minCredential {
							f.add(v, Credential)
						}
					}
				}
			}
		}
	}
	// Look in the decoded strings, not in the JSON text, where an escape
	// such as \u003c would glue itself to a match; and in each string as a
	// URL, a form or a page would decode it, where a HAR or a reader sees it.
	walkStrings(f.doc, func(s string) {
		for _, d := range decodings(s) {
			f.findByKind(d)
		}
	})
	return f.found
}

// findDeclared records what the scenario declares personal: the marked
// prompt_data values with their from words (the prompt's own words for
// the value: when they say it differently, "17 May 1990" for 1990-05-17,
// hiding the value alone would leave it in the prompt), and the top-level
// personal list. Each is found again in every case it is written in.
func (f *finder) findDeclared() {
	var values []string
	for _, k := range slices.Sorted(maps.Keys(f.sc.PromptData)) {
		if pv := f.sc.PromptData[k]; pv.Personal {
			values = append(values, pv.Value, pv.From)
		}
	}
	values = append(values, f.sc.Personal...)
	for _, v := range values {
		if scenarios.TooPlainToRedact(v) {
			continue
		}
		kind := declaredKind(v)
		f.add(v, kind)
		f.declaredKind[fold(v)] = kind
		f.declared = append(f.declared, regexp.MustCompile(`(?i)`+regexp.QuoteMeta(v)))
	}
}

// declaredKind is the kind of a declared value, for the shape of its
// stand-in.
func declaredKind(v string) Kind {
	whole := func(kind Kind) bool {
		hit := false
		findNumbers(v, func(s string, k Kind) { hit = hit || k == kind && s == v })
		return hit
	}
	switch {
	case emailRE.FindString(v) == v:
		return Email
	case whole(Card):
		return Card
	case whole(IBAN):
		return IBAN
	case whole(Phone):
		return Phone
	}
	if _, _, ok := parseDate(fold(v)); ok {
		return Date
	}
	return Personal
}

// findNamed records every string value of the record's JSON whose member's
// name makes it a credential or an account number: the fields of tool
// inputs and outputs, the app's state, headers, the selectors typed into.
func (f *finder) findNamed(v any) {
	switch v := v.(type) {
	case []any:
		for _, x := range v {
			f.findNamed(x)
		}
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok {
				f.addNamed(k, s)
			} else {
				f.findNamed(x)
			}
		}
	}
}

// findByKind records the values that are personal by their shape, the
// declared values in other cases, and the named values of a URL in s.
func (f *finder) findByKind(s string) {
	if strings.Contains(s, "@") {
		for _, m := range emailRE.FindAllString(s, -1) {
			f.add(m, Email)
		}
	}
	if strings.Contains(s, "_") {
		for _, m := range tokenRE.FindAllString(s, -1) {
			f.add(m, Token)
		}
	}
	if strings.Contains(s, "eyJ") {
		for _, m := range jwtRE.FindAllString(s, -1) {
			f.add(m, Token)
		}
	}
	findNumbers(s, f.add)
	if strings.ContainsAny(s, "?#@") && (strings.HasPrefix(s, "/") || strings.Contains(s, "://")) {
		for _, nv := range urlValues(s) {
			f.addNamed(nv.name, nv.value)
		}
	}
	if len(f.declared) > 0 {
		for _, re := range f.declared {
			for _, m := range re.FindAllString(s, -1) {
				f.add(m, f.kindOfVariant(m))
			}
		}
	}
}

// kindOfVariant is the kind of a declared value found in another case.
func (f *finder) kindOfVariant(m string) Kind {
	if k, ok := f.declaredKind[fold(m)]; ok {
		return k
	}
	return declaredKind(m)
}

// header answers a header's value whatever the case of its name.
func header(h map[string]string, name string) string {
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}
