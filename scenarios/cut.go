package scenarios

import (
	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Two more edits of a record, as a run the harness failed would have
// recorded it (see InsertRequest): the judge's tests and the gate's
// evidence mutations mean the same by "the browser went away".

// CutAfter makes the record what a run cut short right after a phase's
// records (how: vocab.BrowserLost or vocab.RunInterrupted) holds: nothing
// after that phase's window, no state or page read after it, and the fault
// the next step met.
func (ev *Evidence) CutAfter(phase vocab.Phase, how vocab.Code, fault string) {
	next := map[vocab.Phase]vocab.Phase{vocab.PhaseAgent: vocab.PhaseHuman, vocab.PhaseHuman: vocab.PhaseEnd}[phase]
	if _, left := ev.Marks[vocab.PhaseLeave]; left && phase == vocab.PhaseHuman {
		next = vocab.PhaseLeave
	}
	at, ok := ev.Marks[next]
	if !ok {
		at = Mark{Trace: len(ev.Trace), Requests: len(ev.Requests), Journal: len(ev.Journal)}
	}
	ev.Cut = how
	ev.Trace = ev.Trace[:min(max(at.Trace, 0), len(ev.Trace))]
	if ev.Requests != nil {
		ev.Requests = ev.Requests[:min(max(at.Requests, 0), len(ev.Requests))]
	}
	if ev.Journal != nil {
		ev.Journal = ev.Journal[:min(max(at.Journal, 0), len(ev.Journal))]
	}
	// A run cut before it left the page has no leave phase: its mark would
	// lie past the records, which no window may (Segments).
	delete(ev.Marks, vocab.PhaseLeave)
	ev.Leave = nil
	ev.Marks[vocab.PhaseEnd] = at
	if phase == vocab.PhaseAgent {
		delete(ev.States, vocab.PhaseHuman)
		delete(ev.UI, vocab.PhaseHuman)
		delete(ev.Pages, vocab.PhaseHuman)
		ev.Calls = deleteCalls(ev.Calls, vocab.PhaseHuman)
		ev.Reviews = nil
		ev.Direct = nil
	}
	ev.Faults = append(ev.Faults, WholeFault(fault))
}

func deleteCalls(calls []CallRecord, phase vocab.Phase) []CallRecord {
	out := calls[:0:0]
	for _, c := range calls {
		if c.Phase != phase {
			out = append(out, c)
		}
	}
	if calls != nil && out == nil {
		out = []CallRecord{}
	}
	return out
}

// NotOpened makes the record what a run whose start page could not be
// opened records: an empty catalog (which looks like a page that offers no
// tools), calls the browser never answered, no request, no page, and the
// faults that say why.
func (ev *Evidence) NotOpened(why string) {
	ev.Faults = append(ev.Faults, WholeFault("open the start page: "+why), WholeFault("read the catalog: getTools(): no document"))
	ev.Catalog, ev.PageTools, ev.Trace = record.Catalog{}, []record.PageTool{}, []record.Event{}
	for i := range ev.Calls {
		c := &ev.Calls[i]
		c.CatalogBefore, c.CatalogAfter = []string{}, []string{}
		c.Result = record.Result{Tool: c.Call.Tool, Transport: c.Call.Transport.OrDefault(), Status: vocab.NoResponse, ErrorText: "no answer within the bound"}
	}
	if ev.Requests != nil {
		ev.Requests = record.Log{}
	}
	if ev.Journal != nil {
		ev.Journal = record.Journal{}
	}
	for p := range ev.Marks {
		ev.Marks[p] = Mark{}
	}
	for p := range ev.UI {
		ev.UI[p] = []record.Element{}
	}
	for p := range ev.Pages {
		ev.Pages[p] = ""
	}
	ev.Reviews, ev.Direct = nil, nil
}
