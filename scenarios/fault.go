package scenarios

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/agentready/agentready/scenarios/vocab"
)

// Fault is a harness problem met on the way, and where in the record it
// may have kept evidence from being recorded (issue 43 item 1). A fault
// without a place covers the whole record: a failed read at one mark can
// break every window after it, and a page that did not open leaves an
// empty catalog that looks like a page with no tools.
type Fault struct {
	Text string
	// From is the first phase whose evidence the fault may have cut: what
	// earlier phases recorded stands. "" is the whole record, and every
	// fault of a bundle written before faults had a place.
	From vocab.Phase
}

// WholeFault is a fault that covers the whole record.
func WholeFault(text string) Fault { return Fault{Text: text} }

// FaultFrom is a fault that may have cut the evidence of phase and after.
func FaultFrom(phase vocab.Phase, text string) Fault { return Fault{Text: text, From: phase} }

func (f Fault) String() string { return f.Text }

// MarshalJSON writes a fault without a place as the string every bundle
// before issue 43 held, so that such a bundle is sealed to the same bytes;
// a placed fault is {"fault": …, "from": …}.
func (f Fault) MarshalJSON() ([]byte, error) {
	if f.From == "" {
		return json.Marshal(f.Text)
	}
	return json.Marshal(struct {
		Text string      `json:"fault"`
		From vocab.Phase `json:"from"`
	}{f.Text, f.From})
}

// UnmarshalJSON reads both spellings.
func (f *Fault) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '"' {
		*f = Fault{}
		return json.Unmarshal(b, &f.Text)
	}
	var placed struct {
		Text *string     `json:"fault"`
		From vocab.Phase `json:"from"`
	}
	if err := json.Unmarshal(b, &placed); err != nil {
		return err
	}
	if placed.Text == nil {
		return fmt.Errorf(`a fault is a string or {"fault": …, "from": phase}`)
	}
	*f = Fault{Text: *placed.Text, From: placed.From}
	return nil
}

// FaultTexts are the faults' words, in order.
func FaultTexts(faults []Fault) []string {
	if faults == nil {
		return nil
	}
	out := make([]string, len(faults))
	for i, f := range faults {
		out[i] = f.Text
	}
	return out
}

// phaseOrder ranks the phases a fault can start from, and the phases of the
// evidence a check rests on, in the order a run records them.
var phaseOrder = []vocab.Phase{vocab.PhaseSetup, vocab.PhaseAgent, vocab.PhaseHuman, vocab.PhaseLeave, vocab.PhaseEnd}

// PhaseRank is a phase's place in a run; the state before the agent is the
// setup's, all is the end's (it covers every window). -1: no phase a run
// records in order.
func PhaseRank(p vocab.Phase) int {
	switch p {
	case vocab.StateBefore:
		p = vocab.PhaseSetup
	case vocab.PhaseAll:
		p = vocab.PhaseEnd
	}
	return slices.Index(phaseOrder, p)
}

// Touches tells whether the fault may have kept what r points at from
// being recorded: a fault without a place touches everything, and so does
// a reference whose phase the record cannot tell.
func (ev *Evidence) Touches(f Fault, r Ref) bool {
	from := PhaseRank(f.From)
	if f.From == "" || from < 0 {
		return true
	}
	p, ok := ev.RefPhase(r)
	return !ok || PhaseRank(p) >= from
}

// RefPhase answers the latest phase of the evidence r points at: a
// request, journal entry or trace event by the window its position falls
// in, a read by the phase it was made after, a window by its phase.
func (ev *Evidence) RefPhase(r Ref) (vocab.Phase, bool) {
	switch r.Kind {
	case vocab.RefCatalog:
		return vocab.PhaseSetup, true
	case vocab.RefFinal:
		return vocab.PhaseAgent, true
	case vocab.RefReview:
		return vocab.PhaseHuman, true
	case vocab.RefReplay:
		return vocab.PhaseEnd, true // replays are sent after the run
	case vocab.RefCall, vocab.RefState, vocab.RefUI, vocab.RefPage, vocab.RefDirect, vocab.RefWindow:
		return r.Phase, PhaseRank(r.Phase) >= 0
	case vocab.RefTrace:
		return ev.phaseOf(r.Index, len(ev.Trace), TraceMark)
	case vocab.RefRequest:
		return ev.phaseOf(r.Index, len(ev.Requests), RequestsMark)
	case vocab.RefJournal:
		return ev.phaseOf(r.Index, len(ev.Journal), JournalMark)
	}
	return "", false // dialogs, popups, faults, the cut: no place of their own
}

// phaseOf places a position of an ordered record of n entries in the
// phase whose window (Span) holds it.
func (ev *Evidence) phaseOf(i, n int, at func(Mark) int) (vocab.Phase, bool) {
	for _, p := range phaseOrder {
		if lo, hi, ok := ev.Span(p, n, at); ok && i >= lo && i < hi {
			return p, true
		}
	}
	return "", false
}
