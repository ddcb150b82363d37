package judge

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge/judgetest"
	"github.com/agentready/agentready/scenarios/vocab"
)

func replayCheck(v Verdict, kind vocab.ReplayKind) (Check, bool) {
	i := slices.IndexFunc(v.Checks, func(c Check) bool {
		return strings.HasPrefix(c.ID, "replays[0] "+string(kind)+" ") || strings.HasPrefix(c.ID, "replays[0] "+string(kind)+"(")
	})
	if i < 0 {
		return Check{}, false
	}
	return v.Checks[i], true
}

// Every kind of a correct app's record is one passing check, held against
// the state read before it.
func TestACorrectAppsReplaysPassOneCheckEach(t *testing.T) {
	sc, ev := judgetest.Conf01Replayed(t)
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Pass)
	for _, kind := range vocab.ReplayKinds {
		if c, ok := replayCheck(v, kind); !ok || c.Status != vocab.CheckPass {
			t.Errorf("%s: %+v (found %v)", kind, c, ok)
		}
	}
	if len(v.Skipped) != 0 {
		t.Errorf("skipped %v", v.Skipped)
	}
}

// A kind that does not apply, or an app without a clock, is skipped with
// its reason: no check at all, so it can neither pass nor fail.
func TestASkippedReplayIsNoCheckAndSaysWhy(t *testing.T) {
	sc, ev := judgetest.Conf01Replayed(t)
	exp := judgetest.ReplayRun(ev, vocab.ReplayExpired)
	exp.Sent, exp.After, exp.Clock, exp.Skipped = nil, nil, "", "the app serves no clock endpoint (/__agentready/clock answered 404)"
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Pass)
	if _, ok := replayCheck(v, vocab.ReplayExpired); ok {
		t.Error("a skipped replay made a check")
	}
	if len(v.Skipped) != 1 || !strings.Contains(v.Skipped[0].Reason, "no clock endpoint") || !strings.Contains(v.Skipped[0].ID, "expired") {
		t.Errorf("skipped %v", v.Skipped)
	}
	if !strings.Contains(Explain(v), "no clock endpoint") {
		t.Errorf("Explain leaves the skip out:\n%s", Explain(v))
	}
}

// A replay the harness could not perform is INCONCLUSIVE with its cause:
// never a pass, never a FAIL.
func TestAReplayNotPerformedIsInconclusiveWithItsCause(t *testing.T) {
	for _, c := range []struct {
		fault   string
		missing bool
		code    vocab.Code
	}{
		{"the body of POST /api/registrations (request 6 of the log) is not in the record", true, vocab.EvidenceMissing},
		{"the app did not answer: connection refused", false, vocab.HarnessFault},
	} {
		sc, ev := judgetest.Conf01Replayed(t)
		again := judgetest.ReplayRun(ev, vocab.ReplayAgain)
		again.Sent, again.After, again.Fault, again.Missing = nil, nil, c.fault, c.missing
		v := Judge(sc, ev)
		wantVerdict(t, v, vocab.Inconclusive, c.code)
		if chk, _ := replayCheck(v, vocab.ReplayAgain); !strings.Contains(chk.Message, c.fault) {
			t.Errorf("the check does not name the cause: %q", chk.Message)
		}
	}
}

// A refusal with another status or code than the scenario writes is the
// server not holding the rule as stated.
func TestARefusalOtherThanWrittenIsServerRuleBroken(t *testing.T) {
	sc, ev := judgetest.Conf01Replayed(t)
	sc.Expect.Replays = []scenarios.ReplayExpect{{Request: "POST /api/registrations", Again: &scenarios.ReplayRule{Expect: vocab.ReplayRefused, Code: "INTENT_USED"}}}
	judgetest.ReplayRun(ev, vocab.ReplayAgain).Sent[0] = judgetest.ReplayAnswer{Status: 409, Code: "ALREADY_REGISTERED"}.Send()
	wantVerdict(t, Judge(sc, ev), vocab.Fail, vocab.ServerRuleBroken)
}

