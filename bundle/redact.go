package bundle

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/agentready/agentready/scenarios"
)

// Redaction replaces personal data and credentials by stable placeholders in
// every byte the bundle holds. The same value always becomes the same
// placeholder, so the judge, which runs on the redacted record, still sees
// that the tool input equals the prompt's value: equality survives a
// consistent substitution.
type Redaction struct {
	pairs []pair // secret → placeholder, longest secret first
}

type pair struct{ secret, placeholder string }

var (
	emailRE = regexp.MustCompile(`[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}`)
	// The reference app's session ids, CSRF tokens and intent ids; a user's
	// app is covered by the header and cookie rules below.
	tokenRE = regexp.MustCompile(`\b(?:s|c|int)_[0-9a-f]{32}\b`)
	// Input parameters that hold personal data, by name.
	personalKey = regexp.MustCompile(`(?i)(name|email|e-mail|phone|address|birth|passport|card)`)
	// Headers whose values are credentials.
	secretHeaders = []string{"cookie", "set-cookie", "authorization", "x-csrf-token", "proxy-authorization"}
)

// NewRedaction finds the values to hide: the prompt's data, personal tool
// input, every email address, tokens and credential headers, wherever they
// appear in the scenario and the evidence.
func NewRedaction(sc scenarios.Scenario, ev *scenarios.Evidence) (*Redaction, error) {
	found := map[string]string{} // secret → kind
	for k, pv := range sc.PromptData {
		if v := pv.Value; personalKey.MatchString(k) || emailRE.MatchString(v) {
			found[v] = kindOf(k, v)
		}
	}
	addInput := func(in map[string]any) {
		for k, v := range in {
			if s, ok := v.(string); ok && s != "" && personalKey.MatchString(k) {
				found[s] = kindOf(k, s)
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
				found[v] = kindOf(sel, v)
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
							found[part] = "credential"
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
	// Look for emails and tokens in the decoded strings, not in the JSON
	// text, where an escape such as \u003c would glue itself to a match.
	var doc any
	if err := json.Unmarshal(all, &doc); err != nil {
		return nil, err
	}
	walkStrings(doc, func(s string) {
		for _, m := range emailRE.FindAllString(s, -1) {
			found[m] = "email"
		}
		for _, m := range tokenRE.FindAllString(s, -1) {
			found[m] = "token"
		}
	})
	return newRedaction(found), nil
}

func kindOf(key, value string) string {
	switch {
	case emailRE.MatchString(value):
		return "email"
	case strings.Contains(strings.ToLower(key), "name"):
		return "name"
	}
	return "personal"
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

// minSecret is the shortest value worth hiding: shorter ones (and numbers)
// would match too much of everything else.
const minSecret = 3

// newRedaction numbers the placeholders in sorted order of the secrets, so
// that the same record always redacts to the same bytes.
func newRedaction(found map[string]string) *Redaction {
	secrets := make([]string, 0, len(found))
	for s := range found {
		if t := strings.TrimSpace(s); len([]rune(t)) >= minSecret && !isNumber(t) {
			secrets = append(secrets, s)
		}
	}
	slices.Sort(secrets)
	counts := map[string]int{}
	r := &Redaction{}
	for _, s := range secrets {
		kind := found[s]
		counts[kind]++
		r.pairs = append(r.pairs, pair{s, fmt.Sprintf("REDACTED-%s-%d", strings.ToUpper(kind), counts[kind])})
	}
	// Longest first, so that a secret inside another does not split it.
	slices.SortStableFunc(r.pairs, func(a, b pair) int { return len(b.secret) - len(a.secret) })
	return r
}

// Bytes redacts raw bytes: each secret as it is, as it looks inside a JSON
// string, and as it looks in a URL.
func (r *Redaction) Bytes(b []byte) []byte {
	s := string(b)
	for _, p := range r.pairs {
		for _, form := range forms(p.secret) {
			s = strings.ReplaceAll(s, form, p.placeholder)
		}
	}
	return []byte(s)
}

func forms(secret string) []string {
	out := []string{secret}
	if j, err := json.Marshal(secret); err == nil {
		if inner := string(j[1 : len(j)-1]); inner != secret {
			out = append(out, inner)
		}
	}
	for _, u := range []string{url.QueryEscape(secret), url.PathEscape(secret)} {
		if u != secret && !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	return out
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
// dst. Only string values change: never keys, numbers or booleans, so the
// record keeps its shape whatever the secrets are.
func (r *Redaction) Apply(src, dst any) error {
	b, err := json.Marshal(src)
	if err != nil {
		return err
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		return err
	}
	b, err = json.Marshal(r.values(doc))
	if err != nil {
		return err
	}
	return json.Unmarshal(b, dst)
}

// values redacts every string value of a decoded JSON document.
func (r *Redaction) values(v any) any {
	switch v := v.(type) {
	case string:
		return string(r.Bytes([]byte(v)))
	case []any:
		for i := range v {
			v[i] = r.values(v[i])
		}
	case map[string]any:
		for k := range v {
			v[k] = r.values(v[k])
		}
	}
	return v
}

func isNumber(s string) bool {
	var f float64
	_, err := fmt.Sscan(s, &f)
	return err == nil && strings.Trim(s, "0123456789.-+eE") == ""
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
