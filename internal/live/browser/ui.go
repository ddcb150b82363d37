package browser

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// snapshotJS reads each selector's first match, piercing open shadow roots
// (DeepJS); one inside a shadow root names its host.
var snapshotJS = `((selectors) => selectors.map((sel) => {
  const all = ` + DeepJS + `(sel);
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
    host: (() => {
      const hosts = [];
      for (let r = el.getRootNode(); r instanceof ShadowRoot; r = r.host.getRootNode()) {
        const h = r.host;
        hosts.unshift(h.localName + (h.id ? "#" + h.id : ""));
      }
      return hosts.join(" >>> ");
    })(),
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

// ElementRef names an element for Tab.Snapshot: a CSS selector, read in the
// top document or, when Frame is set, in the frame it names: the CSS
// selector of its iframe element in the top document, or the start of its
// URL ("http://…") or of its path and query ("/…"); see record.ParseFrame.
type ElementRef struct {
	Frame    string
	Selector string
}

// Snapshot reads the state of each element, in the top document or in a
// frame, same-origin or cross-site. Each frame is found once per call; a
// frame that is not there, or a URL that names several frames, is an error
// (a missing element is not: it is recorded as not present).
func (t *Tab) Snapshot(ctx context.Context, refs ...ElementRef) ([]record.Element, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	ctx, cancel := t.Bind(ctx)
	defer cancel()
	var frames []string
	byFrame := map[string][]int{}
	for i, r := range refs {
		if _, ok := byFrame[r.Frame]; !ok {
			frames = append(frames, r.Frame)
		}
		byFrame[r.Frame] = append(byFrame[r.Frame], i)
	}
	out := make([]record.Element, len(refs))
	for _, f := range frames {
		var sels []string
		for _, i := range byFrame[f] {
			sels = append(sels, refs[i].Selector)
		}
		var els []record.Element
		var err error
		if f == "" {
			els, err = Snapshot(ctx, sels...)
		} else {
			var in frameLoc
			if in, err = t.findFrame(ctx, f); err == nil {
				els, err = in.snapshot(ctx, sels)
			}
			if err != nil {
				err = fmt.Errorf("frame %q: %w", f, err)
			}
		}
		if err != nil {
			return nil, err
		}
		if len(els) != len(sels) {
			return nil, fmt.Errorf("frame %q: %d elements read for %d selectors", f, len(els), len(sels))
		}
		for k, i := range byFrame[f] {
			els[k].Frame = f
			out[i] = els[k]
		}
	}
	return out, nil
}
