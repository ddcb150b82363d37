package judge

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// reachOf says whether the top document's script can reach a tool of the
// catalog, from the record: a tool of the top document or a same-origin
// frame always; a cross-origin frame's when the top document's
// getTools({fromOrigins}) listed it for its origin. known is false when
// that listing was not recorded or failed.
func (j *judge) reachOf(t record.Tool) (offered, known bool, why string) {
	if !t.CrossOrigin {
		where := "the top document's"
		if t.Frame != "" {
			where = "a same-origin frame's (" + t.Frame + ")"
		}
		return true, true, t.Name + " is " + where + " tool: the top document's getTools() lists it"
	}
	origin := record.OriginOf(t.Frame)
	k := slices.IndexFunc(j.ev.Exposure, func(e record.Exposure) bool { return e.Origin == origin })
	switch {
	case k < 0:
		return false, false, fmt.Sprintf("what the top document may reach of %s's tools was not recorded", origin)
	case j.ev.Exposure[k].Error != "":
		return false, false, fmt.Sprintf("the top document's getTools({fromOrigins: [%s]}) could not be read: %s", origin, j.ev.Exposure[k].Error)
	case slices.Contains(j.ev.Exposure[k].Tools, t.Name):
		return true, true, fmt.Sprintf("%s of %s is listed by the top document's getTools({fromOrigins: [%s]}): registered with exposedTo naming the top origin", t.Name, t.Frame, origin)
	}
	return false, true, fmt.Sprintf("%s of %s is not listed by the top document's getTools({fromOrigins: [%s]}): a cross-origin frame's tool without exposedTo naming the top origin", t.Name, t.Frame, origin)
}

// judgeReach checks expect.reach on the start page's catalog and what the
// top document's getTools() listed, never by calling a tool. A tool that
// must not be reachable and ran anyway (a toolInvoked of it in the trace)
// was reached, whatever the listing said.
func (j *judge) judgeReach(e *scenarios.ReachExpect) {
	if e == nil {
		return
	}
	cat := scenarios.CatalogRef()
	if j.ev.Catalog == nil {
		j.inconclusive("reach", vocab.SrcCatalog, vocab.EvidenceMissing, nil, nil, "the start page's catalog was not recorded").at(cat)
		return
	}
	for i, r := range e.NotOffered {
		id := fmt.Sprintf("reach.not_offered[%d] %s", i, refName(r))
		tools := r.Tools(j.ev.Catalog)
		if ran := j.invocationsOf(tools, r); len(ran) > 0 {
			j.fail(fmt.Sprintf("reach.not_offered[%d].ran %s", i, refName(r)), vocab.SrcTrace, vocab.ToolOffered, 0, len(ran), fmt.Sprintf("%s ran %d time(s): a tool that must not be reachable was reached", refName(r), len(ran))).at(traceRefs(ran)...)
		}
		if len(tools) == 0 {
			j.pass(id, vocab.SrcCatalog, nil, nil, "no frame registered "+refName(r)+": nothing offers it").at(cat)
			continue
		}
		j.judgeEachReach(id, tools, false)
	}
	for i, r := range e.Offered {
		id := fmt.Sprintf("reach.offered[%d] %s", i, refName(r))
		tools := r.Tools(j.ev.Catalog)
		if len(tools) == 0 {
			j.fail(id, vocab.SrcCatalog, vocab.ToolNotOffered, refName(r), sortedNames(j.ev.Catalog), "no frame registered "+refName(r)).at(cat)
			continue
		}
		j.judgeEachReach(id, tools, true)
	}
}

// judgeEachReach holds every tool a reference names to want: one check.
// With several, a tool offered against want fails it; an unknown one
// leaves it inconclusive.
func (j *judge) judgeEachReach(id string, tools record.Catalog, want bool) {
	code := vocab.ToolOffered
	if want {
		code = vocab.ToolNotOffered
	}
	var unknown []string
	for _, t := range tools {
		offered, known, why := j.reachOf(t)
		switch {
		case !known:
			unknown = append(unknown, why)
		case offered != want:
			j.fail(id, vocab.SrcCatalog, code, want, offered, why).at(scenarios.CatalogRef())
			return
		}
	}
	if len(unknown) > 0 {
		j.inconclusive(id, vocab.SrcCatalog, vocab.EvidenceMissing, want, nil, strings.Join(unknown, "; ")).at(scenarios.CatalogRef())
		return
	}
	_, _, why := j.reachOf(tools[0])
	j.pass(id, vocab.SrcCatalog, want, want, why).at(scenarios.CatalogRef())
}

// invocationsOf answers the positions in the trace of the tool's
// invocations: by name, and by the frames of the tools the reference names
// when it names a frame.
func (j *judge) invocationsOf(tools record.Catalog, r scenarios.ToolRef) []int {
	var at []int
	for i, e := range j.ev.Trace {
		if e.Kind != record.ToolInvoked || e.ToolName != r.Tool {
			continue
		}
		if r.Frame != "" && !slices.ContainsFunc(tools, func(t record.Tool) bool { return t.FrameID == e.FrameID }) {
			continue
		}
		at = append(at, i)
	}
	return at
}

func refName(r scenarios.ToolRef) string {
	if r.Frame == "" {
		return r.Tool
	}
	return r.Tool + " of " + r.Frame
}

func traceRefs(at []int) []scenarios.Ref {
	out := make([]scenarios.Ref, len(at))
	for k, i := range at {
		out[k] = scenarios.TraceRef(i)
	}
	return out
}
