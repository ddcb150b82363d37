package record

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/agentready/agentready/scenarios/vocab"
)

// Tool is one tool as the suite sees it.
type Tool struct {
	Name        string          `json:"name"`
	ToolID      string          `json:"toolId,omitempty"` // sent by Chromium 159+, not by 156
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
	Annotations Annotations     `json:"annotations"`
	Declarative bool            `json:"declarative"`
	FrameID     string          `json:"frameId,omitempty"`
	// Frame is the URL of the document that offers the tool when that is
	// not the top document (an iframe's): two frames may offer tools of one
	// name, and a person tells them apart by it. "" for the top document's.
	Frame string `json:"frame,omitempty"`
	// CrossOrigin says that frame is of another origin than the top
	// document, so the top document's getTools() does not list the tool
	// (Chromium 156): only the frame's own session reports it.
	CrossOrigin bool `json:"crossOrigin,omitempty"`
	// RegisteredBy is the script whose registerTool() call made the tool:
	// the innermost frame with a URL of the registration's stack trace, as
	// Chromium's toolsAdded carries it, without its query and fragment (a
	// script URL may carry a key). Empty for a form, or when the browser
	// sent no stack (an inline script has the page's URL).
	RegisteredBy string `json:"registeredBy,omitempty"`
	// SchemaFrom says where InputSchema was read when the protocol's event
	// carried none: "getTools()" (CompleteSchemas). Empty: the protocol's.
	SchemaFrom string `json:"schemaFrom,omitempty"`
}

// Annotations are the tool's hints, as the protocol names them.
type Annotations struct {
	ReadOnly         bool `json:"readOnly,omitempty"`
	Consequential    bool `json:"consequential,omitempty"`
	UntrustedContent bool `json:"untrustedContent,omitempty"`
	Debugging        bool `json:"debugging,omitempty"`
	Autosubmit       bool `json:"autosubmit,omitempty"`
}

// NormalizeSchema answers the schema as compact JSON of an object, whether the
// browser sent it as an object or as a string that holds one.
func NormalizeSchema(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil && json.Valid([]byte(s)) {
			raw = []byte(s)
		}
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return raw
	}
	return buf.Bytes()
}

// Catalog is the set of tools a page offers, sorted by name.
type Catalog []Tool

// Names lists the tool names in order.
func (c Catalog) Names() []string {
	names := make([]string, len(c))
	for i, t := range c {
		names[i] = t.Name
	}
	return names
}

// SameOrigin answers the tools of the top document's origin: those its
// getTools() lists.
func (c Catalog) SameOrigin() Catalog {
	return slices.DeleteFunc(slices.Clone(c), func(t Tool) bool { return t.CrossOrigin })
}

// Get finds a tool by name. Frames may offer tools of one name: then the
// top document's is the one a name alone means, as webmcp calls it (the
// page's own before an embedded one's), then a same-origin frame's, then
// by the frame's URL. Never by frame id, which is random per run: the same
// page would be judged by another tool on another run (issue 43 item 5).
func (c Catalog) Get(name string) (Tool, bool) {
	var best Tool
	found := false
	for _, t := range c {
		if t.Name == name && (!found || framePrecedence(t, best) < 0) {
			best, found = t, true
		}
	}
	return best, found
}

// GetIn finds the tool of a frame by its name: a tool is its frame and its
// name. An empty frame is a name alone (Get).
func (c Catalog) GetIn(name, frameID string) (Tool, bool) {
	if frameID == "" {
		return c.Get(name)
	}
	i := slices.IndexFunc(c, func(t Tool) bool { return t.Name == name && t.FrameID == frameID })
	if i < 0 {
		return Tool{}, false
	}
	return c[i], true
}

// framePrecedence orders tools of one name: the top document's first, then
// same-origin frames', then by the frame's URL, and only then by frame id.
func framePrecedence(a, b Tool) int {
	return cmp.Or(
		cmp.Compare(boolRank(a.Frame != ""), boolRank(b.Frame != "")),
		cmp.Compare(boolRank(a.CrossOrigin), boolRank(b.CrossOrigin)),
		strings.Compare(a.Frame, b.Frame),
		strings.Compare(a.FrameID, b.FrameID))
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// CatalogAt folds the first n events of a trace into the catalog of tools that
// were registered after them.
func CatalogAt(events []Event, n int) Catalog {
	byKey := map[string]Tool{}
	key := func(t Tool) string { return t.FrameID + "\x00" + t.Name }
	for _, e := range events[:min(n, len(events))] {
		switch e.Kind {
		case ToolsAdded:
			for _, t := range e.Tools {
				byKey[key(t)] = t
			}
		case ToolsRemoved:
			for _, t := range e.Tools {
				delete(byKey, key(t))
			}
		}
	}
	out := make(Catalog, 0, len(byKey))
	for _, t := range byKey {
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b Tool) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), framePrecedence(a, b))
	})
	return out
}

