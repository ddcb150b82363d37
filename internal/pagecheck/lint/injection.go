package lint

import (
	"cmp"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/agentready/agentready/internal/pagecheck/toollist"
)

// The injection surface (issue 30 item 1): what a page hands a model that a
// model may take for instructions, or that lets one tool stand in for
// another. Rule IDs are swissspidy/playwright-webmcp's; the thresholds and
// word lists: docs/decisions/2026-12-03-injection-lint.md.

// instructionShapes are the shapes of text that speak to the model instead
// of describing the tool: overriding what came before, commanding, hiding
// from the person, or posing as a system prompt. Matched case-insensitively
// on the text with its runs of white space made one space.
var instructionShapes = []struct {
	name string
	re   *regexp.Regexp
}{
	{"ignore previous instructions", regexp.MustCompile(`(?i)\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(the\s+|your\s+)?(previous|prior|above|earlier|preceding|other|existing)\b`)},
	{"you must", regexp.MustCompile(`(?i)\byou\s+(must|have\s+to|are\s+required\s+to)\b`)},
	{"always call", regexp.MustCompile(`(?i)\b(always|first|immediately)\s+(call|use|invoke|run|execute)\b`)},
	{"call before any other tool", regexp.MustCompile(`(?i)\bbefore\s+(calling|using|invoking)\s+any\s+other\s+tools?\b`)},
	{"do not tell the user", regexp.MustCompile(`(?i)\b(do\s+not|don't|never)\s+(tell|inform|mention|reveal|show|notify|ask)\b[^.]{0,20}\b(user|person|human|customer)\b`)},
	{"system prompt", regexp.MustCompile(`(?i)(\bsystem\s+prompt\b|\b(system|assistant|developer)\s?(prompt|message)\s*:|<\|?\s*(system|im_start|im_end|user|assistant)\s*\|?>|</?(system|assistant|user|tool|instructions?)>|\[/?(system|sys|inst)\]|^\s*(system|assistant)\s*:|\bnew\s+instructions?\s*:|\byou\s+are\s+now\b)`)},
	{"send secrets away", regexp.MustCompile(`(?i)\b(send|post|forward|email|exfiltrate|upload)\s+(the\s+|all\s+|your\s+|their\s+)?(conversation|chat\s+history|credentials|passwords?|tokens?|api\s+keys?|cookies|session)\b`)},
	// Characters a person does not see and a model reads: zero-width and
	// soft hyphens, bidirectional overrides (text shown in another order
	// than read), and Unicode tags (ASCII smuggled as invisible letters).
	{"hidden characters", regexp.MustCompile("[\u200B-\u200F\u2060\uFEFF\u00AD\U000E0000-\U000E007F]")},
	{"bidirectional override", regexp.MustCompile("[\u202A-\u202E\u2066-\u2069]")},
}

// InstructionShape answers the name of the first instruction shape text
// has ("ignore previous instructions", "system prompt", "hidden
// characters", …), or "": what description-injection looks for, for a
// caller that reads text lint does not (a tool's result, in smoke).
func InstructionShape(text string) string { return instructionShape(text) }

// instructionShape answers the name of the first shape text has, or "".
func instructionShape(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	for _, s := range instructionShapes {
		if s.re.MatchString(text) {
			return s.name
		}
	}
	return ""
}

// paramDescriptions answers each description in a schema, by the JSON
// pointer of the property it describes, at any depth.
func paramDescriptions(raw json.RawMessage) map[string]string {
	out := map[string]string{}
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return out
	}
	var walk func(v any, at string, depth int)
	walk = func(v any, at string, depth int) {
		if depth > 64 {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			if d, ok := x["description"].(string); ok && at != "" {
				out[at] = d
			}
			for k, c := range x {
				walk(c, at+"/"+k, depth+1)
			}
		case []any:
			for i, c := range x {
				walk(c, fmt.Sprintf("%s/%d", at, i), depth+1)
			}
		}
	}
	walk(v, "", 0)
	return out
}

func descriptionInjection(p *page) []Finding {
	var out []Finding
	for _, t := range p.tools {
		var where []string
		if s := instructionShape(t.Description); s != "" {
			where = append(where, fmt.Sprintf("its description (%q)", s))
		}
		if s := instructionShape(t.Title); s != "" {
			where = append(where, fmt.Sprintf("its title (%q)", s))
		}
		params := paramDescriptions(t.InputSchema)
		for _, at := range sortedKeys(params) {
			if s := instructionShape(params[at]); s != "" {
				where = append(where, fmt.Sprintf("the description at %s (%q)", at, s))
			}
		}
		if len(where) > 0 {
			out = append(out, Finding{Tool: t.Name, Frame: t.FrameURL,
				Message: fmt.Sprintf("%s reads as an instruction to the model: say what the tool does, not what the agent must do", strings.Join(where, ", "))})
		}
	}
	return out
}

