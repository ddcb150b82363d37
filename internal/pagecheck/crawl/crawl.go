// Package crawl reads a whole site's WebMCP surface: from a start page it
// follows same-origin links and GET forms breadth-first, lists each page's
// tools and lints them, within a number of pages and a time; and it finds
// drift, one tool name offered differently on two pages (its description,
// schema or annotations), which an agent that met it on one page trusts on
// the other.
package crawl

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/pagecheck/lint"
	"github.com/agentready/agentready/internal/pagecheck/toollist"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Options bound a crawl and say how each page is read.
type Options struct {
	MaxPages int           // pages read at most (DefaultMaxPages when 0)
	MaxTime  time.Duration // the whole crawl at most (DefaultMaxTime when 0)
	Listing  toollist.Options
	Lint     lint.Config
}

// The defaults: a modest site's pages, and a time a CI job does not notice.
const (
	DefaultMaxPages = 25
	DefaultMaxTime  = 3 * time.Minute
)

// Page is one page of the crawl.
type Page struct {
	URL      string          `json:"url"`
	Depth    int             `json:"depth"`          // links followed from the start page
	From     string          `json:"from,omitempty"` // the page whose link or form led here
	Tools    []toollist.Tool `json:"tools"`
	Findings []lint.Finding  `json:"findings"`
	// FinalURL is where the page went when it is not URL: a sign-in page,
	// when the session the crawl began with is gone.
	FinalURL string `json:"finalUrl,omitempty"`
	// Error says why the page could not be read; the crawl went on.
	Error string `json:"error,omitempty"`
	// Readiness is the page's (ReadinessOf the page alone).
	Readiness *Readiness `json:"readiness,omitempty"`
}

// Report is a crawl: its pages in the order read, the drift across them,
// and why it stopped short, if it did.
type Report struct {
	Start string  `json:"start"`
	Pages []Page  `json:"pages"`
	Drift []Drift `json:"drift"`
	// Left are pages found and not read (the bound was reached), in order.
	Left []string `json:"left,omitempty"`
	// Stopped says which bound ended the crawl, "" when it read all it found.
	Stopped string `json:"stopped,omitempty"`
	// Readiness sums the site (each page carries its own).
	Readiness Readiness `json:"readiness"`
}

// Site crawls from start in fresh tabs of b, one page at a time. A page that
// cannot be read is kept with its error, and the crawl goes on.
func Site(ctx context.Context, b *browser.Browser, start string, o Options) (Report, error) {
	o.MaxPages = cmp.Or(o.MaxPages, DefaultMaxPages)
	o.MaxTime = cmp.Or(o.MaxTime, DefaultMaxTime)
	origin, err := url.Parse(start)
	if err != nil || origin.Host == "" {
		return Report{}, fmt.Errorf("the start %q is no absolute URL", start)
	}
	ctx, cancel := context.WithTimeout(ctx, o.MaxTime)
	defer cancel()
	rep := Report{Start: start, Pages: []Page{}, Drift: []Drift{}}
	q := newQueue(origin)
	q.add(start, "", 0)
	for next, ok := q.pop(); ok; next, ok = q.pop() {
		switch {
		case len(rep.Pages) >= o.MaxPages:
			rep.Stopped = fmt.Sprintf("--max-pages %d", o.MaxPages)
		case ctx.Err() != nil:
			rep.Stopped = fmt.Sprintf("--max-time %s", o.MaxTime)
		}
		if rep.Stopped != "" {
			rep.Left = append([]string{next.url}, q.rest()...)
			break
		}
		p, links := read(ctx, b, next, o)
		if ctx.Err() != nil && p.Error != "" {
			// The crawl's time ran out while this page was read: it was
			// not read, by the bound, not by a fault of the page's.
			rep.Stopped = fmt.Sprintf("--max-time %s", o.MaxTime)
			rep.Left = append([]string{next.url}, q.rest()...)
			break
		}
		rep.Pages = append(rep.Pages, p)
		for _, l := range links {
			q.add(l, next.url, next.depth+1)
		}
	}
	rep.Drift = FindDrift(rep.Pages)
	for i, p := range rep.Pages {
		if p.Error == "" {
			r := ReadinessOf(rep.Pages[i:i+1], nil, o.Lint)
			rep.Pages[i].Readiness = &r
		}
	}
	rep.Readiness = ReadinessOf(rep.Pages, rep.Drift, o.Lint)
	return rep, nil
}

