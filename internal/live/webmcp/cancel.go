package webmcp

import (
	"context"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios/vocab"
)

// InvokeCanceling calls a tool as Invoke does and, as an agent's own
// timeout does, cancels the call (WebMCP.cancelInvocation) when it has not
// answered `after` once the browser reported it started: on the page's
// clock when advance is given, else in real time. The result is the
// browser's answer: canceled when the cancel came first, else what the
// tool answered. Measured on Chromium 156: the cancel answers the call
// Canceled at once whatever the tool's execute does meanwhile (it may
// still write: nothing stops a fetch already sent), and unregistering a
// tool does not cancel a call in flight.
//
// frame is InvokeIn's: the call goes to the frame that offers the tool, and
// a frame that cannot be found (or a name several frames offer) answers an
// error with no call made.
func (c *Client) InvokeCanceling(ctx context.Context, name, frame string, input any, via vocab.Transport, after time.Duration, advance Advance) (record.Result, error) {
	mark := c.trace.Len()
	callCtx, stop := context.WithCancel(ctx)
	defer stop()
	type answer struct {
		res record.Result
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := c.InvokeIn(callCtx, name, frame, input, via)
		done <- answer{res, err}
	}()

	started, cancelStarted := context.WithTimeout(ctx, c.bound())
	inv, err := c.trace.WaitFor(started, mark, "toolInvoked of "+name, func(e record.Event) bool {
		return e.Kind == record.ToolInvoked && e.ToolName == name
	})
	cancelStarted()
	if err != nil { // never started (not in the catalog, say): whatever the call answers
		a := <-done
		return a.res, a.err
	}
	answered := func(e record.Event) bool { return e.Kind == record.ToolResponded && e.InvocationID == inv.InvocationID }
	if advance != nil {
		_ = advance(ctx, after)
	} else {
		t := time.NewTimer(after)
		select {
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
	}
	if _, err := c.trace.WaitFor(expired(ctx), mark, "", answered); err == nil {
		a := <-done // it answered in time: no cancel
		return a.res, a.err
	}
	bound, cancelBound := c.within(ctx, c.bound())
	cancelErr := c.cancelInvocation(bound, inv.InvocationID)
	ev, waitErr := c.trace.WaitFor(bound, mark, "toolResponded of "+inv.InvocationID, answered)
	cancelBound()
	stop() // a page-API promise of a canceled call may never settle
	a := <-done
	if a.err != nil {
		return a.res, a.err
	}
	res := a.res
	res.InvocationID = inv.InvocationID
	switch {
	case waitErr == nil:
		res = fromResponded(res, ev)
	case cancelErr != nil:
		res.Status, res.ErrorText = vocab.Failed, "cancel the call: "+cancelErr.Error()
	}
	if res.Status == vocab.Canceled { // what the page answered after the cancel is not the call's answer
		res.Output, res.OutputText = nil, ""
	}
	return res, nil
}

// expired is a context already ended: a wait on it only looks at what is
// there.
func expired(ctx context.Context) context.Context {
	c, cancel := context.WithCancel(ctx)
	cancel()
	return c
}
