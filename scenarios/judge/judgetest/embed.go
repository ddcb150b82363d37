package judgetest

import (
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Embed is an embed attack on an app that refused the frame: the
// embedder's page, the app's page in its frame (answered with
// frame-ancestors 'self'), no tool of the app offered, nothing written.
func Embed(testing.TB) (scenarios.Scenario, *scenarios.Evidence) {
	const app = "http://127.0.0.1:8080"
	sc := scenarios.Scenario{ID: "EMBED.allow-tools", Start: "/embed"}
	sc.Expect.Embedder = &scenarios.EmbedderExpect{App: app}
	ev := &scenarios.Evidence{ScenarioID: sc.ID, Env: scenarios.Env{BaseURL: "http://localhost:9090"},
		Catalog: record.Catalog{}, States: map[vocab.Phase]*record.Snapshot{},
		Requests: record.Log{
			{Seq: 1, Method: "GET", URL: "http://localhost:9090/embed", Path: "/embed", ResourceType: "Document", Status: 200, Done: true},
			{Seq: 2, Method: "GET", URL: app + "/tasks", Path: "/tasks", ResourceType: "Document", Status: 200, Done: true,
				ResponseHeaders: map[string]string{"Content-Security-Policy": "frame-ancestors 'self'"}},
		},
		Marks: map[vocab.Phase]scenarios.Mark{vocab.PhaseAgent: {Requests: 2}, vocab.PhaseHuman: {Requests: 2}, vocab.PhaseEnd: {Requests: 2}}}
	ev.Capture.Network = true
	return sc, ev
}
