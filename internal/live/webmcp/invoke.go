package webmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios/vocab"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/webmcp"
	"github.com/chromedp/chromedp"
)

// DefaultTimeout bounds an invocation that never answers.
const DefaultTimeout = vocab.Bound

// Binder gives a caller's context the tab it talks to: the result carries
// the tab's chromedp target and ends when either the caller's context or
// the tab ends.
type Binder func(ctx context.Context) (context.Context, context.CancelFunc)

// Client invokes the tools of one tab. Every call that waits takes the
// caller's ctx first and honours its deadline and cancellation; the client's
// own bounds (Timeout, Bound) only shorten it.
type Client struct {
	bind  Binder
	trace *Recorder
	// Timeout bounds an invocation that never answers.
	Timeout time.Duration
	// Bound bounds a wait for something that should happen at once (a tool
	// entering or leaving the catalog, the two catalogs agreeing).
	Bound time.Duration
	// OnNoResponse, when set, runs when an invocation did not answer in
	// time, before the suite cancels it: the moment to record the page as
	// the agent left it (canceling clears :tool-form-active and friends).
	OnNoResponse func(ctx context.Context, res record.Result)
	// Frames, when set, reaches the tab's frames: a tool of an iframe is
	// called in it (frames.go). Without, every call goes to the top document.
	Frames Frames
}

// NewClient makes a client for the tab bind attaches to, whose events trace records.
func NewClient(bind Binder, trace *Recorder) *Client {
	return &Client{bind: bind, trace: trace, Timeout: DefaultTimeout, Bound: vocab.Bound}
}

// within answers ctx bound to the tab and cut to at most d.
func (c *Client) within(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	tabCtx, cancelTab := c.bind(ctx)
	bounded, cancel := context.WithTimeout(tabCtx, d)
	return bounded, func() { cancel(); cancelTab() }
}

func (c *Client) bound() time.Duration {
	if c.Bound <= 0 {
		return vocab.Bound
	}
	return c.Bound
}

// Invoke calls a tool with input (an object; nil means {}) and waits at most
// c.Timeout (and never past ctx) for its answer. The call goes to the frame
// that offers the tool (see InvokeIn); a name several frames offer, none of
// them the top document, is not called and answers failed.
func (c *Client) Invoke(ctx context.Context, name string, input any, via vocab.Transport) record.Result {
	res, err := c.InvokeIn(ctx, name, "", input, via)
	if err != nil {
		res.Status, res.ErrorText = vocab.Failed, err.Error()
	}
	return res
}

// InvokeIn is Invoke of the tool the frame offers (frame as
// record.ParseFrame reads it; "": the frame that offers a tool of that
// name, the top document when several do). It answers an error, and makes
// no call, when the frame cannot be found or the name alone is ambiguous
// (*ErrAmbiguous): the caller's mistake, not the page's answer.
func (c *Client) InvokeIn(ctx context.Context, name, frame string, input any, via vocab.Transport) (record.Result, error) {
	in, err := json.Marshal(input)
	res := record.Result{Tool: name, Transport: via}
	if err != nil {
		res.Status, res.ErrorText = vocab.Failed, "input is not JSON: "+err.Error()
		return res, nil
	}
	if string(in) == "null" { // no input (also a typed nil map) is the empty object
		in = []byte("{}")
	}
	start := time.Now()
	mark := c.trace.Len()
	ctx, cancel := c.within(ctx, c.timeout())
	defer cancel()
	tool, _, err := c.pick(ctx, name, frame)
	if err != nil {
		return res, err
	}
	switch via {
	case vocab.CDP:
		res = c.invokeCDP(ctx, tool, in, mark, res)
	default:
		res.Transport = vocab.PageAPI
		res = c.invokePage(ctx, tool, in, mark, res)
	}
	res.Duration = time.Since(start)
	return res, nil
}

// invokeInJS runs in the document that offers the tool, with its window as
// this. getTools() lists the tools of every frame of the document's origin
// (each with its window): the one called is this window's.
//
// executeTool takes its input as an object in Chromium 156 and refuses a
// JSON string ("Failed to execute 'executeTool' on 'ModelContext': invalid
// input object: value is not an object"); the API first took a string and
// refused an object ("Failed to parse input"). The input goes as an object;
// refused for that shape by the binding itself ("Failed to parse input",
// before any tool runs), it goes again as a string, and the answer says
// which shape was taken. A tool's own error is never retried (Chromium 156
// answers it as UnknownError), and refused in both shapes the first
// refusal is the error.
const invokeInJS = `async function (name, input) {
  const win = this, mc = win.document.modelContext;
  if (!mc) throw new Error("document.modelContext is undefined: WebMCP is off");
  const tool = (await mc.getTools()).find((t) => t.name === name && (t.window === undefined || t.window === win));
  if (!tool) return { found: false };
  let first;
  try {
    return { found: true, output: await mc.executeTool(tool, input), shape: "object" };
  } catch (e) {
    const refused = e instanceof TypeError && /^Failed to execute 'executeTool' on 'ModelContext': Failed to parse input/.test(e.message);
    if (!refused) throw e;
    first = e;
  }
  try {
    return { found: true, output: await mc.executeTool(tool, JSON.stringify(input)), shape: "json-string" };
  } catch (e) {
    if (e instanceof TypeError) throw first; // refused in both shapes: the first refusal is the one to read
    throw e;
  }
}`

