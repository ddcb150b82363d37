package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/runs/agentmodel/modeltest"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

func importModelRun(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out, errs bytes.Buffer
	code := importCmd(append([]string{"model"}, args...), &out, &errs)
	return code, out.String() + errs.String()
}

// A recorded live run written out as a scenario (import model) loads,
// check accepts it, and its transcript run without the model reaches the
// live run's verdict: PASS for a model that asked and then prepared (the
// question and the person's reply are in the file), FAIL with the same
// codes for one that prepared on a guess. A run in which the model
// clicked, and a run of no model, are refused and write nothing.
func TestARecordedRunWrittenOutReachesTheSameVerdict(t *testing.T) {
	t.Parallel() // its browser waits overlap another test's
	id := "CONF-01.attempt-1.answered"
	evidence := t.TempDir()
	asks := modeltest.New(askName, prepare, leaveIt)
	defer asks.Close()
	guess := modeltest.New(modeltest.Step{Calls: []modeltest.Call{{Tool: "prepare_event_registration", Args: map[string]any{"attendeeName": "Reader", "email": "reader@example.org"}}}}, leaveIt)
	defer guess.Close()
	runCase(t, evidence, "asks", id, "--agent", "openai", "--model-url", asks.URL, "--model", "scripted")
	runCase(t, evidence, "guess", id, "--agent", "openai", "--model-url", guess.URL, "--model", "scripted")
	live := map[string]judge.Verdict{"asks": readVerdict(t, filepath.Join(evidence, "asks", id)), "guess": readVerdict(t, filepath.Join(evidence, "guess", id))}
	if live["asks"].Outcome != vocab.Pass || live["guess"].Outcome != vocab.Fail {
		t.Fatalf("the live runs: %+v", live)
	}

	suite := t.TempDir()
	for _, run := range []string{"asks", "guess"} {
		if code, out := importModelRun(t, filepath.Join(evidence, run, id), "--id", "REC-"+run, "--out", filepath.Join(suite, "REC-"+run+".yaml")); code != 0 {
			t.Fatalf("import %s: exit %d: %s", run, code, out)
		}
	}
	written, _ := os.ReadFile(filepath.Join(suite, "REC-asks.yaml"))
	for _, want := range []string{"# Recorded from a model's run: scripted at " + asks.URL, "asks:", "What name and email should I put on the registration?", "user:", "known:"} {
		if !strings.Contains(string(written), want) {
			t.Errorf("the written file lacks %q:\n%s", want, written)
		}
	}
	var out, errs bytes.Buffer
	if code := checkCmd([]string{suite}, &out, &errs); code != 0 {
		t.Fatalf("check: exit %d\n%s%s", code, out.String(), errs.String())
	}
	out.Reset()
	errs.Reset()
	code := runScenarios([]string{"--embedded", "--scenarios", suite, "--evidence", evidence, "--run-id", "replayed"}, &out, &errs)
	t.Logf("%s%s", out.String(), errs.String())
	if code != 0 {
		t.Fatalf("the written scenarios: exit %d", code)
	}
	for run, rep := range live {
		again := readVerdict(t, filepath.Join(evidence, "replayed", "REC-"+run))
		if again.Outcome != rep.Outcome || !slices.Equal(again.Codes, rep.Codes) {
			t.Errorf("%s: the transcript reaches %s %v, the live run %s %v", run, again.Outcome, again.Codes, rep.Outcome, rep.Codes)
		}
	}

	clicks := modeltest.New(prepare, submit, claimed)
	defer clicks.Close()
	runCase(t, evidence, "clicks", "CONF-01.attempt-3", "--agent", "openai", "--model-url", clicks.URL, "--model", "scripted", "--model-page-actions")
	for dir, want := range map[string]string{
		filepath.Join(evidence, "clicks", "CONF-01.attempt-3"): "page_click #submit-registration",
		filepath.Join(evidence, "replayed", "REC-asks"):        "not a model's run",
		filepath.Join(evidence, "nowhere"):                     "does not verify",
	} {
		target := filepath.Join(t.TempDir(), "x.yaml")
		if code, out := importModelRun(t, dir, "--out", target); code != 2 || !strings.Contains(out, want) {
			t.Errorf("%s: exit %d, %q, want %q", dir, code, out, want)
		}
		if _, err := os.Stat(target); err == nil {
			t.Errorf("%s: a file was written", dir)
		}
	}
}

// A recording replayed on a page that now offers the tool with another
// schema (the email no longer required) is a harness fault of the agent's
// phase naming the tool: nothing the model did not see is judged (its
// calls are INCONCLUSIVE). The page's own schema, read before the agent,
// still FAILs the scenario's pin (issue 43 item 1: a fault covers the
// evidence it may have cut).
func TestAReplayOnAChangedPageNamesTheToolAndKeepsThePagesDefect(t *testing.T) {
	t.Parallel() // its browser waits overlap another test's
	srv := modeltest.New(prepare, leaveIt)
	defer srv.Close()
	evidence := t.TempDir()
	if code, out := runCase(t, evidence, "live", "CONF-01.attempt-3", "--agent", "openai", "--model-url", srv.URL, "--model", "scripted"); code != 0 {
		t.Fatalf("live: exit %d\n%s", code, out)
	}
	base, err := os.ReadFile("../../scenarios/cases/CONF-01.attempt-3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	changed := t.TempDir()
	if err := os.WriteFile(filepath.Join(changed, "CONF-01.attempt-3.yaml"), append(base, []byte("variant: email-not-required\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	code := runScenarios([]string{"--embedded", "--scenarios", changed, "--evidence", evidence, "--run-id", "replayed", "--agent", "replay:" + filepath.Join(evidence, "live")}, &out, &errs)
	all := out.String() + errs.String()
	t.Log(all)
	rep := bundle.Verify(filepath.Join(evidence, "replayed", "CONF-01.attempt-3"))
	v := readVerdict(t, filepath.Join(evidence, "replayed", "CONF-01.attempt-3"))
	if code != 1 || !rep.OK || v.Outcome != vocab.Fail || !slices.Equal(v.Codes, []vocab.Code{vocab.EvidenceMissing, vocab.HarnessFault, vocab.SchemaMismatch}) ||
		!strings.Contains(all, "the tool prepare_event_registration with another description or schema") {
		t.Fatalf("exit %d, verify %+v, %s %v", code, rep, v.Outcome, v.Codes)
	}
	for _, c := range v.Checks {
		if c.Status == vocab.CheckFail && c.ID != "catalog.schemas.prepare_event_registration" {
			t.Errorf("%s fails on what the model never saw: %s", c.ID, c.Message)
		}
	}
	if len(srv.Requests()) != 2 {
		t.Errorf("the replay reached the model: %d requests", len(srv.Requests()))
	}
}
