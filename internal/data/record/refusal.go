package record

import (
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/agentready/agentready/scenarios/vocab"
)

var refusalCode = regexp.MustCompile(`(?i)invalid|validation|bad_?request|malformed|unknown_(param|field)|missing`)
var refusalText = regexp.MustCompile(`(?i)\b(invalid|must be|is required|required:|unknown (parameter|field)|not a valid|expected a|only accepts)\b`)

// Refused tells whether a tool's answer refuses its input: an error, an
// object whose code says the input was wrong (or that lists field errors),
// or a text that says so. An answer such as CONFIRMATION_REQUIRED is not a
// refusal of the input.
func Refused(res Result) (bool, string) {
	if res.Status == vocab.Failed || res.Status == vocab.Canceled {
		return true, "the call ended " + string(res.Status) + ": " + res.ErrorText
	}
	var obj map[string]any
	if json.Unmarshal(res.Output, &obj) == nil && obj != nil {
		if code, _ := obj["code"].(string); refusalCode.MatchString(code) {
			return true, "code " + code
		}
		for _, k := range []string{"errors", "fieldErrors", "error"} {
			if _, ok := obj[k]; ok {
				return true, "the answer has " + k
			}
		}
		return false, ""
	}
	text := res.OutputText
	var s string
	if text == "" && json.Unmarshal(res.Output, &s) == nil {
		text = s
	}
	if refusalText.MatchString(text) {
		return true, fmt.Sprintf("it said %q", text)
	}
	return false, ""
}
