package agentmcp

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// addOwnTools adds the tools that are the server's, not the page's.
func (s *server) addOwnTools() {
	s.mcp.AddTool(&mcp.Tool{Name: FinalAnswer, Title: "Final answer",
		Description: "Give the person your final answer, in your own words. Call it once, when you are done: it ends the run.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","description":"What you tell the person."}},"required":["text"],"additionalProperties":false}`),
	}, s.finalAnswer)
	if s.o.PageActions {
		s.mcp.AddTool(&mcp.Tool{Name: PageClick, Title: "Click in the page",
			Description: "Click the element of the page that a CSS selector finds, as a person would.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"selector":{"type":"string","description":"A CSS selector."}},"required":["selector"],"additionalProperties":false}`),
		}, s.pageClick)
	}
}

func ownTool(name string) bool { return name == FinalAnswer || name == PageClick }

// follow keeps the MCP tools equal to the tab's catalog until stopped.
func (s *server) follow(ctx context.Context, tab *browser.Tab) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	// Each wait is for an event after those the last sync folded: an event
	// that came between a sync and the next wait's mark was lost before,
	// and the list stayed stale (TestTheToolListFollowsThePage, under -race
	// on a busy machine).
	catalog, seen := tab.Trace.CatalogSeen()
	s.sync(catalog)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			if err := tab.Trace.WaitUntil(ctx, "a change of the page's tools", func(events []record.Event) bool { return len(events) > seen }); err != nil {
				return
			}
			catalog, seen = tab.Trace.CatalogSeen()
			s.sync(catalog)
		}
	}()
	return func() { cancel(); <-done }
}

// sync offers the catalog's tools as MCP tools: new and changed ones added
// (replacing), gone ones removed; the SDK tells the client the list changed.
func (s *server) sync(c record.Catalog) {
	want := map[string]*mcp.Tool{}
	for _, t := range c {
		if _, dup := want[t.Name]; dup {
			continue // the same name in two frames: the page API calls the first
		}
		if ownTool(t.Name) {
			s.logf("the page's tool %s is hidden by the server's own of that name", t.Name)
			continue
		}
		mt, err := mcpTool(t)
		if err != nil {
			s.logf("the page's tool %s is not offered: %v", t.Name, err)
			continue
		}
		want[t.Name] = mt
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var gone []string
	for name := range s.published {
		if _, ok := want[name]; !ok {
			gone = append(gone, name)
		}
	}
	slices.Sort(gone)
	if len(gone) > 0 {
		s.mcp.RemoveTools(gone...)
		for _, name := range gone {
			delete(s.published, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(want)) {
		def, _ := json.Marshal(want[name])
		if s.published[name] == string(def) {
			continue
		}
		s.published[name] = string(def)
		s.mcp.AddTool(want[name], s.pageTool(name))
	}
}

// mcpTool is a page's tool as an MCP tool: its schema passed through (a
// schema without a type is an object's; one of another type cannot be an
// MCP tool's).
func mcpTool(t record.Tool) (*mcp.Tool, error) {
	schema := map[string]any{}
	if len(t.InputSchema) > 0 {
		if err := json.Unmarshal(t.InputSchema, &schema); err != nil || schema == nil {
			return nil, fmt.Errorf("its input schema is not a JSON object: %s", t.InputSchema)
		}
	}
	switch typ, ok := schema["type"]; {
	case !ok:
		schema["type"] = "object"
	case typ != "object":
		return nil, fmt.Errorf("its input schema's type is %v, and an MCP tool takes an object", typ)
	}
	mt := &mcp.Tool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: schema}
	if t.Annotations.ReadOnly {
		mt.Annotations = &mcp.ToolAnnotations{ReadOnlyHint: true}
	}
	return mt, nil
}

// unlisted sends a call of a tool the server does not list (any more) to
// the page all the same, so that it is recorded as the agent's call of a
// tool the page did not offer (tool_not_in_catalog), not lost as a protocol
// error the judge never sees.
func (s *server) unlisted(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		r, ok := req.(*mcp.CallToolRequest)
		if method != "tools/call" || !ok || r.Params == nil || ownTool(r.Params.Name) {
			return next(ctx, method, req)
		}
		s.mu.Lock()
		_, listed := s.published[r.Params.Name]
		s.mu.Unlock()
		if listed {
			return next(ctx, method, req)
		}
		return s.pageTool(r.Params.Name)(ctx, r)
	}
}

// pageTool calls the page's tool through the page API, recorded as the
// agent's call.
func (s *server) pageTool(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		input := map[string]any{}
		if args := req.Params.Arguments; len(args) > 0 && string(args) != "null" {
			if err := json.Unmarshal(args, &input); err != nil {
				return errorResult("the arguments are not a JSON object: " + err.Error()), nil
			}
		}
		var res record.Result
		err := s.withRun(ctx, func(ep *episode) {
			res = ep.act(ctx, scenarios.Call{Tool: name, Input: input, Transport: vocab.PageAPI})
			s.logf("run %d: %s → %s", ep.n, name, res.Status)
		})
		if err != nil {
			return errorResult(err.Error()), nil
		}
		return resultOf(res), nil
	}
}

