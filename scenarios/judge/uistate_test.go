package judge

import (
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// text_contains_state ties what the page shows after a phase to what the
// app's state then holds: the page that says "Saved" over the old title
// fails with ui_not_state; what the harness could not read (no state, a
// path that selects nothing) is INCONCLUSIVE, never a pass.
func TestTheUIShowsWhatTheStateHolds(t *testing.T) {
	const sel = "#draft-title"
	for _, tt := range []struct {
		name  string
		text  string
		state *record.Snapshot
		query string
		want  vocab.Outcome
		code  vocab.Code
	}{
		{"the new title on screen", "Saved: Spring plan", snapshot(map[string]string{"drafts": `{"draft":{"title":"Spring plan","rev":2}}`}), "$.drafts.draft.title", vocab.Pass, ""},
		{"a number the state holds", "revision 2", snapshot(map[string]string{"drafts": `{"draft":{"title":"Spring plan","rev":2}}`}), "$.drafts.draft.rev", vocab.Pass, ""},
		{"saved with the old title on screen", "Saved: Winter plan", snapshot(map[string]string{"drafts": `{"draft":{"title":"Spring plan","rev":2}}`}), "$.drafts.draft.title", vocab.Fail, vocab.UINotState},
		{"the state holds no such path", "Saved: Spring plan", snapshot(map[string]string{"drafts": `{"draft":{"rev":2}}`}), "$.drafts.draft.title", vocab.Inconclusive, vocab.EvidenceMissing},
		// Issue 43 item 5: a value matches as a value, not inside another.
		{"the state's 0 inside 30", "30 seats left", snapshot(map[string]string{"drafts": `{"draft":{"title":"Spring plan","rev":0}}`}), "$.drafts.draft.rev", vocab.Fail, vocab.UINotState},
		{"the state's 8 as the whole of 8.5", "revision 8.5", snapshot(map[string]string{"drafts": `{"draft":{"title":"Spring plan","rev":8}}`}), "$.drafts.draft.rev", vocab.Fail, vocab.UINotState},
		{"the state's 5 before a full stop", "revision 5.", snapshot(map[string]string{"drafts": `{"draft":{"title":"Spring plan","rev":5}}`}), "$.drafts.draft.rev", vocab.Pass, ""},
		// A number the page formats is still the number (the second read's
		// regression: "$12.00" for 12), and a date's parts are no signs.
		{"the state's 12 as a price", "Total: $12.00", snapshot(map[string]string{"drafts": `{"draft":{"title":"Spring plan","rev":12}}`}), "$.drafts.draft.rev", vocab.Pass, ""},
		{"the state's 12.5 with a trailing zero", "Total: $12.50", snapshot(map[string]string{"drafts": `{"draft":{"title":"Spring plan","rev":12.5}}`}), "$.drafts.draft.rev", vocab.Pass, ""},
		{"the state's 1234 with a thousands comma", "1,234 seats", snapshot(map[string]string{"drafts": `{"draft":{"title":"Spring plan","rev":1234}}`}), "$.drafts.draft.rev", vocab.Pass, ""},
		{"the state's -12 is not a date's month", "due 2026-12-01", snapshot(map[string]string{"drafts": `{"draft":{"title":"Spring plan","rev":-12}}`}), "$.drafts.draft.rev", vocab.Fail, vocab.UINotState},
		{"a title inside a longer word", "Saved: Introduction", snapshot(map[string]string{"drafts": `{"draft":{"title":"Intro","rev":2}}`}), "$.drafts.draft.title", vocab.Fail, vocab.UINotState},
		{"a title, then the same title as a word", "Introduction, then Intro", snapshot(map[string]string{"drafts": `{"draft":{"title":"Intro","rev":2}}`}), "$.drafts.draft.title", vocab.Pass, ""},
		{"a title in a script without spaces", "已儲存：春季計畫草稿", snapshot(map[string]string{"drafts": `{"draft":{"title":"春季計畫","rev":2}}`}), "$.drafts.draft.title", vocab.Pass, ""},
		{"the state was not read", "Saved: Spring plan", nil, "$.drafts.draft.title", vocab.Inconclusive, vocab.EvidenceMissing},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sc, ev := goodConf01(t)
			sc.Expect.UI[vocab.PhaseHuman] = append(sc.Expect.UI[vocab.PhaseHuman], scenarios.UI{Selector: sel, TextContainsState: tt.query})
			ev.UI[vocab.PhaseHuman] = append(ev.UI[vocab.PhaseHuman], record.Element{Selector: sel, Present: true, Visible: true, Text: tt.text})
			if tt.state == nil {
				delete(ev.States, vocab.PhaseHuman)
			} else {
				// The conf01 documents stay: the scenario's own state checks
				// still pass, and the draft is one more source beside them.
				merged := snapshot(nil)
				for k, v := range ev.States[vocab.PhaseHuman].Docs {
					merged.Docs[k] = v
				}
				for k, v := range tt.state.Docs {
					merged.Docs[k] = v
				}
				ev.States[vocab.PhaseHuman] = merged
			}
			if tt.code == "" {
				wantVerdict(t, Judge(sc, ev), tt.want)
			} else {
				wantVerdict(t, Judge(sc, ev), tt.want, tt.code)
			}
		})
	}
}
