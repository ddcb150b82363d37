package record

import "github.com/agentready/agentready/scenarios/vocab"

// Dialog is one JavaScript dialog a page opened (Page.javascriptDialogOpening),
// and how the harness answered it (Page.handleJavaScriptDialog).
type Dialog struct {
	Kind    vocab.DialogKind `json:"kind"`
	Message string           `json:"message"`
	// URL is the document that opened it; Target is the attached target
	// (a cross-site frame's) whose session reported it, nil for the page.
	URL    string  `json:"url"`
	Target *Target `json:"target,omitempty"`
	// Phase is the phase of the run it opened in: setup for the start
	// page's load and the setup steps, agent, human, leave (as the person
	// hides and leaves the page: a beforeunload prompt), or end.
	Phase vocab.Phase `json:"phase"`
	// DefaultPrompt is a prompt()'s default text, given back when accepted.
	DefaultPrompt string `json:"defaultPrompt,omitempty"`
	// Accepted tells how it was answered: true for OK, false for Cancel.
	Accepted bool `json:"accepted"`
	// Error is why answering it failed, if it did.
	Error string `json:"error,omitempty"`
}
