package match

import (
	"encoding/json"
	"strings"
	"testing"
)

func js(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// Each operator, and each structural rule, with a value it matches and one
// it does not: no check here can pass on everything.
func TestMatchAsWebMCPEvalsMatches(t *testing.T) {
	for _, tc := range []struct {
		name, expected, good, bad, reason string
	}{
		{"$pattern", `{"$pattern":"^TASK_[A-Z]+$"}`, `"TASK_ADDED"`, `"task_added"`, "does not match $pattern"},
		{"$pattern is a search", `{"$pattern":"milk"}`, `"buy milk today"`, `"buy bread"`, "does not match"},
		{"$pattern (?i)", `{"$pattern":"(?i)^colou?r$"}`, `"COLOR"`, `"colors"`, "does not match"},
		{"$pattern wants a string", `{"$pattern":"1"}`, `"1"`, `1`, "wants a string"},
		{"$contains", `{"$contains":"milk"}`, `"buy milk"`, `"buy Milk"`, "does not contain"},
		{"$contains wants a string", `{"$contains":"a"}`, `"a"`, `["a"]`, "wants a string"},
		{"$gt", `{"$gt":7}`, `8`, `7`, "is not > 7"},
		{"$gte", `{"$gte":1}`, `1`, `0.5`, "is not >= 1"},
		{"$lt", `{"$lt":3}`, `2.9`, `3`, "is not < 3"},
		{"$lte", `{"$lte":8}`, `8`, `9`, "is not <= 8"},
		{"$gt wants a number", `{"$gt":0}`, `1`, `"1"`, "wants a number"},
		{"bounds together", `{"$gt":7,"$lte":8}`, `8`, `7`, "is not > 7"},
		{"$type string", `{"$type":"string"}`, `""`, `0`, "not string"},
		{"$type number", `{"$type":"number"}`, `1.5`, `"1.5"`, "not number"},
		{"$type boolean", `{"$type":"boolean"}`, `false`, `null`, "not boolean"},
		{"$type array", `{"$type":"array"}`, `[]`, `{}`, "not array"},
		{"$type object", `{"$type":"object"}`, `{}`, `[]`, "not object"},
		{"$type null", `{"$type":"null"}`, `null`, `0`, "not null"},
		{"$any needs the key", `{"ok":{"$any":true}}`, `{"ok":false}`, `{"okay":true}`, "no such key"},
		{"objects are subsets", `{"code":"FOUND"}`, `{"code":"FOUND","total":3}`, `{"code":"EMPTY","total":3}`, `expected "FOUND"`},
		{"nested constraints", `{"task":{"text":{"$contains":"milk"}}}`, `{"task":{"id":"t1","text":"milk"}}`, `{"task":{"id":"t1","text":"bread"}}`, "/task/text"},
		{"arrays by position", `["a","b"]`, `["a","b"]`, `["b","a"]`, "/0"},
		{"arrays by length", `[{"id":{"$type":"string"}}]`, `[{"id":"x"}]`, `[{"id":"x"},{"id":"y"}]`, "array of 1, actual 2"},
		{"an object is not an array", `{}`, `{"a":1}`, `[]`, "expected an object"},
		{"numbers as numbers", `1`, `1.0`, `"1"`, "expected 1"},
		{"null is a value", `{"a":null}`, `{"a":null}`, `{}`, "no such key"},
	} {
		e := js(t, tc.expected)
		if err := Check(e); err != nil {
			t.Errorf("%s: Check: %v", tc.name, err)
			continue
		}
		if m := Match(e, js(t, tc.good)); m != nil {
			t.Errorf("%s: %s does not match %s: %v", tc.name, tc.good, tc.expected, m)
		}
		m := Match(e, js(t, tc.bad))
		if m == nil {
			t.Errorf("%s: %s matches %s", tc.name, tc.bad, tc.expected)
		} else if !strings.Contains(m.Error(), tc.reason) {
			t.Errorf("%s: mismatch %q, want it to say %q", tc.name, m.Error(), tc.reason)
		}
	}
}

// YAML gives ints where JSON gives floats: both are numbers.
func TestNumbersOfAnyGoType(t *testing.T) {
	if m := Match(map[string]any{"n": map[string]any{"$gte": 2}}, map[string]any{"n": 2.0}); m != nil {
		t.Error(m)
	}
	if m := Match(map[string]any{"n": 2}, map[string]any{"n": 3.0}); m == nil {
		t.Error("2 matched 3")
	}
}

// What webmcp-evals would pass without a word, Check refuses by name.
func TestCheckRefusesWhatCannotBeMeant(t *testing.T) {
	for _, tc := range []struct{ expected, want string }{
		{`{"$contain":"x"}`, "unknown operator $contain"},
		{`{"a":[{"b":{"$regex":"x"}}]}`, "/a/0/b: unknown operator $regex"},
		{`{"$pattern":"x","name":"y"}`, "mixes operators"},
		{`{"$pattern":3}`, "takes a regular expression"},
		{`{"$pattern":"(?<=a)b"}`, "RE2"},
		{`{"$pattern":"(?x)a b"}`, "unsupported inline flag (?x)"},
		{`{"$contains":1}`, "takes a string"},
		{`{"$gt":"1"}`, "takes a number"},
		{`{"$type":"undefined"}`, "$type takes one of"},
		{`{"$type":1}`, "$type takes one of"},
	} {
		err := Check(js(t, tc.expected))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.expected, err, tc.want)
		}
	}
	// An unknown operator that slipped past Check still never matches.
	if Match(js(t, `{"$contain":"x"}`), "x") == nil {
		t.Error("an unknown operator matched")
	}
}

func TestConcreteRefusesConstraints(t *testing.T) {
	if err := Concrete(js(t, `{"text":"milk","n":[1,{"a":"b"}],"$schema":{"x":1}}`)); err != nil {
		t.Errorf("a concrete value: %v", err)
	}
	for _, v := range []string{`{"text":{"$contains":"milk"}}`, `[{"$any":true}]`, `{"$type":"string"}`} {
		if err := Concrete(js(t, v)); err == nil || !strings.Contains(err.Error(), "is a constraint") {
			t.Errorf("%s: %v", v, err)
		}
	}
}
