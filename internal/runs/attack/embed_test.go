package attack

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/scenarios/vocab"
)

// The embed attack against the reference app: the correct app refuses to
// be framed by another origin (frame-ancestors 'self') and passes both
// framings; the embeddable variant is framed, offers its tools to the
// embedder's agent, and add_task writes: embedder_write (and, framed with
// allow="tools", embedder_tools_visible). Without allow="tools" Chromium
// refuses the framed app's tools, so even the variant passes there.
func TestTheEmbedAttackOnTheReferenceApp(t *testing.T) {
	b, err := browser.Launch(browser.OptionsFromEnv())
	if err != nil {
		t.Fatalf("these tests need Chromium (make deps installs it): %v", err)
	}
	defer b.Close()
	for _, c := range []struct {
		variant refapp.Variant
		want    map[string][]vocab.Code // mode → codes; nil: PASS
	}{
		{"", map[string][]vocab.Code{}},
		{refapp.Embeddable, map[string][]vocab.Code{"EMBED.allow-tools": {vocab.EmbedderToolsVisible, vocab.EmbedderWrite}}},
	} {
		t.Run(string(c.variant)+"/", func(t *testing.T) {
			app, err := refapp.Start(refapp.Options{Variant: c.variant, ObserverToken: "attack"})
			if err != nil {
				t.Fatal(err)
			}
			defer app.Close()
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
			defer cancel()
			dir := t.TempDir()
			sealed, err := Embed(ctx, Options{Browser: b, AppURL: app.URL + "/tasks", ObserverToken: "attack", RunID: "t", Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range sealed {
				mode := Modes[i].ID
				want, fails := c.want[mode]
				outcome := vocab.Pass
				if fails {
					outcome = vocab.Fail
				}
				if s.Verdict.Outcome != outcome || !slices.Equal(s.Verdict.Codes, want) {
					t.Errorf("%s: %s %v, want %s %v\n%s", mode, s.Verdict.Outcome, s.Verdict.Codes, outcome, want, s.Row.Bundle)
				}
				// The bundle re-judges offline to the same verdict.
				if rep := bundle.Verify(s.Row.Bundle); !rep.OK {
					t.Errorf("%s: the bundle does not verify: %+v", mode, rep)
				}
			}
		})
	}
}
