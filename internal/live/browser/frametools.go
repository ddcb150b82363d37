package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/live/webmcp"
)

// Every frame's tools (docs/decisions/2026-12-04-every-frames-tools.md).
//
// A cross-site iframe that the page allows to offer tools (allow="tools")
// registers them in its own process, and Chromium 156 reports them on the
// iframe's own session only, to a WebMCP domain turned on there before its
// document loads (setUp does, while the child waits for the debugger). The
// tab records those events in its one trace with the page's own, so that
// the catalog holds every frame's tools, each with its frame; it remembers
// which session reported each frame's tools, so that a call goes to the
// frame that owns the tool (frameinvoke.go).

// frameOwners remembers, for each frame whose tools a child session
// reported, that session.
type frameOwners struct {
	mu        sync.Mutex
	bySession map[target.SessionID]map[string]bool // child session → the frames it reported tools of
	byFrame   map[string]target.SessionID
}

func (o *frameOwners) note(s target.SessionID, frame string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.byFrame == nil {
		o.byFrame, o.bySession = map[string]target.SessionID{}, map[target.SessionID]map[string]bool{}
	}
	o.byFrame[frame] = s
	if o.bySession[s] == nil {
		o.bySession[s] = map[string]bool{}
	}
	o.bySession[s][frame] = true
}

// owner answers the child session that reports frame's tools ("": the page's).
func (o *frameOwners) owner(frame string) target.SessionID {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.byFrame[frame]
}

// forget drops a session that went away and answers the frames it reported.
func (o *frameOwners) forget(s target.SessionID) []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	var frames []string
	for f := range o.bySession[s] {
		frames = append(frames, f)
		if o.byFrame[f] == s {
			delete(o.byFrame, f)
		}
	}
	delete(o.bySession, s)
	return frames
}

// childTools records an iframe's WebMCP and frame events in the tab's
// trace. It answers false for a message it does not take.
func (t *Tab) childTools(c *child, method string, params json.RawMessage) bool {
	if c.typ != "iframe" {
		return false
	}
	switch {
	case strings.HasPrefix(method, "WebMCP."):
	case method == page.FrameNavigated.Method, method == page.FrameDetached.Method:
	default:
		return false
	}
	v, err := cdproto.UnmarshalMessage(&cdproto.Message{Method: cdproto.MethodType(method), Params: jsonv2.Value(params)}, chromedp.DefaultUnmarshalOptions)
	if err != nil {
		return true
	}
	if method == string(cdproto.EventWebMCPToolsAdded) {
		_ = t.Trace.RecordRawToolsAdded(params)
		var added struct {
			Tools []struct {
				FrameID string `json:"frameId"`
			} `json:"tools"`
		}
		if json.Unmarshal(params, &added) == nil {
			for _, tool := range added.Tools {
				t.owners.note(c.session, tool.FrameID)
			}
		}
	}
	t.Trace.Observe(v)
	if method == page.FrameNavigated.Method {
		// Its next document: what the last one left unfinished ends with it (netlog).
		t.Net.ObserveFrom(c.source, v)
	}
	return true
}

// swappedOut tells a page's frameDetached that only says its frame moved
// to a process of its own (reason swap) after that process's session had
// reported the frame's tools: the browser sends the two on different
// sessions, in either order, and the tools are the new document's.
func (t *Tab) swappedOut(ev any) bool {
	d, ok := ev.(*page.EventFrameDetached)
	return ok && d.Reason == page.FrameDetachedReasonSwap && t.owners.owner(string(d.FrameID)) != ""
}

// childGone removes the tools of the frames a detached child reported:
// Chromium sends no toolsRemoved when an iframe goes away.
func (t *Tab) childGone(s target.SessionID) {
	for _, f := range t.owners.forget(s) {
		t.Trace.FrameGone(f, "the frame's target went away")
	}
}

// tabFrames lets the tab's WebMCP client reach its frames (webmcp.Frames).
type tabFrames struct{ t *Tab }

// Resolve answers the id of the frame spec names.
func (f tabFrames) Resolve(ctx context.Context, spec string) (string, error) {
	id, _, err := f.t.frameNamed(ctx, spec)
	return string(id), err
}

// Session answers the child session that reports the frame's tools, nil
// for the page's.
func (f tabFrames) Session(frame string) cdp.Session {
	if s := f.t.owners.owner(frame); s != "" {
		return f.t.childSession(string(s))
	}
	return nil
}

// Call runs fn in the frame's document with its window as this: in a
// cross-site iframe's own session when the frame is one, otherwise on its
// iframe element (in the session of the process that holds it) through
// contentWindow, which reaches the frame's own main world.
func (f tabFrames) Call(ctx context.Context, frame, fn string, args ...any) (json.RawMessage, error) {
	var texts []string
	var callArgs []*runtime.CallArgument
	for _, a := range args {
		b, err := json.Marshal(a)
		if err != nil {
			return nil, err
		}
		texts = append(texts, string(b))
		callArgs = append(callArgs, &runtime.CallArgument{Value: jsonv2.Value(b)})
	}
	for _, c := range f.t.kids.list() {
		if c.typ == "iframe" && string(c.id) == frame {
			res, err := cdp.Call(ctx, f.t.childSession(string(c.session)), runtime.Evaluate, runtime.EvaluateParams{
				Expression: "(" + fn + ").call(window, " + strings.Join(texts, ", ") + ")", AwaitPromise: new(true), ReturnByValue: new(true)})
			if err != nil {
				return nil, err
			}
			return valueOf(res.Result, res.ExceptionDetails)
		}
	}
	s := f.Session(frame)
	if s == nil {
		top, err := f.t.pageSession()
		if err != nil {
			return nil, err
		}
		s = top
	}
	owner, err := cdp.Call(ctx, s, dom.GetFrameOwner, dom.GetFrameOwnerParams{FrameID: cdp.FrameID(frame)})
	if err != nil {
		return nil, fmt.Errorf("find the frame's iframe: %w", err)
	}
	const group = "agentready-frame-call"
	defer func() {
		_, _ = cdp.Call(context.WithoutCancel(ctx), s, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: group})
	}()
	node, err := cdp.Call(ctx, s, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: owner.BackendNodeID, ObjectGroup: group})
	if err != nil || node.Object == nil {
		return nil, fmt.Errorf("reach the frame's iframe: %v", err)
	}
	res, err := cdp.Call(ctx, s, runtime.CallFunctionOn, runtime.CallFunctionOnParams{ObjectID: node.Object.ObjectID,
		FunctionDeclaration: "function (...a) { return (" + fn + ").apply(this.contentWindow, a); }",
		Arguments:           callArgs, AwaitPromise: new(true), ReturnByValue: new(true), ObjectGroup: group})
	if err != nil {
		return nil, err
	}
	return valueOf(res.Result, res.ExceptionDetails)
}

// valueOf answers a call's value as JSON, or its exception.
func valueOf(v *runtime.RemoteObject, exc *runtime.ExceptionDetails) (json.RawMessage, error) {
	if exc != nil {
		text := exc.Text
		if exc.Exception != nil && exc.Exception.Description != "" {
			text = exc.Exception.Description
		}
		return nil, &webmcp.PageException{Text: text}
	}
	if v == nil || len(v.Value) == 0 {
		return json.RawMessage("null"), nil
	}
	return json.RawMessage(v.Value), nil
}
