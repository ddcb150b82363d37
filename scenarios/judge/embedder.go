package judge

import (
	"fmt"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// judgeEmbedder judges a run whose start page is another origin's page
// framing the app (agentready attack embed, docs/decisions/2026-12-04-embed-attack.md):
// which of the app's tools that page offered an agent, whether the app
// opted in to being framed, and whether the embedder's agent made the app
// write.
func (j *judge) judgeEmbedder(x *scenarios.EmbedderExpect) {
	if x == nil {
		return
	}
	framed, framedAt, found := j.framedDocument(x.App)
	j.judgeEmbedderTools(x.App, framed, framedAt, found)
	j.judgeEmbedderWrites(x.App)
}

// appBase is where the app's own requests go: its base URL, or, when the
// start page is a hostile embedder's, the embedded app's origin (the
// journal's witnesses and the writes are the app's, not the embedder's).
func (j *judge) appBase() string {
	if x := j.sc.Expect.Embedder; x != nil {
		return x.App
	}
	return j.ev.Env.BaseURL
}

// framedDocument finds the app's page as the frame loaded it: the first
// document request to the app's origin in the log.
func (j *judge) framedDocument(app string) (record.Request, int, bool) {
	for i, r := range j.ev.Requests {
		if r.ResourceType == "Document" && record.SameOrigin(app, r.URL) {
			return r, i, true
		}
	}
	return record.Request{}, -1, false
}

// framingRule is what the app's response says of being framed:
// frame-ancestors of its Content-Security-Policy, else its
// X-Frame-Options; "" when it says nothing.
func framingRule(r record.Request) string {
	var csp, xfo string
	for k, v := range r.ResponseHeaders {
		switch strings.ToLower(k) {
		case "content-security-policy":
			for d := range strings.SplitSeq(v, ";") {
				if d = strings.TrimSpace(d); strings.HasPrefix(strings.ToLower(d), "frame-ancestors") {
					csp = "Content-Security-Policy: " + d
				}
			}
		case "x-frame-options":
			xfo = "X-Frame-Options: " + strings.TrimSpace(v)
		}
	}
	if csp != "" {
		return csp
	}
	return xfo
}

func (j *judge) judgeEmbedderTools(app string, framed record.Request, framedAt int, found bool) {
	const id = "embedder.tools"
	refs := []scenarios.Ref{scenarios.CatalogRef()}
	if found {
		refs = append(refs, scenarios.RequestRef(framedAt))
	}
	switch {
	case j.ev.Catalog == nil:
		j.inconclusive(id, vocab.SrcCatalog, vocab.EvidenceMissing, nil, nil, "the embedder's catalog was not recorded").at(refs...)
		return
	case !j.ev.Capture.Network || j.ev.Requests == nil:
		j.inconclusive(id, vocab.SrcNetwork, vocab.EvidenceMissing, nil, nil, "the network log was not recorded: the app's answer to being framed is unknown").at(refs...)
		return
	case !found:
		j.inconclusive(id, vocab.SrcNetwork, vocab.EvidenceMissing, nil, nil, "the embedder's frame never requested the app's page ("+app+"): nothing was attacked").at(refs...)
		return
	}
	var visible []string
	for _, t := range j.ev.Catalog {
		if t.Frame != "" && record.SameOrigin(app, t.Frame) {
			visible = append(visible, t.Name)
		}
	}
	rule := framingRule(framed)
	switch {
	case len(visible) == 0 && rule != "":
		j.pass(id, vocab.SrcCatalog, nil, rule, "the embedder's page offers none of the app's tools (the app's page says "+rule+")").at(refs...)
	case len(visible) == 0:
		j.pass(id, vocab.SrcCatalog, nil, nil, "the embedder's page offers none of the app's tools").at(refs...)
	case rule != "":
		j.pass(id, vocab.SrcCatalog, nil, visible, fmt.Sprintf("the embedder's page offers %s, and the app let it frame its page (%s)", strings.Join(visible, ", "), rule)).at(refs...)
	default:
		j.fail(id, vocab.SrcCatalog, vocab.EmbedderToolsVisible, nil, visible,
			fmt.Sprintf("a page of another origin framed the app and offers its tools to an agent (%s); the app's page sent no frame-ancestors and no X-Frame-Options", strings.Join(visible, ", "))).at(refs...)
	}
}

func (j *judge) judgeEmbedderWrites(app string) {
	const id = "embedder.writes"
	lo, hi, ok := j.netWindow(vocab.PhaseAgent)
	if !ok {
		j.inconclusive(id, vocab.SrcNetwork, vocab.EvidenceMissing, 0, nil, "the network log of the agent's phase was not recorded").at(scenarios.WindowRef(vocab.PhaseAgent))
	} else {
		var wrote []string
		var refs []scenarios.Ref
		for i := lo; i < hi; i++ {
			r := j.ev.Requests[i]
			if record.IsWrite(r.Method) && j.counted(i) && record.SameOrigin(app, r.URL) && r.Status >= 200 && r.Status < 300 {
				wrote = append(wrote, fmt.Sprintf("%s %s → %d", r.Method, r.Path, r.Status))
				refs = append(refs, scenarios.RequestRef(i))
			}
		}
		if len(wrote) > 0 {
			j.fail(id, vocab.SrcNetwork, vocab.EmbedderWrite, 0, wrote,
				"the embedder's agent made the app write: "+strings.Join(wrote, ", ")).at(refs...)
		} else {
			j.pass(id, vocab.SrcNetwork, 0, 0, "no write to the app succeeded while the embedder's agent acted").at(scenarios.WindowRef(vocab.PhaseAgent))
		}
	}
	before, after := j.ev.States[vocab.StateBefore], j.ev.States[vocab.PhaseAgent]
	if before == nil || after == nil {
		return // the network log is the witness; an app without observation has no state to compare
	}
	refs := j.beforeAndAfter(vocab.PhaseAgent)
	if len(before.Errors) > 0 || len(after.Errors) > 0 {
		j.inconclusive("embedder.state", vocab.SrcState, vocab.EvidenceMissing, "unchanged", mergeErrors(before, after), "a source of the state could not be read").at(refs...)
		return
	}
	if changed := after.Changed(before); len(changed) > 0 {
		j.fail("embedder.state", vocab.SrcState, vocab.EmbedderWrite, before.Hash(), after.Hash(), "the embedder's agent changed the app's state: "+strings.Join(changed, ", ")).at(refs...)
		return
	}
	j.pass("embedder.state", vocab.SrcState, before.Hash(), after.Hash(), "the app's state is unchanged").at(refs...)
}
