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
