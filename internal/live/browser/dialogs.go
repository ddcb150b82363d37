package browser

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Dialogs records the JavaScript dialogs of a tab — its page's and every
// attached frame's — and answers each by the policy at once, so that an
// alert at load, a confirm in a tool or a beforeunload prompt never blocks
// the page (docs/decisions/2026-12-03-dialogs.md).
type Dialogs struct {
	mu      sync.Mutex
	policy  vocab.DialogPolicy
	phase   vocab.Phase
	entries []record.Dialog
	// answered is signalled after each answer, for tests that wait for one.
	answered chan struct{}
}

func newDialogs() *Dialogs {
	return &Dialogs{phase: vocab.PhaseSetup, answered: make(chan struct{}, 16)}
}

// SetPolicy sets how later dialogs are answered ("" is dismiss).
func (d *Dialogs) SetPolicy(p vocab.DialogPolicy) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.policy = p
}

// SetPhase sets the phase later dialogs are recorded in.
func (d *Dialogs) SetPhase(p vocab.Phase) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.phase = p
}

// Entries answers a copy of the dialogs so far, in the order they opened.
func (d *Dialogs) Entries() []record.Dialog {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]record.Dialog(nil), d.entries...)
}

// Answered is signalled once per answered dialog (best effort: it holds 16).
func (d *Dialogs) Answered() <-chan struct{} { return d.answered }

// opened records a dialog and answers the parameters to answer it with.
func (d *Dialogs) opened(ev *page.EventJavascriptDialogOpening, from *record.Target) (int, page.HandleJavaScriptDialogParams) {
	d.mu.Lock()
	defer d.mu.Unlock()
	kind := vocab.DialogKind(ev.Type)
	accept := d.policy.Accepts(kind)
	d.entries = append(d.entries, record.Dialog{Kind: kind, Message: ev.Message, URL: ev.URL, Target: from,
		Phase: d.phase, DefaultPrompt: ev.DefaultPrompt, Accepted: accept})
	p := page.HandleJavaScriptDialogParams{Accept: accept}
	if accept && kind == vocab.DialogPrompt {
		p.PromptText = ev.DefaultPrompt
	}
	return len(d.entries) - 1, p
}

// done notes how answering dialog i went.
func (d *Dialogs) done(i int, err error) {
	d.mu.Lock()
	if err != nil {
		d.entries[i].Error = err.Error()
	}
	d.mu.Unlock()
	select {
	case d.answered <- struct{}{}:
	default:
	}
}

// pageDialog answers a dialog of the tab's page, off the listener (a
// listener runs no command).
func (t *Tab) pageDialog(ev *page.EventJavascriptDialogOpening) {
	i, p := t.Dialogs.opened(ev, nil)
	go func() {
		ctx, cancel := context.WithTimeout(t.Ctx, vocab.Bound)
		defer cancel()
		_, err := chromedp.Call(ctx, page.HandleJavaScriptDialog, p)
		t.Dialogs.done(i, err)
	}()
}

// childDialog answers a dialog a child target (a cross-site frame) reported
// on its own session.
func (t *Tab) childDialog(c *child, params json.RawMessage) {
	var ev page.EventJavascriptDialogOpening
	if json.Unmarshal(params, &ev) != nil {
		return
	}
	i, p := t.Dialogs.opened(&ev, c.source.Target)
	go func() {
		ctx, cancel := context.WithTimeout(t.Ctx, vocab.Bound)
		defer cancel()
		m := t.browser.mux
		call, id, err := m.send(c.session, page.CommandHandleJavaScriptDialog, p)
		if err == nil {
			err = m.wait(ctx, call, id, page.CommandHandleJavaScriptDialog, nil)
		}
		t.Dialogs.done(i, err)
	}()
}
