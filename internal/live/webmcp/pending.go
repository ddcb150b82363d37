package webmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/webmcp"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Pending is a call left running past the step that made it: the agent's
// call of a declarative form without toolautosubmit, which fills the form
// and waits until the person's submit answers it (its submit event then
// has agentInvoked and respondWith, measured on Chromium 156). The answer
// is read from the browser's trace (toolResponded of its invocation) over
// either transport, so a call answered while the suite did other things is
// still the call's own answer.
type Pending struct {
	c     *Client
	res   record.Result
	mark  int
	start time.Time
	// stop ends the page API's promise, which may never settle.
	stop context.CancelFunc
	// over: the call has its answer (or is abandoned); res is final.
	over bool
}

// Start begins the call as InvokeIn does and answers once the browser has
// reported the invocation (at most c.Bound), without waiting for its answer
// and without canceling it. An error is InvokeIn's: no call was made.
func (c *Client) Start(ctx context.Context, name, frame string, input any, via vocab.Transport) (*Pending, error) {
	p := &Pending{c: c, res: record.Result{Tool: name, Transport: via}, mark: c.trace.Len(), start: time.Now(), stop: func() {}}
	in, err := json.Marshal(input)
	if err != nil {
		p.finish(vocab.Failed, "input is not JSON: "+err.Error())
		return p, nil
	}
	if string(in) == "null" {
		in = []byte("{}")
	}
	// The call outlives the step: it is bound to the tab and the caller's
	// ctx, which the runner keeps until the person's steps are over.
	tabCtx, cancelTab := c.bind(ctx)
	pick, cancelPick := context.WithTimeout(tabCtx, c.bound())
	tool, _, err := c.pick(pick, name, frame)
	cancelPick()
	if err != nil {
		cancelTab()
		return p, err
	}
	switch via {
	case vocab.CDP:
		defer cancelTab()
		bounded, cancel := context.WithTimeout(tabCtx, c.bound())
		defer cancel()
		started, err := c.startCDP(bounded, tool, in)
		if err != nil {
			p.finish(vocab.Failed, err.Error())
			return p, nil
		}
		p.res.InvocationID = started.InvocationID
		return p, nil
	default:
		p.res.Transport = vocab.PageAPI
		callCtx, stop := context.WithCancel(tabCtx)
		p.stop = func() { stop(); cancelTab() }
		started, cancel := context.WithTimeout(ctx, c.bound())
		defer cancel()
		// Its answer is the trace's; the page's refusal before the
		// invocation began (executeTool rejected, the tool gone from
		// getTools()) is its own. Any other error (the document went away,
		// a session lost) is the harness's: it stays "never began".
		refused := make(chan string, 1)
		go func() {
			out, err := c.runPage(callCtx, tool, in)
			var exc *chromedp.ExceptionError
			var inFrame *PageException
			why := ""
			switch {
			case callCtx.Err() != nil:
			case err == nil && !out.Found:
				why = fmt.Sprintf("Tool not found: %q is not in the page's catalog", name)
			case errors.As(err, &exc):
				why = exceptionText(exc)
			case errors.As(err, &inFrame):
				why = inFrame.Text
			}
			if why != "" {
				refused <- why
				cancel()
			}
		}()
		inv, err := c.trace.WaitFor(started, p.mark, "toolInvoked of "+name, func(e record.Event) bool {
			return e.Kind == record.ToolInvoked && e.ToolName == name
		})
		if err != nil {
			select {
			case why := <-refused:
				p.finish(vocab.Failed, "the page refused the call before it began: "+why)
			default:
				p.finish(vocab.NoResponse, fmt.Sprintf("no invocation began within %s: the browser never started the call", c.bound()))
			}
			return p, nil
		}
		p.res.InvocationID = inv.InvocationID
		return p, nil
	}
}

func (p *Pending) finish(s vocab.Status, text string) {
	p.res.Status, p.res.ErrorText, p.over = s, text, true
	p.res.Duration = time.Since(p.start)
	p.stop()
}

// Result is the call as it stands: its answer once Await has read one, else
// no_response saying it is still pending.
func (p *Pending) Result() record.Result {
	if p.res.Status != "" {
		return p.res
	}
	res := p.res
	res.Status, res.ErrorText = vocab.NoResponse, "left pending for the person's steps, which have not answered it yet"
	return res
}

// Await waits for the call's answer: at once when the trace holds it, else
// for at most the client's Timeout, during which the page is given as much
// of its own time (advance; real time without one). Without an answer the
// call stays pending (Abandon cancels it) and the result says so.
func (p *Pending) Await(ctx context.Context, advance Advance) record.Result {
	if p.over {
		return p.Result()
	}
	answered := func(e record.Event) bool {
		return e.Kind == record.ToolResponded && e.InvocationID == p.res.InvocationID
	}
	if ev, err := p.c.trace.WaitFor(expired(ctx), p.mark, "", answered); err == nil {
		return p.answered(ev)
	}
	wait, cancel := context.WithTimeout(ctx, p.c.timeout())
	defer cancel()
	if advance != nil {
		go func() { _ = advance(wait, p.c.timeout()) }()
	}
	ev, err := p.c.trace.WaitFor(wait, p.mark, "toolResponded of "+p.res.InvocationID, answered)
	if err != nil {
		p.res.Status = vocab.NoResponse
		p.res.ErrorText = fmt.Sprintf("left pending past the agent's window for the person's steps, and no answer came within %s after them", p.c.timeout())
		p.res.Duration = time.Since(p.start)
		return p.res
	}
	return p.answered(ev)
}

func (p *Pending) answered(ev record.Event) record.Result {
	p.res = fromResponded(p.res, ev)
	p.over = true
	p.res.Duration = time.Since(p.start)
	p.stop()
	return p.res
}

// Abandon cancels a call that never answered, so that nothing is left
// pending in the page (as noResponse does for a call that was awaited), and
// answers its result: what Await read, unless the browser's first answer
// to it, read after the cancel (bounded), is the page's own that came late
// (after Await's bound, before the cancel): the trace's first answer is the
// call's, whatever the bound.
func (p *Pending) Abandon(ctx context.Context) record.Result {
	if p.over {
		return p.Result()
	}
	p.over = true
	defer p.stop()
	if p.res.InvocationID == "" {
		return p.Result()
	}
	after, cancel := p.c.within(context.WithoutCancel(ctx), p.c.bound())
	defer cancel()
	_ = p.c.cancelInvocation(after, p.res.InvocationID)
	ev, err := p.c.trace.WaitFor(after, p.mark, "toolResponded of "+p.res.InvocationID, func(e record.Event) bool {
		return e.Kind == record.ToolResponded && e.InvocationID == p.res.InvocationID
	})
	if err == nil && ev.Status != string(webmcp.InvocationStatusCanceled) {
		return p.answered(ev)
	}
	return p.Result()
}
