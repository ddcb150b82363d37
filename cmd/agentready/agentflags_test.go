package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/fixtures/plainapp"
	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/runs/agentmodel/modeltest"
	"github.com/agentready/agentready/scenarios/vocab"
)

// runAgent runs CONF-01 attempt 3 on the embedded app with a model's flags.
func runAgent(t *testing.T, evidence, runID string, args ...string) (int, string) {
	t.Helper()
	var out, errs bytes.Buffer
	code := runScenarios(append([]string{"--scenarios", "../../scenarios/cases", "--id", "CONF-01.attempt-3", "--evidence", evidence, "--run-id", runID}, args...), &out, &errs)
	t.Logf("stdout:\n%s\nstderr:\n%s", out.String(), errs.String())
	return code, out.String() + errs.String()
}

// A scripted model that prepares and leaves the submit to the person
// passes CONF-01 attempt 3; its exchanges are the bundle's model.json, the
// bundle verifies, and the recording replays keyless to the same verdict.
func TestAModelPlaysTheAgentAndItsRecordingReplays(t *testing.T) {
	srv := modeltest.New(
		modeltest.Step{Calls: []modeltest.Call{{Tool: "prepare_event_registration", Args: map[string]any{"attendeeName": "測試讀者", "email": "reader@example.com"}}}},
		modeltest.Step{Text: "I have filled in the form; it is not submitted yet. Please check the details and press Submit registration yourself."},
	)
	defer srv.Close()
	evidence := t.TempDir()
	t.Setenv("TEST_MODEL_KEY", "sk-secret-test")
	code, out := runAgent(t, evidence, "live", "--agent", "openai", "--model-url", srv.URL, "--model", "scripted", "--model-key-env", "TEST_MODEL_KEY")
	dir := filepath.Join(evidence, "live", "CONF-01.attempt-3")
	if rep := bundle.Verify(dir); code != 0 || !rep.OK || rep.Outcome != vocab.Pass {
		t.Fatalf("exit %d, verify %+v\n%s", code, rep, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, bundle.ModelFile))
	if err != nil || !strings.Contains(string(data), `"stop":"final"`) && !strings.Contains(string(data), `"stop": "final"`) || strings.Contains(string(data), "sk-secret-test") {
		t.Fatalf("model.json (%v):\n%s", err, data)
	}
	if tools := srv.Requests()[0].Tools(); len(tools) != 1 || tools[0] != "prepare_event_registration" {
		t.Errorf("the model was offered %v", tools)
	}
	code, out = runAgent(t, evidence, "replayed", "--agent", "replay:"+filepath.Join(evidence, "live"))
	if rep := bundle.Verify(filepath.Join(evidence, "replayed", "CONF-01.attempt-3")); code != 0 || !rep.OK || rep.Outcome != vocab.Pass {
		t.Fatalf("replay: exit %d, verify %+v\n%s", code, rep, out)
	}
	if len(srv.Requests()) != 2 {
		t.Errorf("the replay reached the model: %d requests", len(srv.Requests()))
	}
}

// A model URL that answers 404 is the harness's fault, not the app's.
func TestAModelThatIsNotThereIsInconclusive(t *testing.T) {
	t.Parallel() // its browser waits overlap another test's
	srv := modeltest.New(modeltest.Step{Status: 404, Error: "model not found"})
	defer srv.Close()
	evidence := t.TempDir()
	code, out := runAgent(t, evidence, "r1", "--agent", "openai", "--model-url", srv.URL, "--model", "ghost")
	rep := bundle.Verify(filepath.Join(evidence, "r1", "CONF-01.attempt-3"))
	if code == 0 || rep.Outcome != vocab.Inconclusive || !strings.Contains(out, "harness fault") || !strings.Contains(out, "ghost") {
		t.Fatalf("exit %d, outcome %s\n%s", code, rep.Outcome, out)
	}
}

func TestModelFlagsWithoutAnAgentAreRefused(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--model", "x"}, "give --agent openai too"},
		{[]string{"--agent", "claude"}, "give openai or replay:DIR"},
		{[]string{"--agent", "openai"}, "--model is required"},
		{[]string{"--agent", "replay:/nowhere"}, "replay:/nowhere"},
	} {
		var out, errs bytes.Buffer
		code := runScenarios(append([]string{"--scenarios", "../../scenarios/cases", "--evidence", t.TempDir()}, c.args...), &out, &errs)
		if code != 2 || !strings.Contains(errs.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, errs.String())
		}
	}
}

// The model's run is judged by the same oracles: on a page whose
// prepare_order posts the order itself, a model that only prepares makes
// the run FAIL with side_effect_before_confirmation.
func TestAModelOnAPageThatWritesEarlyFails(t *testing.T) {
	srv := modeltest.New(
		modeltest.Step{Calls: []modeltest.Call{{Tool: "prepare_order", Args: map[string]any{"item": "croissant", "quantity": 2, "customerName": "Ada Baker", "pickup": "morning"}}}},
		modeltest.Step{Text: "I have filled in the order form. It is not placed yet: please check the details and press Place order yourself."},
	)
	defer srv.Close()
	code, out, evidence := runPlain(t, plainapp.WritesEarly, "--id", "ORDER-01", "--agent", "openai", "--model-url", srv.URL, "--model", "scripted")
	v := readVerdict(t, filepath.Join(evidence, "r1", "ORDER-01"))
	if code != 1 || v.Outcome != vocab.Fail || !slices.Contains(v.Codes, vocab.SideEffectBeforeConfirmation) {
		t.Fatalf("exit %d, %s %v\n%s", code, v.Outcome, v.Codes, out)
	}
}
