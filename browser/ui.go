package browser

import (
	"context"
	"encoding/json"

	"github.com/agentready/agentready/record"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

const snapshotJS = `((selectors) => selectors.map((sel) => {
  const el = document.querySelector(sel);
  if (!el) return { selector: sel, present: false, visible: false, enabled: false, toolFormActive: false, toolSubmitActive: false };
  const style = getComputedStyle(el);
  const rect = el.getBoundingClientRect();
  const matches = (p) => { try { return el.matches(p); } catch (_) { return false; } };
  return {
    selector: sel, present: true,
    visible: !el.hidden && style.display !== "none" && style.visibility !== "hidden" && rect.width > 0 && rect.height > 0,
    enabled: !el.disabled,
    value: "value" in el ? String(el.value) : "",
    text: (el.innerText ?? el.textContent ?? "").trim().slice(0, 2000),
    toolFormActive: matches(":tool-form-active"),
    toolSubmitActive: matches(":tool-submit-active"),
  };
}))`

// Snapshot reads the state of each selector in the tab's page.
func Snapshot(ctx context.Context, selectors ...string) ([]record.Element, error) {
	if len(selectors) == 0 {
		return nil, nil
	}
	arg, _ := json.Marshal(selectors)
	return chromedp.Run(ctx, chromedp.Evaluate[[]record.Element](snapshotJS+"("+string(arg)+")"))
}

// Screenshot captures the viewport as PNG, encoded for speed rather than
// size: it is taken on every scenario run.
func Screenshot(ctx context.Context) ([]byte, error) {
	res, err := chromedp.Call(ctx, page.CaptureScreenshot, page.CaptureScreenshotParams{
		Format: page.CaptureScreenshotFormatPng, OptimizeForSpeed: new(true)})
	return res.Data, err
}
