package record

import (
	"fmt"

	"github.com/agentready/agentready/scenarios/vocab"
)

// Popup is a window the page opened (window.open, a link or form with a
// target), attached by the harness as a target of the run: its requests
// are in the network log (Target.Window names it), its dialogs answered,
// its tools recorded here.
type Popup struct {
	// Target is the window's target id.
	Target string `json:"target"`
	// URL is the first document the window loaded ("" while none).
	URL string `json:"url"`
	// Opener is the target id of the window that opened it: the tab's page
	// or another popup. OpenerReach tells whether the popup can reach it
	// (window.opener; false for noopener, a target=_blank link's default).
	Opener      string `json:"opener,omitempty"`
	OpenerReach bool   `json:"openerReach"`
	// Phase is the phase of the run it opened in (as a dialog's).
	Phase vocab.Phase `json:"phase"`
	// Closed tells whether the window was closed, and by whom: the page
	// (window.close()) or the scenario (a close_popup step).
	Closed   bool   `json:"closed,omitempty"`
	ClosedBy string `json:"closedBy,omitempty"`
	// Tools are the tools its documents registered, in the order they
	// did (WebMCP.toolsAdded on its own session); the page's catalog holds
	// only the tab's own.
	Tools Catalog `json:"tools,omitempty"`
	// Error is why the harness could not attach to it (a harness fault).
	Error string `json:"error,omitempty"`
}

// Who closed a popup.
const (
	ClosedByPage     = "page"
	ClosedByScenario = "scenario"
)

// Describe says what a popup was, for a check's words and the report.
func (p Popup) Describe() string {
	url := p.URL
	if url == "" {
		url = "a window that loaded nothing"
	}
	s := fmt.Sprintf("%s in the %s phase", url, p.Phase)
	switch {
	case p.Closed && p.ClosedBy == ClosedByScenario:
		s += " (closed by the scenario)"
	case p.Closed:
		s += " (closed by the page)"
	default:
		s += " (left open)"
	}
	return s
}
