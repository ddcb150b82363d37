package webmcp

import (
	"encoding/json"
	"fmt"

	"github.com/agentready/agentready/internal/data/record"
)

// Chromium 156 identifies a tool by name; cdproto for Chromium 159 adds a
// toolId to Tool and to WebMCP.invokeTool. The generated Tool type of the
// cdproto in go.mod drops a toolId it does not know, so the tab also reads
// the raw toolsAdded messages (RecordRawToolsAdded) to learn whether the
// browser sends ids, and which.

// DecodeToolsAdded reads a raw WebMCP.toolsAdded payload, keeping toolId when
// the browser sent one.
func DecodeToolsAdded(raw []byte) ([]record.Tool, error) {
	var p struct {
		Tools []struct {
			Name        string              `json:"name"`
			ToolID      json.RawMessage     `json:"toolId"`
			Description string              `json:"description"`
			InputSchema json.RawMessage     `json:"inputSchema"`
			FrameID     string              `json:"frameId"`
			BackendNode int64               `json:"backendNodeId"`
			Annotations *record.Annotations `json:"annotations"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("WebMCP.toolsAdded: %w", err)
	}
	out := make([]record.Tool, 0, len(p.Tools))
	for _, t := range p.Tools {
		tool := record.Tool{Name: t.Name, ToolID: idString(t.ToolID), Description: t.Description, InputSchema: record.NormalizeSchema(t.InputSchema),
			FrameID: t.FrameID, Declarative: t.BackendNode != 0}
		if t.Annotations != nil {
			tool.Annotations = *t.Annotations
		}
		out = append(out, tool)
	}
	return out, nil
}

// RecordRawToolsAdded notes the tool ids of one raw toolsAdded payload.
func (r *Recorder) RecordRawToolsAdded(raw []byte) error {
	tools, err := DecodeToolsAdded(raw)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.toolIDs == nil {
		r.toolIDs = map[string]string{}
	}
	for _, t := range tools {
		if t.ToolID != "" {
			r.toolIDs[t.FrameID+"\x00"+t.Name] = t.ToolID
		}
	}
	return nil
}

func (r *Recorder) withToolIDs(c record.Catalog) record.Catalog {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, t := range c {
		if id, ok := r.toolIDs[t.FrameID+"\x00"+t.Name]; ok {
			c[i].ToolID = id
		}
	}
	return c
}

// idString reads a toolId whether the browser sends it as a string or a number.
func idString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}
