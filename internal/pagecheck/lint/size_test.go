package lint

import (
	"encoding/json"
	"strings"
	"testing"
)

// The thresholds hold at their bounds: 20 and 600 characters pass, 19 and
// 601 do not; 150 passes, 151 does not; depth 3 passes, 4 does not.
func TestSizeBounds(t *testing.T) {
	count := func(description, schema string) map[string]int {
		l := clean()
		l.Tools[0].Description = description
		l.Tools[0].InputSchema = json.RawMessage(schema)
		out := map[string]int{}
		for _, f := range Check(l) {
			out[f.Rule]++
		}
		return out
	}
	param := func(n int) string {
		return `{"type":"object","properties":{"city":{"type":"string","description":"` + strings.Repeat("x", n) + `"}}}`
	}
	nest := func(depth int) string {
		s := `{"type":"string","description":"leaf"}`
		for range depth {
			s = `{"type":"object","description":"d","properties":{"p":` + s + `}}`
		}
		return s
	}
	for _, c := range []struct {
		description, schema, rule string
		want                      int
	}{
		{strings.Repeat("y", 20), goodSchema, "description-length", 0},
		{strings.Repeat("y", 19), goodSchema, "description-length", 1},
		{strings.Repeat("y ", 300), goodSchema, "description-length", 0},
		{strings.Repeat("y ", 300) + "y", goodSchema, "description-length", 1},
		{"Search scheduled flights between two cities", param(150), "param-description-length", 0},
		{"Search scheduled flights between two cities", param(151), "param-description-length", 1},
		{"Search scheduled flights between two cities", nest(3), "schema-depth", 0},
		{"Search scheduled flights between two cities", nest(4), "schema-depth", 1},
		{"Search scheduled flights between two cities", nest(200), "schema-depth", 1},
	} {
		if got := count(c.description, c.schema); got[c.rule] != c.want || len(got) > c.want {
			t.Errorf("%d chars, %d bytes of schema: %v, want %s %d", len(c.description), len(c.schema), got, c.rule, c.want)
		}
	}
}

func TestNullLiteralsAreNamed(t *testing.T) {
	var v any
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"a":{"type":"null"},"b":{"const":null},"c":{"items":{"enum":[1,null]}},"d":{"type":"string","examples":[null]},"e":{"type":["string","null"]},"f":{"type":"string","default":"null"}}}`), &v)
	var at []string
	nullLiterals(v, "", 64, &at)
	if got := strings.Join(at, " "); got != "/properties/a/type /properties/b/const /properties/c/items/enum/1 /properties/d/examples/0 /properties/e/type" {
		t.Errorf("%s", got)
	}
}
