package judge

import (
	"encoding/json"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge/judgetest"
	"github.com/agentready/agentready/scenarios/vocab"
)

func TestTheEmbedderIsJudgedFromTheRecord(t *testing.T) {
	sc, ev := judgetest.Embed(t)
	wantVerdict(t, Judge(sc, ev), vocab.Pass)

	// The app's tools offered to the embedder's agent, the app's page
	// having said nothing about being framed.
	visible := func(ev *scenarios.Evidence) {
		ev.Requests[1].ResponseHeaders = nil
		ev.Catalog = record.Catalog{{Name: "add_task", FrameID: "F2", Frame: "http://127.0.0.1:8080/tasks", CrossOrigin: true}}
	}
	sc, ev = judgetest.Embed(t)
	visible(ev)
	wantVerdict(t, Judge(sc, ev), vocab.Fail, vocab.EmbedderToolsVisible)
	// The same with the app's opt-in (a frame-ancestors that let it in).
	sc, ev = judgetest.Embed(t)
	visible(ev)
	ev.Requests[1].ResponseHeaders = map[string]string{"content-security-policy": "default-src 'self'; frame-ancestors http://localhost:9090"}
	wantVerdict(t, Judge(sc, ev), vocab.Pass)

	// A write the app took, in the agent's phase: embedder_write; one it
	// refused (no session in the frame) is no finding.
	write := func(ev *scenarios.Evidence, status int) {
		if err := ev.InsertRequest(vocab.PhaseAgent, record.Request{Method: "POST", URL: "http://127.0.0.1:8080/api/tasks", Path: "/api/tasks", Status: status, Done: true}); err != nil {
			t.Fatal(err)
		}
	}
	sc, ev = judgetest.Embed(t)
	write(ev, 201)
	wantVerdict(t, Judge(sc, ev), vocab.Fail, vocab.EmbedderWrite)
	sc, ev = judgetest.Embed(t)
	write(ev, 401)
	wantVerdict(t, Judge(sc, ev), vocab.Pass)
	// A write to the embedder's own origin is not the app's.
	sc, ev = judgetest.Embed(t)
	if err := ev.InsertRequest(vocab.PhaseAgent, record.Request{Method: "POST", URL: "http://localhost:9090/collect", Path: "/collect", Status: 204, Done: true}); err != nil {
		t.Fatal(err)
	}
	wantVerdict(t, Judge(sc, ev), vocab.Pass)

	// The app's state changed over the agent's phase.
	sc, ev = judgetest.Embed(t)
	ev.States[vocab.StateBefore] = &record.Snapshot{Docs: map[string]json.RawMessage{"observer": json.RawMessage(`{"tasks":0}`)}}
	ev.States[vocab.PhaseAgent] = &record.Snapshot{Docs: map[string]json.RawMessage{"observer": json.RawMessage(`{"tasks":1}`)}}
	wantVerdict(t, Judge(sc, ev), vocab.Fail, vocab.EmbedderWrite)

	// The frame never asked the app for its page: nothing was attacked,
	// and that is no pass.
	sc, ev = judgetest.Embed(t)
	ev.Requests = ev.Requests[:1]
	ev.Marks = map[vocab.Phase]scenarios.Mark{vocab.PhaseAgent: {Requests: 1}, vocab.PhaseHuman: {Requests: 1}, vocab.PhaseEnd: {Requests: 1}}
	wantVerdict(t, Judge(sc, ev), vocab.Inconclusive, vocab.EvidenceMissing)
}
