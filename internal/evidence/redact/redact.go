// Package redact owns what an evidence bundle may hold of a person: it
// decides which values of a recorded run are a person's data or a
// credential, and replaces each of them, wherever and however it is
// written, by a stand-in of the same shape, so that the judge reaches on the
// redacted record the verdict it reaches on the raw one.
//
// What is personal is decided by kind, and by what the scenario declares,
// never by where a value came from:
//   - by kind, found anywhere: email addresses, phone numbers, card numbers
//     (Luhn) and IBANs (mod 97), the reference app's session, CSRF and
//     intent tokens, and JSON Web Tokens;
//   - by name, wherever a value is named: credentials (cookies, the
//     Authorization header, CSRF tokens, passwords, API keys, one-time
//     codes: see nameKind) in headers, query strings, request bodies (JSON,
//     forms, multipart), tool inputs and outputs, the app's state, a form's
//     controls and the fields a person types into; account numbers (an SSN,
//     a passport number) by their field's name;
//   - by declaration: the prompt_data values a scenario marks personal
//     (with their from words) and its top-level personal list.
//
// A prompt_data value that is none of these (an airport code, an id, an enum
// value, a city) is not personal and stays; so does a person's typed text
// that is none of these (a search term, a user name that is a common word).
// What the page offers as its tools (names, descriptions, schemas, enum
// values) is the app's and never rewritten: a value that appears there is
// public, whatever its kind. Only string values change, never keys, numbers
// or the record's own times (see Apply).
//
// Stand-ins keep the shape the checks depend on (see standIns) and are
// stable within one bundle; the decision note
// docs/decisions/2026-12-01-redaction-by-kind.md gives the threat model.
package redact

import (
	"crypto/rand"
	"index/suffixarray"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/agentready/agentready/scenarios"
)

// Kind is what makes a value personal.
type Kind string

// The kinds, most telling first: a value found as two kinds is named by the
// first.
const (
	Credential Kind = "credential" // a password, cookie, authorization, CSRF token, API key or one-time code, by its name
	Token      Kind = "token"      // a session or intent token, or a JWT, by its shape
	Email      Kind = "email"
	Card       Kind = "card"
	IBAN       Kind = "iban"
	Account    Kind = "account" // an account or identity number, by its name
	Phone      Kind = "phone"
	Date       Kind = "date"     // a declared value that is a date
	Personal   Kind = "personal" // any other declared value
)

var kinds = []Kind{Credential, Token, Email, Card, IBAN, Account, Phone, Date, Personal}

// Placeholder is a stand-in that replaced a value of its kind; never the
// value.
type Placeholder struct {
	Kind  Kind   `json:"kind"`
	Value string `json:"value"`
}

// Redaction replaces the personal values of one record by their stand-ins.
type Redaction struct {
	pairs        []pair // secret → stand-in, longest secret first
	plain        *trie
	placeholders []Placeholder
	// encoded finds secrets written with any mix of literal characters,
	// %XX escapes and + for a space, as a URL or a form may hold them (a
	// HAR decodes a query string, so no spelling of a secret may survive
	// there); by the set of secrets it looks for (see encodedRE).
	mu      sync.Mutex
	encoded map[string]*regexp.Regexp
}

type pair struct {
	secret, standIn string
	kind            Kind
}

// Option changes how New redacts.
type Option func(*options)

type options struct{ key []byte }

// WithKey draws the stand-ins from key instead of a random one: the same
// record then always redacts to the same bytes (for tests).
func WithKey(key []byte) Option { return func(o *options) { o.key = key } }

// New finds the values of a scenario and its evidence to hide (see the
// package comment) and makes their stand-ins. The evidence may be nil.
func New(sc scenarios.Scenario, ev *scenarios.Evidence, opts ...Option) (*Redaction, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if o.key == nil {
		o.key = make([]byte, 32)
		_, _ = rand.Read(o.key) // crypto/rand.Read never fails
	}
	f, err := newFinder(sc, ev)
	if err != nil {
		return nil, err
	}
	return build(f.find(), f.blob, standIns(o)), nil
}

