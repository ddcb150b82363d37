// Package vocab declares, once, the words the suite's packages share: phases
// of a run, how a tool is invoked and how an invocation ended, outcomes,
// failure codes and the sources of evidence that raise them, and the bound
// every wait for "at once" uses. It imports nothing of the suite and nothing
// that talks to a browser, so the pure judge can use it.
package vocab

import "time"

// Bound is how long any wait for something that should happen at once may
// take (a tool entering the catalog, an element after a click, a request
// settling). One value, so that a slower machine changes one line.
const Bound = 3 * time.Second

// Phase names a part of a run. Expectations name agent, human or all; the
// evidence also marks setup and end, and the state before the agent.
type Phase string

// The phases.
const (
	PhaseSetup  Phase = "setup"  // done by the harness before the agent
	PhaseAgent  Phase = "agent"  // the agent's calls
	PhaseHuman  Phase = "human"  // a person's steps after the agent
	PhaseLeave  Phase = "leave"  // the person hides the page and leaves it, after their last step
	PhaseAll    Phase = "all"    // agent, human and leave together (requests only)
	PhaseEnd    Phase = "end"    // the mark after the last step
	StateBefore Phase = "before" // the app's state before the agent
)

// Judged tells whether expectations may name the phase for a snapshot
// (state, UI, writes): agent or human.
func (p Phase) Judged() bool { return p == PhaseAgent || p == PhaseHuman }

// Windowed tells whether the phase has a window of requests of its own
// that writes may be counted in: agent, human or leave. Leave has no
// snapshot of its own (the page is gone; the state read after it is the
// last, human's).
func (p Phase) Windowed() bool { return p.Judged() || p == PhaseLeave }

// Counted tells whether request counts may name the phase: agent, human,
// leave or all.
func (p Phase) Counted() bool { return p.Windowed() || p == PhaseAll }

// LeaveMode is how the run leaves the page after the person's last step.
type LeaveMode string

// The ways of leaving.
const (
	// LeaveNavigate hides the page (its window minimized), gives it its
	// settle time hidden, and navigates away. The default.
	LeaveNavigate LeaveMode = "navigate"
	// LeaveOff stays on the page: no leave phase.
	LeaveOff LeaveMode = "off"
)

// Valid tells whether m is a mode a scenario may name ("" is the default).
func (m LeaveMode) Valid() bool { return m == "" || m == LeaveNavigate || m == LeaveOff }

// On tells whether the run leaves the page.
func (m LeaveMode) On() bool { return m != LeaveOff }

// Transport says how a tool is invoked.
type Transport string

const (
	// PageAPI invokes through document.modelContext.executeTool, as a
	// page-side agent would. It is the default.
	PageAPI Transport = "page"
	// CDP invokes through WebMCP.invokeTool, as a browser-side agent or
	// DevTools would.
	CDP Transport = "cdp"
)

// Valid tells whether t is a transport a scenario may name ("" is the default).
func (t Transport) Valid() bool { return t == "" || t == PageAPI || t == CDP }

// OrDefault answers t, or PageAPI when t is empty.
func (t Transport) OrDefault() Transport {
	if t == "" {
		return PageAPI
	}
	return t
}

// Status is how an invocation ended.
type Status string

// The statuses of an invocation.
const (
	Completed  Status = "completed"
	Failed     Status = "error"
	Canceled   Status = "canceled"
	NoResponse Status = "no_response" // nothing answered within the bound; the invocation was canceled
)

// Valid tells whether s is a status a scenario may expect ("" expects none).
func (s Status) Valid() bool {
	switch s {
	case "", Completed, Failed, Canceled, NoResponse:
		return true
	}
	return false
}

// Outcome is a verdict's overall result.
type Outcome string

// The three outcomes. There is no PASS with nothing checked.
const (
	Pass         Outcome = "PASS"
	Fail         Outcome = "FAIL"         // the app or the agent broke a rule
	Inconclusive Outcome = "INCONCLUSIVE" // evidence missing, harness fault or a defect of the case
)

// Valid tells whether o is one of the three outcomes.
func (o Outcome) Valid() bool { return o == Pass || o == Fail || o == Inconclusive }

// CheckStatus is how one check ended.
type CheckStatus string

// Check statuses.
const (
	CheckPass         CheckStatus = "pass"
	CheckFail         CheckStatus = "fail"
	CheckInconclusive CheckStatus = "inconclusive"
)

// Source names where a check's evidence comes from.
type Source string

// Sources of evidence, in the order a report lists them.
const (
	SrcCase    Source = "case"
	SrcCatalog Source = "catalog"
	SrcTrace   Source = "trace"
	SrcNetwork Source = "network"
	SrcJournal Source = "journal"
	SrcState   Source = "state"
	SrcUI      Source = "ui"
	SrcAnswer  Source = "answer"
)

// Sources lists every source in report order.
var Sources = []Source{SrcCase, SrcCatalog, SrcTrace, SrcNetwork, SrcJournal, SrcState, SrcUI, SrcAnswer}

// SettleAfter names what a wait for the catalog to settle came after.
type SettleAfter string

// The waits for the catalog to settle (webmcp.SettleRule) in a run.
const (
	SettleStart    SettleAfter = "start"    // the start page's load
	SettleNavigate SettleAfter = "navigate" // a navigate step
	SettleCall     SettleAfter = "call"     // the wait before a call, whatever came before
)

// Variation is one way the person's typed values are varied as servers
// normalise them (a scenario's vary:).
type Variation string

// The variations.
const (
	VaryCase    Variation = "case"    // each letter's case swapped
	VarySpace   Variation = "space"   // a space before and after
	VaryUnicode Variation = "unicode" // decomposed (NFD): é as e and a combining accent
)

// Variations lists every variation in the order their scenarios are named.
var Variations = []Variation{VaryCase, VarySpace, VaryUnicode}
