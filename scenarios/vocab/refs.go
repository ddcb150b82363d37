package vocab

// RefKind names a kind of recorded evidence a check can point at
// (scenarios.Ref): the judge says which evidence each check used, and the
// report links the rows that show it, so that nothing reads a check's ID
// to find its evidence.
type RefKind string

// The kinds of evidence reference. An indexed kind points at one entry of
// its record by its position there (from 0); the others at a record as a
// whole, or at the read of it after a phase.
const (
	RefCatalog RefKind = "catalog" // the start page's catalog as the harness read it (catalog.json)
	RefCall    RefKind = "call"    // a call and its result: phase, index in its phase (run.json)
	RefTrace   RefKind = "trace"   // an event of the browser's tool trace: index (trace.json)
	RefRequest RefKind = "request" // a request of the network log: index (requests.json)
	RefJournal RefKind = "journal" // an entry of the app's journal: index (journal.json)
	RefState   RefKind = "state"   // a read of the app's state: phase before, agent or human (state.json)
	RefUI      RefKind = "ui"      // an element read from the page after a phase: phase, index in that read (ui.json)
	RefPage    RefKind = "page"    // the page's URL read after a phase: phase (run.json)
	RefReview  RefKind = "review"  // what the person had before them at a click: index in the reviews (run.json)
	RefDirect  RefKind = "direct"  // a request a step sent straight to the server: phase, step index (run.json)
	RefFinal   RefKind = "final"   // the agent's final words (run.json)
	RefWindow  RefKind = "window"  // a phase's window of the ordered records, as a whole: where a count found nothing (run.json's marks)
	RefFault   RefKind = "fault"   // a harness fault: index in the faults (run.json)
	RefCut     RefKind = "cut"     // the run cut short: interrupted, or the browser lost (run.json)
	RefDialog  RefKind = "dialog"  // a JavaScript dialog the page opened: index in the dialogs (run.json)
	RefReplay  RefKind = "replay"  // an attack replay of a recorded write: index in the replays' runs (run.json)
	RefPopup   RefKind = "popup"   // a window the page opened: index in the popups (run.json)
)

// RefKinds lists every kind, in the order a report names them.
var RefKinds = []RefKind{RefCatalog, RefCall, RefTrace, RefRequest, RefJournal, RefState, RefUI, RefPage, RefReview, RefDirect, RefFinal, RefWindow, RefFault, RefCut, RefDialog, RefReplay, RefPopup}

// Indexed tells whether a reference of kind k names one entry by its
// position.
func (k RefKind) Indexed() bool {
	switch k {
	case RefCall, RefTrace, RefRequest, RefJournal, RefUI, RefReview, RefDirect, RefFault, RefDialog, RefReplay, RefPopup:
		return true
	}
	return false
}

// Phased tells whether a reference of kind k names a phase.
func (k RefKind) Phased() bool {
	switch k {
	case RefCall, RefState, RefUI, RefPage, RefDirect, RefWindow:
		return true
	}
	return false
}
