// Package match is the constraint matcher of webmcp-evals (GoogleChromeLabs
// webmcp-tools): whether an actual JSON value (a tool call's arguments or
// its result) matches an expected one that may hold constraint objects.
// It is pure, and the suite reuses it: an eval case's `arguments` and
// `result`, and a scenario output written with `match: constraints`.
//
// An expected value matches as webmcp-evals' matcher.ts matches it:
//
//   - a constraint object (an object with at least one key, every key
//     starting with "$") holds operators, each of which must hold: $pattern
//     (a regular expression the string must contain a match of; a leading
//     "(?flags)" of d g i m s u v y as in webmcp-evals), $contains (a
//     substring of a string), $gt $gte $lt $lte (a number's bounds), $type
//     (string, number, boolean, array, object or null) and $any (any value,
//     as long as it is there);
//   - an object matches an object that has at least its keys, each value
//     matching (subset: more keys are fine, at every depth);
//   - an array matches an array of the same length, element by element at
//     the same position;
//   - anything else must be equal (numbers as numbers: 1 and 1.0 are equal).
//
// Unlike webmcp-evals, which passes an operator it does not know without a
// word, Check refuses it (and an operand of the wrong type, a $pattern Go
// cannot compile, an object that mixes operators with plain keys) before
// anything runs: a typo must not read as a pass.
package match

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
)

// Operators are the constraint operators, in the order they are checked.
var Operators = []string{"$pattern", "$contains", "$gt", "$gte", "$lt", "$lte", "$type", "$any"}

// Types are the words $type knows.
var Types = []string{"string", "number", "boolean", "array", "object", "null"}

// Mismatch says where an actual value first fails its expectation.
type Mismatch struct {
	Pointer  string // RFC 6901, "" for the whole value
	Expected any
	Actual   any
	Missing  bool   // the actual value has nothing at Pointer
	Reason   string // what failed, for people
}

func (m *Mismatch) Error() string {
	where := m.Pointer
	if where == "" {
		where = "the whole value"
	}
	return where + ": " + m.Reason
}

// Match answers nil when actual matches expected, else where and why it
// first does not. Values are JSON values as encoding/json decodes them
// (ints from YAML are numbers too). An expectation Check refuses never
// matches.
func Match(expected, actual any) *Mismatch {
	return matchAt("", expected, actual)
}

// Check refuses an expectation that cannot mean what it says: see the
// package comment. The error names the place by JSON pointer.
func Check(expected any) error {
	return checkAt("", expected)
}

// Concrete refuses a value that holds a constraint object anywhere: a value
// that is to be sent (a call's arguments), not matched.
func Concrete(v any) error { return concreteAt("", v) }

