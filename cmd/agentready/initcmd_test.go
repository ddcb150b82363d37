package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentready/agentready/fixtures/plainapp"
	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/runs/play"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/runner"
	"github.com/agentready/agentready/scenarios/vocab"
)

// The acceptance of issue 14.3: init's file loads, and its catalog checks
// pass against the same page (declarative forms with browser-built schemas
// included); a changed schema in it fails with schema_mismatch.
func TestInitPinsTheRealCatalog(t *testing.T) {
	t.Parallel() // its browser waits overlap another test's
	ref, err := refapp.Start(refapp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	plain, err := plainapp.Start(plainapp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	b, err := browser.Launch(browser.OptionsFromEnv())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	dir := t.TempDir()
	for _, page := range []struct{ base, path, id string }{
		{ref.URL, "/events/evt-webmcp-intro/register", "INIT-register"},
		{ref.URL, "/tasks", "INIT-tasks"},
		{plain.URL, "/order", "INIT-order"},
	} {
		file := filepath.Join(dir, page.id+".yaml")
		var out, errs bytes.Buffer
		if code := initCmd([]string{"--id", page.id, "--out", file, page.base + page.path}, &out, &errs); code != 0 {
			t.Fatalf("%s: exit %d: %s", page.id, code, errs.String())
		}
		namesItsSchema(t, file)
		sc, err := scenarios.Load(file)
		if err != nil {
			t.Fatalf("%s: the written file does not load: %v", page.id, err)
		}
		verdict := func(sc scenarios.Scenario) judge.Verdict {
			target, done, err := play.Target(t.Context(), b, play.App{BaseURL: page.base}, "")
			if err != nil {
				t.Fatal(err)
			}
			defer done()
			return judge.Judge(sc, runner.Run(t.Context(), sc, target))
		}
		if v := verdict(sc); v.Outcome != vocab.Pass {
			t.Errorf("%s: init's catalog does not pass against its own page:\n%s", page.id, judge.Explain(v))
		}
		// Known-bad: one property of one schema changed.
		for name, schema := range sc.Expect.Catalog.Schemas {
			schema["type"] = "array"
			if v := verdict(sc); v.Outcome != vocab.Fail || !strings.Contains(strings.Join(codes(v), ","), string(vocab.SchemaMismatch)) {
				t.Errorf("%s: a changed schema of %s: %s %v, want schema_mismatch", page.id, name, v.Outcome, v.Codes)
			}
			break
		}
	}
	// It never overwrites.
	var out, errs bytes.Buffer
	existing := filepath.Join(dir, "INIT-tasks.yaml")
	before, _ := os.ReadFile(existing)
	if code := initCmd([]string{"--id", "INIT-tasks", "--out", existing, ref.URL + "/tasks"}, &out, &errs); code != 2 {
		t.Errorf("overwriting: exit %d, want 2", code)
	}
	if after, _ := os.ReadFile(existing); !bytes.Equal(before, after) {
		t.Error("init changed an existing file")
	}
}

func codes(v judge.Verdict) []string {
	out := make([]string, len(v.Codes))
	for i, c := range v.Codes {
		out[i] = string(c)
	}
	return out
}
