// Package evals reads GoogleChromeLabs webmcp-evals eval files and turns
// their cases into scenarios for smoke mode: each case's expected calls
// replayed against the real page (a fresh tab per case), their results
// judged as webmcp-evals' matcher judges them (package match, through a
// scenario output with match: constraints), so that an eval run leaves
// verdicts and bundles like any scenario run. Reading and translating is
// pure; package runner plays the scenarios.
//
// An eval file is a JSON array of cases:
//
//	[{"name": "…", "messages": [{"role": "user", "type": "message", "content": "…"}, …],
//	  "expectedCall": null | [node, …]}]
//
// where a node is a call {functionName, arguments, result, mockOutput,
// optional} or a group {ordered: [node, …]} / {unordered: [node, …]}.
package evals

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentready/agentready/internal/data/match"
	"github.com/agentready/agentready/internal/data/record"
)

// Case is one eval case.
type Case struct {
	Index    int // position in the file, from 0
	Name     string
	Messages []Message
	// Expected is the expectedCall tree; nil with NoCall when the case
	// expects no call at all (expectedCall: null).
	Expected []Node
	NoCall   bool
}

// Message is one message of the conversation a model is given.
type Message struct {
	Role      string         `json:"role"`
	Type      string         `json:"type,omitempty"` // message (the default), functioncall or functionresponse
	Content   string         `json:"content,omitempty"`
	Name      string         `json:"name,omitempty"`
	Arguments map[string]any `json:"arguments,omitempty"`
	Response  any            `json:"response,omitempty"`
}

// Node is a call or a group of nodes; exactly one field is set.
type Node struct {
	Call      *Call
	Ordered   []Node
	Unordered []Node
	group     string // "ordered" or "unordered" for a group
}

// Call is one expected function call.
type Call struct {
	FunctionName string
	// Arguments constrains the call's arguments; nil (omitted or null)
	// accepts any.
	Arguments map[string]any
	// Result constrains the call's result when HasResult.
	Result     any
	HasResult  bool
	MockOutput any
	Optional   bool
}

// Title is how a case is named: its name, or its first message, or its
// place in the file (as webmcp-evals names it).
func (c Case) Title() string {
	if n := strings.TrimSpace(c.Name); n != "" {
		return n
	}
	for _, m := range c.Messages {
		if m.Type == "message" && strings.TrimSpace(m.Content) != "" {
			return strings.TrimSpace(m.Content)
		}
	}
	return fmt.Sprintf("Test %d", c.Index+1)
}