type pageAnswer struct {
	Found  bool    `json:"found"`
	Output *string `json:"output"`
	// Shape is how executeTool took the input: "object" or "json-string".
	Shape string `json:"shape"`
}

// inFrame tells whether a page-API call of tool goes to an iframe's
// document (through c.Frames) rather than the top one.
func (c *Client) inFrame(ctx context.Context, tool record.Tool) bool {
	return c.Frames != nil && tool.FrameID != "" && tool.FrameID != mainFrame(ctx)
}

// awaitInvocation waits, at most c.Bound, for the trace to hold the
// invocation of name after mark and its answer. A call made through
// c.Frames answers on a session of its own, ahead of the frame's events,
// which reach the trace through the tab's ordered stream a moment later.
func (c *Client) awaitInvocation(ctx context.Context, mark int, name string) {
	ctx, cancel := context.WithTimeout(ctx, c.bound())
	defer cancel()
	inv, err := c.trace.WaitFor(ctx, mark, "toolInvoked of "+name, func(e record.Event) bool {
		return e.Kind == record.ToolInvoked && e.ToolName == name
	})
	if err != nil {
		return
	}
	_, _ = c.trace.WaitFor(ctx, mark, "toolResponded of "+inv.InvocationID, func(e record.Event) bool {
		return e.Kind == record.ToolResponded && e.InvocationID == inv.InvocationID
	})
}

// runPage calls the tool's document's modelContext: the top document's in
// the tab's page, an iframe's through c.Frames.
func (c *Client) runPage(ctx context.Context, tool record.Tool, input []byte) (pageAnswer, error) {
	if !c.inFrame(ctx, tool) {
		nameJSON, _ := json.Marshal(tool.Name)
		expr := "(" + invokeInJS + ").call(window, " + string(nameJSON) + ", " + string(input) + ")"
		return chromedp.Run(ctx, chromedp.Evaluate[pageAnswer](expr, chromedp.EvalAwaitPromise))
	}
	var out pageAnswer
	raw, err := c.Frames.Call(ctx, tool.FrameID, invokeInJS, tool.Name, json.RawMessage(input))
	if err == nil {
		err = json.Unmarshal(raw, &out)
	}
	return out, err
}

func (c *Client) invokePage(ctx context.Context, tool record.Tool, input []byte, mark int, res record.Result) record.Result {
	name := tool.Name
	// A tool whose form navigates takes its document, and the promise
	// executeTool gave, with it: that promise never settles. So the call
	// also ends when the trace shows the invocation's document replaced;
	// the browser's own answer, if any, is then read from the trace.
	evalCtx, stopEval := context.WithCancel(ctx)
	defer stopEval()
	done := make(chan struct{})
	var out pageAnswer
	var err error
	go func() {
		defer close(done)
		out, err = c.runPage(evalCtx, tool, input)
	}()
	gone := make(chan struct{})
	go func() {
		if c.trace.WaitUntil(evalCtx, "the invocation's document to go", func(events []record.Event) bool {
			return documentGone(events[min(mark, len(events)):], name)
		}) == nil {
			close(gone)
		}
	}()
	select {
	case <-done:
	case <-gone:
		stopEval()
		<-done
		res.InvocationID = c.invocationAfter(mark, name)
		return c.afterNavigation(ctx, res, mark, name)
	}
	if err == nil && out.Found && c.inFrame(ctx, tool) {
		c.awaitInvocation(ctx, mark, name)
	}
	res.InvocationID = c.invocationAfter(mark, name)
	var exc *chromedp.ExceptionError
	var inFrame *PageException
	switch {
	case err == nil && !out.Found:
		res.Status, res.ErrorText = vocab.Failed, fmt.Sprintf("Tool not found: %q is not in the page's catalog", name)
	case err == nil && out.Output != nil:
		res.Status, res.InputShape = vocab.Completed, out.Shape
		setOutput(&res, []byte(*out.Output))
	case errors.As(err, &exc):
		res.Status, res.ErrorText = vocab.Failed, exceptionText(exc)
	case errors.As(err, &inFrame):
		res.Status, res.ErrorText = vocab.Failed, inFrame.Text
	default:
		// The page API gave no answer: the bound ran out, the document went
		// away under the call (a form that navigates to a result page), or
		// the promise settled with nothing. What the browser itself answered
		// is in the trace; without it, there was no answer.
		return c.fromTrace(ctx, res, mark, name)
	}
	return res
}

