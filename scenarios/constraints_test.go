package scenarios

import (
	"encoding/json"
	"strings"
	"testing"
)

// An output matched by constraints loads when webmcp-evals could mean it,
// survives the trip through a bundle's JSON, and is refused by name when
// an operator is unknown (webmcp-evals would pass it silently).
func TestConstraintOutputsLoadOrAreRefused(t *testing.T) {
	good := edit(t, "        status: completed\n", "        status: completed\n        match: constraints\n        output: {code: {$pattern: ^OK$}, n: {$gte: 1}}\n")
	sc, err := Parse(badName, []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	x := sc.Agent.Calls[0].Expect
	if x.Match != MatchConstraints || x.Output["n"].(map[string]any)["$gte"] != 1 {
		t.Errorf("%+v", x)
	}
	b, err := json.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	var back Scenario
	if err := json.Unmarshal(b, &back); err != nil || back.Agent.Calls[0].Expect.Match != MatchConstraints {
		t.Errorf("through JSON: %v %+v", err, back.Agent.Calls[0].Expect)
	}
	for _, tc := range []struct{ add, want string }{
		{"        match: constraints\n        output: {code: {$regex: x}}\n", "unknown operator $regex"},
		{"        match: constraints\n        output: {code: {$pattern: x, name: y}}\n", "mixes operators"},
		{"        match: constraints\n", "there is no output"},
	} {
		_, err := Parse(badName, []byte(edit(t, "        status: completed\n", "        status: completed\n"+tc.add)))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.add, err, tc.want)
		}
	}
}