// read lists, lints and takes the links of one page.
func read(ctx context.Context, b *browser.Browser, at queued, o Options) (Page, []string) {
	p := Page{URL: at.url, Depth: at.depth, From: at.from, Tools: []toollist.Tool{}, Findings: []lint.Finding{}}
	tab, err := b.NewTab(ctx)
	if err != nil {
		p.Error = err.Error()
		return p, nil
	}
	defer tab.Close()
	pageCtx, cancel := context.WithTimeout(ctx, o.Listing.MaxWait+browser.NavigateTimeout+10*time.Second)
	defer cancel()
	l, err := toollist.ReadTab(pageCtx, tab, at.url, o.Listing)
	if err != nil {
		p.Error = err.Error()
		return p, nil
	}
	p.Tools, p.Findings, p.FinalURL = l.Tools, lint.CheckWith(l, o.Lint), l.FinalURL
	return p, links(pageCtx, tab)
}

// linksJS lists where the page leads: its links, and each GET form's
// action with the form's own values (what a submit without typing sends).
// A form that is a tool (toolname) is left: its submit is an agent's act,
// not a way to another page.
const linksJS = `(() => {
  const out = [];
  for (const a of document.querySelectorAll("a[href], area[href]")) out.push(a.href);
  for (const f of document.forms) {
    if ((f.getAttribute("method") || "get").toLowerCase() !== "get" || f.hasAttribute("toolname")) continue;
    try {
      const u = new URL(f.action || location.href);
      u.search = new URLSearchParams(new FormData(f)).toString();
      out.push(u.href);
    } catch (_) {}
  }
  return out;
})()`

func links(ctx context.Context, tab *browser.Tab) []string {
	ctx, cancel := tab.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, vocab.Bound)
	defer cancelBound()
	out, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](linksJS))
	if err != nil {
		return nil
	}
	return out
}

// queued is a page waiting to be read.
type queued struct {
	url, from string
	depth     int
}

// queue is the crawl's breadth-first order: each page once, same origin
// only, without fragments, never a sign-out.
type queue struct {
	origin *url.URL
	seen   map[string]bool
	items  []queued
}

func newQueue(origin *url.URL) *queue { return &queue{origin: origin, seen: map[string]bool{}} }

func (q *queue) add(raw, from string, depth int) {
	u, ok := q.normal(raw)
	if !ok || q.seen[u] {
		return
	}
	q.seen[u] = true
	q.items = append(q.items, queued{u, from, depth})
}

func (q *queue) pop() (queued, bool) {
	if len(q.items) == 0 {
		return queued{}, false
	}
	next := q.items[0]
	q.items = q.items[1:]
	return next, true
}

func (q *queue) rest() []string {
	out := make([]string, len(q.items))
	for i, it := range q.items {
		out[i] = it.url
	}
	return out
}

// signOut matches a path a GET to which ends the session a crawl signed in
// with (--storage-state): it is never followed.
var signOut = []string{"logout", "log-out", "log_out", "signout", "sign-out", "sign_out", "logoff"}

// normal answers the URL a link names as the crawl keeps it, and whether it
// is one to follow: http(s), the start's origin, no sign-out.
func (q *queue) normal(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host != q.origin.Host || u.Scheme != q.origin.Scheme {
		return "", false
	}
	u.Fragment, u.RawFragment = "", ""
	if u.Path == "" {
		u.Path = "/"
	}
	low := strings.ToLower(u.Path + "?" + u.RawQuery)
	if slices.ContainsFunc(signOut, func(s string) bool { return strings.Contains(low, s) }) {
		return "", false
	}
	return u.String(), true
}

