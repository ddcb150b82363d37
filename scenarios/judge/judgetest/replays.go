package judgetest

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Conf01Replayed is Conf01 with the record of its default replays as a
// correct app answers them: every kind refused (INTENT_* or the session's
// rules) and the state as it was after the person; race's five copies with
// a fresh intent, of which one registered, each moving the seats by as
// much as the person's own registration did. Every kind but again was sent
// with a fresh confirmation, and the control (the same new write as the
// person) was accepted.
func Conf01Replayed(tb testing.TB) (scenarios.Scenario, *scenarios.Evidence) {
	tb.Helper()
	sc, ev := Conf01(tb)
	// The base read follows the prerequisites (three fresh intents).
	base, raced := Conf01State(6, 7, 1), Conf01State(7, 6, 2)
	refused := map[vocab.ReplayKind]ReplayAnswer{
		vocab.ReplayNoSession: {401, "SESSION_REQUIRED"}, vocab.ReplayNoCSRF: {403, "CSRF_INVALID"},
		vocab.ReplayStale: {403, "INTENT_NOT_FOUND"}, vocab.ReplayAgain: {403, "INTENT_USED"},
		vocab.ReplayOtherSession: {403, "INTENT_WRONG_SESSION"}, vocab.ReplayExpired: {403, "INTENT_EXPIRED"},
		vocab.ReplayOtherToken: {403, "CSRF_INVALID"}, vocab.ReplayDropField: {422, "INVALID_PARAMS"},
		vocab.ReplayOtherObject: {403, "INTENT_WRONG_EVENT"}, vocab.ReplayOtherTarget: {403, "INTENT_WRONG_EVENT"},
	}
	// What each tampering kind changed (other_target as if the write's
	// path held the event's id).
	parts := map[vocab.ReplayKind]string{vocab.ReplayOtherToken: "X-CSRF-Token", vocab.ReplayDropField: "/intentId",
		vocab.ReplayOtherObject: "/eventId", vocab.ReplayOtherTarget: "/path/2"}
	runs := []scenarios.ReplayRun{}
	after := base
	for _, kind := range vocab.ReplayKinds {
		run := scenarios.ReplayRun{Entry: 0, Request: "POST /api/registrations", Phase: vocab.PhaseHuman, Kind: kind, Of: 5, Part: parts[kind]}
		switch kind {
		case vocab.ReplayRace:
			run.Fresh, after = true, raced
			run.Sent = append(run.Sent, scenarios.ReplaySend{Prerequisite: true, Method: "POST", Path: "/api/intents", Status: 201})
			for i := range 5 {
				a := ReplayAnswer{403, "INTENT_USED"}
				if i == 2 {
					a = ReplayAnswer{201, "REGISTERED"}
				}
				run.Sent = append(run.Sent, a.Send())
			}
		case vocab.ReplayExpired:
			run.Fresh, run.Clock = true, "15m1s"
			run.Sent = []scenarios.ReplaySend{refused[kind].Send()}
		case vocab.ReplayOtherObject, vocab.ReplayOtherTarget:
			// the same write to the other event with an intent for it,
			// accepted (before the base read, as every prerequisite): only
			// the binding of the person's intent can refuse the replay
			control := ReplayAnswer{201, "REGISTERED"}.Send()
			control.Prerequisite, control.Control = true, true
			run.Fresh = true
			run.Sent = []scenarios.ReplaySend{{Prerequisite: true, Method: "POST", Path: "/api/intents", Status: 201}, control, refused[kind].Send()}
		default:
			run.Fresh = kind != vocab.ReplayAgain
			run.Sent = []scenarios.ReplaySend{refused[kind].Send()}
		}
		run.After = after
		runs = append(runs, run)
	}
	control := scenarios.ReplayRun{Entry: 0, Request: "POST /api/registrations", Phase: vocab.PhaseHuman, Kind: vocab.ReplayControl, Of: 5, Fresh: true,
		Sent: []scenarios.ReplaySend{{Prerequisite: true, Method: "POST", Path: "/api/intents", Status: 201}, ReplayAnswer{201, "REGISTERED"}.Send()}}
	ev.Replays = &scenarios.Replays{Base: base, Runs: runs, Controls: []scenarios.ReplayRun{control}}
	return sc, ev
}