// agentToolNames are the names of the tools agents bring themselves
// (browsing, files, shell, search): a page tool of that name may be called
// when the agent meant its own.
var agentToolNames = map[string]bool{
	"search": true, "web_search": true, "fetch": true, "navigate": true, "click": true, "scroll": true,
	"screenshot": true, "browser": true, "computer": true, "open_url": true, "open_tab": true,
	"read_page": true, "get_page_text": true, "read_file": true, "write_file": true, "run_command": true,
	"execute": true, "bash": true, "shell": true, "python": true, "submit": true, "tool": true,
}

// shadowKey is a name as an agent may confuse it: its words run together,
// lower case, with the digits that pass for letters (0 o, 1 l, 5 s) read as
// those letters.
func shadowKey(name string) string {
	return strings.NewReplacer("0", "o", "1", "l", "5", "s").Replace(strings.Join(words(name), ""))
}

func toolShadowing(p *page) []Finding {
	var out []Finding
	byKey := map[string][]string{}
	for _, t := range p.tools {
		k := shadowKey(t.Name)
		if !slices.Contains(byKey[k], t.Name) {
			byKey[k] = append(byKey[k], t.Name)
		}
	}
	across := acrossBoundary(p.tools, p.url)
	for _, t := range p.tools {
		if others := across[t.Name]; len(others) > 0 {
			out = append(out, Finding{Tool: t.Name, Frame: t.FrameURL,
				Message: fmt.Sprintf("the name is one letter from %s, registered from another frame or script origin: an agent choosing between them chooses by a difference it cannot see", quoteList(others))})
		}
		if agentToolNames[strings.ToLower(t.Name)] {
			out = append(out, Finding{Tool: t.Name, Frame: t.FrameURL,
				Message: fmt.Sprintf("the name %q is one agents give their own tools: an agent may call it meaning its own; name what it does on this site", t.Name)})
		}
		if others := slices.DeleteFunc(slices.Clone(byKey[shadowKey(t.Name)]), func(n string) bool { return n == t.Name }); len(others) > 0 {
			out = append(out, Finding{Tool: t.Name, Frame: t.FrameURL,
				Message: fmt.Sprintf("the name nearly equals %s (same words, case, separators or look-alike digits): one can stand in for the other", quoteList(others))})
		}
	}
	return out
}

// boundary is where a tool comes from, as far as an agent's trust goes: its
// frame's document and the origin of the script that registered it (a form,
// or a tool whose stack the browser did not send, is its document's own).
func boundary(t toollist.Tool, pageURL string) string {
	doc := strings.TrimSuffix(cmp.Or(t.FrameURL, pageURL), "/")
	return doc + "\x00" + cmp.Or(origin(t.RegisteredBy), origin(doc))
}

// acrossBoundary answers, for each tool, the tools of another boundary whose
// name is one edit from its own (names read as shadowKey, 4 letters or
// more): playwright-webmcp's typosquat across frames, origins or scripts.
// Names already equal as keys are left to the rule's first finding; within
// one boundary, one letter apart is a naming matter (get_item, get_items).
func acrossBoundary(tools []toollist.Tool, pageURL string) map[string][]string {
	groups := map[string]bool{}
	for _, t := range tools {
		groups[boundary(t, pageURL)] = true
	}
	out := map[string][]string{}
	if len(groups) < 2 {
		return out
	}
	for i, a := range tools {
		for _, b := range tools[i+1:] {
			ka, kb := shadowKey(a.Name), shadowKey(b.Name)
			if a.Name == b.Name || ka == kb || boundary(a, pageURL) == boundary(b, pageURL) || min(len(ka), len(kb)) < 4 || !oneEdit(ka, kb) {
				continue
			}
			out[a.Name] = append(out[a.Name], b.Name)
			out[b.Name] = append(out[b.Name], a.Name)
		}
	}
	return out
}

