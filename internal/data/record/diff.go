package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/theory/jsonpath/spec"
)

// Difference is one place where an actual JSON value differs from the
// expected one: a JSON pointer (RFC 6901) into both, and what each holds
// there as compact JSON. A side that holds nothing there (a key or an
// element that is not there) is nil, which is not the same as JSON null.
type Difference struct {
	Pointer  string          `json:"pointer"`            // "" is the whole value
	Expected json.RawMessage `json:"expected,omitempty"` // nil: the expected value has nothing here
	Actual   json.RawMessage `json:"actual,omitempty"`   // nil: the actual value has nothing here
}

// String renders the difference as `/code: expected "OK", actual "FULL"`;
// the whole value is called "the whole value", a side with nothing there
// "nothing".
func (d Difference) String() string {
	where := d.Pointer
	if where == "" {
		where = "the whole value"
	}
	side := func(raw json.RawMessage) string {
		if raw == nil {
			return "nothing"
		}
		return string(raw)
	}
	return fmt.Sprintf("%s: expected %s, actual %s", where, side(d.Expected), side(d.Actual))
}

// Diff lists every place where got differs from want, as JSON values (key
// order, spacing and the spelling of numbers do not count; a
// json.RawMessage is read as the document it holds).
//
// Exact (subset false): the values are equal, and Diff answers nothing
// exactly when JSONEqual does. Subset: got holds at least what want says,
// at every depth: an object may have keys want does not name; an array
// must have as many elements as want's, each matching want's element at
// the same position (a subset again when it is an object or an array);
// strings, numbers, booleans and null must be equal.
//
// Differences come in one order: depth first, an object's keys sorted, an
// array's elements by index. An element or a key only one side has is one
// difference, with nothing on the other side.
func Diff(want, got any, subset bool) []Difference {
	var out []Difference
	diffAt(spec.NormalizedPath{}, Normalize(want), Normalize(got), subset, &out)
	return out
}

func diffAt(at spec.NormalizedPath, want, got any, subset bool, out *[]Difference) {
	here := func(child spec.NormalSelector) spec.NormalizedPath {
		return append(slices.Clip(at), child)
	}
	if c, ok := want.(map[string]any); ok && IsConstraint(c) {
		if ok, _ := satisfies(c, got); ok {
			return
		}
		*out = append(*out, Difference{Pointer: at.Pointer(), Expected: CompactJSON(want), Actual: CompactJSON(got)})
		return
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			break
		}
		names := slices.Collect(maps.Keys(w))
		if !subset {
			for k := range g {
				if _, both := w[k]; !both {
					names = append(names, k)
				}
			}
		}
		slices.Sort(names)
		for _, k := range names {
			wv, inWant := w[k]
			gv, inGot := g[k]
			switch {
			case !inGot:
				*out = append(*out, Difference{Pointer: here(spec.Name(k)).Pointer(), Expected: CompactJSON(wv)})
			case !inWant:
				*out = append(*out, Difference{Pointer: here(spec.Name(k)).Pointer(), Actual: CompactJSON(gv)})
			default:
				diffAt(here(spec.Name(k)), wv, gv, subset, out)
			}
		}
		return
	case []any:
		g, ok := got.([]any)
		if !ok {
			break
		}
		for i := range max(len(w), len(g)) {
			switch {
			case i >= len(g):
				*out = append(*out, Difference{Pointer: here(spec.Index(i)).Pointer(), Expected: CompactJSON(w[i])})
			case i >= len(w):
				*out = append(*out, Difference{Pointer: here(spec.Index(i)).Pointer(), Actual: CompactJSON(g[i])})
			default:
				diffAt(here(spec.Index(i)), w[i], g[i], subset, out)
			}
		}
		return
	default:
		if reflect.DeepEqual(want, got) {
			return
		}
	}
	*out = append(*out, Difference{Pointer: at.Pointer(), Expected: CompactJSON(want), Actual: CompactJSON(got)})
}

// CompactJSON answers a value as compact JSON, object keys sorted and <, >
// and & as they are (the text is for people and for JSON readers, not for
// HTML). A value JSON cannot hold is answered as a JSON string of its Go form.
func CompactJSON(v any) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		buf.Reset()
		_ = enc.Encode(fmt.Sprintf("%v", v))
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// DiffText renders differences for a person on one line, separated by
// "; ", at most limit of them (all when limit <= 0); the rest are counted.
func DiffText(ds []Difference, limit int) string {
	parts := make([]string, 0, len(ds))
	for i, d := range ds {
		if limit > 0 && i == limit {
			parts = append(parts, fmt.Sprintf("and %d more", len(ds)-limit))
			break
		}
		parts = append(parts, d.String())
	}
	return strings.Join(parts, "; ")
}
