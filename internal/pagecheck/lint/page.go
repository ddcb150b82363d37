package lint

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/pagecheck/toollist"
)

// page is a listing as the rules read it: the catalog, the forms with the
// tool each became (if any), and the registerTool() calls the browser refused.
type page struct {
	url     string
	tools   []toollist.Tool
	forms   []form
	refused []refusal
	issues  []record.BrowserIssue // Chromium's (browserissues.go)
	// timeline is when the top document's tools came and went (timeline.go).
	timeline *toollist.Timeline
}

type form struct {
	toollist.Form
	tool *toollist.Tool // the catalog's tool made of this form; nil when it is not one
}

// refusal is a registerTool() the browser refused, as the console showed it.
type refusal struct {
	rule string // the rule the reason belongs to
	text string // the browser's words
	url  string // the script's document
	line int    // 1-based; 0 when unknown
}

func newPage(l toollist.Listing) *page {
	p := &page{url: l.URL, tools: l.Tools, issues: l.Issues, timeline: l.Timeline}
	claimed := map[int]bool{}
	for _, f := range l.Forms {
		pf := form{Form: f}
		if f.ToolName != nil {
			for i, t := range l.Tools {
				if !claimed[i] && t.Declarative && t.Name == *f.ToolName && sameDocument(t.FrameURL, f.FrameURL, l.URL) {
					claimed[i] = true
					pf.tool = &l.Tools[i]
					break
				}
			}
		}
		p.forms = append(p.forms, pf)
	}
	for _, e := range l.Console {
		if r, ok := refusalOf(e); ok {
			p.refused = append(p.refused, r)
		}
	}
	return p
}

// sameDocument tells whether a tool's frame and a form's document are one
// (a tool whose frame the listing could not name is taken to be the page's).
func sameDocument(toolFrame, formFrame, pageURL string) bool {
	if toolFrame == "" {
		toolFrame = pageURL
	}
	return strings.TrimSuffix(toolFrame, "/") == strings.TrimSuffix(formFrame, "/")
}

// refusalOf reads a console entry as a refused registerTool(). Chromium 156
// rejects the call's promise; a page that does not catch it shows an
// uncaught InvalidStateError ("Description is required", "Invalid tool
// name", "Duplicate tool name"), a SecurityError for an exposedTo entry
// that is no secure origin, or a TypeError naming registerTool and the
// missing member. The message never names the tool.
func refusalOf(e record.ConsoleEntry) (refusal, bool) {
	if e.Type != "exception" && e.Type != "error" {
		return refusal{}, false
	}
	text := e.Text
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i] // the stack follows
	}
	r := refusal{text: strings.TrimSpace(text), url: e.URL}
	if e.URL != "" {
		r.line = int(e.Line) + 1 // the protocol counts lines from 0
	}
	registerTool := strings.Contains(text, "'registerTool'")
	switch {
	case strings.Contains(text, "Description is required"),
		registerTool && strings.Contains(text, "'description'"):
		r.rule = "description-missing"
	case strings.Contains(text, "Invalid tool name"),
		registerTool && strings.Contains(text, "'name'"):
		r.rule = "tool-name-valid"
	case strings.Contains(text, "Duplicate tool name"):
		r.rule = "duplicate-tool-name"
	case strings.Contains(text, "exposedTo"):
		// "SecurityError: Only secure origins are allowed in the exposedTo
		// list." (measured: "*", an http:// origin and a non-URL alike).
		r.rule = "exposed-to-secure-origins"
	default:
		return refusal{}, false
	}
	return r, true
}

// finding words a refusal; the line goes with it only when it is a line of
// the page's own document.
func (r refusal) finding(pageURL, why string) Finding {
	where := ""
	switch {
	case r.line > 0:
		where = fmt.Sprintf(" at %s:%d", r.url, r.line)
	case r.url != "":
		where = " at " + r.url
	}
	f := Finding{Message: fmt.Sprintf("the browser refused a registerTool() call%s (%q): %s", where, r.text, why)}
	if r.line > 0 && sameDocument(r.url, pageURL, pageURL) {
		f.Line = r.line
	}
	return f
}

func (p *page) refusals(rule, why string) []Finding {
	var out []Finding
	for _, r := range p.refused {
		if r.rule == rule {
			out = append(out, r.finding(p.url, why))
		}
	}
	return out
}