// documentGone tells whether, in events after a call started, the
// invocation of name began and then its frame's document was replaced or
// detached (the suite's inferred removal of that frame's tools).
func documentGone(events []record.Event, name string) bool {
	frame := ""
	for _, e := range events {
		switch {
		case e.Kind == record.ToolInvoked && e.ToolName == name && frame == "":
			frame = e.FrameID
		case frame != "" && e.Kind == record.ToolsRemoved && e.Inferred != "" && e.FrameID == frame:
			return true
		}
	}
	return false
}

// navigationGrace is how long an answer may still come after the
// invocation's document went away. Measured on Chromium 156: a CDP
// invocation's toolResponded came 30–40 ms after the document was replaced
// (with the next page's JSON-LD); a page-API invocation's never came.
const navigationGrace = 250 * time.Millisecond

// afterNavigation reads the answer of an invocation whose document went
// away: a browser-side invocation's answer (toolResponded) comes once the
// next document has loaded, a page-API one's never does. A short wait, not
// the tool's whole timeout, tells the two apart.
func (c *Client) afterNavigation(ctx context.Context, res record.Result, mark int, name string) record.Result {
	wait, cancel := context.WithTimeout(ctx, navigationGrace)
	defer cancel()
	ev, err := c.trace.WaitFor(wait, mark, "toolResponded of "+res.InvocationID, func(e record.Event) bool {
		return e.Kind == record.ToolResponded && e.InvocationID == res.InvocationID
	})
	if err == nil {
		return fromResponded(res, ev)
	}
	res.Status = vocab.NoResponse
	res.ErrorText = "the tool's document went away before it answered, and the page API's promise cannot settle after that: " +
		"call tools that navigate over CDP (transport: cdp) to get the browser's answer"
	return res
}

// fromTrace answers what the browser's trace says the invocation ended
// with, waiting for it while ctx allows; no answer is NoResponse, never
// completed.
func (c *Client) fromTrace(ctx context.Context, res record.Result, mark int, name string) record.Result {
	if res.InvocationID == "" {
		inv, err := c.trace.WaitFor(ctx, mark, "toolInvoked of "+name, func(e record.Event) bool {
			return e.Kind == record.ToolInvoked && e.ToolName == name
		})
		if err != nil {
			return c.noResponse(ctx, res, mark, name)
		}
		res.InvocationID = inv.InvocationID
	}
	answered := func(e record.Event) bool { return e.Kind == record.ToolResponded && e.InvocationID == res.InvocationID }
	var ev record.Event
	gone := false
	err := c.trace.WaitUntil(ctx, "toolResponded of "+res.InvocationID, func(events []record.Event) bool {
		after := events[min(mark, len(events)):]
		if i := slices.IndexFunc(after, answered); i >= 0 {
			ev = after[i]
			return true
		}
		gone = documentGone(after, name)
		return gone
	})
	switch {
	case err == nil && !gone:
		return fromResponded(res, ev)
	case err == nil:
		return c.afterNavigation(ctx, res, mark, name)
	}
	return c.noResponse(ctx, res, mark, name)
}

// invokeToolParams are WebMCP.invokeTool's parameters for both protocol
// shapes: Chromium 156 names the tool, 159+ identifies it by toolId. The
// generated cdproto command carries only one of them, so the suite declares
// its own.
type invokeToolParams struct {
	FrameID  cdp.FrameID  `json:"frameId"`
	ToolName string       `json:"toolName,omitempty"`
	ToolID   string       `json:"toolId,omitempty"`
	Input    jsonv2.Value `json:"input"`
}

var invokeTool = cdp.Command[invokeToolParams, webmcp.InvokeToolResult]{Method: webmcp.CommandInvokeTool}

// newInvokeToolParams chooses the shape from what the browser sent: a tool
// that came with a toolId is invoked by it, and by name as well, so that
// either generation of the protocol finds it.
func newInvokeToolParams(t record.Tool, input []byte) invokeToolParams {
	return invokeToolParams{FrameID: cdp.FrameID(t.FrameID), ToolName: t.Name, ToolID: t.ToolID, Input: jsonv2.Value(input)}
}

func (c *Client) invokeCDP(ctx context.Context, tool record.Tool, input []byte, mark int, res record.Result) record.Result {
	name := tool.Name
	started, err := c.startCDP(ctx, tool, input)
	if err != nil {
		res.Status, res.ErrorText = vocab.Failed, err.Error()
		return res
	}
	res.InvocationID = started.InvocationID
	ev, err := c.trace.WaitFor(ctx, mark, "toolResponded of "+started.InvocationID, func(e record.Event) bool {
		return e.Kind == record.ToolResponded && e.InvocationID == started.InvocationID
	})
	if err != nil {
		return c.noResponse(ctx, res, mark, name)
	}
	return fromResponded(res, ev)
}

