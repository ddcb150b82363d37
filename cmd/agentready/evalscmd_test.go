package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/scenarios/vocab"
)

func runEvals(t *testing.T, base string, file string) (code int, stdout, stderr, evidence string) {
	t.Helper()
	evidence = t.TempDir()
	var out, errs bytes.Buffer
	code = evalsCmd([]string{file, "--url", base + "/tasks", "--evidence", evidence, "--run-id", "r1"}, &out, &errs)
	t.Logf("stdout:\n%s\nstderr:\n%s", out.String(), errs.String())
	return code, out.String(), errs.String(), evidence
}

// The acceptance of issue 17.2: eval cases with ordered, unordered and
// optional nodes and every constraint operator, replayed against the
// reference app, each case on a fresh page; verdicts, bundles that verify,
// the run's index and the summary line. The case that expects no call is
// skipped and says why.
func TestEvalsSmokeAgainstTheReferenceApp(t *testing.T) {
	app, err := refapp.Start(refapp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	code, out, _, evidence := runEvals(t, app.URL, "../../internal/sources/evals/testdata/tasks.evals.json")
	if code != 0 {
		t.Fatalf("exit %d, want 0", code)
	}
	for _, want := range []string{
		"PASS          tasks-evals.01  Add a task, then list the tasks (2 call(s))",
		"PASS          tasks-evals.02  Two tasks in any order, a summary if the model wants one (3 call(s))",
		"SKIPPED       case 2 (Out of scope: no tool for the weather): expects no call",
		"verify: 2 passed, 0 failed",
		"evals: 2 passed, 0 failed, 1 skipped\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(evidence, "r1", "index.html")); err != nil {
		t.Error(err)
	}
	for _, id := range []string{"tasks-evals.01", "tasks-evals.02"} {
		if rep := bundle.Verify(filepath.Join(evidence, "r1", id)); !rep.OK || rep.Outcome != vocab.Pass {
			t.Errorf("%s: %+v", id, rep)
		}
	}
}

// Each check of an eval bites: a result that says otherwise, an array of
// another length, a required tool the page does not offer. The run exits 1
// and every bundle still verifies.
func TestEvalsSmokeFailsWhatTheCasesDoNotHold(t *testing.T) {
	app, err := refapp.Start(refapp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	code, out, _, evidence := runEvals(t, app.URL, "../../internal/sources/evals/testdata/tasks-bad.evals.json")
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	for _, want := range []string{
		`/code: "TASK_ADDED" does not match $pattern "^TASK_REMOVED$"`,
		"/tasks: expected an array of 2, actual 1 elements",
		"verify: 3 passed, 0 failed",
		"evals: 0 passed, 3 failed, 0 skipped\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q", want)
		}
	}
	for id, code := range map[string]vocab.Code{"tasks-bad-evals.01": vocab.UnexpectedResult, "tasks-bad-evals.02": vocab.UnexpectedResult, "tasks-bad-evals.03": vocab.ToolError} {
		v := readVerdict(t, filepath.Join(evidence, "r1", id))
		if v.Outcome != vocab.Fail || !slices.Contains(v.Codes, code) {
			t.Errorf("%s: %s %v, want FAIL with %s", id, v.Outcome, v.Codes, code)
		}
	}
}

// An unknown operator is an error at load, not a silent pass: nothing runs
// and no evidence is written. So is a URL that is no URL.
func TestEvalsRefusesAFileThatDoesNotLoad(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "typo.json")
	if err := os.WriteFile(file, []byte(`[{"name":"typo","messages":[{"role":"user","content":"Add milk"}],
	  "expectedCall":[{"functionName":"add_task","arguments":{"text":"milk"},"result":{"code":{"$contain":"TASK"}}}]}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{file, "--url", "http://127.0.0.1:9/tasks", "--evidence", dir}, "unknown operator $contain"},
		{[]string{"../../internal/sources/evals/testdata/tasks.evals.json", "--url", "tasks", "--evidence", dir}, "is not an http(s) URL"},
		{[]string{"../../internal/sources/evals/testdata/tasks.evals.json", "--evidence", dir}, "usage"},
	} {
		var out, errs bytes.Buffer
		if code := evalsCmd(tc.args, &out, &errs); code != 2 || !strings.Contains(errs.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errs.String(), tc.want)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("something was written: %v", entries)
	}
}
