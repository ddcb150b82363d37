// Package lint judges a page's WebMCP tools without calling any: names,
// descriptions, schemas, hints, forms that autosubmit what a person must
// confirm, and the tools the browser dropped before any agent could see them.
//
// It is pure: every rule reads a toollist.Listing (the catalog, the forms of
// the DOM, the console of the load) and nothing else. Rule IDs follow
// swissspidy/playwright-webmcp's set and Lighthouse's agentic-browsing audits
// where a rule means the same; docs/decisions/2026-11-30-lint-rules.md says
// why each rule and threshold is what it is.
package lint

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/agentready/agentready/internal/pagecheck/toollist"
)

// Severity is how much a finding matters: an error fails `agentready lint`.
type Severity string

// The severities, from the gravest.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Info    Severity = "info"
)

// Rank orders severities: Error 3, Warning 2, Info 1, anything else 0.
func (s Severity) Rank() int {
	switch s {
	case Error:
		return 3
	case Warning:
		return 2
	case Info:
		return 1
	}
	return 0
}

// Thresholds (why these: the decision note).
const (
	// MaxTools is the most tools a page may offer before too-many-tools.
	MaxTools = 20
	// ChurnCount is how many removals of one tool make tool-churn
	// (playwright-webmcp's churnCount).
	ChurnCount = 3
	// SimilarDescriptions is the word overlap (Dice coefficient of the
	// descriptions' word sets) at which two descriptions read alike.
	SimilarDescriptions = 0.8
)

// Scope is what a rule reads to judge: one tool (or form) alone, or the
// page's tools together, as playwright-webmcp's tool and page rules.
type Scope string

// The scopes.
const (
	ScopeTool Scope = "tool" // one tool's own definition (its form, its registration)
	ScopePage Scope = "page" // the page's tools together: names beside names, counts, what no tool is
)

// Rule is one check, with a stable ID.
type Rule struct {
	ID       string
	Scope    Scope
	Severity Severity
	Doc      string // one line: what it catches
	// Off says the rule runs only when asked (Config, `lint --rule ID=on`):
	// advice the ecosystem (playwright-webmcp) also leaves off by default,
	// since most honest pages break it.
	Off   bool
	check func(*page) []Finding
}

// Config turns rules on or off and changes their severity, by rule ID: a
// Severity, On (the rule's own severity) or Off. Rules it does not name keep
// their default.
type Config map[string]Severity

// On and Off are Config's words for a rule turned on at its own severity, and
// turned off.
const (
	On  Severity = "on"
	Off Severity = "off"
)

// ParseSetting reads one `ID=setting` (setting: off, on, error, warning or
// info) into c; a bad ID or setting is an error that names it, and changes
// nothing.
func (c Config) ParseSetting(s string) error {
	id, setting, ok := strings.Cut(s, "=")
	if !ok {
		return fmt.Errorf("%q is not ID=setting (off, on, error, warning or info)", s)
	}
	if _, known := Lookup(id); !known {
		ids := make([]string, len(rules))
		for i, r := range rules {
			ids[i] = r.ID
		}
		return fmt.Errorf("%q is no rule's ID; the rules: %s", id, strings.Join(ids, ", "))
	}
	switch sv := Severity(setting); sv {
	case On, Off, Error, Warning, Info:
		c[id] = sv
		return nil
	}
	return fmt.Errorf("%s=%q: the setting is off, on, error, warning or info", id, setting)
}

// severity answers the severity the rule runs at under c, and false when it
// does not run.
func (c Config) severity(r Rule) (Severity, bool) {
	switch s, named := c[r.ID]; {
	case !named:
		return r.Severity, !r.Off
	case s == Off:
		return "", false
	case s == On:
		return r.Severity, true
	default:
		return s, true
	}
}

// Finding is one thing a rule found on a page.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Tool     string   `json:"tool,omitempty"`  // the tool (or form's toolname) it is about; empty for the page, or a refused registerTool()
	Frame    string   `json:"frame,omitempty"` // the frame's document, when not the page's
	Message  string   `json:"message"`
	// Line is the 1-based line of the page's document the finding points
	// at, when the browser said (a refused registerTool()).
	Line int `json:"line,omitempty"`
}

// Rules answers every rule, in the order of the README's table.
func Rules() []Rule { return slices.Clone(rules) }

// Check runs every rule that is on by default on a listing; the findings
// come gravest first, then by rule, tool and message.
func Check(l toollist.Listing) []Finding { return CheckWith(l, nil) }

// CheckWith is Check with the rules c turns on, off or to another severity.
func CheckWith(l toollist.Listing, c Config) []Finding { return CheckScoped(l, c, "") }

// CheckScoped is CheckWith with the rules of one scope only ("" for all):
// --scope tool leaves out what needs the whole page (a component's tools
// linted alone are no page with too many tools), --scope page keeps it.
func CheckScoped(l toollist.Listing, c Config, scope Scope) []Finding {
	p := newPage(l)
	out := []Finding{}
	for _, r := range rules {
		sev, on := c.severity(r)
		if !on || (scope != "" && r.Scope != scope) {
			continue
		}
		for _, f := range r.check(p) {
			f.Rule, f.Severity = r.ID, sev
			if f.Frame != "" && sameDocument(f.Frame, l.URL, l.URL) {
				f.Frame = ""
			}
			out = append(out, f)
		}
	}
	slices.SortStableFunc(out, func(a, b Finding) int {
		return cmp.Or(b.Severity.Rank()-a.Severity.Rank(), strings.Compare(a.Rule, b.Rule),
			strings.Compare(a.Tool, b.Tool), strings.Compare(a.Message, b.Message))
	})
	return out
}

// RulesOn answers the rules that run under c, in the README table's order.
func RulesOn(c Config) []Rule {
	var out []Rule
	for _, r := range rules {
		if _, on := c.severity(r); on {
			out = append(out, r)
		}
	}
	return out
}

// Lookup finds a rule by ID.
func Lookup(id string) (Rule, bool) {
	i := slices.IndexFunc(rules, func(r Rule) bool { return r.ID == id })
	if i < 0 {
		return Rule{}, false
	}
	return rules[i], true
}