// startCDP asks the browser to invoke tool (WebMCP.invokeTool) on the
// session of its frame: a cross-site frame's own, else the page's.
func (c *Client) startCDP(ctx context.Context, tool record.Tool, input []byte) (webmcp.InvokeToolResult, error) {
	if tool.FrameID == "" {
		tool.FrameID = mainFrame(ctx)
	}
	if s := c.session(tool.FrameID); s != nil {
		return cdp.Call(ctx, s, invokeTool, newInvokeToolParams(tool, input))
	}
	return chromedp.Call(ctx, invokeTool, newInvokeToolParams(tool, input))
}

func fromResponded(res record.Result, ev record.Event) record.Result {
	switch ev.Status {
	case string(webmcp.InvocationStatusCompleted):
		res.Status = vocab.Completed
		setOutput(&res, ev.Output)
	case string(webmcp.InvocationStatusCanceled):
		res.Status = vocab.Canceled
	default:
		res.Status = vocab.Failed
	}
	res.ErrorText = ev.ErrorText
	return res
}

// noResponse cancels an invocation that did not answer within the bound, so
// that nothing is left pending in the page.
func (c *Client) noResponse(ctx context.Context, res record.Result, mark int, name string) record.Result {
	res.Status = vocab.NoResponse
	res.ErrorText = fmt.Sprintf("no answer within %s", c.timeout())
	if res.InvocationID == "" {
		res.InvocationID = c.invocationAfter(mark, name)
	}
	if res.InvocationID == "" {
		res.ErrorText = fmt.Sprintf("no invocation began within %s: the browser never started the call (the document's getTools() did not settle, or the page ran no script)", c.timeout())
	}
	// The call's own deadline has passed: what follows gets a short bound of
	// its own, and still runs when the caller gave up.
	after, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.bound())
	defer cancel()
	if c.OnNoResponse != nil {
		c.OnNoResponse(after, res)
	}
	if res.InvocationID != "" {
		_ = c.cancelInvocation(after, res.InvocationID)
	}
	return res
}

// cancelInvocation asks the browser to cancel invocation id on the session
// that runs it: a cross-site frame's own, else the page's.
func (c *Client) cancelInvocation(ctx context.Context, id string) error {
	params := webmcp.CancelInvocationParams{InvocationID: id}
	var err error
	if s := c.session(c.invocationFrame(id)); s != nil {
		_, err = cdp.Call(ctx, s, webmcp.CancelInvocation, params)
	} else {
		_, err = chromedp.Call(ctx, webmcp.CancelInvocation, params)
	}
	return err
}

// session answers the session that reports the frame's tools, nil for the
// page's own.
func (c *Client) session(frame string) cdp.Session {
	if c.Frames == nil || frame == "" {
		return nil
	}
	return c.Frames.Session(frame)
}

// invocationFrame answers the frame an invocation ran in, from the trace.
func (c *Client) invocationFrame(id string) string {
	for _, e := range c.trace.Events() {
		if e.Kind == record.ToolInvoked && e.InvocationID == id {
			return e.FrameID
		}
	}
	return ""
}

// invocationAfter finds the id of the first invocation of name after mark.
func (c *Client) invocationAfter(mark int, name string) string {
	for _, e := range c.trace.Events()[mark:] {
		if e.Kind == record.ToolInvoked && e.ToolName == name {
			return e.InvocationID
		}
	}
	return ""
}

func setOutput(res *record.Result, out []byte) {
	if len(out) == 0 {
		return
	}
	if json.Valid(out) {
		// The page API answers the output as a JSON string that holds JSON.
		var s string
		if json.Unmarshal(out, &s) == nil && json.Valid([]byte(s)) {
			out = []byte(s)
		}
		res.Output = record.NormalizeSchema(out)
		return
	}
	res.OutputText = string(out)
}

func (c *Client) timeout() time.Duration {
	if c.Timeout <= 0 {
		return DefaultTimeout
	}
	return c.Timeout
}

func mainFrame(ctx context.Context) string {
	if cc := chromedp.FromContext(ctx); cc != nil && cc.Target != nil {
		return string(cc.Target.TargetID)
	}
	return ""
}

func exceptionText(e *chromedp.ExceptionError) string {
	if e.ExceptionDetails != nil && e.ExceptionDetails.Exception != nil && e.ExceptionDetails.Exception.Description != "" {
		return e.ExceptionDetails.Exception.Description
	}
	return e.Error()
}