func concreteAt(at string, v any) error {
	if m, ok := v.(map[string]any); ok && isConstraint(m) {
		return fmt.Errorf("%s: %s is a constraint, not a value to send", pointerOr(at), strings.Join(sortedKeys(m), ", "))
	}
	switch v := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(v) {
			if err := concreteAt(Pointer(at, k), v[k]); err != nil {
				return err
			}
		}
	case []any:
		for i, e := range v {
			if err := concreteAt(Pointer(at, fmt.Sprint(i)), e); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkAt(at string, v any) error {
	switch v := v.(type) {
	case map[string]any:
		var ops, plain []string
		for _, k := range sortedKeys(v) {
			if strings.HasPrefix(k, "$") {
				ops = append(ops, k)
			} else {
				plain = append(plain, k)
			}
		}
		switch {
		case len(ops) > 0 && len(plain) > 0:
			return fmt.Errorf("%s: mixes operators (%s) with keys (%s): an object is either a constraint (every key an operator) or a value to match", pointerOr(at), strings.Join(ops, ", "), strings.Join(plain, ", "))
		case len(ops) > 0:
			for _, op := range ops {
				if err := checkOperator(op, v[op]); err != nil {
					return fmt.Errorf("%s: %w", pointerOr(at), err)
				}
			}
			return nil
		}
		for _, k := range plain {
			if err := checkAt(Pointer(at, k), v[k]); err != nil {
				return err
			}
		}
	case []any:
		for i, e := range v {
			if err := checkAt(Pointer(at, fmt.Sprint(i)), e); err != nil {
				return err
			}
		}
	case nil, string, bool:
	default:
		if _, ok := number(v); !ok {
			return fmt.Errorf("%s: %T is not a JSON value", pointerOr(at), v)
		}
	}
	return nil
}

func checkOperator(op string, operand any) error {
	switch op {
	case "$pattern":
		s, ok := operand.(string)
		if !ok {
			return fmt.Errorf("$pattern takes a regular expression (a string), not %s", show(operand))
		}
		if _, err := compile(s); err != nil {
			return err
		}
	case "$contains":
		if _, ok := operand.(string); !ok {
			return fmt.Errorf("$contains takes a string, not %s", show(operand))
		}
	case "$gt", "$gte", "$lt", "$lte":
		if _, ok := number(operand); !ok {
			return fmt.Errorf("%s takes a number, not %s", op, show(operand))
		}
	case "$type":
		s, ok := operand.(string)
		if !ok || !slices.Contains(Types, s) {
			return fmt.Errorf("$type takes one of %s, not %s", strings.Join(Types, ", "), show(operand))
		}
	case "$any":
	default:
		return fmt.Errorf("unknown operator %s (known: %s)", op, strings.Join(Operators, ", "))
	}
	return nil
}

// compile reads a $pattern as webmcp-evals does: a leading (?flags) of the
// JavaScript flags d g i m s u v y. i, m and s mean in Go what they mean in
// JavaScript; d, g, y, u and v change nothing for a test whether the
// string holds a match (Go's expressions are always Unicode-aware). What
// RE2 does not have (lookaround, backreferences) is refused by name.
func compile(p string) (*regexp.Regexp, error) {
	expr := p
	if m := regexp.MustCompile(`^\(\?([a-zA-Z]+)\)`).FindStringSubmatch(p); m != nil {
		var keep []rune
		for _, f := range m[1] {
			switch f {
			case 'i', 'm', 's':
				keep = append(keep, f)
			case 'd', 'g', 'y', 'u', 'v':
			default:
				return nil, fmt.Errorf("$pattern %q: unsupported inline flag (?%c) (supported: d, g, i, m, s, u, v, y)", p, f)
			}
		}
		expr = p[len(m[0]):]
		if len(keep) > 0 {
			expr = "(?" + string(keep) + ")" + expr
		}
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("$pattern %q is not a regular expression Go's regexp (RE2) reads: %v", p, err)
	}
	return re, nil
}

func matchAt(at string, expected, actual any) *Mismatch {
	if m, ok := expected.(map[string]any); ok && isConstraint(m) {
		return constraintAt(at, m, actual)
	}
	switch e := expected.(type) {
	case map[string]any:
		a, ok := actual.(map[string]any)
		if !ok {
			return &Mismatch{Pointer: at, Expected: expected, Actual: actual, Reason: fmt.Sprintf("expected an object, actual %s", show(actual))}
		}
		for _, k := range sortedKeys(e) {
			av, has := a[k]
			if !has {
				return &Mismatch{Pointer: Pointer(at, k), Expected: e[k], Missing: true, Reason: "expected " + show(e[k]) + ", actual nothing (no such key)"}
			}
			if m := matchAt(Pointer(at, k), e[k], av); m != nil {
				return m
			}
		}
		return nil
	case []any:
		a, ok := actual.([]any)
		if !ok {
			return &Mismatch{Pointer: at, Expected: expected, Actual: actual, Reason: fmt.Sprintf("expected an array, actual %s", show(actual))}
		}
		if len(a) != len(e) {
			return &Mismatch{Pointer: at, Expected: expected, Actual: actual, Reason: fmt.Sprintf("expected an array of %d, actual %d elements", len(e), len(a))}
		}
		for i := range e {
			if m := matchAt(Pointer(at, fmt.Sprint(i)), e[i], a[i]); m != nil {
				return m
			}
		}
		return nil
	}
	if equal(expected, actual) {
		return nil
	}
	return &Mismatch{Pointer: at, Expected: expected, Actual: actual, Reason: fmt.Sprintf("expected %s, actual %s", show(expected), show(actual))}
}

// constraintAt checks every operator of c on actual, in Operators order.
func constraintAt(at string, c map[string]any, actual any) *Mismatch {
	fail := func(format string, args ...any) *Mismatch {
		return &Mismatch{Pointer: at, Expected: c, Actual: actual, Reason: fmt.Sprintf(format, args...)}
	}
	for _, op := range Operators {
		operand, ok := c[op]
		if !ok {
			continue
		}
		switch op {
		case "$pattern":
			s, isString := actual.(string)
			if !isString {
				return fail("$pattern %s wants a string, actual %s", show(operand), show(actual))
			}
			re, err := compile(fmt.Sprint(operand))
			if err != nil {
				return fail("%v", err)
			}
			if !re.MatchString(s) {
				return fail("%s does not match $pattern %s", show(actual), show(operand))
			}
		case "$contains":
			s, isString := actual.(string)
			if !isString {
				return fail("$contains %s wants a string, actual %s", show(operand), show(actual))
			}
			if sub, _ := operand.(string); !strings.Contains(s, sub) {
				return fail("%s does not contain %s", show(actual), show(operand))
			}
		case "$gt", "$gte", "$lt", "$lte":
			n, isNumber := number(actual)
			if !isNumber {
				return fail("%s %s wants a number, actual %s", op, show(operand), show(actual))
			}
			bound, _ := number(operand)
			holds := map[string]bool{"$gt": n > bound, "$gte": n >= bound, "$lt": n < bound, "$lte": n <= bound}[op]
			if !holds {
				return fail("%s is not %s %s", show(actual), map[string]string{"$gt": ">", "$gte": ">=", "$lt": "<", "$lte": "<="}[op], show(operand))
			}
		case "$type":
			if got := typeOf(actual); got != operand {
				return fail("%s is of type %s, not %s", show(actual), got, operand)
			}
		case "$any":
		}
	}
	for _, op := range sortedKeys(c) {
		if !slices.Contains(Operators, op) {
			return fail("unknown operator %s", op)
		}
	}
	return nil
}

func isConstraint(m map[string]any) bool {
	if len(m) == 0 {
		return false
	}
	for k := range m {
		if !strings.HasPrefix(k, "$") {
			return false
		}
	}
	return true
}

func typeOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	if _, ok := number(v); ok {
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, !math.IsNaN(n)
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case int32:
		return float64(n), true
	case uint64:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

func equal(a, b any) bool {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x == y
	}
	switch a := a.(type) {
	case nil:
		return b == nil
	case string:
		s, ok := b.(string)
		return ok && s == a
	case bool:
		t, ok := b.(bool)
		return ok && t == a
	}
	return false
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 80 {
		return string(b[:77]) + "…"
	}
	return string(b)
}

// Pointer is the JSON pointer of key inside the value at at (RFC 6901: ~
// and / escaped): the one spelling of a place in a document, for the
// differences here and the replays' body fields.
func Pointer(at, key string) string {
	return at + "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
}

func pointerOr(at string) string {
	if at == "" {
		return "the whole value"
	}
	return at
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
