package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentready/agentready/internal/pagecheck/toollist"
)

// rules is the rule set, in the README table's order: what stops an agent
// from seeing or choosing a tool first, then what misleads it, then advice.
var rules = []Rule{
	{ID: "no-tools", Scope: ScopePage, Severity: Info, check: noTools,
		Doc: "The page offers no tools at all: registration failed, or it has none yet."},
	{ID: "declarative-description", Scope: ScopeTool, Severity: Error, check: declarativeDescription,
		Doc: "A form with toolname has no tooldescription (Chromium then makes it no tool), or a blank one."},
	{ID: "description-missing", Scope: ScopeTool, Severity: Error, check: descriptionMissing,
		Doc: "A registerTool() tool has an empty or blank description, or was refused for lacking one; agents choose tools by it."},
	{ID: "tool-name-valid", Scope: ScopeTool, Severity: Error, check: toolNameValid,
		Doc: "A tool name is not 1-128 ASCII letters, digits, '_', '-' or '.'; Chromium refuses or drops the tool."},
	{ID: "duplicate-tool-name", Scope: ScopePage, Severity: Error, check: duplicateToolName,
		Doc: "Two tools share a name: Chromium keeps one and drops the other, or the agent cannot tell them apart."},
	{ID: "exposed-to-secure-origins", Scope: ScopeTool, Severity: Error, check: exposedToSecureOrigins,
		Doc: "A registerTool() was refused for an exposedTo entry that is no secure origin (\"*\", http://, not a URL): the tool is not registered."},
	{ID: "schema-shape", Scope: ScopeTool, Severity: Error, check: schemaShape,
		Doc: "An input schema is not a valid JSON Schema object with type object and properties, or requires a name it lacks."},
	{ID: "webmcp-schema-validity", Scope: ScopeTool, Severity: Error, check: schemaValidity,
		Doc: "Chromium reports a WebMCP form's control without a name (its Audits issue FormModelContext…ParameterMissingName), left out of the tool's schema (a required one: no call can complete the form), or another form issue no other rule reads."},
	{ID: "declarative-autosubmit-sensitive", Scope: ScopeTool, Severity: Error, check: autosubmitSensitive,
		Doc: "A form with toolautosubmit pays or transfers money, or has a password, payment or consent field: an agent submits what the person must confirm."},
	{ID: "description-injection", Scope: ScopeTool, Severity: Error, check: descriptionInjection,
		Doc: "A description, title or parameter description reads as an instruction to the model (ignore previous, you must, always call, do not tell the user, a system prompt or role marker, send credentials away) or hides characters (zero-width, bidirectional, Unicode tags)."},
	{ID: "param-description-missing", Scope: ScopeTool, Severity: Warning, check: paramDescriptionMissing,
		Doc: "A registerTool() tool's input property has no description, so the agent guesses its value."},
	{ID: "declarative-field-description", Scope: ScopeTool, Severity: Warning, check: declarativeFieldDescription,
		Doc: "A form tool's field has neither a label nor toolparamdescription, so its parameter has no description."},
	{ID: "annotations-explicit", Scope: ScopeTool, Severity: Warning, check: annotationsExplicit,
		Doc: "A registerTool() tool declares no annotations: readOnlyHint and consequentialHint are defaults nobody chose."},
	{ID: "sensitive-params", Scope: ScopeTool, Severity: Warning, check: sensitiveParams,
		Doc: "A tool asks the agent for a password, token or payment secret; the person should enter it in the page."},
	{ID: "declarative-autosubmit-personal", Scope: ScopeTool, Severity: Warning, check: autosubmitPersonal,
		Doc: "A form with toolautosubmit sends a person's data (email, phone, address, birthday): an agent's call submits it unless the page only prepares."},
	{ID: "similar-descriptions", Scope: ScopePage, Severity: Warning, check: similarDescriptions,
		Doc: "Two tools' descriptions share most of their words, so an agent confuses them."},
	{ID: "description-length", Scope: ScopeTool, Severity: Warning, check: descriptionLength,
		Doc: fmt.Sprintf("A tool description is shorter than %d or longer than %d characters: too little to choose by, or too much to read for every choice.", MinDescription, MaxDescription)},
	{ID: "param-description-length", Scope: ScopeTool, Severity: Warning, check: paramDescriptionLength,
		Doc: fmt.Sprintf("A parameter description is longer than %d characters.", MaxParamDescription)},
	{ID: "schema-depth", Scope: ScopeTool, Severity: Warning, check: schemaDepth,
		Doc: fmt.Sprintf("An input schema nests objects more than %d deep; agents fill deep objects badly.", MaxSchemaDepth)},
	{ID: "schema-no-null-literals", Scope: ScopeTool, Severity: Warning, check: schemaNoNullLiterals,
		Doc: "An input schema holds null (a null type, or a null literal anywhere: const, default, enum, examples): agents send null for unknown, and model APIs refuse it."},
	{ID: "schema-unsupported-keywords", Scope: ScopeTool, Severity: Warning, check: schemaUnsupportedKeywords,
		Doc: "A registerTool() input schema uses $ref, allOf, anyOf, oneOf, not, if/then/else, patternProperties or dependentSchemas, which agents handle unevenly."},
	{ID: "naming-consistency", Scope: ScopePage, Severity: Warning, check: namingConsistency,
		Doc: "The page's tool names, or its parameter names, mix styles (snake_case, camelCase, kebab-case…): one style is easier for a model to reproduce."},
	{ID: "tool-shadowing", Scope: ScopePage, Severity: Warning, check: toolShadowing,
		Doc: "A tool's name nearly equals another's (case, separators, look-alike digits) or is one agents give their own tools (search, fetch, navigate)."},
	{ID: "third-party-registration", Scope: ScopeTool, Severity: Warning, check: thirdPartyRegistration,
		Doc: "A tool was registered by a script from another origin than its page's: part of the page's agent surface, in none of its files."},
	{ID: "untrusted-content-unmarked", Scope: ScopeTool, Severity: Warning, check: untrustedContentUnmarked,
		Doc: "A tool that reads what people or third parties wrote (comments, reviews, messages) lacks annotations.untrustedContentHint."},
	{ID: "capability-trifecta", Scope: ScopePage, Severity: Warning, check: capabilityTrifecta,
		Doc: "One page offers a read of private data, content others wrote and a write that can send data away: the lethal trifecta."},
	{ID: "too-many-tools", Scope: ScopePage, Severity: Warning, check: tooManyTools,
		Doc: fmt.Sprintf("The page offers more than %d tools, more than an agent chooses among well.", MaxTools)},
	{ID: "tool-churn", Scope: ScopeTool, Severity: Warning, check: toolChurn,
		Doc: fmt.Sprintf("The top document unregistered a tool %d times or more while it was read: each time the agent's list changes under it.", ChurnCount)},
	{ID: "tool-name-style", Scope: ScopeTool, Severity: Warning, Off: true, check: toolNameStyle,
		Doc: "Off by default: a tool name is not snake_case, or does not start with a verb (verb_object)."},
	{ID: "webmcp-form-coverage", Scope: ScopePage, Severity: Info, check: formCoverage,
		Doc: "A form has neither toolname nor tooldescription, so an agent fills it field by field."},
	{ID: "tools-after-load", Scope: ScopeTool, Severity: Info, check: toolsAfterLoad,
		Doc: "The top document registered a tool only after its load event: an agent that reads the page once it has loaded misses it."},
	{ID: "tool-title-missing", Scope: ScopeTool, Severity: Info, Off: true, check: toolTitleMissing,
		Doc: "Off by default: a registerTool() tool has no title, so a client shows the person its bare name."},
	{ID: "description-when-to-use", Scope: ScopeTool, Severity: Info, Off: true, check: descriptionWhenToUse,
		Doc: "Off by default: a description says what the tool does but not when to use it (when, before, instead of…)."},
}

