package browser

import (
	"context"
	"fmt"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/scenarios/vocab"
)

// Hide hides the page as a person does who switches away from it: its
// window is minimized, so the page fires visibilitychange and
// document.visibilityState is "hidden", and it goes on running (measured on
// Chromium 156, docs/decisions/2026-12-04-leave-phase.md: 3–13 ms;
// Page.setWebLifecycleState frozen hides it too but freezes it, so that its
// requests never finish, and a second tab costs 250–350 ms). It answers
// whether the page then says it is hidden.
func (t *Tab) Hide(ctx context.Context) (bool, error) {
	if err := t.windowState(ctx, cdpbrowser.WindowStateMinimized); err != nil {
		return false, fmt.Errorf("hide the page: %w", err)
	}
	ctx, cancel := t.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, vocab.Bound)
	defer cancelBound()
	state, err := chromedp.Run(ctx, chromedp.Evaluate[string]("document.visibilityState"))
	if err != nil {
		return false, fmt.Errorf("hide the page: read document.visibilityState: %w", err)
	}
	return state == "hidden", nil
}

// Show brings the tab's window back after Hide: a minimized window draws
// no frames, so a screenshot of it would wait for one in vain.
func (t *Tab) Show(ctx context.Context) error {
	return t.windowState(ctx, cdpbrowser.WindowStateNormal)
}

func (t *Tab) windowState(ctx context.Context, state cdpbrowser.WindowState) error {
	ctx, cancel := t.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, vocab.Bound)
	defer cancelBound()
	c := chromedp.FromContext(ctx)
	if c == nil || c.Target == nil {
		return fmt.Errorf("no page")
	}
	w, err := chromedp.Call(ctx, cdpbrowser.GetWindowForTarget, cdpbrowser.GetWindowForTargetParams{TargetID: c.Target.TargetID})
	if err != nil {
		return fmt.Errorf("Browser.getWindowForTarget: %w", err)
	}
	if _, err := chromedp.Call(ctx, cdpbrowser.SetWindowBounds, cdpbrowser.SetWindowBoundsParams{WindowID: w.WindowID,
		Bounds: &cdpbrowser.Bounds{WindowState: state}}); err != nil {
		return fmt.Errorf("Browser.setWindowBounds %s: %w", state, err)
	}
	return nil
}