// oneEdit tells whether one insertion, deletion or substitution turns a
// into b (a != b).
func oneEdit(a, b string) bool {
	if a == b {
		return false
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(b)-len(a) > 1 {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return a[i+1:] == b[i+1:]
	}
	return a[i:] == b[i+1:]
}

// Words that say what a tool hands back was written by someone other than
// the site: people's comments, reviews, messages, posts.
var (
	untrustedWords = wordsOf("comment comments review reviews message messages post posts email emails mail inbox chat chats forum thread threads reply replies feedback testimonial testimonials question questions answer answers submission submissions ugc tweet tweets listing listings bio bios")
	readWords      = wordsOf("get read list search find show fetch view browse load lookup look query see")
	privateWords   = wordsOf("account accounts profile order orders address addresses inbox email emails message messages history payment payments contact contacts balance wallet personal private saved invoice invoices booking bookings")
	exfilWords     = wordsOf("send email mail post share publish upload forward export transfer message webhook notify invite submit tweet")
)

func wordsOf(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(s) {
		out[w] = true
	}
	return out
}

// toolWords is a tool's name and description as words.
func toolWords(t toollist.Tool) []string { return append(words(t.Name), words(t.Description)...) }

func anyWord(ws []string, set map[string]bool) bool {
	return slices.ContainsFunc(ws, func(w string) bool { return set[w] })
}

// reads tells whether a tool reads: it says readOnlyHint, or its name or
// description starts with a verb of reading.
func reads(t toollist.Tool) bool {
	if t.Annotations.ReadOnly {
		return true
	}
	n, d := words(t.Name), words(t.Description)
	return (len(n) > 0 && readWords[n[0]]) || (len(d) > 0 && readWords[d[0]])
}

// returnsUntrusted tells whether a tool reads content people or third
// parties wrote.
func returnsUntrusted(t toollist.Tool) bool {
	return reads(t) && anyWord(toolWords(t), untrustedWords)
}

func untrustedContentUnmarked(p *page) []Finding {
	var out []Finding
	for _, t := range p.tools {
		if t.Declarative || t.Annotations.UntrustedContent || !returnsUntrusted(t) {
			continue
		}
		out = append(out, Finding{Tool: t.Name, Frame: t.FrameURL,
			Message: "it returns what people or third parties wrote (by its name and description) without annotations.untrustedContentHint: an agent takes that text for the site's own"})
	}
	return out
}

func capabilityTrifecta(p *page) []Finding {
	var private, untrusted, unmarked, exfil []string
	for _, t := range p.tools {
		ws := toolWords(t)
		switch {
		case reads(t):
			if t.Annotations.UntrustedContent || returnsUntrusted(t) {
				untrusted = append(untrusted, t.Name)
			}
			if !t.Declarative && !t.Annotations.UntrustedContent && returnsUntrusted(t) {
				unmarked = append(unmarked, t.Name)
			}
			if anyWord(ws, privateWords) {
				private = append(private, t.Name)
			}
		case anyWord(ws, exfilWords) || takesURL(t):
			exfil = append(exfil, t.Name)
		}
	}
	first := func(names []string) string {
		slices.Sort(names)
		if len(names) == 1 {
			return fmt.Sprintf("%q", names[0])
		}
		return fmt.Sprintf("%q and %d more", names[0], len(names)-1)
	}
	switch {
	case len(untrusted) == 0 || len(exfil) == 0:
		return nil
	case len(private) > 0:
		return []Finding{{Message: fmt.Sprintf("one page offers a read of private data (%s), content others wrote (%s) and a way out (%s): text planted in the content can make an agent send the private data away; split them across pages or confirm the write with the person",
			first(private), first(untrusted), first(exfil))}}
	case len(unmarked) > 0:
		// playwright-webmcp's reading: the person's session is the private
		// leg every page has, so an unmarked source beside a way out is enough.
		return []Finding{{Message: fmt.Sprintf("one page offers content others wrote, unmarked (%s), and a way out (%s), in the person's signed-in session: text planted in the content can make an agent send what the session sees; set untrustedContentHint and confirm the write with the person",
			first(unmarked), first(exfil))}}
	}
	return nil
}

// takesURL tells whether a tool takes a URL, a webhook or a recipient: a way
// to send what it is given anywhere.
func takesURL(t toollist.Tool) bool {
	names, _ := propertyNames(t.InputSchema)
	for _, n := range names {
		for _, w := range words(n) {
			if w == "url" || w == "uri" || w == "webhook" || w == "endpoint" || w == "recipient" || w == "to" {
				return true
			}
		}
	}
	return false
}
