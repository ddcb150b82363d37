package record

import (
	"encoding/json"
	"testing"
)

func TestJSONEqual(t *testing.T) {
	for _, tt := range []struct {
		a, b any
		want bool
	}{
		{json.RawMessage(`{"a":1,"b":[1,2]}`), json.RawMessage(`{ "b": [1, 2], "a": 1.0 }`), true},
		{map[string]any{"a": 1}, json.RawMessage(`{"a":1}`), true},
		{map[string]int{"n": 8}, map[string]any{"n": 8.0}, true},
		{json.RawMessage(`[1,2]`), json.RawMessage(`[2,1]`), false},
		{json.RawMessage(`{"a":1}`), json.RawMessage(`{"a":1,"b":null}`), false},
		{"1", 1, false},
		{nil, json.RawMessage(`null`), true},
		{map[string]any{}, nil, false},
	} {
		if got := JSONEqual(tt.a, tt.b); got != tt.want {
			t.Errorf("JSONEqual(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestDecodeOneRefusesWhatFollowsTheValue(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{`{"a":1}`, true},
		{"{\"a\":1}\n  \t", true},
		{`{"a":1}{"a":2}`, false},
		{`{"a":1}]`, false}, // json.Decoder.More says false here: a stray bracket must still be refused
		{`{"a":1} x`, false},
		{`{"a":`, false},
	} {
		var v map[string]any
		if err := DecodeOne([]byte(tc.in), &v); (err == nil) != tc.ok {
			t.Errorf("DecodeOne(%q): error %v, want ok=%v", tc.in, err, tc.ok)
		}
	}
}