// Racing copies of the person's own request (no fresh confirmation) may
// take no effect at all: one more registration is a lost update.
func TestRacingCopiesWithoutAFreshConfirmationMayTakeNoEffect(t *testing.T) {
	sc, ev := judgetest.Conf01Replayed(t)
	race := judgetest.ReplayRun(ev, vocab.ReplayRace)
	race.Fresh, race.Sent = false, race.Sent[1:]
	wantVerdict(t, Judge(sc, ev), vocab.Fail, vocab.RaceLostUpdate)
	race.After = ev.Replays.Base
	judgetest.ReplayRun(ev, vocab.ReplayExpired).After = ev.Replays.Base
	wantVerdict(t, Judge(sc, ev), vocab.Pass)
}

// Without any state read, an idempotent kind cannot be shown to be so:
// skipped, not passed; a refused kind is judged by its answer.
func TestWithoutStateIdempotenceIsSkippedAndRefusalsAreJudged(t *testing.T) {
	sc, ev := judgetest.Conf01Replayed(t)
	ev.Replays.Base = nil
	for i := range ev.Replays.Runs {
		ev.Replays.Runs[i].After = nil
	}
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Pass)
	if !slices.ContainsFunc(v.Skipped, func(s Skip) bool { return strings.Contains(s.ID, " again ") }) {
		t.Errorf("again was not skipped: %v", v.Skipped)
	}
	judgetest.ReplayRun(ev, vocab.ReplayNoSession).Sent[0] = judgetest.ReplayAnswer{Status: 201, Code: "REGISTERED"}.Send()
	wantVerdict(t, Judge(sc, ev), vocab.Fail, vocab.ReplayAccepted)
}

// A scenario that turns a write's replays off, or a kind, gets no check of
// them; a record from before replays is one skip, and the verdict stays.
func TestReplaysOffAndOldRecords(t *testing.T) {
	sc, ev := judgetest.Conf01Replayed(t)
	sc.Expect.Replays = []scenarios.ReplayExpect{{Request: "POST /api/registrations", Off: "a test of turning replays off"}}
	judgetest.ReplayRun(ev, vocab.ReplayNoSession).Sent[0] = judgetest.ReplayAnswer{Status: 201}.Send()
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Pass)
	// One kind off, among others judged.
	sc.Expect.Replays = []scenarios.ReplayExpect{{Request: "POST /api/registrations", NoSession: &scenarios.ReplayRule{Off: "a test of turning one kind off"}}}
	v = Judge(sc, ev)
	if _, ok := replayCheck(v, vocab.ReplayAgain); !ok {
		t.Error("the kinds left on were not judged")
	}
	wantVerdict(t, v, vocab.Pass)
	if _, ok := replayCheck(v, vocab.ReplayNoSession); ok {
		t.Error("a write whose replays are off was judged")
	}
	sc, ev = judgetest.Conf01(t)
	v = Judge(sc, ev)
	wantVerdict(t, v, vocab.Pass)
	if len(v.Skipped) != 1 || v.Skipped[0].ID != "replays" {
		t.Errorf("skipped %v", v.Skipped)
	}
}

// When the app refuses the new write from the person too (the control),
// no kind sent with a fresh confirmation can show anything: each is
// skipped, saying why; again, which repeats the person's own request, is
// still judged.
func TestAControlRefusedSkipsTheFreshKinds(t *testing.T) {
	sc, ev := judgetest.Conf01Replayed(t)
	ev.Replays.Controls[0].Sent[1] = judgetest.ReplayAnswer{Status: 409, Code: "ALREADY_REGISTERED"}.Send()
	judgetest.ReplayRun(ev, vocab.ReplayOtherSession).Sent[0] = judgetest.ReplayAnswer{Status: 409, Code: "ALREADY_REGISTERED"}.Send()
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Pass)
	if len(v.Skipped) != len(vocab.ReplayKinds)-1 || !strings.Contains(v.Skipped[0].Reason, "409 ALREADY_REGISTERED") {
		t.Errorf("skipped %v", v.Skipped)
	}
	if c, ok := replayCheck(v, vocab.ReplayAgain); !ok || c.Status != vocab.CheckPass {
		t.Errorf("again: %+v", c)
	}
	// No control in the record: what the control would have shown is
	// missing, so the fresh kinds are INCONCLUSIVE, not skipped as if the
	// app had refused it.
	ev.Replays.Controls = nil
	v = Judge(sc, ev)
	wantVerdict(t, v, vocab.Inconclusive, vocab.EvidenceMissing)
	if c, _ := replayCheck(v, vocab.ReplayNoSession); c.Status != vocab.CheckInconclusive || !strings.Contains(c.Message, "no control") {
		t.Errorf("no control: %+v", c)
	}
}

