package record

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func raw(s string) json.RawMessage { return json.RawMessage(s) }

// d builds a difference; "-" stands for a side that holds nothing.
func d(ptr, expected, actual string) Difference {
	side := func(s string) json.RawMessage {
		if s == "-" {
			return nil
		}
		return json.RawMessage(s)
	}
	return Difference{Pointer: ptr, Expected: side(expected), Actual: side(actual)}
}

func TestDiff(t *testing.T) {
	for _, tt := range []struct {
		name      string
		want, got any
		subset    bool
		diffs     []Difference
	}{
		{"equal objects, other order and spelling", raw(`{"a":1,"b":[1,2]}`), raw(`{ "b": [1, 2.0], "a": 1e0 }`), false, nil},
		{"YAML's ints against JSON's floats", map[string]any{"n": 8, "s": []any{"x"}}, raw(`{"n":8.0,"s":["x"]}`), false, nil},
		{"a changed value", raw(`{"code":"OK","ok":true}`), raw(`{"code":"FULL","ok":true}`), false,
			[]Difference{d("/code", `"OK"`, `"FULL"`)}},
		{"a missing key", raw(`{"code":"OK","ok":true}`), raw(`{"code":"OK"}`), true,
			[]Difference{d("/ok", `true`, "-")}},
		{"an extra key, exact", raw(`{"code":"OK"}`), raw(`{"code":"OK","message":"hi"}`), false,
			[]Difference{d("/message", "-", `"hi"`)}},
		{"an extra key, subset", raw(`{"code":"OK"}`), raw(`{"code":"OK","message":"hi"}`), true, nil},
		{"an extra key deep down, subset", raw(`{"a":{"b":{"c":1}}}`), raw(`{"a":{"b":{"c":1,"d":2},"e":3}}`), true, nil},
		{"an extra key deep down, exact", raw(`{"a":{"b":{"c":1}}}`), raw(`{"a":{"b":{"c":1,"d":2}}}`), false,
			[]Difference{d("/a/b/d", "-", `2`)}},
		{"null is not nothing", raw(`{"a":null}`), raw(`{}`), true, []Difference{d("/a", `null`, "-")}},
		{"nothing is not null", raw(`{}`), raw(`{"a":null}`), false, []Difference{d("/a", "-", `null`)}},
		{"a string is not a number", raw(`{"n":"1"}`), raw(`{"n":1}`), true, []Difference{d("/n", `"1"`, `1`)}},
		{"an object against an array", raw(`{"a":1}`), raw(`[1]`), true, []Difference{d("", `{"a":1}`, `[1]`)}},
		{"an array against an object", raw(`[1]`), raw(`{"a":1}`), true, []Difference{d("", `[1]`, `{"a":1}`)}},
		{"text", "Set pizza size to Large.", raw(`"Set pizza size to Small."`), true,
			[]Difference{d("", `"Set pizza size to Large."`, `"Set pizza size to Small."`)}},
		{"the same text", "Set pizza size to Large.", raw(`"Set pizza size to Large."`), false, nil},
		{"arrays by position, elements subsets", raw(`[{"field":"email"},{"field":"name"}]`),
			raw(`[{"field":"email","message":"not an email"},{"field":"name","message":"missing"}]`), true, nil},
		{"arrays in another order", raw(`[{"field":"email"},{"field":"name"}]`), raw(`[{"field":"name"},{"field":"email"}]`), true,
			[]Difference{d("/0/field", `"email"`, `"name"`), d("/1/field", `"name"`, `"email"`)}},
		{"an array with an element more, subset", raw(`[1,2]`), raw(`[1,2,3]`), true, []Difference{d("/2", "-", `3`)}},
		{"an array with an element less", raw(`[1,2,{"a":1}]`), raw(`[1]`), true,
			[]Difference{d("/1", `2`, "-"), d("/2", `{"a":1}`, "-")}},
		{"an empty array against a full one", raw(`[]`), raw(`[1]`), true, []Difference{d("/0", "-", `1`)}},
		{"an empty object holds nothing, subset", raw(`{}`), raw(`{"a":1}`), true, nil},
		{"an empty object against an array", raw(`{}`), raw(`[]`), true, []Difference{d("", `{}`, `[]`)}},
		{"keys that need escaping", raw(`{"a/b":1,"m~n":{"":2}}`), raw(`{"a/b":2,"m~n":{"":3}}`), false,
			[]Difference{d("/a~1b", `1`, `2`), d("/m~0n/", `2`, `3`)}},
		{"several, in key order, depth first", raw(`{"z":1,"a":{"y":[1,{"k":true}]},"m":"x"}`), raw(`{"z":2,"a":{"y":[1,{"k":false}]},"m":"x","b":0}`), false,
			[]Difference{d("/a/y/1/k", `true`, `false`), d("/b", "-", `0`), d("/z", `1`, `2`)}},
		{"null against null", nil, raw(`null`), false, nil},
		{"nothing recorded against an object", map[string]any{"a": 1}, nil, true, []Difference{d("", `{"a":1}`, `null`)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Diff(tt.want, tt.got, tt.subset)
			if !slices.EqualFunc(got, tt.diffs, sameDifference) {
				t.Errorf("Diff =\n  %v\nwant\n  %v", got, tt.diffs)
			}
			if !tt.subset && (len(got) == 0) != JSONEqual(tt.want, tt.got) {
				t.Errorf("exact Diff and JSONEqual disagree: %d differences, JSONEqual %v", len(got), JSONEqual(tt.want, tt.got))
			}
			// A subset of a value is found wherever it is equal.
			if len(Diff(tt.want, tt.got, false)) == 0 && len(Diff(tt.want, tt.got, true)) != 0 {
				t.Error("equal, but not a subset")
			}
		})
	}
}

