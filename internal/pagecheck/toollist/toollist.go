// Package toollist answers a page's tools without a scenario: it opens the
// page in the suite's browser, waits for tools registered after the load,
// and lists every tool of every frame with what the protocol and the page
// API say of it. agentready catalog, lint, init and smoke stand on it.
package toollist

import (
	"cmp"
	"context"
	"fmt"
	neturl "net/url"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/live/webmcp"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Tool is one tool of a page, as a person listing tools wants it.
type Tool struct {
	record.Tool
	Kind     string `json:"kind"`               // declarative (a form) or imperative (registerTool)
	FrameURL string `json:"frameUrl,omitempty"` // the document of the frame that offers it
	// AnnotationsDeclared tells whether getTools() reported annotations for
	// the tool: Chromium 156 reports every hint once a page declares any, and
	// none when it declares none. Nil when unknown (a form, which getTools()
	// gives no annotations, or a tool getTools() did not list).
	AnnotationsDeclared *bool `json:"annotationsDeclared,omitempty"`
}

// Listing is a page's tools.
type Listing struct {
	URL   string `json:"url"`
	Tools []Tool `json:"tools"`
	// FinalURL is where the page went when it is not URL: a page behind a
	// sign-in that sent the visitor to its login page, say.
	FinalURL string `json:"finalUrl,omitempty"`
	// Disagreement is set when the protocol's catalog and getTools() do not
	// name the same tools the same way: a finding, not an error.
	Disagreement string `json:"disagreement,omitempty"`
	// Forms are the page's forms as its DOM shows them, in every frame the
	// top document can reach, tools or not. Some never reach the catalog:
	// Chromium drops a form without tooldescription, with a bad toolname or
	// with a name already taken, and says so nowhere else.
	Forms []Form `json:"forms,omitempty"`
	// FramesUnread are the frames whose documents the top one could not
	// read (another origin's): their forms are not in Forms, so the rules
	// that read forms did not see them (their tools are in the catalog, and
	// Chromium's issues about their forms in Issues).
	FramesUnread []string `json:"framesUnread,omitempty"`
	// Console holds the console errors and uncaught exceptions of the load:
	// a registerTool() the browser refused shows only here.
	Console []record.ConsoleEntry `json:"console,omitempty"`
	// Issues are what Chromium said of the page's WebMCP forms through its
	// Audits domain: a required control without a name, left out of the
	// tool's schema, shows only here.
	Issues []record.BrowserIssue `json:"issues,omitempty"`
	// Timeline is when the top document's tools came and went, on its own
	// clock; nil when it was not recorded.
	Timeline *Timeline `json:"timeline,omitempty"`
}

// Timeline is the top document's registrations and removals while the
// listing watched, in order, each saying whether the document's load event
// had fired by then; Loaded tells whether it fired at all.
type Timeline struct {
	Registrations []webmcp.Registration `json:"registrations"`
	Loaded        bool                  `json:"loaded"`
}

// Form is one <form> of a page, as its DOM shows it.
type Form struct {
	FrameURL string `json:"frameUrl"` // the document the form is in
	Index    int    `json:"index"`    // its place among that document's forms
	ID       string `json:"id,omitempty"`
	// ToolName and ToolDescription are the attributes; nil when absent.
	ToolName        *string `json:"toolname,omitempty"`
	ToolDescription *string `json:"tooldescription,omitempty"`
	AutoSubmit      bool    `json:"toolautosubmit,omitempty"`
	Fields          []Field `json:"fields,omitempty"`
}

// Field is one named control of a form (radios of one name are one field).
type Field struct {
	Name         string `json:"name"`
	Type         string `json:"type"` // input type, or select / textarea
	Autocomplete string `json:"autocomplete,omitempty"`
	// Text is what describes the field to a person or an agent:
	// toolparamdescription, its labels, aria-label and aria-description.
	Text     string `json:"text,omitempty"`
	Required bool   `json:"required,omitempty"`
	// The constraints the browser holds a typed value to before the form
	// submits, which Chromium 156 leaves out of the tool's schema
	// (minlength, maxlength; the type's own, such as an email's @): a value
	// the schema allows may still be one the browser refuses.
	MinLength int    `json:"minLength,omitempty"`
	MaxLength int    `json:"maxLength,omitempty"`
	Pattern   string `json:"pattern,omitempty"`
}

// Locator names the form for a person reading a finding.
func (f Form) Locator() string {
	switch {
	case f.ID != "":
		return "form#" + f.ID
	case f.ToolName != nil:
		return fmt.Sprintf("form[toolname=%q]", *f.ToolName)
	}
	return fmt.Sprintf("form #%d", f.Index+1)
}

// Names lists the tools' names in order.
func (l Listing) Names() []string {
	out := make([]string, len(l.Tools))
	for i, t := range l.Tools {
		out[i] = t.Name
	}
	return out
}

// Catalog answers the listing as a catalog.
func (l Listing) Catalog() record.Catalog {
	out := make(record.Catalog, len(l.Tools))
	for i, t := range l.Tools {
		out[i] = t.Tool
	}
	return out
}

// Options say how to read a page.
type Options struct {
	// Settle is how long the catalog must stay unchanged after the load
	// before it is read: tools registered by a script that runs later are
	// waited for. MaxWait bounds the whole wait.
	Settle  time.Duration
	MaxWait time.Duration
	// Prepare, when set, is done to each fresh tab before it opens the
	// page: a sign-in (package signin).
	Prepare func(context.Context, *browser.Tab) error `json:"-"`
}

// DefaultOptions wait by the suite's one settle rule (webmcp.DefaultSettle):
// 300 ms of quiet, 5 s at most.
var DefaultOptions = Options{Settle: webmcp.DefaultSettle.Quiet, MaxWait: webmcp.DefaultSettle.Max}

// Rule is the settle rule the options say.
func (o Options) Rule() webmcp.SettleRule {
	return webmcp.SettleRule{Quiet: o.Settle, Max: o.MaxWait}
}

// Read opens url in a fresh tab of b and lists its tools.
func Read(ctx context.Context, b *browser.Browser, url string, opts Options) (Listing, error) {
	tab, err := b.NewTab(ctx)
	if err != nil {
		return Listing{}, err
	}
	defer tab.Close()
	return ReadTab(ctx, tab, url, opts)
}

// ReadTab is Read in a tab the caller owns.
func ReadTab(ctx context.Context, tab *browser.Tab, url string, opts Options) (Listing, error) {
	opts.Settle, opts.MaxWait = cmp.Or(opts.Settle, DefaultOptions.Settle), cmp.Or(opts.MaxWait, DefaultOptions.MaxWait)
	seen, issues, events := len(tab.Console.Entries()), tab.Issues.Len(), tab.Trace.Len()
	if opts.Prepare != nil {
		if err := opts.Prepare(ctx, tab); err != nil {
			return Listing{}, err
		}
	}
	if err := tab.Navigate(ctx, url); err != nil {
		return Listing{}, fmt.Errorf("open %s: %w", url, err)
	}
	if err := settle(ctx, tab, opts); err != nil {
		return Listing{}, err
	}
	catalog, pageTools, err := tab.Tools.CatalogAndPage(ctx)
	l := Listing{URL: url, Tools: []Tool{}}
	if final := location(ctx, tab); final != "" && !sameURL(final, url) {
		l.FinalURL = final
	}
	if err != nil {
		if pageTools == nil {
			return Listing{}, err
		}
		l.Disagreement = err.Error()
	}
	byName := map[string]record.PageTool{}
	for _, p := range pageTools {
		byName[p.Name] = p
	}
	frames := frameURLs(ctx, tab)
	for _, t := range catalog {
		p, listed := byName[t.Name]
		t.Title = cmp.Or(t.Title, p.Title)
		kind := "imperative"
		if t.Declarative {
			kind = "declarative"
		}
		tool := Tool{Tool: t, Kind: kind, FrameURL: cmp.Or(frames[t.FrameID], t.Frame)}
		if listed && !t.Declarative {
			declared := p.Annotations != nil
			tool.AnnotationsDeclared = &declared
		}
		l.Tools = append(l.Tools, tool)
	}
	read, err := readForms(ctx, tab)
	if err != nil {
		return Listing{}, fmt.Errorf("read the forms of %s: %w", url, err)
	}
	l.Forms, l.FramesUnread = read.Forms, read.Unread
	l.Timeline = &Timeline{}
	l.Timeline.Registrations, l.Timeline.Loaded = tab.Trace.Timeline(events)
	l.Issues = tab.WebMCPIssues(ctx, issues)
	if entries := tab.Console.Entries(); len(entries) > seen {
		l.Console = entries[seen:]
	}
	return l, nil
}

// formsJS lists the forms of the document and of every frame it can reach
// (same-origin ones: a cross-origin frame's document is not readable from
// the top one; its declarative tools still reach the catalog through the
// frame's own session).
const formsJS = `(() => {
  const out = [], unread = [];
  const skip = new Set(["submit", "button", "reset", "image", "hidden", "fieldset", "output", "object"]);
  const visit = (doc) => {
    Array.from(doc.forms).forEach((f, index) => {
      const attr = (n) => (f.hasAttribute(n) ? f.getAttribute(n) : null);
      const byName = new Map();
      for (const el of Array.from(f.elements)) {
        const tag = el.tagName.toLowerCase();
        const type = (tag === "input" ? el.type : tag).toLowerCase();
        if (skip.has(type) || skip.has(tag) || !el.name) continue;
        const text = [el.getAttribute("toolparamdescription"), ...Array.from(el.labels || [], (l) => l.textContent),
          el.getAttribute("aria-label"), el.getAttribute("aria-description")]
          .filter(Boolean).map((s) => s.trim().replace(/\s+/g, " ")).filter(Boolean).join(" ");
        const prev = byName.get(el.name);
        if (prev) {
          prev.text = [prev.text, text].filter(Boolean).join(" ");
          prev.required = prev.required || el.required;
          continue;
        }
        byName.set(el.name, { name: el.name, type, autocomplete: el.getAttribute("autocomplete") || "", text, required: !!el.required,
          minLength: el.minLength > 0 ? el.minLength : 0, maxLength: el.maxLength > 0 ? el.maxLength : 0, pattern: el.getAttribute("pattern") || "" });
      }
      out.push({ frameUrl: doc.location.href, index, id: f.id || "", toolname: attr("toolname"),
        tooldescription: attr("tooldescription"), toolautosubmit: f.hasAttribute("toolautosubmit"),
        fields: Array.from(byName.values()) });
    });
    for (const frame of Array.from(doc.querySelectorAll("iframe, frame"))) {
      let inner = null;
      try { inner = frame.contentDocument; } catch (_) {}
      if (inner) visit(inner);
      else if (frame.src) unread.push(frame.src);
    }
  };
  visit(document);
  return { forms: out, unread };
})()`

// formsRead is what formsJS answers.
type formsRead struct {
	Forms  []Form   `json:"forms"`
	Unread []string `json:"unread"`
}

// readForms lists the page's forms, and the frames it could not read,
// within vocab.Bound.
func readForms(ctx context.Context, tab *browser.Tab) (formsRead, error) {
	ctx, cancel := tab.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, vocab.Bound)
	defer cancelBound()
	return chromedp.Run(ctx, chromedp.Evaluate[formsRead](formsJS))
}

