package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/chromedp/cdproto"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Selectors pierce open shadow roots, as Playwright's locators do (issue
// 49): a CSS selector matches in the document and in every open shadow root
// below it, the light DOM's matches first, then each shadow root's in
// document order of its host. "a >>> b" is an explicit path: b is looked for
// inside the shadow roots (and subtrees) of a's matches. A closed shadow
// root is not reachable from the page's script, so not from a selector
// either: the suite says so rather than pretend
// (docs/decisions/2026-12-07-shadow-dom.md).
//
// DeepJS is a function expression: (selector) => the elements it matches.
const DeepJS = `((sel) => {
  const walk = (root, s, out) => {
    for (const el of root.querySelectorAll(s)) out.push(el);
    for (const el of root.querySelectorAll("*")) if (el.shadowRoot) walk(el.shadowRoot, s, out);
  };
  let roots = [document];
  const parts = String(sel).split(/\s*>>>\s*/);
  for (let i = 0; ; i++) {
    const out = [];
    for (const r of roots) walk(r, parts[i], out);
    if (i === parts.length - 1) return [...new Set(out)];
    roots = out.map((e) => e.shadowRoot ?? e);
  }
})`

// deepGroup is the object group of Deep's evaluations, released after each.
const deepGroup = "agentready-deep"

// DeepFirst is an expression for the first element sel matches (null when
// none), piercing open shadow roots.
func DeepFirst(sel string) string {
	arg, _ := json.Marshal(sel)
	return "(" + DeepJS + "(" + string(arg) + ")[0] ?? null)"
}

// Deep is the query option that finds sel's first match as DeepJS does:
// chromedp.Click(sel, browser.Deep(sel), chromedp.NodeVisible). The
// selector given to the action is then the label errors name.
func Deep(sel string) chromedp.QueryOption {
	expr := DeepFirst(sel)
	return chromedp.ByFunc(func(ctx context.Context, t *chromedp.Target, _ *chromedp.Node) ([]cdp.NodeID, error) {
		v, err := cdp.Call(ctx, t, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, ObjectGroup: deepGroup})
		if err != nil {
			return nil, err
		}
		defer func() {
			_, _ = cdp.Call(ctx, t, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: deepGroup})
		}()
		if d := v.ExceptionDetails; d != nil {
			exc := &chromedp.ExceptionError{ExceptionDetails: d}
			// querySelectorAll throws a DOMException named SyntaxError ("… is
			// not a valid selector").
			if d.Exception != nil && strings.HasPrefix(d.Exception.Description, "SyntaxError") {
				// A selector that is no selector never matches: chromedp stops
				// retrying on the DOM's own answer to one, so it gets that.
				return nil, fmt.Errorf("%q is not a selector: %v: %w", sel, exc, &cdproto.Error{Code: -32000, Message: "DOM Error while querying"})
			}
			return nil, exc
		}
		if v.Result == nil || v.Result.ObjectID == "" {
			return []cdp.NodeID{}, nil // not there yet: the query waits
		}
		id, err := cdp.Call(ctx, t, dom.RequestNode, dom.RequestNodeParams{ObjectID: v.Result.ObjectID})
		if err != nil {
			return nil, err
		}
		return []cdp.NodeID{id.NodeID}, nil
	})
}