// Load reads and checks an eval file.
func Load(path string) ([]Case, error) {
	data, err := record.ReadInput(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse reads and checks an eval file; name is used in errors. Everything
// is checked before anything runs: an unknown key, a node that is neither a
// call nor a group, an argument or result constraint webmcp-evals would
// silently pass (an unknown $ operator) are errors naming the case and the
// node.
func Parse(name string, data []byte) ([]Case, error) {
	var raw []json.RawMessage
	if err := record.DecodeOne(data, &raw); err != nil {
		return nil, fmt.Errorf("%s: not an eval file (a JSON array of cases): %w", name, err)
	}
	if len(raw) == 0 {
		return nil, fmt.Errorf("%s: no eval case", name)
	}
	var out []Case
	var errs []error
	for i, r := range raw {
		c, err := parseCase(i, r)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: case %d%s: %w", name, i, quoted(c.Name), err))
			continue
		}
		out = append(out, c)
	}
	return out, errors.Join(errs...)
}

func quoted(name string) string {
	if name == "" {
		return ""
	}
	return fmt.Sprintf(" (%q)", name)
}

func parseCase(i int, raw json.RawMessage) (Case, error) {
	c := Case{Index: i}
	fields, err := object(raw, "name", "messages", "expectedCall")
	if err != nil {
		return c, err
	}
	if v, ok := fields["name"]; ok {
		if err := json.Unmarshal(v, &c.Name); err != nil {
			return c, fmt.Errorf("name: %w", err)
		}
	}
	msgs, ok := fields["messages"]
	if !ok {
		return c, errors.New("messages: missing")
	}
	var rawMsgs []json.RawMessage
	if err := json.Unmarshal(msgs, &rawMsgs); err != nil {
		return c, fmt.Errorf("messages: %w", err)
	}
	for k, m := range rawMsgs {
		msg, err := parseMessage(m)
		if err != nil {
			return c, fmt.Errorf("messages[%d]: %w", k, err)
		}
		c.Messages = append(c.Messages, msg)
	}
	ec, ok := fields["expectedCall"]
	if !ok {
		return c, errors.New("expectedCall: missing (null expects no call)")
	}
	if bytes.Equal(bytes.TrimSpace(ec), []byte("null")) {
		c.NoCall = true
		return c, nil
	}
	var nodes []json.RawMessage
	if err := json.Unmarshal(ec, &nodes); err != nil {
		return c, fmt.Errorf("expectedCall: a list of nodes or null: %w", err)
	}
	c.Expected, err = parseNodes("expectedCall", nodes)
	return c, err
}

func parseMessage(raw json.RawMessage) (Message, error) {
	var m Message
	if _, err := object(raw, "role", "type", "content", "name", "arguments", "response"); err != nil {
		return m, err
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return m, err
	}
	if m.Type == "" {
		m.Type = "message"
	}
	switch {
	case m.Role != "user" && m.Role != "model":
		return m, fmt.Errorf("role %q is not user or model", m.Role)
	case m.Type != "message" && m.Type != "functioncall" && m.Type != "functionresponse":
		return m, fmt.Errorf("type %q is not message, functioncall or functionresponse", m.Type)
	case m.Type != "message" && m.Name == "":
		return m, fmt.Errorf("a %s names its function (name)", m.Type)
	}
	return m, nil
}

func parseNodes(at string, raws []json.RawMessage) ([]Node, error) {
	nodes := make([]Node, 0, len(raws))
	for i, r := range raws {
		n, err := parseNode(fmt.Sprintf("%s[%d]", at, i), r)
		if err != nil {
			return nil, err
		}
		nodes = append(nodes, n)
	}
	return nodes, nil
}

func parseNode(at string, raw json.RawMessage) (Node, error) {
	fields, err := object(raw, "functionName", "arguments", "result", "mockOutput", "optional", "ordered", "unordered")
	if err != nil {
		return Node{}, fmt.Errorf("%s: %w", at, err)
	}
	_, isCall := fields["functionName"]
	var groups []string
	for _, g := range []string{"ordered", "unordered"} {
		if _, ok := fields[g]; ok {
			groups = append(groups, g)
		}
	}
	switch {
	case isCall && len(groups) > 0 || len(groups) > 1:
		return Node{}, fmt.Errorf("%s: a node is one of a call (functionName), {ordered: […]} or {unordered: […]}, not several", at)
	case len(groups) == 1:
		if len(fields) != 1 {
			return Node{}, fmt.Errorf("%s: a group holds only %s", at, groups[0])
		}
		var kids []json.RawMessage
		if err := json.Unmarshal(fields[groups[0]], &kids); err != nil {
			return Node{}, fmt.Errorf("%s.%s: a list of nodes: %w", at, groups[0], err)
		}
		nodes, err := parseNodes(at+"."+groups[0], kids)
		if err != nil {
			return Node{}, err
		}
		if groups[0] == "ordered" {
			return Node{Ordered: nodes, group: "ordered"}, nil
		}
		return Node{Unordered: nodes, group: "unordered"}, nil
	case !isCall:
		return Node{}, fmt.Errorf("%s: a node is a call (functionName), {ordered: […]} or {unordered: […]}", at)
	}
	c := &Call{}
	if err := json.Unmarshal(fields["functionName"], &c.FunctionName); err != nil || strings.TrimSpace(c.FunctionName) == "" {
		return Node{}, fmt.Errorf("%s.functionName: a tool's name", at)
	}
	if a, ok := fields["arguments"]; ok && !bytes.Equal(bytes.TrimSpace(a), []byte("null")) {
		if err := json.Unmarshal(a, &c.Arguments); err != nil || c.Arguments == nil {
			return Node{}, fmt.Errorf("%s.arguments: an object (or null for any arguments)", at)
		}
		if err := match.Check(c.Arguments); err != nil {
			return Node{}, fmt.Errorf("%s.arguments: %w", at, err)
		}
	}
	if r, ok := fields["result"]; ok {
		c.HasResult = true
		if err := json.Unmarshal(r, &c.Result); err != nil {
			return Node{}, fmt.Errorf("%s.result: %w", at, err)
		}
		if err := match.Check(c.Result); err != nil {
			return Node{}, fmt.Errorf("%s.result: %w", at, err)
		}
	}
	if m, ok := fields["mockOutput"]; ok {
		_ = json.Unmarshal(m, &c.MockOutput)
	}
	if o, ok := fields["optional"]; ok {
		if err := json.Unmarshal(o, &c.Optional); err != nil {
			return Node{}, fmt.Errorf("%s.optional: true or false", at)
		}
	}
	return Node{Call: c}, nil
}

// object reads a JSON object whose keys must be among known.
func object(raw json.RawMessage, known ...string) (map[string]json.RawMessage, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return nil, fmt.Errorf("not an object")
	}
	var unknown []string
	for k := range fields {
		if !slices.Contains(known, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return nil, fmt.Errorf("unknown key %s (known: %s)", strings.Join(unknown, ", "), strings.Join(known, ", "))
	}
	return fields, nil
}
