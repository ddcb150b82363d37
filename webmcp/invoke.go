package webmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agentready/agentready/record"
	"github.com/agentready/agentready/vocab"
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
// c.Timeout (and never past ctx) for its answer.
func (c *Client) Invoke(ctx context.Context, name string, input any, via vocab.Transport) record.Result {
	in, err := json.Marshal(input)
	res := record.Result{Tool: name, Transport: via}
	if err != nil {
		res.Status, res.ErrorText = vocab.Failed, "input is not JSON: "+err.Error()
		return res
	}
	if string(in) == "null" { // no input (also a typed nil map) is the empty object
		in = []byte("{}")
	}
	start := time.Now()
	mark := c.trace.Len()
	ctx, cancel := c.within(ctx, c.timeout())
	defer cancel()
	switch via {
	case vocab.CDP:
		res = c.invokeCDP(ctx, name, in, mark, res)
	default:
		res.Transport = vocab.PageAPI
		res = c.invokePage(ctx, name, in, mark, res)
	}
	res.Duration = time.Since(start)
	return res
}

const pageInvokeJS = `(async (name, input) => {
  const mc = document.modelContext;
  if (!mc) throw new Error("document.modelContext is undefined: WebMCP is off");
  const tool = (await mc.getTools()).find((t) => t.name === name);
  if (!tool) return { found: false };
  return { found: true, output: await mc.executeTool(tool, input) };
})`

func (c *Client) invokePage(ctx context.Context, name string, input []byte, mark int, res record.Result) record.Result {
	nameJSON, _ := json.Marshal(name)
	expr := pageInvokeJS + "(" + string(nameJSON) + ", " + string(input) + ")"
	out, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
		Found  bool    `json:"found"`
		Output *string `json:"output"`
	}](expr, chromedp.EvalAwaitPromise))
	res.InvocationID = c.invocationAfter(mark, name)
	var exc *chromedp.ExceptionError
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return c.noResponse(ctx, res, mark, name)
	case errors.As(err, &exc):
		res.Status, res.ErrorText = vocab.Failed, exceptionText(exc)
	case err != nil:
		res.Status, res.ErrorText = vocab.Failed, err.Error()
	case !out.Found:
		res.Status, res.ErrorText = vocab.Failed, fmt.Sprintf("Tool not found: %q is not in the page's catalog", name)
	default:
		res.Status = vocab.Completed
		if out.Output != nil {
			setOutput(&res, []byte(*out.Output))
		}
	}
	return res
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

func (c *Client) invokeCDP(ctx context.Context, name string, input []byte, mark int, res record.Result) record.Result {
	tool, ok := c.trace.Catalog().Get(name)
	if !ok {
		tool = record.Tool{Name: name}
	}
	if tool.FrameID == "" {
		tool.FrameID = mainFrame(ctx)
	}
	started, err := chromedp.Call(ctx, invokeTool, newInvokeToolParams(tool, input))
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
	// The call's own deadline has passed: what follows gets a short bound of
	// its own, and still runs when the caller gave up.
	after, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.bound())
	defer cancel()
	if c.OnNoResponse != nil {
		c.OnNoResponse(after, res)
	}
	if res.InvocationID != "" {
		_, _ = chromedp.Call(after, webmcp.CancelInvocation, webmcp.CancelInvocationParams{InvocationID: res.InvocationID})
	}
	return res
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