// DriftRule is the rule a drift is reported under in SARIF, beside lint's.
var DriftRule = lint.Rule{ID: "tool-drift", Severity: lint.Error,
	Doc: "One tool (its name, and its frame's path when a frame offers it) is offered with another description, schema or annotations on another page of the site."}

// Reports answers the crawl as lint reports, one per page read, with each
// drift a tool-drift finding on every page that offers one of its values
// but the most common (on each of them, when no value is the most common).
func (rep Report) Reports() []lint.Report {
	out := make([]lint.Report, len(rep.Pages))
	at := map[string]int{}
	for i, p := range rep.Pages {
		out[i] = lint.Report{URL: p.URL, Findings: slices.Clone(p.Findings), Error: p.Error}
		at[p.URL] = i
	}
	for _, d := range rep.Drift {
		tie := len(d.Variants) > 1 && len(d.Variants[0].Pages) == len(d.Variants[1].Pages)
		for k, v := range d.Variants {
			if k == 0 && !tie {
				continue
			}
			for _, u := range v.Pages {
				msg := fmt.Sprintf("its %s here differs from %d other page(s) of the site: %q", d.What, len(d.Variants)-1, v.Value)
				out[at[u]].Findings = append(out[at[u]].Findings, lint.Finding{Rule: DriftRule.ID, Severity: DriftRule.Severity, Tool: d.Tool, Message: msg})
			}
		}
	}
	return out
}

// Drift is one tool name offered differently on two or more pages.
type Drift struct {
	Tool string `json:"tool"`
	// What differs: "description", "inputSchema" or "annotations".
	What string `json:"what"`
	// Variants are the differing values, each with the pages that offer it,
	// the most common first.
	Variants []Variant `json:"variants"`
}

// Variant is one value of a drifting part and where it was met.
type Variant struct {
	Value string   `json:"value"`
	Pages []string `json:"pages"`
}

// FindDrift compares the tools of one name across pages, part by part. A
// name met once, or alike everywhere, does not drift. Pure: it reads the
// pages only.
func FindDrift(pages []Page) []Drift {
	type seen struct {
		values map[string][]string // value → pages
		order  []string
	}
	parts := map[string]map[string]*seen{} // tool → part → values
	for _, p := range pages {
		for _, t := range p.Tools {
			name := identity(t)
			for part, v := range map[string]string{
				"description": t.Description,
				"inputSchema": canonical(t.InputSchema),
				"annotations": annotations(t),
			} {
				if parts[name] == nil {
					parts[name] = map[string]*seen{}
				}
				s := parts[name][part]
				if s == nil {
					s = &seen{values: map[string][]string{}}
					parts[name][part] = s
				}
				if _, ok := s.values[v]; !ok {
					s.order = append(s.order, v)
				}
				if !slices.Contains(s.values[v], p.URL) {
					s.values[v] = append(s.values[v], p.URL)
				}
			}
		}
	}
	out := []Drift{}
	for _, tool := range slices.Sorted(maps.Keys(parts)) {
		for _, part := range []string{"description", "inputSchema", "annotations"} {
			s := parts[tool][part]
			if s == nil || len(s.order) < 2 {
				continue
			}
			d := Drift{Tool: tool, What: part}
			for _, v := range s.order {
				d.Variants = append(d.Variants, Variant{Value: v, Pages: s.values[v]})
			}
			slices.SortStableFunc(d.Variants, func(a, b Variant) int { return len(b.Pages) - len(a.Pages) })
			out = append(out, d)
		}
	}
	return out
}

// identity is a tool's across pages: its name, and the path of the frame
// that offers it when that is not the page's own document (a tool is its
// frame and its name; a frame's query differs from page to page).
func identity(t toollist.Tool) string {
	if t.Frame == "" {
		return t.Name
	}
	path := t.Frame
	if u, err := url.Parse(t.Frame); err == nil {
		path = u.Scheme + "://" + u.Host + u.Path
	}
	return t.Name + " in the frame " + path
}

// canonical is a schema's JSON with its keys in one order: the same schema
// written in another order does not drift.
func canonical(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func annotations(t toollist.Tool) string {
	b, _ := json.Marshal(t.Annotations)
	return string(b)
}
