package record

import (
	"strings"

	"github.com/agentready/agentready/internal/data/match"
)

// Constraints let an expected value say what it must be instead of what it
// is, wherever an expected value is written (a tool's output, a call's
// input, a state path, a request body): an object all of whose keys start
// with "$" is a constraint, with the operators and meanings of the
// webmcp-evals files the suite imports —
//
//	$pattern  a string matching the regular expression (RE2, unanchored)
//	$contains a string containing the text
//	$gt $gte $lt $lte  a number above / at least / below / at most the bound
//	$type     "string", "number", "boolean", "array", "object" or "null"
//	$any      anything (true), the value only has to be there
//
// Several operators in one object must all hold. The one matcher is package
// match (webmcp-evals' semantics, and what its eval files are judged by):
// record only finds constraints inside the values it diffs. Unlike
// webmcp-evals, an unknown operator, or an object that mixes operators
// with plain keys, is an error when the scenario loads, never a silent pass.

// Operators lists the constraint operators.
var Operators = match.Operators

// IsConstraint tells whether v (as JSON makes it) is a constraint object.
func IsConstraint(v any) bool {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		return false
	}
	for k := range m {
		if !strings.HasPrefix(k, "$") {
			return false
		}
	}
	return true
}

// CheckConstraints answers an error for the first constraint anywhere in an
// expected value that cannot be evaluated: an unknown operator, a pattern
// that does not compile, a bound that is not a number, an unknown type.
// The error names the JSON pointer of the constraint.
func CheckConstraints(want any) error {
	return match.Check(Normalize(want))
}

// satisfies tells whether got meets every operator of a constraint (one
// CheckConstraints accepted), and says which one it broke.
func satisfies(c map[string]any, got any) (bool, string) {
	if m := match.Match(c, got); m != nil {
		return false, m.Reason
	}
	return true, ""
}
