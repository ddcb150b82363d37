package record

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestSnapshotHashIgnoresFormattingAndSeesChange(t *testing.T) {
	a := &Snapshot{Docs: map[string]json.RawMessage{"event": json.RawMessage(`{"id":"e","seatsLeft":8}`), "observer": json.RawMessage(`{"v":1}`)}}
	b := &Snapshot{Docs: map[string]json.RawMessage{"observer": json.RawMessage(`{ "v": 1 }`), "event": json.RawMessage(`{"seatsLeft": 8, "id": "e"}`)}}
	if a.Hash() != b.Hash() || len(b.Changed(a)) != 0 {
		t.Fatalf("the same documents differ: %s vs %s, changed %v", a.Hash(), b.Hash(), b.Changed(a))
	}
	c := &Snapshot{Docs: map[string]json.RawMessage{"event": json.RawMessage(`{"id":"e","seatsLeft":7}`), "observer": json.RawMessage(`{"v":1}`), "extra": json.RawMessage(`[]`)}}
	if a.Hash() == c.Hash() {
		t.Fatal("a changed document kept its hash")
	}
	if got := c.Changed(a); !slices.Equal(got, []string{"event", "extra"}) {
		t.Errorf("Changed = %v, want [event extra]", got)
	}
}
