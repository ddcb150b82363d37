package record

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// Element is what a person (and a checker) can see of one element. Frame,
// when set, names the frame the selector was read in (as the expectation
// wrote it); otherwise it is the top document.
type Element struct {
	Frame            string `json:"frame,omitempty"`
	Selector         string `json:"selector"`
	Present          bool   `json:"present"`
	Visible          bool   `json:"visible"`
	Enabled          bool   `json:"enabled"`
	Value            string `json:"value,omitempty"`
	Text             string `json:"text,omitempty"`
	ToolFormActive   bool   `json:"toolFormActive"`
	ToolSubmitActive bool   `json:"toolSubmitActive"`
	// Checked is a checkbox's or radio button's state, or aria-checked="true".
	Checked bool `json:"checked"`
	// Count is how many elements the selector matches.
	Count int `json:"count"`
	// Attributes are the element's attributes as written in the DOM (each
	// value at most 500 characters).
	Attributes map[string]string `json:"attributes,omitempty"`
	// Host is where the element is when it is inside shadow roots: their
	// hosts, outermost first ("booking-app >>> confirm-dialog#c"); "" in
	// the document itself.
	Host string `json:"host,omitempty"`
}

// ConsoleEntry is one console error or exception.
type ConsoleEntry struct {
	Type string `json:"type"`
	Text string `json:"text"`
	URL  string `json:"url,omitempty"`
	Line int64  `json:"line,omitempty"`
}

// FrameKind says how a frame is named.
type FrameKind int

// The ways to name a frame: the CSS selector of its iframe element in the
// top document, the start of its URL, or the start of its path (and query).
const (
	FrameSelector FrameKind = iota + 1
	FrameURL
	FramePath
)

// FrameURLMatches tells whether spec, the start of a frame's URL
// (http://…) or of its path and query (/…), names the document at raw; a
// selector, or a spec that does not parse, names no URL.
func FrameURLMatches(spec, raw string) bool {
	kind, err := ParseFrame(spec)
	return err == nil && kind != FrameSelector && FrameMatchesURL(kind, spec, raw)
}

// FrameMatchesURL: the frame's URL starts with spec (kind FrameURL), or its
// path and query do (FramePath).
func FrameMatchesURL(kind FrameKind, spec, raw string) bool {
	if kind == FrameURL {
		return strings.HasPrefix(raw, spec)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "about" || u.Scheme == "data" {
		return false
	}
	pq := u.EscapedPath()
	if u.RawQuery != "" {
		pq += "?" + u.RawQuery
	}
	return strings.HasPrefix(pq, spec)
}

// ParseFrame reads how s names a frame: "http://…" or "https://…" is the
// start of the frame's URL, "/…" the start of its path (and query), anything
// else the CSS selector of its iframe element in the top document. It
// rejects what can only be a mistake, saying why.
func ParseFrame(s string) (FrameKind, error) {
	switch {
	case s == "":
		return 0, fmt.Errorf("a frame is the CSS selector of an iframe, or the start of its URL or path; got nothing")
	case strings.TrimSpace(s) != s:
		return 0, fmt.Errorf("frame %q has spaces around it", s)
	case strings.HasPrefix(s, "//"):
		return 0, fmt.Errorf("frame %q: write the URL with its scheme (http://…) or the path alone (/…)", s)
	case strings.HasPrefix(s, "/"):
		if strings.ContainsAny(s, " \t\n#") {
			return 0, fmt.Errorf("frame %q: a path has no spaces and no #fragment (a frame's URL is matched without it)", s)
		}
		return FramePath, nil
	case strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://"):
		u, err := url.Parse(s)
		if err != nil {
			return 0, fmt.Errorf("frame %q is not a URL: %v", s, err)
		}
		if u.Host == "" {
			return 0, fmt.Errorf("frame %q: the URL has no host", s)
		}
		if u.Fragment != "" || strings.Contains(s, "#") {
			return 0, fmt.Errorf("frame %q: a frame's URL is matched without its #fragment", s)
		}
		return FrameURL, nil
	case strings.Contains(s, "://") || hasScheme(s):
		return 0, fmt.Errorf("frame %q: only an http(s) URL, a path starting with / or a CSS selector names a frame", s)
	case relativePath.MatchString(s):
		return 0, fmt.Errorf("frame %q looks like a relative path: a path starts with / (a CSS selector would match an element <%s>)", s, strings.SplitN(s, ".", 2)[0])
	}
	if err := balanced(s); err != nil {
		return 0, fmt.Errorf("frame %q is not a CSS selector: %v", s, err)
	}
	return FrameSelector, nil
}

var relativePath = regexp.MustCompile(`^[\w-]+\.(html?|php|aspx?|jsp)$`)

// hasScheme: about:blank, data:…, javascript:… (a selector's pseudo-class
// follows a name, as in iframe:first-child, and is let through).
func hasScheme(s string) bool {
	for _, p := range []string{"about:", "data:", "javascript:", "blob:", "file:"} {
		if strings.HasPrefix(strings.ToLower(s), p) {
			return true
		}
	}
	return false
}

// balanced checks brackets, parentheses and quotes, the mistakes a
// selector written by hand has most.
func balanced(s string) error {
	var stack []rune
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'':
			quote = r
		case r == '/' && len(stack) == 0:
			return fmt.Errorf("it has a / outside brackets and quotes: a path starts with /, a URL with http(s)://")
		case r == '[' || r == '(':
			stack = append(stack, r)
		case r == ']' || r == ')':
			open := map[rune]rune{']': '[', ')': '('}[r]
			if len(stack) == 0 || stack[len(stack)-1] != open {
				return fmt.Errorf("%q closes nothing", r)
			}
			stack = stack[:len(stack)-1]
		}
	}
	if quote != 0 {
		return fmt.Errorf("a %c quote is not closed", quote)
	}
	if len(stack) > 0 {
		return fmt.Errorf("%q is not closed", stack[len(stack)-1])
	}
	return nil
}

// BrowserIssue is one issue Chromium reported about a page's WebMCP forms
// through its Audits domain (a GenericIssue whose errorType starts with
// FormModelContext), located at the element it names while its document
// was there. Chromium says some things nowhere else: a required control
// without a name is left out of the tool's schema in silence.
type BrowserIssue struct {
	// Type is Chromium's errorType, as it wrote it
	// (FormModelContextRequiredParameterMissingName, …).
	Type     string `json:"type"`
	FrameURL string `json:"frameUrl,omitempty"` // the element's document
	// Form is the locator of the element's form (form#id,
	// form[toolname="…"], form #n), ToolName its toolname attribute.
	Form     string `json:"form,omitempty"`
	ToolName string `json:"toolname,omitempty"`
	// Element names the element for a person: its tag, type, name or id,
	// and its label; "" when it is the form itself.
	Element   string `json:"element,omitempty"`
	Attribute string `json:"attribute,omitempty"` // the attribute the issue is about, when Chromium said
	// Unlocated says why the element could not be read (its document was
	// gone): the issue stands, unlocated.
	Unlocated string `json:"unlocated,omitempty"`
}