func noTools(p *page) []Finding {
	if len(p.tools) > 0 {
		return nil
	}
	return []Finding{{Message: "the page registered no tools (an agent sees none); if it should have, look at the other findings and the console"}}
}

func declarativeDescription(p *page) []Finding {
	var out []Finding
	for _, f := range p.forms {
		if f.ToolName == nil {
			continue
		}
		var why string
		switch {
		case f.ToolDescription == nil:
			why = "has no tooldescription"
		case blank(*f.ToolDescription):
			why = "has a blank tooldescription"
		default:
			continue
		}
		then := "Chromium makes it no tool"
		if f.tool != nil {
			then = "agents choose tools by their description"
		}
		out = append(out, Finding{Tool: *f.ToolName, Frame: f.FrameURL, Message: fmt.Sprintf("%s %s: %s", f.Locator(), why, then)})
	}
	return fromBrowser(p, "declarative-description", out)
}

func descriptionMissing(p *page) []Finding {
	var out []Finding
	for _, t := range p.tools {
		if t.Declarative || !blank(t.Description) {
			continue
		}
		what := "empty"
		if t.Description != "" {
			what = "blank"
		}
		out = append(out, Finding{Tool: t.Name, Frame: t.FrameURL,
			Message: fmt.Sprintf("its description is %s: agents choose tools by their description (Chromium registers a blank one)", what)})
	}
	return append(out, p.refusals("description-missing", "a tool without a description is not registered")...)
}

