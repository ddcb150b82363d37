package mutants

import (
	"testing"

	"github.com/agentready/agentready/fixtures/refapp"
)

// TestTheEmbedAttackKillsTheEmbeddableVariant is the kill gate's embed
// row alone: the embeddable variant killed by embedder_write, the correct
// app passing the attack.
func TestTheEmbedAttackKillsTheEmbeddableVariant(t *testing.T) {
	gate := RunGate(t.Context(), env, []refapp.Variant{refapp.Embeddable}, []Killer{EmbedKiller()}, 1)
	if !gate.OK() {
		gate.Print(t.Output())
		t.Fatalf("kill rate %.0f%%, %d false alarms, %d harness errors", 100*gate.KillRate(), len(gate.FalseAlarms), len(gate.Errors))
	}
}