// A control the app did not answer, or the harness could not perform,
// shows nothing either way: the fresh kinds are INCONCLUSIVE with its
// cause, never skipped as if the app had refused it.
func TestAControlNotAnsweredIsInconclusive(t *testing.T) {
	sc, ev := judgetest.Conf01Replayed(t)
	ev.Replays.Controls[0].Sent[1] = scenarios.ReplaySend{Method: "POST", Path: "/api/registrations", Error: "connection reset by peer"}
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Inconclusive, vocab.HarnessFault)
	if c, _ := replayCheck(v, vocab.ReplayOtherSession); c.Status != vocab.CheckInconclusive || !strings.Contains(c.Message, "connection reset") {
		t.Errorf("other_session: %+v", c)
	}
	sc, ev = judgetest.Conf01Replayed(t)
	ev.Replays.Controls[0].Sent, ev.Replays.Controls[0].Fault, ev.Replays.Controls[0].Missing = nil, "the body of POST /api/intents (request 5 of the log) is not in the record", true
	wantVerdict(t, Judge(sc, ev), vocab.Inconclusive, vocab.EvidenceMissing)
}

// A replay whose request got no answer is never judged by its (absent)
// answer: the old judge read status 0 as a refusal, a pass.
func TestAReplayWithoutAnAnswerIsInconclusive(t *testing.T) {
	sc, ev := judgetest.Conf01Replayed(t)
	judgetest.ReplayRun(ev, vocab.ReplayNoCSRF).Sent[0] = scenarios.ReplaySend{Method: "POST", Path: "/api/registrations", Error: "context deadline exceeded"}
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Inconclusive, vocab.HarnessFault)
	if c, _ := replayCheck(v, vocab.ReplayNoCSRF); c.Status != vocab.CheckInconclusive || !strings.Contains(c.Message, "deadline") {
		t.Errorf("no_csrf: %+v", c)
	}
	// Race copies without an answer and no state to count effects by.
	sc, ev = judgetest.Conf01Replayed(t)
	ev.Replays.Base = nil
	for i := range ev.Replays.Runs {
		ev.Replays.Runs[i].After = nil
	}
	race := judgetest.ReplayRun(ev, vocab.ReplayRace)
	race.Sent[3] = scenarios.ReplaySend{Method: "POST", Path: "/api/registrations", Error: "EOF"}
	v = Judge(sc, ev)
	wantVerdict(t, v, vocab.Inconclusive, vocab.HarnessFault)
	if c, _ := replayCheck(v, vocab.ReplayRace); c.Status != vocab.CheckInconclusive {
		t.Errorf("race: %+v", c)
	}
}

