package judge_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/judge/judgetest"
	"github.com/agentready/agentready/scenarios/vocab"
)

// withSocketMessage puts a message the page sent on a WebSocket to the app
// into the agent's window of the sample record.
func withSocketMessage(t *testing.T) (scenarios.Scenario, *scenarios.Evidence) {
	t.Helper()
	sc, ev := judgetest.Confirm(t)
	human := ev.Marks[vocab.PhaseHuman].Requests
	msg := record.Request{Seq: 99, Method: record.SocketMessage, URL: "ws://app.test/api/hold", Path: "/api/hold", ResourceType: "WebSocket",
		HasBody: true, Body: `{"hold":"ada"}`, Done: true, Started: ev.Requests[human-1].Started}
	ev.Requests = slices.Insert(slices.Clone(ev.Requests), human, msg)
	for p, m := range ev.Marks {
		if m.Requests > human || (p != vocab.PhaseAgent && m.Requests == human) {
			m.Requests++
			ev.Marks[p] = m
		}
	}
	return sc, ev
}

func check(v judge.Verdict, id string) (judge.Check, bool) {
	for _, c := range v.Checks {
		if c.ID == id {
			return c, true
		}
	}
	return judge.Check{}, false
}

// A message the page sent on a WebSocket is named "WS /path": guarded FAILs
// it before the person's confirmation from the network record, requests
// count it; the journal (HTTP only) is not held to it; and writes, which
// count HTTP writes, cannot stand on "none" in a phase where a message no
// line names went to the app.
func TestASocketMessageIsNamedAndNeverReadAsNoWrite(t *testing.T) {
	sc, ev := withSocketMessage(t)
	sc.Expect.Guarded = append(sc.Expect.Guarded, "WS /api/hold")
	sc.Expect.Requests = append(sc.Expect.Requests, scenarios.RequestExpect{Method: "WS", Path: "/api/hold", Phase: vocab.PhaseAgent, Count: 1})
	sc.Expect.Writes = map[vocab.Phase]int{vocab.PhaseAgent: 0}
	v := judge.Judge(sc, ev)
	if c, ok := check(v, "guarded[1] WS /api/hold"); !ok || c.Status != vocab.CheckFail || c.Code != vocab.SideEffectBeforeConfirmation {
		t.Errorf("guarded: %+v", c)
	}
	if c, ok := check(v, "witnesses.agent"); ok && c.Status != vocab.CheckPass {
		t.Errorf("the journal was held to a socket's message: %+v", c)
	}
	if c, ok := check(v, "writes.agent"); !ok || c.Status != vocab.CheckPass {
		t.Errorf("writes, with the socket named: %+v", c)
	}
	for _, c := range v.Checks {
		if strings.HasPrefix(c.ID, "requests[2]") && c.Status != vocab.CheckPass {
			t.Errorf("requests WS: %+v", c)
		}
	}
	// A socket no line names: writes cannot say "none".
	sc1, ev1 := withSocketMessage(t)
	sc1.Expect.Writes = map[vocab.Phase]int{vocab.PhaseAgent: 0}
	if c, ok := check(judge.Judge(sc1, ev1), "writes.agent"); !ok || c.Status != vocab.CheckInconclusive || !strings.Contains(c.Message, "WebSocket") {
		t.Errorf("writes, with the socket unnamed: %+v", c)
	}
	// Without the message, writes passes: the INCONCLUSIVE is the socket's.
	sc2, ev2 := judgetest.Confirm(t)
	sc2.Expect.Writes = map[vocab.Phase]int{vocab.PhaseAgent: 0}
	if c, ok := check(judge.Judge(sc2, ev2), "writes.agent"); !ok || c.Status != vocab.CheckPass {
		t.Errorf("writes without a socket message: %+v", c)
	}
}

// A WebSocket line's message pattern counts only the messages whose text it
// finds: {"hold":"ada"} is one "hold" and no "release"; a message whose
// text was not kept makes a count that could be short INCONCLUSIVE, and
// one over the count still FAILs.
func TestASocketLinesMessagePatternCountsOnlyTheMessagesItFinds(t *testing.T) {
	counted := func(ev *scenarios.Evidence, message string, count int) judge.Check {
		t.Helper()
		sc, _ := judgetest.Confirm(t)
		sc.Expect.Requests = []scenarios.RequestExpect{{Method: "WS", Path: "/api/hold", Phase: vocab.PhaseAgent, Count: count, Message: message}}
		for _, c := range judge.Judge(sc, ev).Checks {
			if strings.HasPrefix(c.ID, "requests[0]") {
				return c
			}
		}
		t.Fatalf("no requests[0] check")
		return judge.Check{}
	}
	_, ev := withSocketMessage(t)
	for _, tt := range []struct {
		message string
		count   int
		want    vocab.CheckStatus
	}{
		{`"hold"`, 1, vocab.CheckPass},
		{`"hold"`, 0, vocab.CheckFail},
		{`"release"`, 0, vocab.CheckPass},
		{`"release"`, 1, vocab.CheckFail},
	} {
		if c := counted(ev, tt.message, tt.count); c.Status != tt.want {
			t.Errorf("message %s, count %d: %s (%s), want %s", tt.message, tt.count, c.Status, c.Message, tt.want)
		}
	}
	_, unkept := withSocketMessage(t)
	for i := range unkept.Requests {
		if unkept.Requests[i].IsSocketMessage() {
			unkept.Requests[i].Body = ""
		}
	}
	if c := counted(unkept, `"hold"`, 1); c.Status != vocab.CheckInconclusive || !strings.Contains(c.Message, "not kept") {
		t.Errorf("an unkept message, count 1: %s (%s), want INCONCLUSIVE", c.Status, c.Message)
	}
	if c := counted(unkept, `"hold"`, 0); c.Status != vocab.CheckInconclusive {
		t.Errorf("an unkept message, count 0: %s (%s), want INCONCLUSIVE", c.Status, c.Message)
	}
}

// A WebSocket's handshake in the network log is held against neither
// witness: the journal may hold it or not (journals differ on upgrades).
func TestASocketsHandshakeIsHeldAgainstNeitherWitness(t *testing.T) {
	sc, ev := withSocketMessage(t)
	human := ev.Marks[vocab.PhaseHuman].Requests
	hand := record.Request{Seq: 98, Method: "GET", URL: "ws://app.test/api/hold", Path: "/api/hold", ResourceType: "WebSocket", Status: 101, Done: true,
		Started: ev.Requests[human-1].Started}
	ev.Requests = slices.Insert(slices.Clone(ev.Requests), human-1, hand)
	for p, m := range ev.Marks {
		if m.Requests >= human {
			m.Requests++
			ev.Marks[p] = m
		}
	}
	c, ok := check(judge.Judge(sc, ev), "witnesses.agent")
	if !ok {
		t.Skip("the sample record keeps no journal")
	}
	if c.Status != vocab.CheckPass {
		t.Errorf("a handshake the journal lacks: %+v", c)
	}
}