// resultOf is a call's result as MCP content: the page's answer as text
// (JSON as JSON), an error as an error.
func resultOf(r record.Result) *mcp.CallToolResult {
	if r.Status != vocab.Completed {
		return errorResult(strings.TrimSpace(fmt.Sprintf("the tool ended %s: %s", r.Status, r.ErrorText)))
	}
	text := r.OutputText
	if len(r.Output) > 0 {
		text = string(r.Output)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

func errorResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

func (s *server) finalAnswer(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in struct {
		Text *string `json:"text"`
	}
	if err := json.Unmarshal(req.Params.Arguments, &in); err != nil || in.Text == nil {
		return errorResult(`final_answer takes {"text": "what you tell the person"}`), nil
	}
	var ep *episode
	if err := s.withRun(ctx, func(e *episode) { ep = e }); err != nil {
		return errorResult(err.Error()), nil
	}
	ep.end(in.Text)
	s.logf("run %d: final answer given", ep.n)
	// Answer once the run is recorded (a client may end the server as soon
	// as it has its answer) and, when another run follows, its page is
	// open: the agent then meets the fresh page's tools.
	select {
	case <-ep.recorded:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if ep.n == s.o.Runs {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("Recorded. That was run %d of %d, the last: you may disconnect.", ep.n, s.o.Runs)}}}, nil
	}
	if err := s.withRun(ctx, func(*episode) {}); err != nil {
		return errorResult(err.Error()), nil
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("Recorded: run %d of %d is over. A fresh page is open for run %d: do the same task again from the start.", ep.n, s.o.Runs, ep.n+1)}}}, nil
}

// pageClick clicks in the page, in the agent's phase, as a browser agent
// may: what it causes (a request, a write) is the agent's.
func (s *server) pageClick(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in struct {
		Selector string `json:"selector"`
	}
	if err := json.Unmarshal(req.Params.Arguments, &in); err != nil || strings.TrimSpace(in.Selector) == "" {
		return errorResult(`page_click takes {"selector": "a CSS selector"}`), nil
	}
	var clickErr error
	err := s.withRun(ctx, func(ep *episode) {
		c, cancel := ep.tab.Bind(ctx)
		defer cancel()
		c, cancelBound := context.WithTimeout(c, vocab.Bound)
		defer cancelBound()
		clickErr = chromedp.Do(c, chromedp.Click(in.Selector, browser.Deep(in.Selector), chromedp.NodeVisible))
		s.logf("run %d: page_click %s (%v)", ep.n, in.Selector, clickErr)
	})
	switch {
	case err != nil:
		return errorResult(err.Error()), nil
	case clickErr != nil:
		return errorResult(fmt.Sprintf("no click on %s: %v", in.Selector, clickErr)), nil
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Clicked " + in.Selector + "."}}}, nil
}
