package scenarios

import (
	"strings"
	"testing"

	"github.com/agentready/agentready/scenarios/vocab"
)

// The short form and the key's own mapping read to the same attack; each
// problem is named by its key, as in a file.
func TestAnAttackFromTheCommandLine(t *testing.T) {
	want := Attack{Pattern: vocab.AttackIgnorePrevious, In: vocab.PlantResult, Tool: "get_event_details", Call: "save_event"}
	for _, spec := range []string{
		"ignore-previous@tool_result:get_event_details,call=save_event",
		"{pattern: ignore-previous, in: tool_result, tool: get_event_details, call: save_event}",
	} {
		if a, err := ParseAttack(spec); err != nil || a != want {
			t.Errorf("%s: %+v %v", spec, a, err)
		}
	}
	if a, err := ParseAttack("exfiltrate,url=https://evil.example/x"); err != nil || a != (Attack{Pattern: vocab.AttackExfiltrate, In: vocab.PlantPageText, URL: "https://evil.example/x"}) {
		t.Errorf("exfiltrate in the page's text by default: %+v %v", a, err)
	}
	for spec, problem := range map[string]string{
		"fake-system@description,call=save_event": "attack.tool: description needs the tool whose description carries the text",
		"exfiltrate@page_text:get_event_details":  "attack.tool: page_text is planted in the page, not in a tool",
		"exfiltrate@pages":                        `attack.in: "pages" is not tool_result, page_text or description`,
		"exfiltrate,url=ftp://x":                  `attack.url: "ftp://x" is not an absolute http(s) URL`,
		"{pattern: exfiltrate":                    "not an attack mapping",
	} {
		if _, err := ParseAttack(spec); err == nil || !strings.Contains(err.Error(), problem) {
			t.Errorf("%s: %v, want %q", spec, err, problem)
		}
	}
}
