package webmcp

import (
	"encoding/json"

	"github.com/chromedp/cdproto/webmcp"

	"github.com/agentready/agentready/record"
)

func toolFromProtocol(t *webmcp.Tool) record.Tool {
	out := record.Tool{Name: t.Name, Description: t.Description, InputSchema: record.NormalizeSchema(json.RawMessage(t.InputSchema)),
		Declarative: t.BackendNodeID != 0, FrameID: string(t.FrameID)}
	if a := t.Annotations; a != nil {
		out.Annotations = record.Annotations{ReadOnly: a.ReadOnly, Consequential: a.Consequential, UntrustedContent: a.UntrustedContent, Debugging: a.Debugging, Autosubmit: a.Autosubmit}
	}
	return out
}
