package mutants

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// replayMutations change a recorded attack replay (issue 27) the way a
// server that does not hold its confirmation would have answered it.
func replayMutations() []Mutation {
	return []Mutation{
		{"accept a replay the app refused", vocab.Fail, vocab.ReplayAccepted, acceptRefusedReplay},
		{"leave a second effect after a replay", vocab.Fail, vocab.ReplaySecondEffect, replayEffect},
	}
}

// refusedRun is the first recorded replay whose kind must be refused (by
// the scenario's plan), that the app refused, and that is not the expiry
// (which has a code of its own); -1 when there is none.
func refusedRun(sc scenarios.Scenario, ev *scenarios.Evidence) int {
	if ev.Replays == nil {
		return -1
	}
	plan := sc.Expect.ReplayPlan()
	return slices.IndexFunc(ev.Replays.Runs, func(r scenarios.ReplayRun) bool {
		if r.Entry < 0 || r.Entry >= len(plan) || r.Kind == vocab.ReplayExpired || r.Kind == vocab.ReplayRace || r.Skipped != "" || r.Fault != "" {
			return false
		}
		return plan[r.Entry].Rule(r.Kind).Expect == vocab.ReplayRefused && slices.ContainsFunc(r.Sent, func(s scenarios.ReplaySend) bool { return !s.Prerequisite && s.Status >= 400 })
	})
}

func acceptRefusedReplay(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	i := refusedRun(sc, ev)
	if i < 0 {
		return false
	}
	run := &ev.Replays.Runs[i]
	for k := range run.Sent {
		if !run.Sent[k].Prerequisite {
			run.Sent[k].Status, run.Sent[k].Answer = 201, json.RawMessage(`{"ok":true}`)
		}
	}
	return true
}

// replayEffect adds a key to the least source of the state read after the
// first refused replay: the state then differs from the one before it.
func replayEffect(sc scenarios.Scenario, ev *scenarios.Evidence) bool {
	i := refusedRun(sc, ev)
	if i < 0 || ev.Replays.Runs[i].After == nil || len(ev.Replays.Runs[i].After.Docs) == 0 {
		return false
	}
	after := ev.Replays.Runs[i].After
	c := &record.Snapshot{Docs: maps.Clone(after.Docs), Errors: maps.Clone(after.Errors)}
	src := slices.Sorted(maps.Keys(c.Docs))[0]
	var doc map[string]any
	if json.Unmarshal(c.Docs[src], &doc) != nil {
		return false
	}
	doc["changedByAMutation"] = true
	c.Docs[src], _ = json.Marshal(doc)
	ev.Replays.Runs[i].After = c
	return true
}
