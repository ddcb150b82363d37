package record

import (
	"encoding/json"
	"strings"
	"testing"
)

// The operators and meanings of webmcp-evals' matcher, inside Diff: a
// constraint anywhere an expected value is written.
func TestConstraintsInDiff(t *testing.T) {
	for _, tt := range []struct {
		want, got string
		match     bool
	}{
		{`{"$pattern":"^BK-[0-9]{6}$"}`, `"BK-004211"`, true},
		{`{"$pattern":"^BK-[0-9]{6}$"}`, `"BK-42"`, false},
		{`{"$pattern":".*"}`, `12`, false},
		{`{"$contains":"Large"}`, `"Set pizza size to Large."`, true},
		{`{"$contains":"Large"}`, `["Large"]`, false},
		{`{"$gt":10}`, `11`, true}, {`{"$gt":10}`, `10`, false},
		{`{"$gte":10}`, `10`, true}, {`{"$lt":10}`, `10`, false}, {`{"$lte":10}`, `10`, true},
		{`{"$gte":1,"$lte":8}`, `8`, true}, {`{"$gte":1,"$lte":8}`, `9`, false},
		{`{"$type":"array"}`, `[]`, true}, {`{"$type":"object"}`, `[]`, false}, {`{"$type":"null"}`, `null`, true},
		{`{"$any":true}`, `{"x":1}`, true},
		{`{"id":{"$pattern":"^BK-"},"seats":{"$lte":8}}`, `{"id":"BK-1","seats":7,"extra":true}`, true},
		{`{"list":[{"$gt":10},{"$type":"string"}]}`, `{"list":[11,"a"]}`, true},
		{`{"list":[{"$gt":10},{"$type":"string"}]}`, `{"list":[11,3]}`, false},
	} {
		ds := Diff(rawJSON(tt.want), rawJSON(tt.got), true)
		if (len(ds) == 0) != tt.match {
			t.Errorf("Diff(%s, %s) = %v, want match %v", tt.want, tt.got, ds, tt.match)
		}
	}
}

func TestAnUnknownOperatorIsAnErrorNotAPass(t *testing.T) {
	for _, tt := range []struct{ want, err string }{
		{`{"code":{"$regex":"x"}}`, "/code: unknown operator $regex"},
		{`{"$pattern":"("}`, "$pattern"},
		{`{"n":{"$gt":"10"}}`, "/n: $gt takes a number"},
		{`[{"$type":"integer"}]`, "/0: $type takes one of"},
	} {
		err := CheckConstraints(rawJSON(tt.want))
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("CheckConstraints(%s) = %v, want an error with %q", tt.want, err, tt.err)
		}
	}
	if err := CheckConstraints(rawJSON(`{"a":{"$any":true},"b":[1,{"$lte":3}],"c":"$not-an-operator-in-a-value"}`)); err != nil {
		t.Errorf("good constraints refused: %v", err)
	}
	// Even unchecked, Diff never lets an unknown operator pass.
	if len(Diff(rawJSON(`{"$regex":"x"}`), "x", true)) == 0 {
		t.Error("an unknown operator matched")
	}
}

func rawJSON(s string) any { return Normalize(json.RawMessage(s)) }
