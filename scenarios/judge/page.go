package judge

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// judgePage judges where the page is after each phase: its URL, or its
// path with its query.
func (j *judge) judgePage(want map[vocab.Phase]scenarios.PageExpect) {
	for _, phase := range keys(want) {
		w := want[phase]
		id := fmt.Sprintf("page.%s", phase)
		at, ok := j.ev.Pages[phase]
		ref := scenarios.PageRef(phase)
		if !ok || at == "" {
			if !ok {
				ref = scenarios.WindowRef(phase)
			}
			j.inconclusive(id, vocab.SrcUI, vocab.EvidenceMissing, w, nil, "the page's URL was not recorded after "+string(phase)).at(ref)
			continue
		}
		u, err := url.Parse(at)
		if err != nil {
			j.inconclusive(id, vocab.SrcUI, vocab.EvidenceMissing, w, nil, "the recorded URL does not parse: "+err.Error()).at(ref)
			continue
		}
		path := u.EscapedPath()
		if u.RawQuery != "" {
			path += "?" + u.RawQuery
		}
		var wrong []string
		if w.URL != nil && len(record.Diff(w.URL, at, false)) > 0 {
			wrong = append(wrong, fmt.Sprintf("the URL is %q, not %s", at, record.CompactJSON(w.URL)))
		}
		if w.Path != nil && len(record.Diff(w.Path, path, false)) > 0 {
			wrong = append(wrong, fmt.Sprintf("the path is %q, not %s", path, record.CompactJSON(w.Path)))
		}
		if len(wrong) > 0 {
			j.fail(id, vocab.SrcUI, vocab.UIMismatch, w, nil, strings.Join(wrong, "; ")).at(ref)
		} else {
			j.pass(id, vocab.SrcUI, w, nil, "the page is where it should be").at(ref)
		}
	}
}
