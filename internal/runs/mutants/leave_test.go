package mutants

import (
	"slices"
	"testing"

	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/scenarios/vocab"
)

// TestARegistrationBeaconedOnLeaveIsKilledByTheDefaults: CONF-01 attempt 3
// names no leave phase; its guarded write and its writes count hold there
// by default, and the beacon a page sends from pagehide (which the page's
// network log never holds) is seen in the journal.
func TestARegistrationBeaconedOnLeaveIsKilledByTheDefaults(t *testing.T) {
	k := ScenarioKiller("CONF-01.attempt-3", "registration")
	correct, err := k.Run(t.Context(), env, "")
	if err != nil {
		t.Fatal(err)
	}
	if correct.Outcome != vocab.Pass {
		t.Fatalf("the correct app: %s %v", correct.Outcome, correct.Codes)
	}
	bad, err := k.Run(t.Context(), env, refapp.RegistersOnLeave)
	if err != nil {
		t.Fatal(err)
	}
	if bad.Outcome != vocab.Fail || !slices.Contains(bad.Codes, vocab.SideEffectOnLeave) || !slices.Contains(bad.Codes, vocab.WriteAttempt) {
		t.Fatalf("registers-on-leave: %s %v, want FAIL with side_effect_on_leave and write_attempt", bad.Outcome, bad.Codes)
	}
}

// TestACanceledCallWhoseRetryWritesAgainIsKilled: RETRY-01 cancels add_task
// in flight and retries it; the correct app adds the task once, the
// variant that sends no Idempotency-Key twice.
func TestACanceledCallWhoseRetryWritesAgainIsKilled(t *testing.T) {
	k := ScenarioKiller("RETRY-01", "tasks")
	correct, err := k.Run(t.Context(), env, "")
	if err != nil {
		t.Fatal(err)
	}
	if correct.Outcome != vocab.Pass {
		t.Fatalf("the correct app: %s %v", correct.Outcome, correct.Codes)
	}
	bad, err := k.Run(t.Context(), env, refapp.CancelThenDuplicate)
	if err != nil {
		t.Fatal(err)
	}
	if bad.Outcome != vocab.Fail || !slices.Contains(bad.Codes, vocab.StateMismatch) {
		t.Fatalf("cancel-then-duplicate: %s %v, want FAIL with state_mismatch", bad.Outcome, bad.Codes)
	}
}
