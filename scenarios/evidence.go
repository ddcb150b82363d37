package scenarios

import (
	"github.com/agentready/agentready/browser"
	"github.com/agentready/agentready/netlog"
	"github.com/agentready/agentready/observer"
	"github.com/agentready/agentready/webmcp"
)

// Evidence is everything one run recorded. The judge reads nothing else, so
// a recorded Evidence can be judged again, anywhere, to the same verdict.
type Evidence struct {
	ScenarioID string `json:"scenarioId"`
	Env        Env    `json:"env"`
	Capture    struct {
		Network  bool `json:"network"`
		Observer bool `json:"observer"`
	} `json:"capture"`

	// Catalog is the start page's catalog as the protocol reported it, and
	// PageTools what getTools() answered at the same moment.
	Catalog   webmcp.Catalog    `json:"catalog"`
	PageTools []webmcp.PageTool `json:"pageTools"`
	// Calls are the setup, agent and human-step calls in the order made.
	Calls []CallRecord `json:"calls"`
	// Trace is every WebMCP event of the tab, whoever caused it.
	Trace []webmcp.Event `json:"trace"`
	// Requests is the tab's request log; nil when network capture was off.
	Requests netlog.Log `json:"requests"`
	// Journal is the app's request journal; nil without an observer.
	Journal observer.Journal `json:"journal"`
	// States are the app's state before the agent and after each phase.
	States map[string]*observer.State `json:"states"`
	// UI holds the elements the expectations name, after each phase.
	UI map[string][]browser.Element `json:"ui"`
	// Marks are where each phase starts in the trace, request log and journal.
	Marks   map[string]Mark        `json:"marks"`
	Console []browser.ConsoleEntry `json:"console"`
	Final   *string                `json:"final"`
	Faults  []string               `json:"faults,omitempty"` // harness problems met on the way
	// Unmet are waits of the scenario's steps that ran out: the page never
	// got there. That is news about the app, which the checks judge; it is
	// not a fault of the harness.
	Unmet []string `json:"unmet,omitempty"`
}

// Env describes where the run happened.
type Env struct {
	BaseURL  string `json:"baseUrl"`
	Variant  string `json:"variant,omitempty"`
	Browser  string `json:"browser,omitempty"`
	Protocol string `json:"protocol,omitempty"`
}

// CallRecord is one call and its result.
type CallRecord struct {
	Phase         string        `json:"phase"` // setup, agent or human
	Index         int           `json:"index"` // position in its phase
	Call          Call          `json:"call"`
	Result        webmcp.Result `json:"result"`
	CatalogBefore []string      `json:"catalogBefore"`
	CatalogAfter  []string      `json:"catalogAfter"`
}

// Mark is a position in each ordered record where a phase starts.
type Mark struct {
	Trace    int `json:"trace"`
	Requests int `json:"requests"`
	Journal  int `json:"journal"`
}

// Window answers the marks where a phase (agent, human, or all: both)
// starts and ends in the ordered records; ok is false when one is missing.
func (ev *Evidence) Window(phase string) (from, to Mark, ok bool) {
	start, ok1 := ev.Marks[PhaseAgent]
	human, ok2 := ev.Marks[PhaseHuman]
	end, ok3 := ev.Marks[PhaseEnd]
	switch phase {
	case PhaseAgent:
		return start, human, ok1 && ok2
	case PhaseHuman:
		return human, end, ok2 && ok3
	default:
		return start, end, ok1 && ok3
	}
}

// Phase of evidence windows.
const (
	PhaseSetup = "setup"
	PhaseEnd   = "end"
	StateStart = "before" // state before the agent
)
