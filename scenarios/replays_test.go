package scenarios

import (
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/scenarios/vocab"
)

// A replay entry that cannot be meant does not load, naming its key.
func TestReplayEntriesThatCannotBeMeantDoNotLoad(t *testing.T) {
	for _, c := range []struct{ entry, want string }{
		{"{request: GET /api/x}", "expect.replays[0].request"},
		{"{request: POST /api/x, phase: all}", "expect.replays[0].phase"},
		{"{request: POST /api/x, copies: 1}", "one copy is no race"},
		{"{request: POST /api/x, copies: 99}", "expect.replays[0].copies"},
		{"{request: POST /api/x, lifetime: 0s}", "expect.replays[0].lifetime"},
		{"{request: POST /api/x, again: {expect: maybe}}", `"maybe" is not refused or idempotent`},
		{"{request: POST /api/x, again: {expect: idempotent, status: 403}}", "idempotent takes neither"},
		{"{request: POST /api/x, again: {expect: refused, status: 200}}", "not 200"},
		{"{request: POST /api/x, again: {off: why, expect: refused}}", "expect.replays[0].again.off"},
		{"{request: POST /api/x, race: {expect: refused}}", "race expects at most one effect"},
		{"{request: POST /api/x, again: {}}", "expect.replays[0].again.expect"},
		{"{request: POST /api/x, off: ' '}", "a reason is required"},
		{"{request: POST /api/x, csrf: {fields: [token]}}", "expect.replays[0].csrf.fields[0]"},
		{"{request: POST /api/x, sometimes: true}", "sometimes"},
	} {
		_, err := Parse(badName, []byte(edit(t, "  guarded: [POST /api/x]\n", "  guarded: [POST /api/x]\n  replays: ["+c.entry+"]\n")))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.entry, err, c.want)
		}
	}
}

// Every guarded request gets a default entry; an entry of the scenario
// for the same request and phase replaces it, one for another phase does
// not; a kind not named keeps its default.
func TestTheReplayPlanAddsTheDefaults(t *testing.T) {
	sc, err := Parse(badName, []byte(edit(t, "  guarded: [POST /api/x]\n",
		"  guarded: [POST /api/x, post /api/y, GET /api/z]\n  replays:\n    - {request: POST /api/x, lifetime: 2m, again: {expect: refused, code: USED}}\n    - {request: POST /api/y, phase: agent}\n")))
	if err != nil {
		t.Fatal(err)
	}
	plan := sc.Expect.ReplayPlan()
	if len(plan) != 3 || plan[2].Request != "post /api/y" || plan[2].PhaseOrDefault() != vocab.PhaseHuman {
		t.Fatalf("plan %+v", plan)
	}
	x := plan[0]
	if x.LifetimeOrDefault() != 2*time.Minute || x.CopiesOrDefault() != DefaultReplayCopies {
		t.Errorf("lifetime %v, copies %d", x.LifetimeOrDefault(), x.CopiesOrDefault())
	}
	if r := x.Rule(vocab.ReplayAgain); r.Expect != vocab.ReplayRefused || r.Code != "USED" {
		t.Errorf("again: %+v", r)
	}
	if r := x.Rule(vocab.ReplayNoSession); r.Expect != vocab.ReplayRefused {
		t.Errorf("no_session keeps its default: %+v", r)
	}
	if r := plan[2].Rule(vocab.ReplayAgain); r.Expect != vocab.ReplayIdempotent || plan[2].LifetimeOrDefault() != 15*time.Minute {
		t.Errorf("the default entry: %+v", r)
	}
}