// validName is Chromium 156's rule for a tool name, as measured: 1 to 128
// ASCII letters, digits, '_', '-' or '.' (a space, a colon, a non-ASCII
// letter or a 129th character is refused).
var validName = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)

// words splits a name or a sentence into lower-case words: separators and
// camelCase boundaries both split ("cardNumber", "card_number" → card number).
func words(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && len(cur) > 0 && (unicode.IsLower(cur[len(cur)-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]))):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return out
}

// Secrets a tool should never ask an agent for, as words of a parameter's
// name: one word, or two in a row.
var (
	secretWords = map[string]string{
		"password": "credential", "passcode": "credential", "passphrase": "credential", "pwd": "credential",
		"secret": "credential", "token": "credential", "apikey": "credential", "otp": "credential", "pin": "credential",
		"ssn": "credential",
		"cvv": "payment", "cvc": "payment", "cvv2": "payment", "iban": "payment", "cardnumber": "payment",
		"creditcard": "payment", "accountnumber": "payment",
	}
	secretPairs = map[[2]string]string{
		{"api", "key"}: "credential", {"social", "security"}: "credential", {"access", "key"}: "credential",
		{"card", "number"}: "payment", {"credit", "card"}: "payment", {"debit", "card"}: "payment",
		{"account", "number"}: "payment", {"routing", "number"}: "payment", {"security", "code"}: "payment",
	}
	pagingWords  = map[string]bool{"page": true, "next": true, "continuation": true, "cursor": true, "sync": true}
	consentWords = map[string]bool{
		"consent": true, "agree": true, "agreement": true, "terms": true, "accept": true, "tos": true,
		"authorize": true, "authorise": true, "authorization": true, "authorisation": true, "gdpr": true,
	}
)

// secretName answers "credential" or "payment" when a name reads as one.
func secretName(name string) string {
	ws := words(name)
	for i, w := range ws {
		if w == "token" && i > 0 && pagingWords[ws[i-1]] {
			continue // a page of results, not a secret
		}
		if k, ok := secretWords[w]; ok {
			return k
		}
		if i+1 < len(ws) {
			if k, ok := secretPairs[[2]string{w, ws[i+1]}]; ok {
				return k
			}
		}
	}
	return ""
}

// secretField answers what kind of secret a form field asks for, from its
// type, its autocomplete tokens and its name.
func secretField(f toollist.Field) string {
	if f.Type == "password" {
		return "credential"
	}
	for _, tok := range strings.Fields(strings.ToLower(f.Autocomplete)) {
		switch {
		case tok == "current-password", tok == "new-password", tok == "one-time-code":
			return "credential"
		case strings.HasPrefix(tok, "cc-"):
			return "payment"
		}
	}
	return secretName(f.Name)
}

// consentField tells whether a field is a person's consent: a checkbox whose
// name or label speaks of agreeing, accepting or authorising.
func consentField(f toollist.Field) bool {
	if f.Type != "checkbox" {
		return false
	}
	for _, w := range append(words(f.Name), words(f.Text)...) {
		if consentWords[w] {
			return true
		}
	}
	return false
}

// stopWords carry no meaning of their own when descriptions are compared.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "to": true, "for": true, "and": true, "or": true,
	"in": true, "on": true, "by": true, "with": true, "from": true, "this": true, "that": true, "is": true,
	"it": true, "its": true, "as": true, "at": true, "be": true, "your": true, "you": true, "their": true,
}

// similarity is the Dice coefficient of two descriptions' sets of words
// (stop words left out): 1 for the same words, 0 for none in common.
func similarity(a, b string) float64 { return dice(wordSet(a), wordSet(b)) }

// wordSet is a description's words without its stop words.
func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range words(s) {
		if !stopWords[w] {
			out[w] = true
		}
	}
	return out
}

// dice is the Dice coefficient of two word sets.
func dice(sa, sb map[string]bool) float64 {
	if len(sa)+len(sb) == 0 {
		return 0
	}
	if len(sb) < len(sa) {
		sa, sb = sb, sa
	}
	common := 0
	for w := range sa {
		if sb[w] {
			common++
		}
	}
	return 2 * float64(common) / float64(len(sa)+len(sb))
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
