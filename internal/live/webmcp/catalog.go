package webmcp

import (
	"encoding/json"
	neturl "net/url"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/webmcp"

	"github.com/agentready/agentready/internal/data/record"
)

func toolFromProtocol(t *webmcp.Tool) record.Tool {
	out := record.Tool{Name: t.Name, Description: t.Description, InputSchema: record.NormalizeSchema(json.RawMessage(t.InputSchema)),
		Declarative: t.BackendNodeID != 0, FrameID: string(t.FrameID), RegisteredBy: registeringScript(t.StackTrace)}
	if a := t.Annotations; a != nil {
		out.Annotations = record.Annotations{ReadOnly: a.ReadOnly, Consequential: a.Consequential, UntrustedContent: a.UntrustedContent, Debugging: a.Debugging, Autosubmit: a.Autosubmit}
	}
	return out
}

// registeringScript answers the URL of the script that called registerTool():
// the innermost call frame that has one, without credentials, query or fragment; "" when
// the stack names none.
func registeringScript(st *runtime.StackTrace) string {
	if st == nil {
		return ""
	}
	for _, f := range st.CallFrames {
		if f == nil || f.URL == "" {
			continue
		}
		u, err := neturl.Parse(f.URL)
		if err != nil {
			return ""
		}
		u.User, u.RawQuery, u.Fragment, u.RawFragment, u.ForceQuery = nil, "", "", "", false
		return u.String()
	}
	return ""
}
