package browser

import (
	"context"
	"encoding/json"

	"github.com/agentready/agentready/record"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

const snapshotJS = `((selectors) => selectors.map((sel) => {
  const all = document.querySelectorAll(sel);
  const el = all[0];
  if (!el) return { selector: sel, present: false, visible: false, enabled: false, toolFormActive: false, toolSubmitActive: false, checked: false, count: 0 };
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
    checked: el.checked === true || el.getAttribute("aria-checked") === "true",
    count: all.length,
    attributes: Object.fromEntries([...el.attributes].map((a) => [a.name, a.value.slice(0, 500)])),
  };
}))`

// Snapshot reads the state of each selector in the tab's page (its first
// match, and how many there are).
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