// Scenario answers sc redacted. What it expects of the page's tools is kept
// as written: the tools are public (see the package comment), and a JSON
// round trip would reorder their schemas' keys.
func (r *Redaction) Scenario(sc scenarios.Scenario) (scenarios.Scenario, error) {
	var out scenarios.Scenario
	if err := r.Apply(sc, &out); err != nil {
		return scenarios.Scenario{}, err
	}
	out.Expect.Catalog = sc.Expect.Catalog
	return out, nil
}

// Evidence answers ev redacted. The page's tools (the catalog, getTools()'s
// answer, the catalogs the trace saw) are kept byte for byte.
func (r *Redaction) Evidence(ev *scenarios.Evidence) (*scenarios.Evidence, error) {
	var out scenarios.Evidence
	if err := r.Apply(ev, &out); err != nil {
		return nil, err
	}
	if ev == nil {
		return &out, nil
	}
	out.Catalog, out.PageTools = ev.Catalog, ev.PageTools
	for i := range out.Trace {
		if i < len(ev.Trace) {
			out.Trace[i].Tools = ev.Trace[i].Tools
		}
	}
	for i := range out.Popups { // a popup's tools, as the page's
		if i < len(ev.Popups) {
			out.Popups[i].Tools = ev.Popups[i].Tools
		}
	}
	return &out, nil
}

// Placeholders lists the stand-ins used, by kind (never the values).
func (r *Redaction) Placeholders() []Placeholder { return slices.Clone(r.placeholders) }

// build makes the stand-ins of the secrets found. Spellings that differ only
// in case share one stand-in, in their own case. A stand-in is drawn again
// when it is another secret's or appears anywhere in the record (blob: its
// strings in lower case), so that redaction never makes two values equal
// that were not.
func build(found map[string]Kind, blob string, k standIns) *Redaction {
	type group struct {
		kind     Kind
		variants []string
	}
	groups := map[string]*group{}
	for _, s := range slices.Sorted(maps.Keys(found)) {
		f := fold(s)
		g, ok := groups[f]
		if !ok {
			g = &group{kind: found[s]}
			groups[f] = g
		}
		if slices.Index(kinds, found[s]) < slices.Index(kinds, g.kind) {
			g.kind = found[s]
		}
		g.variants = append(g.variants, s)
	}
	r := &Redaction{plain: &trie{}, encoded: map[string]*regexp.Regexp{}}
	used := map[string]bool{}
	inRecord := func(v string) bool { return strings.Contains(blob, v) }
	if len(groups) > 32 { // a scan of the record for each would cost its size times theirs
		index := suffixarray.New([]byte(blob))
		inRecord = func(v string) bool { return len(index.Lookup([]byte(v), 1)) > 0 }
	}
	for _, f := range slices.Sorted(maps.Keys(groups)) {
		g := groups[f]
		var base string
		for attempt := 0; ; attempt++ {
			base = k.make(g.kind, f, attempt)
			// The blob holds the secret itself: a stand-in is never it.
			if !used[base] && !inRecord(base) || attempt >= 100 {
				break
			}
		}
		used[base] = true
		r.placeholders = append(r.placeholders, Placeholder{Kind: g.kind, Value: base})
		for _, v := range g.variants {
			r.pairs = append(r.pairs, pair{secret: v, standIn: withCaseOf(base, v), kind: g.kind})
		}
	}
	slices.SortFunc(r.placeholders, func(a, b Placeholder) int {
		if c := slices.Index(kinds, a.Kind) - slices.Index(kinds, b.Kind); c != 0 {
			return c
		}
		return strings.Compare(a.Value, b.Value)
	})
	// Longest first, so that a secret inside another does not split it.
	slices.SortStableFunc(r.pairs, func(a, b pair) int { return len(b.secret) - len(a.secret) })
	for i, p := range r.pairs {
		short := len([]rune(p.secret)) < shortSecret
		for k, spell := range spellings {
			if form := spell(p.secret); form != "" {
				pairOf := -1
				if k == 0 {
					pairOf = i
				}
				r.plain.add(form, spell(p.standIn), short, pairOf)
			}
		}
	}
	return r
}
