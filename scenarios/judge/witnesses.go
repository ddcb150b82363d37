package judge

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// judgeWitnesses holds the two witnesses of requests to each other, whole:
// within each judged window, every request the browser sent to the app's
// origin is in the journal, and every journal entry of the tab's session
// is in the network log — refused ones included (seed 003: a journal
// records before authorization). A request that got no answer may or may
// not have reached the app, and is not held against either side; nor is a
// WebSocket's handshake.
func (j *judge) judgeWitnesses() {
	if j.ev.Requests == nil || !j.ev.Capture.Network || j.ev.Journal == nil || !j.ev.Capture.Observer {
		return
	}
	for _, phase := range []vocab.Phase{vocab.PhaseAgent, vocab.PhaseHuman} {
		if _, _, ok := j.ev.Window(phase); !ok {
			continue // a phase the run did not have
		}
		lo, hi, ok := j.netWindow(phase)
		journal, okJ := j.journalWindow(phase)
		if !ok || !okJ {
			// Both witnesses were on, and one of them cannot show this
			// window: the agreement is unknown, not kept.
			j.inconclusive("witnesses."+string(phase), vocab.SrcJournal, vocab.EvidenceMissing, nil, nil,
				"the network log and the app's journal cannot be held to each other here: "+j.windowUnread(phase, ok, okJ)).at(scenarios.WindowRef(phase))
			continue
		}
		seen, maybe := map[string]int{}, map[string]int{}
		var netAt []int
		for i := lo; i < hi; i++ {
			r := j.ev.Requests[i]
			if !j.counted(i) || !j.appRequest(r) || r.IsSocketMessage() { // the journal records HTTP requests, never a socket's messages
				continue
			}
			netAt = append(netAt, i)
			k := strings.ToUpper(r.Method) + " " + r.Path
			// A WebSocket's handshake is held against neither side: journals
			// differ on upgrades (some skip them, some write the entry only
			// when the handler ends, with the socket).
			if r.Status == 0 && r.Failure != "" || r.ResourceType == "WebSocket" {
				maybe[k]++
				continue
			}
			seen[k]++
		}
		for _, p := range j.ev.ProbeReads {
			if p.Window == phase {
				seen[strings.ToUpper(p.Method)+" "+p.Path]++ // the journal has the harness's reads; the network log left them out above
			}
		}
		var onlyJournal []string
		for _, i := range journal {
			e := j.ev.Journal[i]
			k := strings.ToUpper(e.Method) + " " + e.Path
			switch {
			case seen[k] > 0:
				seen[k]--
			case maybe[k] > 0:
				maybe[k]--
			default:
				onlyJournal = append(onlyJournal, fmt.Sprintf("%s (%d)", k, e.Status))
			}
		}
		var onlyNet []string
		for _, k := range slices.Sorted(maps.Keys(seen)) {
			for range seen[k] {
				onlyNet = append(onlyNet, k)
			}
		}
		id := "witnesses." + string(phase)
		refs := both(netAt, journal, phase)
		if len(onlyNet) == 0 && len(onlyJournal) == 0 {
			j.pass(id, vocab.SrcJournal, nil, nil, "the network log and the app's journal hold the same requests").at(refs...)
			continue
		}
		var parts []string
		if len(onlyNet) > 0 {
			parts = append(parts, "the browser sent, and the journal lacks: "+strings.Join(onlyNet, ", "))
		}
		if len(onlyJournal) > 0 {
			parts = append(parts, "the journal has, and the browser never sent: "+strings.Join(onlyJournal, ", "))
		}
		j.fail(id, vocab.SrcJournal, vocab.EvidenceDisagrees, onlyJournal, onlyNet, "the witnesses of requests disagree in the "+string(phase)+" phase: "+strings.Join(parts, "; ")).at(refs...)
	}
}
