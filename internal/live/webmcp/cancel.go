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
// tool does not cancel a call in flight. The page's answers (its requests'
// responses) are held until the cancel has landed, so that the cancel
// finds the call running whatever its speed (answerHold).
//
// frame is InvokeIn's: the call goes to the frame that offers the tool, and
// a frame that cannot be found (or a name several frames offer) answers an
// error with no call made.
func (c *Client) InvokeCanceling(ctx context.Context, name, frame string, input any, via vocab.Transport, after time.Duration, advance Advance) (record.Result, error) {
	mark := c.trace.Len()
	// The page's answers are held from before the call until the cancel
	// has landed: the cancel then finds the call still waiting on them.
	// A tab whose answers cannot be held is called as before (the race
	// decides, and the record says canceled or not).
	hold, _ := c.holdAnswers(ctx)
	released := false
	release := func() {
		if !released {
			released = true
			hold.release()
		}
	}
	defer release()
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
		release()
		a := <-done
		return a.res, a.err
	}
	answered := func(e record.Event) bool { return e.Kind == record.ToolResponded && e.InvocationID == inv.InvocationID }
	advanced := c.wait(ctx, after, advance, hold.firstHeld())
	if _, err := c.trace.WaitFor(expired(ctx), mark, "", answered); err == nil {
		release()
		<-advanced
		a := <-done // it answered in time, with nothing held: no cancel
		return a.res, a.err
	}
	bound, cancelBound := c.within(ctx, c.bound())
	cancelErr := c.cancelInvocation(bound, inv.InvocationID)
	ev, waitErr := c.trace.WaitFor(bound, mark, "toolResponded of "+inv.InvocationID, answered)
	cancelBound()
	release()
	<-advanced
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

// wait lets `after` pass before the cancel: on the page's clock when
// advance is given, else in real time. An answer held meanwhile ends it on
// the page's clock: with a fetch pending, the page's time stands still
// (its policy waits for the network), as an agent's clock would not. The
// channel it answers is closed once the clock's grant is over, which may be
// only when the held answers go on.
func (c *Client) wait(ctx context.Context, after time.Duration, advance Advance, held <-chan struct{}) <-chan struct{} {
	over := make(chan struct{})
	if after <= 0 {
		close(over)
		return over
	}
	if advance == nil {
		t := time.NewTimer(after)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		}
		close(over)
		return over
	}
	go func() {
		defer close(over)
		_ = advance(ctx, after)
	}()
	select {
	case <-over:
	case <-held:
	case <-ctx.Done():
	}
	return over
}

// expired is a context already ended: a wait on it only looks at what is
// there.
func expired(ctx context.Context) context.Context {
	c, cancel := context.WithCancel(ctx)
	cancel()
	return c
}