// A redirect or a 200 with an error in its body is not read as accepted
// by itself: with the state unchanged it passes, with the state changed it
// fails (replay_second_effect), with no state it is skipped. A plain 2xx
// stays replay_accepted.
func TestRedirectsAndErrorBodiesAreJudgedByTheState(t *testing.T) {
	for _, answer := range []scenarios.ReplaySend{
		{Method: "POST", Path: "/api/registrations", Status: 303},
		{Method: "POST", Path: "/api/registrations", Status: 200, Answer: []byte(`{"ok":false,"error":"INVALID_CSRF"}`)},
		{Method: "POST", Path: "/api/registrations", Status: 200, Answer: []byte(`{"errors":[{"message":"no session"}]}`)},
		{Method: "POST", Path: "/api/registrations", Status: 200, Answer: []byte(`{"success":false}`)},
	} {
		sc, ev := judgetest.Conf01Replayed(t)
		judgetest.ReplayRun(ev, vocab.ReplayNoSession).Sent[0] = answer
		wantVerdict(t, Judge(sc, ev), vocab.Pass)
		judgetest.ReplayRun(ev, vocab.ReplayNoSession).After = judgetest.Conf01State(7, 6, 2)
		if c, _ := replayCheck(Judge(sc, ev), vocab.ReplayNoSession); c.Code != vocab.ReplaySecondEffect {
			t.Errorf("%d %s with an effect: %+v", answer.Status, answer.Answer, c)
		}
		sc, ev = judgetest.Conf01Replayed(t)
		judgetest.ReplayRun(ev, vocab.ReplayNoSession).Sent[0] = answer
		judgetest.ReplayRun(ev, vocab.ReplayNoSession).After = nil
		if v := Judge(sc, ev); !slices.ContainsFunc(v.Skipped, func(s Skip) bool {
			return strings.Contains(s.ID, "no_session") && strings.Contains(s.Reason, "does not say whether")
		}) {
			t.Errorf("%d without a state: skipped %v", answer.Status, v.Skipped)
		}
	}
	sc, ev := judgetest.Conf01Replayed(t)
	judgetest.ReplayRun(ev, vocab.ReplayNoSession).Sent[0] = scenarios.ReplaySend{Method: "POST", Path: "/api/registrations", Status: 200, Answer: []byte(`{"ok":true,"error":null}`)}
	wantVerdict(t, Judge(sc, ev), vocab.Fail, vocab.ReplayAccepted)
}

// A run with replays turned off (agentready run --replays off) says so
// in its one skip; nothing is judged of them.
func TestReplaysTurnedOffForARunAreOneSkip(t *testing.T) {
	sc, ev := judgetest.Conf01Replayed(t)
	ev.Replays = &scenarios.Replays{Off: "replays were turned off for this run (--replays off): no write was replayed", Runs: []scenarios.ReplayRun{}}
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Pass)
	if len(v.Skipped) != 1 || v.Skipped[0].ID != "replays" || !strings.Contains(v.Skipped[0].Reason, "--replays off") {
		t.Errorf("skipped %v", v.Skipped)
	}
}

// moved answers s with one source's document replaced: a state some
// effect changed.
func moved(s *record.Snapshot) *record.Snapshot {
	out := &record.Snapshot{Docs: maps.Clone(s.Docs)}
	for src := range out.Docs {
		out.Docs[src] = json.RawMessage(`{"moved":true}`)
		break
	}
	return out
}

// A copy the client gave up on may still land: the replay after it has no
// state to be held against (not FAIL for the earlier copy's effect). Known
// bad: the same run with no_csrf's state read after it fails the next
// replay for that effect.
func TestAReplayAfterAnUnreadSendHasNoBefore(t *testing.T) {
	setUp := func(readAfter bool) Verdict {
		sc, ev := judgetest.Conf01Replayed(t)
		nc := judgetest.ReplayRun(ev, vocab.ReplayNoCSRF)
		nc.Sent[0] = scenarios.ReplaySend{Method: "POST", Path: "/api/registrations", Error: "context deadline exceeded"}
		landed := moved(ev.Replays.Base)
		from := false
		for i := range ev.Replays.Runs {
			if from {
				ev.Replays.Runs[i].After = landed
			}
			from = from || ev.Replays.Runs[i].Kind == vocab.ReplayNoCSRF
		}
		nc.After = nil
		if readAfter {
			nc.After = ev.Replays.Base // read before the copy landed
		}
		return Judge(sc, ev)
	}
	next := vocab.ReplayKinds[slices.Index(vocab.ReplayKinds, vocab.ReplayNoCSRF)+1]
	if c, _ := replayCheck(setUp(false), next); c.Status == vocab.CheckFail {
		t.Errorf("%s after an unread send: %+v", next, c)
	}
	if c, _ := replayCheck(setUp(true), next); c.Status != vocab.CheckFail || c.Code != vocab.ReplaySecondEffect {
		t.Errorf("known bad, %s after a read send whose effect came later: %+v", next, c)
	}
}

