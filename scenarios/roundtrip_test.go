package scenarios

import (
	"encoding/json"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// roundTrips answers sc after a trip through JSON (what a bundle's
// scenario.json holds) and one through YAML.
func roundTrips(t *testing.T, sc Scenario) (fromJSON, fromYAML Scenario) {
	t.Helper()
	b, err := json.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &fromJSON); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	y, err := yaml.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	if fromYAML, err = Parse("again.yaml", y); err != nil {
		t.Fatalf("%v\n%s", err, y)
	}
	return fromJSON, fromYAML
}

// An empty list or object says something an absent one does not:
// `exactly: []` is a page with no tools, `input: {}` a call with no input.
// Both survive JSON and YAML, and an absent key stays absent.
func TestEmptyListsAndObjectsSurviveRoundTrips(t *testing.T) {
	y := edit(t, "\nexpect:\n  calls:\n    exactly:\n      - tool: prepare\n",
		"\nexpect:\n  catalog: {exactly: []}\n  calls:\n    exactly:\n      - {tool: lookup, input: {}}\n")
	if _, err := Parse(badName, []byte(y)); err == nil || !strings.Contains(err.Error(), `"lookup" is not a tool the page offers`) {
		t.Fatalf("a required call to a tool that exactly: [] says is not offered, and no call brings, loaded: %v", err)
	}
	y = edit(t, "\nexpect:\n  calls:\n    exactly:\n      - tool: prepare\n",
		"\nexpect:\n  catalog: {exactly: []}\n  calls:\n    none: true\n")
	sc, err := Parse(badName, []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Expect.Catalog.Exactly == nil || len(sc.Expect.Catalog.Exactly) != 0 {
		t.Fatalf("exactly: [] loads as %#v", sc.Expect.Catalog.Exactly)
	}
	y = edit(t, "\nexpect:\n  calls:\n    exactly:\n      - tool: prepare\n",
		"\nexpect:\n  calls:\n    exactly:\n      - {tool: prepare, input: {}}\n")
	withInput, err := Parse(badName, []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	if withInput.Expect.Calls.Exactly[0].Input == nil {
		t.Fatal("input: {} loads as no input")
	}
	j, yy := roundTrips(t, sc)
	for name, back := range map[string]Scenario{"JSON": j, "YAML": yy} {
		if back.Expect.Catalog == nil || back.Expect.Catalog.Exactly == nil || len(back.Expect.Catalog.Exactly) != 0 {
			t.Errorf("%s: catalog.exactly: [] came back as %#v", name, back.Expect.Catalog)
		}
	}
	j, yy = roundTrips(t, withInput)
	for name, back := range map[string]Scenario{"JSON": j, "YAML": yy} {
		if in := back.Expect.Calls.Exactly[0].Input; in == nil || len(in) != 0 {
			t.Errorf("%s: input: {} came back as %#v", name, in)
		}
	}

	// Absent stays absent.
	y = edit(t, "\nexpect:\n", "\nexpect:\n  catalog: {autosubmit: {prepare: true}}\n")
	if sc, err = Parse(badName, []byte(y)); err != nil {
		t.Fatal(err)
	}
	j, yy = roundTrips(t, sc)
	for name, back := range map[string]Scenario{"loaded": sc, "JSON": j, "YAML": yy} {
		if back.Expect.Catalog.Exactly != nil {
			t.Errorf("%s: no exactly became %#v", name, back.Expect.Catalog.Exactly)
		}
		if back.Expect.Calls.Exactly[0].Input != nil {
			t.Errorf("%s: no input became %#v", name, back.Expect.Calls.Exactly[0].Input)
		}
	}
	b, _ := json.Marshal(sc.Expect.Catalog)
	if strings.Contains(string(b), "exactly") {
		t.Errorf("an absent list is written: %s", b)
	}
}
