package lint

import (
	"cmp"
	"encoding/json"
	"fmt"
	neturl "net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/agentready/agentready/internal/pagecheck/toollist"
)

// The rest of the ecosystem's rule set (issue 30 item 1): whose script
// registered a tool, forms that submit a person's money or data for them,
// form fields without words, names, titles, "when to use", and schema
// keywords agents handle unevenly. IDs are swissspidy/playwright-webmcp's
// where it has one; docs/decisions/2026-12-04-lint-rest.md says why each
// threshold is what it is.

// origin answers a URL's origin (scheme://host[:port]), reading a blob:
// URL's inner one; "" for a URL that has none (about:, data:, unparsable).
func origin(raw string) string {
	u, err := neturl.Parse(raw)
	if err != nil {
		return ""
	}
	if u.Scheme == "blob" {
		return origin(u.Opaque)
	}
	if u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	return u.Scheme + "://" + strings.ToLower(u.Host)
}

func thirdPartyRegistration(p *page) []Finding {
	var out []Finding
	for _, t := range p.tools {
		script, home := origin(t.RegisteredBy), origin(cmp.Or(t.FrameURL, p.url))
		if t.Declarative || script == "" || home == "" || script == home {
			continue
		}
		out = append(out, Finding{Tool: t.Name, Frame: t.FrameURL,
			Message: fmt.Sprintf("it was registered by a script from %s (%s), not from the page's origin %s: a tool in no file of this site, which the site cannot review and its vendor can change", script, t.RegisteredBy, home)})
	}
	return out
}

// Words that say a form moves money, and what of a field says it holds a
// person's data: HTML's autocomplete tokens for a person, the input types
// email and tel, and the words of a field's name.
var (
	moneyWords        = wordsOf("pay payment transfer donate donation withdraw withdrawal purchase checkout buy wire remit refund tip")
	amountWords       = wordsOf("amount")
	personalTokens    = wordsOf("name given-name family-name additional-name honorific-prefix honorific-suffix nickname email tel tel-national tel-local street-address address-line1 address-line2 address-line3 address-level1 address-level2 postal-code country country-name bday bday-day bday-month bday-year sex")
	personalNameWords = wordsOf("email phone telephone mobile address street postcode zip birthday birthdate dob passport")
)

// movesMoney tells whether a form pays or transfers money: its toolname or
// tooldescription has a word of paying, or a field is an amount.
func movesMoney(f form) bool {
	var ws []string
	if f.ToolName != nil {
		ws = append(ws, words(*f.ToolName)...)
	}
	if f.ToolDescription != nil {
		ws = append(ws, words(*f.ToolDescription)...)
	}
	if anyWord(ws, moneyWords) {
		return true
	}
	return slices.ContainsFunc(f.Fields, func(fd toollist.Field) bool { return anyWord(words(fd.Name), amountWords) })
}

// personalField tells whether a form field asks for a person's data.
func personalField(fd toollist.Field) bool {
	if fd.Type == "email" || fd.Type == "tel" {
		return true
	}
	for _, tok := range strings.Fields(strings.ToLower(fd.Autocomplete)) {
		if personalTokens[tok] || strings.HasPrefix(tok, "tel-") {
			return true
		}
	}
	return anyWord(words(fd.Name), personalNameWords)
}

func autosubmitPersonal(p *page) []Finding {
	var out []Finding
	for _, f := range p.forms {
		if f.ToolName == nil || !f.AutoSubmit {
			continue
		}
		var fields []string
		for _, fd := range f.Fields {
			if personalField(fd) && secretField(fd) == "" {
				fields = append(fields, fmt.Sprintf("%q", fd.Name))
			}
		}
		if len(fields) > 0 {
			out = append(out, Finding{Tool: *f.ToolName, Frame: f.FrameURL,
				Message: fmt.Sprintf("%s has toolautosubmit and sends a person's data (%s): an agent's call submits it; make the agent's submit only prepare, and let the person send it (lint cannot see what the submit handler does)", f.Locator(), strings.Join(fields, ", "))})
		}
	}
	return out
}

