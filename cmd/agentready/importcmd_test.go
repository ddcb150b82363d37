package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/runs/play"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/runner"
	"github.com/agentready/agentready/scenarios/vocab"
)

const conf01Trace = "../../internal/sources/inspector/testdata/conf01-attempt-3.trace.json"

// The acceptance of issue 17.1: an Inspector-shaped trace of CONF-01
// attempt 3 becomes a scenario that passes against the reference app, and
// whose scaffolded expectations catch the app answering otherwise
// (wrong-result-code: ok:true, OK instead of CONFIRMATION_REQUIRED).
func TestImportedInspectorTracePassesAgainstTheReferenceApp(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "CONF-01.inspector.yaml")
	var out, errs bytes.Buffer
	code := importCmd([]string{"inspector", conf01Trace, "--start", "http://127.0.0.1:8080/events/evt-webmcp-intro/register", "--id", "CONF-01.inspector", "--out", file}, &out, &errs)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if !strings.Contains(out.String(), "wrote "+file) {
		t.Errorf("stdout %q", out.String())
	}
	namesItsSchema(t, file)
	sc, err := scenarios.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	b, err := browser.Launch(browser.OptionsFromEnv())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	verdict := func(variant string) judge.Verdict {
		target, done, err := play.Target(t.Context(), b, play.App{}, variant)
		if err != nil {
			t.Fatal(err)
		}
		defer done()
		return judge.Judge(sc, runner.Run(t.Context(), sc, target))
	}
	if v := verdict(""); v.Outcome != vocab.Pass {
		t.Errorf("the correct app: %s %v\n%s", v.Outcome, v.Codes, judge.Explain(v))
	}
	if v := verdict("wrong-result-code"); v.Outcome != vocab.Fail || !slices.Contains(v.Codes, vocab.UnexpectedResult) {
		t.Errorf("wrong-result-code: %s %v, want FAIL with unexpected_result", v.Outcome, v.Codes)
	}
	if v := verdict("email-not-required"); v.Outcome != vocab.Fail || !slices.Contains(v.Codes, vocab.SchemaMismatch) {
		t.Errorf("email-not-required: %s %v, want FAIL with schema_mismatch", v.Outcome, v.Codes)
	}
}

// Bad input is a clear error, and nothing is written; an existing file is
// never overwritten.
func TestImportRefusesBadInputAndWritesNothing(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`[{"response":{}}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.yaml")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"inspector", bad, "--start", "/x", "--id", "X", "--out", out}, "before any user prompt"},
		{[]string{"inspector", filepath.Join(dir, "missing.json"), "--start", "/x", "--id", "X", "--out", out}, "no such file"},
		{[]string{"inspector", conf01Trace, "--start", "register", "--id", "X", "--out", out}, "neither a URL"},
		{[]string{"inspector", conf01Trace, "--start", "/x", "--id", "no spaces", "--out", out}, "may hold only"},
		{[]string{"inspector", conf01Trace, "--id", "X"}, "usage"},
		{[]string{"har", conf01Trace}, "usage"},
	} {
		var stdout, stderr bytes.Buffer
		if code := importCmd(tc.args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr.String(), tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%v: wrote %s", tc.args, out)
		}
	}
	if err := os.WriteFile(out, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := importCmd([]string{"inspector", conf01Trace, "--start", "/x", "--id", "X", "--out", out}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "not overwriting") {
		t.Errorf("an existing file: exit %d, %q", code, stderr.String())
	}
	if data, _ := os.ReadFile(out); string(data) != "mine" {
		t.Errorf("the existing file was changed: %q", data)
	}
}

// namesItsSchema holds a written scenario file to what an editor needs:
// its first line names the schema, and the schema of this suite is beside it.
func namesItsSchema(t *testing.T, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte(scenarios.SchemaLine)) {
		first, _, _ := bytes.Cut(data, []byte("\n"))
		t.Errorf("%s starts %q, want %q", file, first, scenarios.SchemaLine)
	}
	schema, err := os.ReadFile(filepath.Join(filepath.Dir(file), scenarios.SchemaFile))
	if err != nil || !bytes.Equal(schema, scenarios.Schema()) {
		t.Errorf("no schema of this suite beside %s: %v", file, err)
	}
}