// PageTool is a tool as the page API getTools() describes it.
type PageTool struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
	Annotations map[string]bool `json:"annotations,omitempty"`
}

// Disagreement compares what the protocol reports with what the page API
// reports; it answers nil when they name the same tools with the same
// descriptions and schemas, and otherwise an error that shows both lists.
func Disagreement(protocol Catalog, page []PageTool) error {
	// getTools() in the top document lists the tools of its origin's
	// frames, and frames may offer tools of one name: each protocol tool is
	// compared with the page tool of its name and description, else the
	// first of its name.
	protocol = protocol.SameOrigin()
	var diffs []string
	pageByName := map[string][]PageTool{}
	for _, p := range page {
		pageByName[p.Name] = append(pageByName[p.Name], p)
	}
	for _, t := range protocol {
		same := pageByName[t.Name]
		i := max(0, slices.IndexFunc(same, func(p PageTool) bool { return p.Description == t.Description }))
		var p PageTool
		ok := len(same) > 0
		if ok {
			p = same[i]
			pageByName[t.Name] = slices.Delete(same, i, i+1)
		}
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("%s: in the protocol catalog, not in getTools()", t.Name))
		case p.Description != t.Description:
			diffs = append(diffs, fmt.Sprintf("%s: description differs", t.Name))
		// A schema one side never reported (the protocol drops some: too
		// deep to carry, or a form's it leaves out; CompleteSchemas then
		// takes getTools()') is compared on what both report, and the
		// catalog records where the schema came from.
		case len(t.InputSchema) > 0 && len(bytes.TrimSpace(p.InputSchema)) > 0 && !JSONEqual(NormalizeSchema(p.InputSchema), t.InputSchema):
			diffs = append(diffs, fmt.Sprintf("%s: inputSchema differs: protocol %s, page %s", t.Name, t.InputSchema, NormalizeSchema(p.InputSchema)))
		case p.Annotations != nil && !sameHints(p.Annotations, t.Annotations):
			diffs = append(diffs, fmt.Sprintf("%s: annotations differ: protocol %+v, page %v", t.Name, t.Annotations, p.Annotations))
		}
	}
	for name, left := range pageByName {
		for range left {
			diffs = append(diffs, fmt.Sprintf("%s: in getTools(), not in the protocol catalog", name))
		}
	}
	if len(diffs) == 0 {
		return nil
	}
	slices.Sort(diffs)
	pageNames := make([]string, 0, len(page))
	for _, p := range page {
		pageNames = append(pageNames, p.Name)
	}
	slices.Sort(pageNames)
	return fmt.Errorf("the protocol and the page API disagree on the catalog:\n  protocol: %v\n  getTools(): %v\n  %s",
		protocol.Names(), pageNames, strings.Join(diffs, "\n  "))
}

// ProtocolSchemaDepth is the nesting (objects and arrays) above which
// Chromium's protocol drops a tool's inputSchema from its events: CDP
// transfers values as CBOR with a stack limit. getTools() read as a JSON
// string has no such limit.
const ProtocolSchemaDepth = 100

// TooDeepForProtocol reports whether a schema nests deeper than
// ProtocolSchemaDepth. A schema that is not JSON is not too deep.
func TooDeepForProtocol(raw json.RawMessage) bool {
	dec := json.NewDecoder(bytes.NewReader(NormalizeSchema(raw)))
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			if depth++; depth > ProtocolSchemaDepth {
				return true
			}
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
}

// CompleteSchemas answers the protocol catalog with each schema the
// protocol left out taken from getTools() (the tool of that name, and of
// its description when several share the name), marked SchemaFrom: the
// protocol drops a schema too deep for it to carry (TooDeepForProtocol),
// and has been seen to leave out a declarative form's that getTools()
// reports (issue 49). protocol is not changed.
func CompleteSchemas(protocol Catalog, page []PageTool) Catalog {
	out := slices.Clone(protocol)
	for i, t := range out {
		if len(t.InputSchema) != 0 {
			continue
		}
		k := slices.IndexFunc(page, func(p PageTool) bool { return p.Name == t.Name && p.Description == t.Description })
		if k < 0 {
			k = slices.IndexFunc(page, func(p PageTool) bool { return p.Name == t.Name })
		}
		if k >= 0 && len(bytes.TrimSpace(page[k].InputSchema)) > 0 {
			out[i].InputSchema, out[i].SchemaFrom = NormalizeSchema(page[k].InputSchema), "getTools()"
		}
	}
	return out
}

// sameHints compares the page API's hints (readOnlyHint, …) with the
// protocol's (readOnly, …). Chromium 156 gives declarative tools no page
// annotations at all, so only a page that states them is compared. Every
// hint is read with its Hint suffix first and under its bare name second,
// because the page API has used both spellings.
func sameHints(page map[string]bool, a Annotations) bool {
	hint := func(name string) bool {
		if v, ok := page[name+"Hint"]; ok {
			return v
		}
		return page[name]
	}
	return hint("readOnly") == a.ReadOnly && hint("consequential") == a.Consequential &&
		hint("untrustedContent") == a.UntrustedContent && hint("debugging") == a.Debugging &&
		hint("autosubmit") == a.Autosubmit
}