func toolNameValid(p *page) []Finding {
	var out []Finding
	for _, t := range p.tools {
		if !validName.MatchString(t.Name) {
			out = append(out, Finding{Tool: t.Name, Frame: t.FrameURL, Message: fmt.Sprintf("the name %q is not 1-128 letters, digits, '_', '-' or '.'", t.Name)})
		}
	}
	for _, f := range p.forms {
		switch {
		case f.ToolName == nil && f.ToolDescription != nil:
			out = append(out, Finding{Frame: f.FrameURL, Message: fmt.Sprintf("%s has a tooldescription but no toolname: it is no tool", f.Locator())})
		case f.ToolName != nil && !validName.MatchString(*f.ToolName):
			then := "Chromium drops the form without a word"
			if f.tool != nil {
				then = "agents may refuse it"
			}
			out = append(out, Finding{Tool: *f.ToolName, Frame: f.FrameURL,
				Message: fmt.Sprintf("%s: the name %q is not 1-128 letters, digits, '_', '-' or '.': %s", f.Locator(), *f.ToolName, then)})
		}
	}
	return fromBrowser(p, "tool-name-valid", append(out, p.refusals("tool-name-valid", "the tool is not registered; Chromium takes 1-128 letters, digits, '_', '-' or '.'")...))
}