// The expired replay is held against the state read after the app's clock
// moved, which may change the state by itself; known bad: without that
// read, the clock's own change is the replay's second effect.
func TestAnExpiredReplayIsHeldAgainstTheStateAfterTheClockMoved(t *testing.T) {
	for _, readBefore := range []bool{true, false} {
		sc, ev := judgetest.Conf01Replayed(t)
		exp := judgetest.ReplayRun(ev, vocab.ReplayExpired)
		exp.After = moved(ev.Replays.Base)
		if readBefore {
			exp.Before = exp.After
		}
		c, _ := replayCheck(Judge(sc, ev), vocab.ReplayExpired)
		if fails := c.Status == vocab.CheckFail && c.Code == vocab.ReplaySecondEffect; fails == readBefore {
			t.Errorf("state read after the clock moved %v: %+v", readBefore, c)
		}
	}
}

// other_object and other_target stand only on a control the app accepted
// (the same write to that object, with a confirmation fetched for it):
// without one, a refusal may be the object's own (closed, full), so the
// check is INCONCLUSIVE, never a pass. Known bad: the control removed.
func TestASwapStandsOnItsAcceptedControl(t *testing.T) {
	for _, kind := range []vocab.ReplayKind{vocab.ReplayOtherObject, vocab.ReplayOtherTarget} {
		sc, ev := judgetest.Conf01Replayed(t)
		if c, _ := replayCheck(Judge(sc, ev), kind); c.Status != vocab.CheckPass {
			t.Fatalf("%s with its control: %+v", kind, c)
		}
		run := judgetest.ReplayRun(ev, kind)
		run.Sent = slices.DeleteFunc(run.Sent, func(s scenarios.ReplaySend) bool { return s.Control })
		v := Judge(sc, ev)
		wantVerdict(t, v, vocab.Inconclusive, vocab.EvidenceMissing)
		if c, _ := replayCheck(v, kind); c.Status != vocab.CheckInconclusive || !strings.Contains(c.Message, "control for the other object") {
			t.Errorf("%s without its control: %+v", kind, c)
		}
		sc, ev = judgetest.Conf01Replayed(t)
		run = judgetest.ReplayRun(ev, kind)
		run.Sent[1] = judgetest.ReplayAnswer{Status: 409, Code: "REGISTRATION_CLOSED"}.Send()
		run.Sent[1].Prerequisite, run.Sent[1].Control = true, true
		if c, _ := replayCheck(Judge(sc, ev), kind); c.Status != vocab.CheckInconclusive {
			t.Errorf("%s with a refused control: %+v", kind, c)
		}
	}
}

// A kind skipped after its prerequisites were sent (they go before the base
// read, so the base holds what they did) leaves the next replay its state
// to be held against: a second effect after it still FAILs. Known bad (the
// rule before): such a skip left the next replay with no state, skipped.
func TestASkipAfterItsPrerequisitesKeepsTheStateForTheNext(t *testing.T) {
	sc, ev := judgetest.Conf01Replayed(t)
	k := slices.Index(vocab.ReplayKinds, vocab.ReplayAgain) - 1
	prior := judgetest.ReplayRun(ev, vocab.ReplayKinds[k])
	prior.Sent = []scenarios.ReplaySend{{Prerequisite: true, Method: "POST", Path: "/api/intents", Status: 201}}
	prior.After, prior.Skipped = nil, "no fresh confirmation could be had"
	again := judgetest.ReplayRun(ev, vocab.ReplayAgain)
	again.Sent[0] = judgetest.ReplayAnswer{Status: 200, Code: "ALREADY_REGISTERED"}.Send()
	again.After = moved(again.After)
	if c, _ := replayCheck(Judge(sc, ev), vocab.ReplayAgain); c.Status != vocab.CheckFail || c.Code != vocab.ReplaySecondEffect {
		t.Errorf("again after a skip that sent only prerequisites: %+v", c)
	}
}
