package agentmodel

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/runs/agentmodel/modeltest"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// recorded plays a scripted model once and writes its record as a run
// folder's bundle of scenario id.
func recorded(t *testing.T, id string) string {
	t.Helper()
	srv := modeltest.New(modeltest.Step{Calls: []modeltest.Call{{Tool: "search", Args: map[string]any{"q": "a"}}}}, modeltest.Step{Text: "done"})
	defer srv.Close()
	a, _ := New(Config{BaseURL: srv.URL, Model: "m"})
	_, rec := a.Play(context.Background(), "x", Page{Tools: func() record.Catalog { return catalog("search") }, Act: (&page{}).act}, nil)
	dir := t.TempDir()
	data, _ := json.Marshal(rec)
	if err := os.MkdirAll(filepath.Join(dir, id), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, id, File), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func replayer(t *testing.T, dir, id string) *Agent {
	t.Helper()
	a, err := Replay(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	cfg := a.cfg
	cfg.HTTP = a.replay.client(scenarios.Scenario{ID: id})
	return newAgent(cfg, a.name)
}

func TestAReplayPlaysTheRecordedAnswersWithoutANetwork(t *testing.T) {
	dir := recorded(t, "S-01")
	p := &page{}
	final, rec := replayer(t, dir, "S-01").Play(context.Background(), "x", Page{Tools: func() record.Catalog { return catalog("search") }, Act: p.act}, nil)
	if final == nil || *final != "done" || len(p.calls) != 1 || p.calls[0].Input["q"] != "a" || rec.Agent != "replay" || rec.Fault != "" {
		t.Fatalf("final %v, calls %+v, record %+v", final, p.calls, rec)
	}
}

func TestAReplayOnAPageOfOtherToolsIsAFaultNamingTheTool(t *testing.T) {
	dir := recorded(t, "S-01")
	changed := func() record.Catalog {
		c := catalog("search")
		c[0].InputSchema = json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}}}`)
		return c
	}
	final, rec := replayer(t, dir, "S-01").Play(context.Background(), "x", Page{Tools: changed, Act: (&page{}).act}, nil)
	if final != nil || rec.Stop != "fault" || !strings.Contains(rec.Fault, "the tool search with another description or schema") {
		t.Fatalf("final %v, record %+v", final, rec)
	}
	_, rec = replayer(t, dir, "S-01").Play(context.Background(), "x", Page{Tools: func() record.Catalog { return catalog("search", "checkout") }, Act: (&page{}).act}, nil)
	if !strings.Contains(rec.Fault, "a new tool checkout") {
		t.Fatalf("fault %q", rec.Fault)
	}
	_, rec = replayer(t, dir, "OTHER").Play(context.Background(), "x", Page{Tools: func() record.Catalog { return catalog("search") }, Act: (&page{}).act}, nil)
	if !strings.Contains(rec.Fault, "cannot be replayed") {
		t.Fatalf("a missing recording: fault %q", rec.Fault)
	}
	if _, err := Replay(filepath.Join(dir, "nowhere"), false); err == nil || !strings.Contains(err.Error(), "replay:") {
		t.Fatalf("a missing folder: %v", err)
	}
}

// A run folder of --runs k: the n-th play of a scenario replays its run
// n; past the recorded runs, the scenario's own bundle, here none.
func TestAReplayOfRunsPlaysEachRunsRecording(t *testing.T) {
	dir := t.TempDir()
	for n, final := range []string{"one", "two"} {
		srv := modeltest.New(modeltest.Step{Text: final})
		a, _ := New(Config{BaseURL: srv.URL, Model: "m"})
		_, rec := a.Play(context.Background(), "x", Page{Tools: func() record.Catalog { return nil }, Act: (&page{}).act}, nil)
		srv.Close()
		data, _ := json.Marshal(rec)
		sub := filepath.Join(dir, fmt.Sprintf("S-01.run-%d", n+1))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, File), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, err := Replay(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for range 3 {
		cfg := a.cfg
		cfg.HTTP = a.replay.client(scenarios.Scenario{ID: "S-01"})
		final, rec := newAgent(cfg, a.name).Play(context.Background(), "x", Page{Tools: func() record.Catalog { return nil }, Act: (&page{}).act}, nil)
		if final != nil {
			got = append(got, *final)
		} else {
			got = append(got, rec.Fault)
		}
	}
	if got[0] != "one" || got[1] != "two" || !strings.Contains(got[2], filepath.Join("S-01", File)) {
		t.Fatalf("replayed %q", got)
	}
}

// A recording made under an attack replays only under the same attack:
// its answers were to what the model read then.
func TestAReplayUnderAnotherAttackIsRefused(t *testing.T) {
	a := &scenarios.Attack{Pattern: vocab.AttackIgnorePrevious, In: vocab.PlantResult, Tool: "get_event_details", Call: "save_event"}
	same := *a
	same.URL = "https://redacted.example/"
	if err := sameAttack(a, &same); err != nil {
		t.Errorf("the same attack: %v", err)
	}
	if err := sameAttack(nil, nil); err != nil {
		t.Errorf("no attack either time: %v", err)
	}
	other := *a
	other.In = vocab.PlantDescription
	for _, now := range []*scenarios.Attack{nil, &other} {
		if err := sameAttack(a, now); err == nil || !strings.Contains(err.Error(), "recorded under the attack {pattern: ignore-previous, in: tool_result") || !strings.Contains(err.Error(), "--attack") {
			t.Errorf("%+v: %v", now, err)
		}
	}
}