// settle waits by the suite's settle rule (webmcp.SettleRule) until the
// catalog has not changed for opts.Settle, at most opts.MaxWait: a page may
// register tools from a script that runs after the load. A page still
// changing at the bound is read as it is.
func settle(ctx context.Context, tab *browser.Tab, opts Options) error {
	_, err := tab.Trace.Settle(ctx, opts.Rule(), nil)
	return err
}

// sameURL says two URLs name the same page: "http://h" is "http://h/".
func sameURL(a, b string) bool {
	ua, errA := neturl.Parse(a)
	ub, errB := neturl.Parse(b)
	if errA != nil || errB != nil {
		return a == b
	}
	for _, u := range []*neturl.URL{ua, ub} {
		if u.Path == "" {
			u.Path = "/"
		}
	}
	return ua.String() == ub.String()
}

// location is the top document's URL, "" when it cannot be read.
func location(ctx context.Context, tab *browser.Tab) string {
	ctx, cancel := tab.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, vocab.Bound)
	defer cancelBound()
	href, err := chromedp.Run(ctx, chromedp.Evaluate[string]("location.href"))
	if err != nil {
		return ""
	}
	return href
}

// frameURLs maps frame ids to their documents' URLs.
func frameURLs(ctx context.Context, tab *browser.Tab) map[string]string {
	out := map[string]string{}
	ctx, cancel := tab.Bind(ctx)
	defer cancel()
	tree, err := chromedp.Call(ctx, page.GetFrameTree, cdp.Empty{})
	if err != nil || tree.FrameTree == nil {
		return out
	}
	var walk func(*page.FrameTree)
	walk = func(t *page.FrameTree) {
		if t.Frame != nil {
			out[string(t.Frame.ID)] = t.Frame.URL
		}
		for _, c := range t.ChildFrames {
			walk(c)
		}
	}
	walk(tree.FrameTree)
	return out
}

// Sorted answers the tools sorted by name, then frame.
func (l Listing) Sorted() []Tool {
	out := slices.Clone(l.Tools)
	slices.SortFunc(out, func(a, b Tool) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.FrameID, b.FrameID))
	})
	return out
}
