package record

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
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
// Several operators in one object must all hold. Unlike webmcp-evals, an
// unknown operator is an error when the scenario loads, never a silent pass.

// Operators lists the constraint operators.
var Operators = []string{"$pattern", "$contains", "$gt", "$gte", "$lt", "$lte", "$type", "$any"}

var jsonTypes = []string{"string", "number", "boolean", "array", "object", "null"}

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
	var err error
	walk(Normalize(want), "", func(at string, v any) bool {
		if err != nil || !IsConstraint(v) {
			return err == nil
		}
		for op, arg := range v.(map[string]any) {
			if e := checkOperator(op, arg); e != nil {
				err = fmt.Errorf("%s: %w", cmpOrRoot(at), e)
				return false
			}
		}
		return false // a constraint's argument is not walked into
	})
	return err
}

func cmpOrRoot(at string) string {
	if at == "" {
		return "the value"
	}
	return at
}

func checkOperator(op string, arg any) error {
	switch op {
	case "$pattern":
		s, ok := arg.(string)
		if !ok {
			return fmt.Errorf("$pattern needs a string, not %s", CompactJSON(arg))
		}
		if _, err := regexp.Compile(s); err != nil {
			return fmt.Errorf("$pattern %q: %w", s, err)
		}
	case "$contains":
		if _, ok := arg.(string); !ok {
			return fmt.Errorf("$contains needs a string, not %s", CompactJSON(arg))
		}
	case "$gt", "$gte", "$lt", "$lte":
		if _, ok := arg.(float64); !ok {
			return fmt.Errorf("%s needs a number, not %s", op, CompactJSON(arg))
		}
	case "$type":
		if s, ok := arg.(string); !ok || !slices.Contains(jsonTypes, s) {
			return fmt.Errorf("$type is one of %s, not %s", strings.Join(jsonTypes, ", "), CompactJSON(arg))
		}
	case "$any":
	default:
		return fmt.Errorf("unknown operator %s (known: %s)", op, strings.Join(Operators, ", "))
	}
	return nil
}

// satisfies tells whether got meets every operator of a constraint (one
// CheckConstraints accepted), and says which one it broke.
func satisfies(c map[string]any, got any) (bool, string) {
	for _, op := range slices.Sorted(mapsKeys(c)) {
		arg := c[op]
		switch op {
		case "$pattern":
			s, ok := got.(string)
			re, err := regexp.Compile(arg.(string))
			if !ok || err != nil || !re.MatchString(s) {
				return false, op
			}
		case "$contains":
			s, ok := got.(string)
			if !ok || !strings.Contains(s, arg.(string)) {
				return false, op
			}
		case "$gt", "$gte", "$lt", "$lte":
			n, ok := got.(float64)
			b, _ := arg.(float64)
			if !ok || !map[string]bool{"$gt": n > b, "$gte": n >= b, "$lt": n < b, "$lte": n <= b}[op] {
				return false, op
			}
		case "$type":
			if typeName(got) != arg {
				return false, op
			}
		case "$any":
		default:
			return false, op // unknown: never a silent pass
		}
	}
	return true, ""
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func mapsKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// walk visits every value of a decoded JSON document with its pointer, depth
// first; visit answers whether to go into the value's children.
func walk(v any, at string, visit func(at string, v any) bool) {
	if !visit(at, v) {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(mapsKeys(x)) {
			walk(x[k], at+"/"+strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1"), visit)
		}
	case []any:
		for i, e := range x {
			walk(e, fmt.Sprintf("%s/%d", at, i), visit)
		}
	}
}