func sameDifference(a, b Difference) bool {
	return a.Pointer == b.Pointer && (a.Expected == nil) == (b.Expected == nil) && (a.Actual == nil) == (b.Actual == nil) &&
		JSONEqual(a.Expected, b.Expected) && JSONEqual(a.Actual, b.Actual)
}

// The pointers are the RFC 6901 pointers of the places they name: each one
// resolves, in the side that holds something, to the value it reports.
func TestDiffPointersResolve(t *testing.T) {
	want := raw(`{"a/b":{"m~n":[1,{"x":"y"}]},"c":[true,false],"e":{}}`)
	got := raw(`{"a/b":{"m~n":[2,{"x":"z"},3]},"c":[true],"d":null,"e":[]}`)
	ds := Diff(want, got, false)
	if len(ds) != 6 {
		t.Fatalf("%d differences: %v", len(ds), ds)
	}
	for _, df := range ds {
		if df.Expected != nil && !JSONEqual(resolve(t, want, df.Pointer), df.Expected) {
			t.Errorf("%s: expected %s is not what the pointer finds in want", df.Pointer, df.Expected)
		}
		if df.Actual != nil && !JSONEqual(resolve(t, got, df.Pointer), df.Actual) {
			t.Errorf("%s: actual %s is not what the pointer finds in got", df.Pointer, df.Actual)
		}
	}
}

// resolve follows an RFC 6901 pointer, written out here so that the test
// does not trust the code it checks.
func resolve(t *testing.T, doc json.RawMessage, ptr string) any {
	t.Helper()
	v := Normalize(doc)
	if ptr == "" {
		return v
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			var i int
			if err := json.Unmarshal([]byte(tok), &i); err != nil || i >= len(x) {
				t.Fatalf("%s: no element %q", ptr, tok)
			}
			v = x[i]
		default:
			t.Fatalf("%s: %q goes into a scalar", ptr, tok)
		}
	}
	return v
}

func TestDiffText(t *testing.T) {
	ds := Diff(raw(`{"a":1,"b":[true],"c":"x"}`), raw(`{"a":2,"b":[],"d":null}`), false)
	got := DiffText(ds, 0)
	want := `/a: expected 1, actual 2; /b/0: expected true, actual nothing; /c: expected "x", actual nothing; /d: expected nothing, actual null`
	if got != want {
		t.Errorf("DiffText =\n  %s\nwant\n  %s", got, want)
	}
	if got := DiffText(ds, 2); got != `/a: expected 1, actual 2; /b/0: expected true, actual nothing; and 2 more` {
		t.Errorf("DiffText with a limit: %s", got)
	}
	if got := Diff("a", "b", true)[0].String(); got != `the whole value: expected "a", actual "b"` {
		t.Errorf("the root: %s", got)
	}
}

// The differences marshal to JSON with nothing where a side holds nothing,
// and null where it holds null.
func TestDifferenceJSON(t *testing.T) {
	b, err := json.Marshal(Diff(raw(`{"a":null,"b":1}`), raw(`{"b":null}`), true))
	if err != nil {
		t.Fatal(err)
	}
	if want := `[{"pointer":"/a","expected":null},{"pointer":"/b","expected":1,"actual":null}]`; string(b) != want {
		t.Errorf("JSON %s, want %s", b, want)
	}
}
