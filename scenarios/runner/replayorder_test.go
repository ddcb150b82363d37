package runner

import (
	"slices"
	"testing"

	"github.com/agentready/agentready/scenarios/vocab"
)

// With two entries, the first entry's expired replay moves the app's clock
// before the second entry's kinds are sent: their fresh confirmations
// would have expired, and the app refuse them for that alone. Every
// expired kind goes last, the others keep their order.
func TestExpiredReplaysGoLast(t *testing.T) {
	var kinds []vocab.ReplayKind
	for range 2 {
		kinds = append(kinds, vocab.ReplayKinds...)
	}
	slices.SortStableFunc(kinds, expiredLast)
	n := len(vocab.ReplayKinds)
	want := append(slices.Clone(vocab.ReplayKinds[:n-1]), vocab.ReplayKinds[:n-1]...)
	want = append(want, vocab.ReplayExpired, vocab.ReplayExpired)
	if vocab.ReplayKinds[n-1] != vocab.ReplayExpired || !slices.Equal(kinds, want) {
		t.Errorf("order %v, want %v", kinds, want)
	}
}
