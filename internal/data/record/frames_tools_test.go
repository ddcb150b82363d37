package record

import (
	"strings"
	"testing"
)

// The top document's getTools() lists its origin's tools, two frames of
// which may offer a tool of one name; a cross-site frame's tools it never
// lists, so they are left out of the comparison.
func TestDisagreementOverFrames(t *testing.T) {
	protocol := Catalog{
		{Name: "pay", Description: "pay at the top"},
		{Name: "pay", Description: "pay in the widget", FrameID: "F2", Frame: "http://127.0.0.1/widget"},
		{Name: "pay", Description: "pay elsewhere", FrameID: "F3", Frame: "http://localhost/pay", CrossOrigin: true},
	}
	page := []PageTool{{Name: "pay", Description: "pay in the widget"}, {Name: "pay", Description: "pay at the top"}}
	if err := Disagreement(protocol, page); err != nil {
		t.Errorf("agreeing catalogs: %v", err)
	}
	// Known-bad: getTools() lacks one of the two same-origin tools of that
	// name, or lists the cross-site one as well.
	if err := Disagreement(protocol, page[:1]); err == nil || !strings.Contains(err.Error(), "pay: in the protocol catalog, not in getTools()") {
		t.Errorf("a same-origin tool missing from getTools(): %v", err)
	}
	more := append(page, PageTool{Name: "pay", Description: "pay elsewhere"})
	if err := Disagreement(protocol, more); err == nil || !strings.Contains(err.Error(), "pay: in getTools(), not in the protocol catalog") {
		t.Errorf("getTools() listing a tool the protocol reports for another origin: %v", err)
	}
	if got := len(protocol.SameOrigin()); got != 2 {
		t.Errorf("SameOrigin kept %d tools", got)
	}
}