// ReplayAnswer is a status and a JSON answer's code.
type ReplayAnswer struct {
	Status int
	Code   string
}

// Send is the replayed registration answered so.
func (a ReplayAnswer) Send() scenarios.ReplaySend {
	return scenarios.ReplaySend{Method: "POST", Path: "/api/registrations", Status: a.Status,
		Answer: json.RawMessage(fmt.Sprintf(`{"ok":%t,"code":%q}`, a.Status < 400, a.Code))}
}

// ReplayRun answers the run of kind in ev's replays.
func ReplayRun(ev *scenarios.Evidence, kind vocab.ReplayKind) *scenarios.ReplayRun {
	for i := range ev.Replays.Runs {
		if ev.Replays.Runs[i].Kind == kind {
			return &ev.Replays.Runs[i]
		}
	}
	panic("no replay of kind " + string(kind))
}

// afterFrom makes s the state after the replay of kind and after every
// later one, as a run whose later replays changed nothing would read it.
func afterFrom(ev *scenarios.Evidence, kind vocab.ReplayKind, s *record.Snapshot) {
	from := false
	for i := range ev.Replays.Runs {
		from = from || ev.Replays.Runs[i].Kind == kind
		if from {
			ev.Replays.Runs[i].After = s
		}
	}
}

func conf01Replayed(change func(*scenarios.Scenario, *scenarios.Evidence)) func(testing.TB) (scenarios.Scenario, *scenarios.Evidence) {
	return func(tb testing.TB) (scenarios.Scenario, *scenarios.Evidence) {
		sc, ev := Conf01Replayed(tb)
		change(&sc, ev)
		return sc, ev
	}
}

// replayCases are the known-bad replays, one for each replay code.
func replayCases() []Case {
	fail := vocab.Fail
	return []Case{
		{"a replay without the CSRF header accepted", fail, vocab.ReplayAccepted, conf01Replayed(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ReplayRun(ev, vocab.ReplayNoCSRF).Sent[0] = ReplayAnswer{201, "REGISTERED"}.Send()
		})},
		{"a replay after the confirmation's lifetime accepted", fail, vocab.ExpiredReplayAccepted, conf01Replayed(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ReplayRun(ev, vocab.ReplayExpired).Sent[0] = ReplayAnswer{201, "REGISTERED"}.Send()
		})},
		{"a replay answered as idempotent that registered again", fail, vocab.ReplaySecondEffect, conf01Replayed(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			again := ReplayRun(ev, vocab.ReplayAgain)
			again.Sent[0] = ReplayAnswer{200, "ALREADY_REGISTERED"}.Send()
			afterFrom(ev, vocab.ReplayAgain, Conf01State(7, 6, 2))
		})},
		{"a replay with another session's CSRF token accepted", fail, vocab.OtherTokenAccepted, conf01Replayed(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ReplayRun(ev, vocab.ReplayOtherToken).Sent[0] = ReplayAnswer{201, "REGISTERED"}.Send()
		})},
		{"a replay without its intent accepted", fail, vocab.DroppedFieldAccepted, conf01Replayed(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ReplayRun(ev, vocab.ReplayDropField).Sent[0] = ReplayAnswer{201, "REGISTERED"}.Send()
		})},
		{"a replay for another event accepted", fail, vocab.OtherObjectAccepted, conf01Replayed(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ReplayRun(ev, vocab.ReplayOtherObject).Sent[0] = ReplayAnswer{201, "REGISTERED"}.Send()
		})},
		{"a replay to another target accepted", fail, vocab.OtherTargetAccepted, conf01Replayed(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ReplayRun(ev, vocab.ReplayOtherTarget).Sent[0] = ReplayAnswer{201, "REGISTERED"}.Send()
		})},
		{"two of five racing copies registered", fail, vocab.RaceLostUpdate, conf01Replayed(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			race := ReplayRun(ev, vocab.ReplayRace)
			race.Sent[1] = ReplayAnswer{201, "REGISTERED"}.Send()
			afterFrom(ev, vocab.ReplayRace, Conf01State(8, 5, 3))
		})},
	}
}
