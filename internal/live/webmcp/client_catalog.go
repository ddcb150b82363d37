package webmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/chromedp/chromedp"
)

// pageToolsJS answers the tools as one JSON string, not as a value: CDP
// transfers a value as nested CBOR with a depth limit, so a schema nested
// deeper than that ("CBOR: stack limit exceeded") made the whole catalog
// unreadable. A string has no depth; Go decodes it.
const pageToolsJS = `(async () => {
  const mc = document.modelContext;
  if (!mc) throw new Error("document.modelContext is undefined: WebMCP is off");
  return JSON.stringify((await mc.getTools()).map((t) => ({
    name: t.name, title: t.title, description: t.description,
    inputSchema: typeof t.inputSchema === "string" ? JSON.parse(t.inputSchema) : t.inputSchema,
    annotations: t.annotations,
  })));
})()`

// PageTools asks the page API for its tools, within c.Bound.
func (c *Client) PageTools(ctx context.Context) ([]record.PageTool, error) {
	ctx, cancel := c.within(ctx, c.bound())
	defer cancel()
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](pageToolsJS, chromedp.EvalAwaitPromise))
	if err != nil {
		return nil, err
	}
	var tools []record.PageTool
	if err := json.Unmarshal([]byte(text), &tools); err != nil {
		return nil, fmt.Errorf("the page's tools are not JSON: %w", err)
	}
	return tools, nil
}

// Catalog answers the page's catalog once the protocol events and the page
// API getTools() agree on it, waiting at most c.Bound for events still on
// their way. When they still disagree, the error shows both lists.
func (c *Client) Catalog(ctx context.Context) (record.Catalog, error) {
	catalog, _, err := c.CatalogAndPage(ctx)
	return catalog, err
}

// CatalogAndPage is Catalog that also answers what getTools() said, so that a
// record can show both.
func (c *Client) CatalogAndPage(ctx context.Context) (record.Catalog, []record.PageTool, error) {
	wait, cancel := c.within(ctx, c.bound())
	defer cancel()
	page, err := c.PageTools(wait)
	if err != nil {
		return c.trace.Catalog(), nil, fmt.Errorf("getTools(): %w", err)
	}
	names := make([]string, len(page))
	for i, p := range page {
		names[i] = p.Name
	}
	slices.Sort(names)
	_ = c.trace.WaitUntil(wait, "the protocol catalog to match getTools()", func(events []record.Event) bool {
		return slices.Equal(record.CatalogAt(events, len(events)).SameOrigin().Names(), names)
	})
	if wait.Err() != nil && ctx.Err() == nil && !slices.Equal(c.trace.Catalog().SameOrigin().Names(), names) {
		// One more look: the page may have changed while we waited.
		again, cancel := c.within(ctx, c.bound())
		if page2, err := c.PageTools(again); err == nil {
			page = page2
		}
		cancel()
	}
	catalog := record.CompleteSchemas(c.trace.Catalog(), page)
	return catalog, page, record.Disagreement(catalog, page)
}

// WaitTool waits, at most c.Bound and never past ctx, until the protocol
// catalog has (present) or lacks (!present) the tool.
func (c *Client) WaitTool(ctx context.Context, name string, present bool) error {
	return c.WaitToolOn(ctx, name, present, nil)
}

// WaitToolOn is WaitTool on the page's clock: advance grants the page its
// time (at most c.Bound of it) and the catalog is looked at after each
// step, as the settle does; nil waits in real time. A page that never
// brings the tool then costs a fraction of a second, not the bound: the
// known-bad runs whose tool does not come were the e2e suite's slowest.
// While the page waits for the network its time stands still, so a slow
// server still gets what it needs (each grant has its own real bound).
func (c *Client) WaitToolOn(ctx context.Context, name string, present bool, advance Advance) error {
	what := fmt.Sprintf("tool %s to leave the catalog", name)
	if present {
		what = fmt.Sprintf("tool %s to enter the catalog", name)
	}
	there := func() bool {
		_, ok := c.trace.Catalog().Get(name)
		return ok == present
	}
	if advance == nil {
		ctx, cancel := context.WithTimeout(ctx, c.bound())
		defer cancel()
		return c.trace.WaitUntil(ctx, what, func([]record.Event) bool { return there() })
	}
	if err := UntilOnPage(ctx, advance, c.bound(), func(context.Context) (bool, error) { return there(), nil }); err != nil {
		return fmt.Errorf("waiting for %s: %w", what, err)
	}
	return nil
}

// untilStep is the page time granted between two looks of UntilOnPage:
// the settle's step, so that a chain of the page's work through the
// browser process lands between them.
const untilStep = settleStep