func declarativeFieldDescription(p *page) []Finding {
	var out []Finding
	for _, f := range p.forms {
		if f.tool == nil {
			continue
		}
		_, undescribed := propertyNames(f.tool.InputSchema)
		if len(undescribed) == 0 {
			continue
		}
		var ignored []string
		for _, fd := range f.Fields {
			if slices.Contains(undescribed, fd.Name) && fd.Text != "" {
				ignored = append(ignored, fd.Name)
			}
		}
		msg := fmt.Sprintf("%s: field(s) %s have no description in the tool's schema: give each a <label> or toolparamdescription", f.Locator(), quoteList(undescribed))
		if len(ignored) > 0 {
			msg += fmt.Sprintf(" (%s: Chromium does not read aria-label, placeholder or title)", quoteList(ignored))
		}
		out = append(out, Finding{Tool: *f.ToolName, Frame: f.FrameURL, Message: msg})
	}
	return fromBrowser(p, "declarative-field-description", out)
}

// NamingStyle is how a name joins its words.
type NamingStyle string

// The naming styles; a one-word lower-case name ("search") is every style.
const (
	Single     NamingStyle = "single"
	SnakeCase  NamingStyle = "snake_case"
	CamelCase  NamingStyle = "camelCase"
	KebabCase  NamingStyle = "kebab-case"
	DotCase    NamingStyle = "dot.separated"
	PascalCase NamingStyle = "PascalCase"
	Mixed      NamingStyle = "mixed"
)

var styles = []struct {
	style NamingStyle
	re    *regexp.Regexp
}{
	{Single, regexp.MustCompile(`^[a-z][a-z0-9]*$`)},
	{SnakeCase, regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)+$`)},
	{CamelCase, regexp.MustCompile(`^[a-z][a-z0-9]*([A-Z][a-z0-9]*)+$`)},
	{KebabCase, regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)+$`)},
	{DotCase, regexp.MustCompile(`^[a-z][a-z0-9]*(\.[a-z0-9]+)+$`)},
	{PascalCase, regexp.MustCompile(`^[A-Z][a-z0-9]*([A-Z][a-z0-9]*)*$`)},
}

// Style answers a name's naming style.
func Style(name string) NamingStyle {
	for _, s := range styles {
		if s.re.MatchString(name) {
			return s.style
		}
	}
	return Mixed
}

// dominantStyle answers the most common style among names (one-word names
// left out), ties to the earlier style of the list above; "" when none.
func dominantStyle(names []string) NamingStyle {
	count := map[NamingStyle]int{}
	for _, n := range names {
		if s := Style(n); s != Single {
			count[s]++
		}
	}
	best := NamingStyle("")
	for _, s := range []NamingStyle{SnakeCase, CamelCase, KebabCase, DotCase, PascalCase, Mixed} {
		if count[s] > count[best] {
			best = s
		}
	}
	return best
}

func namingConsistency(p *page) []Finding {
	var toolNames, paramNames []string
	params := make([][]string, len(p.tools))
	for i, t := range p.tools {
		toolNames = append(toolNames, t.Name)
		params[i], _ = propertyNames(t.InputSchema)
		paramNames = append(paramNames, params[i]...)
	}
	toolLead, paramLead := dominantStyle(toolNames), dominantStyle(paramNames)
	var out []Finding
	for i, t := range p.tools {
		var says []string
		if s := Style(t.Name); s != Single && s != toolLead {
			says = append(says, fmt.Sprintf("its name is %s while most tools' are %s", s, toolLead))
		}
		var odd []string
		for _, n := range params[i] {
			if s := Style(n); s != Single && s != paramLead {
				odd = append(odd, fmt.Sprintf("%q (%s)", n, s))
			}
		}
		if len(odd) > 0 {
			says = append(says, fmt.Sprintf("its parameter(s) %s are not %s as most of the page's parameters are", strings.Join(odd, ", "), paramLead))
		}
		if len(says) > 0 {
			out = append(out, Finding{Tool: t.Name, Frame: t.FrameURL,
				Message: strings.Join(says, "; ") + ": one style makes names easier for a model to reproduce"})
		}
	}
	return out
}

// toolVerbs are the verbs tool names start with: a name that starts with a
// noun (order_history, cart) says what it is about, not what it does.
var toolVerbs = wordsOf(`get list search find show fetch view browse load lookup look query read check count compare
	add create make new insert post put set update edit change rename move copy save store write upload import export
	delete remove clear cancel close open start stop pause resume reset restart refresh reload sync
	send share publish submit reply forward invite notify email message call schedule book reserve order buy pay
	checkout purchase transfer donate subscribe unsubscribe follow unfollow like join leave register sign login logout
	apply approve reject accept decline confirm prepare plan estimate calculate quote convert translate summarize
	select choose pick filter sort toggle enable disable mark flag archive restore download print play navigate go
	track rate review claim redeem return renew extend collect hold release assign validate verify generate draft fill
	ask tell explain describe answer locate wrap tip stamp greet`)