// Kind names a trace event.
type Kind string

// The kinds of trace event.
const (
	ToolsAdded    Kind = "tools_added"
	ToolsRemoved  Kind = "tools_removed"
	ToolInvoked   Kind = "tool_invoked"
	ToolResponded Kind = "tool_responded"
	ToolActivated Kind = "tool_activated" // the page's toolactivated event
	ToolCanceled  Kind = "tool_canceled"  // the page's toolcancel event
	// AttackPlanted: the harness planted a scenario's attack text (Planted
	// says where; ToolName, whose result or description).
	AttackPlanted Kind = "attack_planted"
)

// Event is one entry of the trace, in the order the browser sent it.
//
// WebMCP protocol events carry no timestamp in Chromium 156, so Time is when
// the suite received the event; Seq is the order.
type Event struct {
	Seq          int             `json:"seq"`
	Time         time.Time       `json:"time"`
	Kind         Kind            `json:"kind"`
	Tools        []Tool          `json:"tools,omitempty"`
	ToolName     string          `json:"toolName,omitempty"`
	FrameID      string          `json:"frameId,omitempty"`
	InvocationID string          `json:"invocationId,omitempty"`
	Input        json.RawMessage `json:"input,omitempty"`
	Status       string          `json:"status,omitempty"`
	Output       json.RawMessage `json:"output,omitempty"`
	ErrorText    string          `json:"errorText,omitempty"`
	// Inferred says why the suite added this event itself: Chromium sends
	// no toolsRemoved when a document goes away, so the suite removes that
	// document's tools when its frame navigates or is detached.
	Inferred string `json:"inferred,omitempty"`
	// Planted is where an attack_planted event's text went.
	Planted vocab.AttackPlace `json:"planted,omitempty"`
}

// Result is one invocation's outcome, the same for both transports.
type Result struct {
	Tool         string          `json:"tool"`
	Transport    vocab.Transport `json:"transport"`
	InvocationID string          `json:"invocationId,omitempty"`
	Status       vocab.Status    `json:"status"`
	Output       json.RawMessage `json:"output,omitempty"`     // the tool's output, when it is JSON
	OutputText   string          `json:"outputText,omitempty"` // the tool's output, when it is not JSON
	ErrorText    string          `json:"errorText,omitempty"`
	Duration     time.Duration   `json:"durationNs"`
	// InputShape is how the page API's executeTool took the input of a
	// call it answered: "object" (Chromium 156) or "json-string" (the API's
	// first shape); empty for a call through the protocol.
	InputShape string `json:"inputShape,omitempty"`
}

// Value answers a completed call's result as one JSON value, the same
// whichever transport gave it. The page API answers text, recorded as
// OutputText unless it reads as JSON; the protocol answers JSON, where a
// text is a JSON string. So a text is a string either way, and text that
// reads as JSON is that JSON either way; no result is "".
func (r Result) Value() any {
	switch {
	case r.OutputText != "":
		return r.OutputText
	case len(r.Output) > 0:
		var v any
		if json.Unmarshal(r.Output, &v) != nil {
			return string(r.Output)
		}
		return v
	}
	return ""
}

// MCPTextJSON answers the JSON an MCP-shaped result ({content: [{type:
// text, text}]}, not isError) carries in its first text, when that text
// is JSON: what a tool that answers as an MCP server does means.
func MCPTextJSON(v any) (any, bool) {
	o, ok := v.(map[string]any)
	if !ok || o["isError"] == true {
		return nil, false
	}
	content, ok := o["content"].([]any)
	if !ok || len(content) == 0 {
		return nil, false
	}
	first, ok := content[0].(map[string]any)
	if !ok {
		return nil, false
	}
	text, ok := first["text"].(string)
	if !ok {
		return nil, false
	}
	var inner any
	if json.Unmarshal([]byte(text), &inner) != nil {
		return nil, false
	}
	return inner, true
}

// Code answers the "code" field of a JSON object output, or "".
func (r Result) Code() string {
	var o struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(r.Output, &o)
	return o.Code
}

// Exposure is what the top document's getTools({fromOrigins: [Origin]})
// listed of the tools that Origin's frames registered: the tools a page-side
// agent of the top document can reach. Measured on Chromium 156: a
// cross-origin frame's tool is listed only when the frame registered it
// with exposedTo naming the top origin (and the iframe allows "tools", or
// it could not register at all); getTools() without fromOrigins lists none.
// Error says why the listing could not be read.
type Exposure struct {
	Origin string   `json:"origin"`
	Tools  []string `json:"tools"`
	Error  string   `json:"error,omitempty"`
}

// OriginOf answers a URL's origin (scheme://host[:port]), or "".
func OriginOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}
