package lint

import (
	"fmt"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
)

// Chromium's own word on a page's WebMCP forms (record.BrowserIssue, read
// from its Audits domain) is judged by the rule of its concept, so that one
// concept is one rule whichever source saw it: the DOM's reading and
// Chromium's agree on most, and where Chromium saw what the DOM's reading
// did not, its issue becomes that rule's finding. A type this lint does not
// know (a later Chromium's) is webmcp-schema-validity's, as Lighthouse's
// audit of that name reads every one of them: never dropped.
// docs/decisions/2026-12-07-chromiums-issues-are-findings.md says why.
var issueRules = map[string]string{
	"FormModelContextRequiredParameterMissingName":        "webmcp-schema-validity",
	"FormModelContextParameterMissingName":                "webmcp-schema-validity",
	"FormModelContextMissingToolDescription":              "declarative-description",
	"FormModelContextMissingToolName":                     "tool-name-valid",
	"FormModelContextParameterMissingTitleAndDescription": "declarative-field-description",
}

// browserIssueRule is the rule of the issue types issueRules does not name.
const browserIssueRule = "webmcp-schema-validity"

// ruleOfIssue answers the rule that judges an issue of Chromium's type.
func ruleOfIssue(typ string) string {
	if r, ok := issueRules[typ]; ok {
		return r
	}
	return browserIssueRule
}

// fromBrowser adds to a rule's findings (seen, from the DOM) one per
// Chromium issue of its concept about a form none of them is about.
func fromBrowser(p *page, rule string, seen []Finding) []Finding {
	for _, is := range p.issues {
		if ruleOfIssue(is.Type) != rule || covered(seen, is) {
			continue
		}
		seen = append(seen, Finding{Tool: is.ToolName, Frame: is.FrameURL, Message: issueMessage(is)})
	}
	return seen
}

// covered tells whether a finding from the DOM is about the issue's tool
// already (the same form, in the same document).
func covered(seen []Finding, is record.BrowserIssue) bool {
	for _, f := range seen {
		if f.Tool != "" && f.Tool == is.ToolName && sameDocument(f.Frame, is.FrameURL, is.FrameURL) {
			return true
		}
	}
	return false
}

// issueWords say what each issue type means for the agent.
var issueWords = map[string]string{
	"FormModelContextRequiredParameterMissingName":        "is required and has no name: Chromium leaves it out of the tool's schema, so no call can fill it and the form cannot be completed by the tool; give it a name",
	"FormModelContextParameterMissingName":                "has no name: Chromium leaves it out of the tool's schema, so no call can fill it; give it a name",
	"FormModelContextMissingToolDescription":              "has no tooldescription: Chromium makes it no tool",
	"FormModelContextMissingToolName":                     "has no usable toolname: Chromium makes it no tool",
	"FormModelContextParameterMissingTitleAndDescription": "has neither a label nor toolparamdescription: its parameter reaches the agent without a word",
}

func issueMessage(is record.BrowserIssue) string {
	where := strings.TrimSpace(is.Form + " " + is.Element)
	if where == "" {
		where = "an element Chromium could not name (" + is.Unlocated + ")"
	}
	words, known := issueWords[is.Type]
	if !known {
		words = "is what Chromium reports an issue about, one this lint knows no words for"
	}
	return fmt.Sprintf("%s %s (Chromium's issue %s)", where, words, is.Type)
}

func schemaValidity(p *page) []Finding { return fromBrowser(p, "webmcp-schema-validity", nil) }
