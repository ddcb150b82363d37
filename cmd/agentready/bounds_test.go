package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/kit/hostile"
)

// Every file a user hands a command is refused at once when it is hostile
// — a YAML alias bomb, JSON nested past the bound — with exit 2 and the
// file's name, and nothing run or written: a scenario file and a folder
// file (check, run), an eval file (evals), an Inspector trace (import), a
// storage state (run). Known bad, before: check walked the bomb past a
// minute. The bound asserted is a hang's, far above the milliseconds it
// takes (the note of issue 45 has the figures), so a busy machine does
// not fail it.
func TestEveryLoaderRefusesHostileInputAtOnce(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, body string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	deepJSON := hostile.DeepJSON(record.MaxInputDepth + 1)
	scenarioBomb := write("bomb/BOMB-01.yaml", "id: BOMB-01\ntitle: t\nstart: /\nprompt: p\n"+hostile.AliasBomb("x-bomb"))
	folderBomb := write("folder/"+"agentready.yaml", hostile.AliasBomb("app"))
	write("folder/OK-01.yaml", "id: OK-01\ntitle: t\nstart: /\nprompt: p\n")
	evalsDeep := write("evals.json", deepJSON)
	traceDeep := write("trace.json", deepJSON)
	stateDeep := write("state.json", deepJSON)
	evidence := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		file string
		why  string
	}{
		{"check, a scenario bomb", []string{"check", scenarioBomb}, scenarioBomb, "aliases expand"},
		{"check, a folder file bomb", []string{"check", filepath.Dir(folderBomb)}, folderBomb, "aliases expand"},
		{"run, a scenario bomb", []string{"run", "--scenarios", filepath.Dir(scenarioBomb), "--base-url", "http://127.0.0.1:1", "--evidence", evidence}, scenarioBomb, "aliases expand"},
		{"evals, a deep file", []string{"evals", evalsDeep, "--url", "http://127.0.0.1:1/", "--evidence", evidence}, evalsDeep, "nested more than 1000 deep"},
		{"import, a deep trace", []string{"import", "inspector", traceDeep, "--start", "/", "--id", "T-01", "--out", filepath.Join(dir, "T-01.yaml")}, traceDeep, "nested more than 1000 deep"},
		{"run, a deep storage state", []string{"run", "--scenarios", filepath.Dir(write("ok/OK-01.yaml", "id: OK-01\ntitle: t\nstart: /\nprompt: p\n")),
			"--base-url", "http://127.0.0.1:1", "--storage-state", stateDeep, "--evidence", evidence}, stateDeep, "nested more than 1000 deep"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			began := time.Now()
			code := run(c.args, &out, &errs)
			took := time.Since(began)
			if code != 2 {
				t.Errorf("exit %d, want 2\n%s%s", code, out.String(), errs.String())
			}
			if said := out.String() + errs.String(); !strings.Contains(said, c.file) || !strings.Contains(said, c.why) {
				t.Errorf("the file and %q are not named:\n%s", c.why, said)
			}
			if took > 10*time.Second {
				t.Errorf("refused after %v: hostile input must be refused at once", took)
			}
			t.Logf("refused in %v", took)
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "T-01.yaml")); err == nil {
		t.Error("import wrote a scenario from a refused trace")
	}
	if entries, _ := os.ReadDir(evidence); len(entries) != 0 {
		t.Errorf("a refused input left %d entries in the evidence folder", len(entries))
	}
}