func toolNameStyle(p *page) []Finding {
	var out []Finding
	for _, t := range p.tools {
		var says []string
		if s := Style(t.Name); s != Single && s != SnakeCase {
			says = append(says, fmt.Sprintf("the name is %s, not snake_case", s))
		}
		if ws := words(t.Name); len(ws) > 0 && !toolVerbs[ws[0]] {
			says = append(says, fmt.Sprintf("it starts with %q, not a verb: name what the tool does (verb_object)", ws[0]))
		}
		if len(says) > 0 {
			out = append(out, Finding{Tool: t.Name, Frame: t.FrameURL, Message: strings.Join(says, "; ")})
		}
	}
	return out
}

func toolTitleMissing(p *page) []Finding {
	var out []Finding
	for _, t := range p.tools {
		if !t.Declarative && blank(t.Title) {
			out = append(out, Finding{Tool: t.Name, Frame: t.FrameURL,
				Message: "it has no title: a client shows the person the bare name when it lists or confirms the tool"})
		}
	}
	return out
}

// whenToUse is wording that tells a model when to choose a tool, not only
// what it does.
var whenToUse = regexp.MustCompile(`(?i)\b(when|whenever|use (this|it)|call (this|it)|instead of|rather than|before|after|unless|only (for|if|when)|if (the )?(user|person|customer|you|a|an))\b`)

func descriptionWhenToUse(p *page) []Finding {
	var out []Finding
	for _, t := range p.tools {
		if blank(t.Description) || whenToUse.MatchString(t.Description) {
			continue
		}
		out = append(out, Finding{Tool: t.Name, Frame: t.FrameURL,
			Message: `its description says what the tool does, not when to use it: add when ("Use when the person asks to …", "Call before …")`})
	}
	return out
}

// unevenKeywords are the JSON Schema keywords agents and model tool mappers
// handle unevenly (playwright-webmcp's default list). Chromium 156 checks no
// keyword at all (docs/webmcp-in-chromium), so the schema is the agent's to
// read, and these are the parts agents read worst.
var unevenKeywords = []string{"$ref", "allOf", "anyOf", "dependentSchemas", "else", "if", "not", "oneOf", "patternProperties", "then"}

// subschemaKeys are the keywords whose value is a schema, a list of schemas
// or a map of name → schema: where keywords are looked for, so that a
// property named "if" is a name, not a keyword.
var (
	schemaValued = []string{"items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems"}
	schemaLists  = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}
	schemaMaps   = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
)

// keywordsIn answers "keyword at pointer" for each uneven keyword of a
// schema, reading only schema positions, at most limit deep.
func keywordsIn(v any, at string, limit int, out *[]string) {
	m, ok := v.(map[string]any)
	if !ok || limit < 0 {
		return
	}
	for _, k := range unevenKeywords {
		if _, has := m[k]; has {
			*out = append(*out, fmt.Sprintf("%s at %s", k, cmp.Or(at, "/")))
		}
	}
	for _, k := range schemaValued {
		keywordsIn(m[k], at+"/"+k, limit-1, out)
	}
	for _, k := range schemaLists {
		if l, ok := m[k].([]any); ok {
			for i, c := range l {
				keywordsIn(c, fmt.Sprintf("%s/%s/%d", at, k, i), limit-1, out)
			}
		}
	}
	for _, k := range schemaMaps {
		if sub, ok := m[k].(map[string]any); ok {
			for _, name := range sortedKeys(sub) {
				keywordsIn(sub[name], at+"/"+k+"/"+name, limit-1, out)
			}
		}
	}
}

func schemaUnsupportedKeywords(p *page) []Finding {
	var out []Finding
	for _, t := range p.tools {
		var v any
		// A form's schema is Chromium's own (its selects become anyOf of
		// const/title): the page's author did not write it and cannot change it.
		if t.Declarative || len(t.InputSchema) == 0 || json.Unmarshal(t.InputSchema, &v) != nil {
			continue
		}
		var found []string
		keywordsIn(v, "", 64, &found)
		if len(found) > 0 {
			out = append(out, Finding{Tool: t.Name, Frame: t.FrameURL,
				Message: fmt.Sprintf("its input schema uses %s: agents and model tool mappers handle these unevenly (Chromium checks none of them); prefer flat objects with types and enums", strings.Join(found, ", "))})
		}
	}
	return out
}
