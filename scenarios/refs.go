package scenarios

import (
	"encoding/json"
	"fmt"

	"github.com/agentready/agentready/scenarios/vocab"
)

// Ref points at one piece of an Evidence: what a check used. It holds a
// position, never a copy, so that a verdict refers to the evidence and a
// value is stored once (docs/decisions/2026-12-01-checks-carry-their-evidence.md).
type Ref struct {
	Kind vocab.RefKind `json:"kind"`
	// Phase is the phase of a call, a state or page read, a UI element, a
	// direct request or a window (see RefKind.Phased).
	Phase vocab.Phase `json:"phase,omitempty"`
	// Index is the position in its record, from 0 (see RefKind.Indexed).
	Index int `json:"index"`
}

// MarshalJSON writes the index only for the kinds that have one, so that
// {"kind":"state","phase":"before"} does not read as the first of something.
func (r Ref) MarshalJSON() ([]byte, error) {
	type plain struct {
		Kind  vocab.RefKind `json:"kind"`
		Phase vocab.Phase   `json:"phase,omitempty"`
		Index *int          `json:"index,omitempty"`
	}
	p := plain{Kind: r.Kind, Phase: r.Phase}
	if r.Kind.Indexed() {
		p.Index = &r.Index
	}
	return json.Marshal(p)
}

func (r Ref) String() string {
	s := string(r.Kind)
	if r.Phase != "" {
		s += "/" + string(r.Phase)
	}
	if r.Kind.Indexed() {
		s += fmt.Sprintf("/%d", r.Index)
	}
	return s
}

// The constructors of each kind.

func CatalogRef() Ref                       { return Ref{Kind: vocab.RefCatalog} }
func CallRef(p vocab.Phase, index int) Ref  { return Ref{Kind: vocab.RefCall, Phase: p, Index: index} }
func TraceRef(i int) Ref                    { return Ref{Kind: vocab.RefTrace, Index: i} }
func RequestRef(i int) Ref                  { return Ref{Kind: vocab.RefRequest, Index: i} }
func JournalRef(i int) Ref                  { return Ref{Kind: vocab.RefJournal, Index: i} }
func StateRef(p vocab.Phase) Ref            { return Ref{Kind: vocab.RefState, Phase: p} }
func UIRef(p vocab.Phase, i int) Ref        { return Ref{Kind: vocab.RefUI, Phase: p, Index: i} }
func PageRef(p vocab.Phase) Ref             { return Ref{Kind: vocab.RefPage, Phase: p} }
func ReviewRef(i int) Ref                   { return Ref{Kind: vocab.RefReview, Index: i} }
func DirectRef(p vocab.Phase, step int) Ref { return Ref{Kind: vocab.RefDirect, Phase: p, Index: step} }
func FinalRef() Ref                         { return Ref{Kind: vocab.RefFinal} }
func FaultRef(i int) Ref                    { return Ref{Kind: vocab.RefFault, Index: i} }
func CutRef() Ref                           { return Ref{Kind: vocab.RefCut} }
func DialogRef(i int) Ref                   { return Ref{Kind: vocab.RefDialog, Index: i} }
func ReplayRef(i int) Ref                   { return Ref{Kind: vocab.RefReplay, Index: i} }
func PopupRef(i int) Ref                    { return Ref{Kind: vocab.RefPopup, Index: i} }

// WindowRef points at a phase's window as a whole (agent, human, or all:
// both).
func WindowRef(p vocab.Phase) Ref { return Ref{Kind: vocab.RefWindow, Phase: p} }

// Resolves tells whether r points at something ev holds: an entry that is
// there, a read that was made. A reference that does not resolve is a
// defect of whoever made it.
func (ev *Evidence) Resolves(r Ref) bool {
	in := func(i, n int) bool { return i >= 0 && i < n }
	switch r.Kind {
	case vocab.RefCatalog:
		return true // an empty catalog is a read too
	case vocab.RefCall:
		for _, c := range ev.Calls {
			if c.Phase == r.Phase && c.Index == r.Index {
				return true
			}
		}
	case vocab.RefTrace:
		return in(r.Index, len(ev.Trace))
	case vocab.RefRequest:
		return in(r.Index, len(ev.Requests))
	case vocab.RefJournal:
		return in(r.Index, len(ev.Journal))
	case vocab.RefState:
		_, ok := ev.States[r.Phase]
		return ok
	case vocab.RefUI:
		return in(r.Index, len(ev.UI[r.Phase]))
	case vocab.RefPage:
		_, ok := ev.Pages[r.Phase]
		return ok
	case vocab.RefReview:
		return in(r.Index, len(ev.Reviews))
	case vocab.RefDirect:
		for _, d := range ev.Direct {
			if d.Phase == r.Phase && d.Index == r.Index {
				return true
			}
		}
	case vocab.RefFinal:
		return true // saying nothing is recorded too
	case vocab.RefWindow:
		// the mark that opens the window: the agent's for all
		open := r.Phase
		if open == vocab.PhaseAll {
			open = vocab.PhaseAgent
		}
		_, ok := ev.Marks[open]
		return ok
	case vocab.RefFault:
		return in(r.Index, len(ev.Faults))
	case vocab.RefCut:
		return ev.Cut != ""
	case vocab.RefDialog:
		return in(r.Index, len(ev.Dialogs))
	case vocab.RefReplay:
		return ev.Replays != nil && in(r.Index, len(ev.Replays.Runs))
	case vocab.RefPopup:
		return in(r.Index, len(ev.Popups))
	}
	return false
}
