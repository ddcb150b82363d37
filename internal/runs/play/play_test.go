package play

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// A play is sealed once: cut short (as the e2e suite's cleanup does when a
// spec is interrupted), its bundle holds what the tab had and the fault
// that says why the rest is missing, never a PASS; the play's own end,
// coming later, answers that same seal and writes nothing over it. Its
// meta is play.Meta's: the run, the browser, the target, the variant.
func TestAPlayIsSealedOnce(t *testing.T) {
	b, err := browser.Launch(browser.OptionsFromEnv())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sc, err := scenarios.Load(filepath.Join("..", "..", "..", scenarios.DefaultDir, "CONF-01.attempt-2.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p, err := Start(ctx, sc, Options{Browser: b, RunID: "r1", Dir: dir, Commit: "abc123"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	cut, err := p.Cut(ctx, "cut short in a test")
	if err != nil {
		t.Fatal(err)
	}
	if cut.Row.Outcome == vocab.Pass || len(cut.Row.Faults) == 0 || !strings.Contains(cut.Row.Faults[0], "cut short in a test") || cut.Row.Bundle != filepath.Join(dir, sc.ID) {
		t.Errorf("the cut play's row: %+v", cut.Row)
	}
	end, err := p.Finish(ctx)
	if err != nil || end.Row.Outcome != cut.Row.Outcome || len(end.Row.Faults) == 0 || end.Row.Faults[0] != cut.Row.Faults[0] {
		t.Errorf("the end of a cut play: %v %+v, want the cut's seal", err, end.Row)
	}
	rep := bundle.Verify(cut.Row.Bundle)
	if !rep.OK || rep.Outcome != cut.Row.Outcome {
		t.Errorf("the bundle: %+v", rep)
	}
	s, err := bundle.ReadSummary(cut.Row.Bundle)
	if err != nil {
		t.Fatal(err)
	}
	m := s.Meta
	if m.RunID != "r1" || m.SuiteCommit != "abc123" || m.Variant != sc.Variant || sc.Variant == "" || m.BaseURL != p.Target.BaseURL || m.Chromium != b.Version.Product || !m.End.After(m.Start) {
		t.Errorf("the meta: %+v", m)
	}
}

// The manifest says how the browser's executeTool took the run's inputs,
// once per shape, in the order met; nothing when no call went through the
// page API.
func TestTheManifestSaysTheInputShape(t *testing.T) {
	call := func(shape string) scenarios.CallRecord {
		return scenarios.CallRecord{Result: record.Result{InputShape: shape}}
	}
	for _, c := range []struct {
		calls []scenarios.CallRecord
		want  string
	}{
		{nil, ""},
		{[]scenarios.CallRecord{call("")}, ""},
		{[]scenarios.CallRecord{call("object"), call(""), call("object")}, "object"},
		{[]scenarios.CallRecord{call("json-string"), call("object")}, "json-string,object"},
	} {
		if got := inputShapes(c.calls); got != c.want {
			t.Errorf("inputShapes(%+v) = %q, want %q", c.calls, got, c.want)
		}
	}
}