func duplicateToolName(p *page) []Finding {
	var out []Finding
	seen := map[string][]string{} // name → frames of its catalog entries
	for _, t := range p.tools {
		seen[t.Name] = append(seen[t.Name], frameLabel(t.FrameURL, p.url))
	}
	for _, name := range sortedKeys(seen) {
		if frames := seen[name]; len(frames) > 1 {
			out = append(out, Finding{Tool: name, Message: fmt.Sprintf("%d tools are named %q (frames: %s): the agent cannot tell which it calls", len(frames), name, strings.Join(frames, ", "))})
		}
	}
	// Forms that lost their name to another form or to registerTool():
	// valid names with a description that did not become the tool.
	type key struct{ frame, name string }
	byName := map[key][]form{}
	var order []key
	for _, f := range p.forms {
		if f.ToolName == nil || !validName.MatchString(*f.ToolName) || f.ToolDescription == nil || blank(*f.ToolDescription) {
			continue
		}
		k := key{f.FrameURL, *f.ToolName}
		if _, ok := byName[k]; !ok {
			order = append(order, k)
		}
		byName[k] = append(byName[k], f)
	}
	for _, k := range order {
		forms := byName[k]
		var lost []string
		for _, f := range forms {
			if f.tool == nil {
				lost = append(lost, fmt.Sprintf("form #%d", f.Index+1))
			}
		}
		if len(lost) == 0 {
			continue
		}
		imperative := slices.ContainsFunc(p.tools, func(t toollist.Tool) bool {
			return t.Name == k.name && !t.Declarative && sameDocument(t.FrameURL, k.frame, p.url)
		})
		var msg string
		switch {
		case len(forms) > 1:
			msg = fmt.Sprintf("%d forms are named %q; Chromium made %s no tool", len(forms), k.name, strings.Join(lost, " and "))
		case imperative:
			msg = fmt.Sprintf("a form and a registerTool() are both named %q; the registered tool won and the form is no tool", k.name)
		default:
			continue // not in the catalog for a reason this rule does not know
		}
		out = append(out, Finding{Tool: k.name, Frame: k.frame, Message: msg})
	}
	return append(out, p.refusals("duplicate-tool-name", "a second tool of a name already registered is not registered")...)
}

func exposedToSecureOrigins(p *page) []Finding {
	return p.refusals("exposed-to-secure-origins", "exposedTo takes secure origins only (https://host, or http://localhost); the tool is not registered")
}

func schemaShape(p *page) []Finding {
	var out []Finding
	for _, t := range p.tools {
		if len(t.InputSchema) == 0 {
			continue // a tool that takes no input
		}
		if problems := schemaProblems(t.InputSchema); len(problems) > 0 {
			out = append(out, Finding{Tool: t.Name, Frame: t.FrameURL, Message: "its input schema is wrong: " + strings.Join(problems, "; ")})
		}
	}
	return out
}

func autosubmitSensitive(p *page) []Finding {
	var out []Finding
	for _, f := range p.forms {
		if f.ToolName == nil || !f.AutoSubmit {
			continue
		}
		var fields []string
		if movesMoney(f) {
			fields = append(fields, "money (it pays or transfers)")
		}
		for _, fd := range f.Fields {
			if kind := secretField(fd); kind != "" {
				fields = append(fields, fmt.Sprintf("%q (%s)", fd.Name, kind))
			} else if consentField(fd) {
				fields = append(fields, fmt.Sprintf("%q (consent)", fd.Name))
			}
		}
		if len(fields) > 0 {
			out = append(out, Finding{Tool: *f.ToolName, Frame: f.FrameURL,
				Message: fmt.Sprintf("%s has toolautosubmit and moves or asks for %s: the person must confirm that; drop toolautosubmit", f.Locator(), strings.Join(fields, ", "))})
		}
	}
	return out
}

func paramDescriptionMissing(p *page) []Finding {
	var out []Finding
	for _, t := range p.tools {
		if t.Declarative {
			continue // declarative-field-description: a form's fields
		}
		_, undescribed := propertyNames(t.InputSchema)
		if len(undescribed) == 0 {
			continue
		}
		out = append(out, Finding{Tool: t.Name, Frame: t.FrameURL,
			Message: fmt.Sprintf("parameter(s) %s have no description: add a description", quoteList(undescribed))})
	}
	return out
}

func annotationsExplicit(p *page) []Finding {
	var out []Finding
	for _, t := range p.tools {
		if t.Declarative || t.AnnotationsDeclared == nil || *t.AnnotationsDeclared {
			continue
		}
		out = append(out, Finding{Tool: t.Name, Frame: t.FrameURL,
			Message: "it declares no annotations: say readOnlyHint and consequentialHint, true or false, so an agent knows whether calling it changes anything"})
	}
	return out
}