// UntilOnPage looks at done after each step of the page's own time, at
// most bound of it, granted through advance: a wait for what the page
// brings (a tool, an element, a request) is the page's seconds, as the
// review and settle windows are, and what never comes costs a fraction of
// a second, not bound in real time. While the page waits for the network
// its time stands still, so a slow server still gets its time; in real
// time the wait is cut, between two steps (a grant is never cut short:
// that would fail the clock), after three times bound. Either bound run
// out is context.DeadlineExceeded, as a real-time wait's is: the waiter
// calls it unmet, not a fault.
func UntilOnPage(ctx context.Context, advance Advance, bound time.Duration, done func(context.Context) (bool, error)) error {
	realCap := time.Now().Add(3 * bound)
	var waited time.Duration
	for {
		look, cancel := context.WithTimeout(ctx, bound)
		ok, err := done(look)
		cancel()
		switch {
		case err != nil:
			return err
		case ok:
			return nil
		case waited >= bound:
			return fmt.Errorf("not within %s of the page's time: %w", bound, context.DeadlineExceeded)
		case time.Now().After(realCap):
			return fmt.Errorf("not within %s of real time (the page's time had moved %s): %w", 3*bound, waited, context.DeadlineExceeded)
		}
		step := min(untilStep, bound-waited)
		if err := advance(ctx, step); err != nil {
			return err
		}
		waited += step
	}
}

// settledJS answers once the frame's getTools() settles.
const settledJS = `async function () {
  const mc = this.document.modelContext;
  if (!mc) return true;
  await mc.getTools();
  return true;
}`

// HungFrames answers, of the same-origin frames whose tools the protocol
// reported and the top document's getTools() left out, those whose own
// getTools() does not settle within the bound: Chromium 156 now and then
// leaves a same-origin frame's getTools() unsettled for the page's life,
// and the top document's then lists none of its tools
// (docs/decisions/2026-12-04-calls-that-never-began.md). Their absence from
// getTools() is the browser's, not the page's. Frames are asked at once, so
// a page costs one bound at most.
func (c *Client) HungFrames(ctx context.Context, catalog record.Catalog, page []record.PageTool) []string {
	if c.Frames == nil {
		return nil
	}
	listed := map[string]bool{}
	for _, p := range page {
		listed[p.Name] = true
	}
	bound, cancel := c.bind(ctx)
	main := mainFrame(bound)
	cancel()
	var frames []string
	for _, t := range catalog.SameOrigin() {
		if t.FrameID != "" && t.FrameID != main && !listed[t.Name] && !slices.Contains(frames, t.FrameID) {
			frames = append(frames, t.FrameID)
		}
	}
	hung := make([]bool, len(frames))
	var wg sync.WaitGroup
	for i, f := range frames {
		wg.Go(func() {
			ask, cancel := c.within(ctx, c.bound())
			defer cancel()
			_, err := c.Frames.Call(ask, f, settledJS)
			hung[i] = err != nil && errors.Is(ask.Err(), context.DeadlineExceeded) && ctx.Err() == nil
		})
	}
	wg.Wait()
	var out []string
	for i, f := range frames {
		if hung[i] {
			out = append(out, f)
		}
	}
	return out
}

// exposedJS lists the names of the tools getTools({fromOrigins: [origin]})
// answers in the top document.
const exposedJS = `(async (origin) => JSON.stringify((await document.modelContext.getTools({fromOrigins: [origin]})).map((t) => t.name)))`

// ExposedToTop asks the top document, for each origin of a cross-origin
// frame that offers tools, which of that origin's tools it can reach
// (getTools({fromOrigins})), within c.Bound each. A listed name the top
// document's own getTools() lists too (sameOrigin) is its own, not the
// frame's. It never calls a tool.
func (c *Client) ExposedToTop(ctx context.Context, catalog record.Catalog, sameOrigin []record.PageTool) []record.Exposure {
	var origins []string
	for _, t := range catalog {
		if o := record.OriginOf(t.Frame); t.CrossOrigin && o != "" && !slices.Contains(origins, o) {
			origins = append(origins, o)
		}
	}
	own := map[string]bool{}
	for _, p := range sameOrigin {
		own[p.Name] = true
	}
	var out []record.Exposure
	for _, o := range origins {
		e := record.Exposure{Origin: o, Tools: []string{}}
		quoted, _ := json.Marshal(o)
		look, cancel := c.within(ctx, c.bound())
		text, err := chromedp.Run(look, chromedp.Evaluate[string](exposedJS+"("+string(quoted)+")", chromedp.EvalAwaitPromise))
		cancel()
		var names []string
		switch {
		case err != nil:
			e.Error = err.Error()
		case json.Unmarshal([]byte(text), &names) != nil:
			e.Error = "getTools({fromOrigins}) answered no list of names: " + text
		}
		for _, n := range names {
			if !own[n] {
				e.Tools = append(e.Tools, n)
			}
		}
		out = append(out, e)
	}
	return out
}