func sensitiveParams(p *page) []Finding {
	var out []Finding
	forms := map[string]form{}
	for _, f := range p.forms {
		if f.tool != nil {
			forms[f.tool.FrameID+"\x00"+f.tool.Name] = f
		}
	}
	for _, t := range p.tools {
		names, _ := propertyNames(t.InputSchema)
		kinds := map[string]string{}
		for _, n := range names {
			if k := secretName(n); k != "" {
				kinds[n] = k
			}
		}
		if f, ok := forms[t.FrameID+"\x00"+t.Name]; ok {
			for _, fd := range f.Fields {
				if k := secretField(fd); k != "" && slices.Contains(names, fd.Name) {
					kinds[fd.Name] = k
				}
			}
		}
		if len(kinds) == 0 {
			continue
		}
		var list []string
		for _, n := range sortedKeys(kinds) {
			list = append(list, fmt.Sprintf("%q (%s)", n, kinds[n]))
		}
		out = append(out, Finding{Tool: t.Name, Frame: t.FrameURL,
			Message: fmt.Sprintf("it asks the agent for %s: let the person enter it in the page", strings.Join(list, ", "))})
	}
	return out
}

// similarDescriptions names, for each tool whose description reads like
// another's, its nearest neighbour: one finding per tool, never one per pair,
// so that a page of n alike tools says n things, not n²/2.
func similarDescriptions(p *page) []Finding {
	// Each description as word numbers, and for each word the tools that use
	// it: the words two tools share are counted through the words, so tools
	// with no word in common cost nothing.
	ids := map[string]int{}
	sets := make([][]int, len(p.tools))
	var uses [][]int // word → tools
	for i, t := range p.tools {
		if blank(t.Description) {
			continue
		}
		for w := range wordSet(t.Description) {
			id, ok := ids[w]
			if !ok {
				id = len(uses)
				ids[w] = id
				uses = append(uses, nil)
			}
			sets[i] = append(sets[i], id)
			uses[id] = append(uses[id], i)
		}
	}
	common := make([]int, len(p.tools))
	var out []Finding
	for i, a := range p.tools {
		if len(sets[i]) == 0 {
			continue
		}
		var met []int
		for _, w := range sets[i] {
			for _, j := range uses[w] {
				if common[j] == 0 {
					met = append(met, j)
				}
				common[j]++
			}
		}
		best, score, alike := -1, 0.0, 0
		for _, j := range met {
			n := common[j]
			common[j] = 0
			b := p.tools[j]
			if j == i || a.Name == b.Name {
				continue
			}
			s := 2 * float64(n) / float64(len(sets[i])+len(sets[j]))
			if s < SimilarDescriptions {
				continue
			}
			alike++
			if s > score || (s == score && b.Name < p.tools[best].Name) {
				best, score = j, s
			}
		}
		if best < 0 {
			continue
		}
		others := ""
		if alike > 1 {
			others = fmt.Sprintf("; %d more tool(s) read alike", alike-1)
		}
		out = append(out, Finding{Tool: a.Name, Frame: a.FrameURL,
			Message: fmt.Sprintf("its description reads like %q's (%.2f of their words shared%s): say what differs", p.tools[best].Name, score, others)})
	}
	return out
}

func tooManyTools(p *page) []Finding {
	if len(p.tools) <= MaxTools {
		return nil
	}
	return []Finding{{Message: fmt.Sprintf("the page offers %d tools, more than %d: offer the tools of the current view only", len(p.tools), MaxTools)}}
}

func formCoverage(p *page) []Finding {
	var out []Finding
	for _, f := range p.forms {
		if f.ToolName == nil && f.ToolDescription == nil {
			out = append(out, Finding{Frame: f.FrameURL,
				Message: fmt.Sprintf("%s is no tool (no toolname, no tooldescription): an agent must fill it field by field", f.Locator())})
		}
	}
	return out
}

func frameLabel(frame, pageURL string) string {
	if frame == "" || sameDocument(frame, pageURL, pageURL) {
		return "top"
	}
	return frame
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
