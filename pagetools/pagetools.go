// Package pagetools answers a page's tools without a scenario: it opens the
// page in the suite's browser, waits for tools registered after the load,
// and lists every tool of every frame with what the protocol and the page
// API say of it. agentready catalog, lint, init and smoke stand on it.
package pagetools

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/browser"
	"github.com/agentready/agentready/record"
)

// Tool is one tool of a page, as a person listing tools wants it.
type Tool struct {
	record.Tool
	Kind     string `json:"kind"`               // declarative (a form) or imperative (registerTool)
	FrameURL string `json:"frameUrl,omitempty"` // the document of the frame that offers it
}

// Listing is a page's tools.
type Listing struct {
	URL   string `json:"url"`
	Tools []Tool `json:"tools"`
	// Disagreement is set when the protocol's catalog and getTools() do not
	// name the same tools the same way: a finding, not an error.
	Disagreement string `json:"disagreement,omitempty"`
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
}

// DefaultOptions wait for 300 ms of quiet, 5 s at most.
var DefaultOptions = Options{Settle: 300 * time.Millisecond, MaxWait: 5 * time.Second}

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
	if err := tab.Navigate(ctx, url); err != nil {
		return Listing{}, fmt.Errorf("open %s: %w", url, err)
	}
	if err := settle(ctx, tab, opts); err != nil {
		return Listing{}, err
	}
	catalog, pageTools, err := tab.Tools.CatalogAndPage(ctx)
	l := Listing{URL: url, Tools: []Tool{}}
	if err != nil {
		if pageTools == nil {
			return Listing{}, err
		}
		l.Disagreement = err.Error()
	}
	titles := map[string]string{}
	for _, p := range pageTools {
		titles[p.Name] = p.Title
	}
	frames := frameURLs(ctx, tab)
	for _, t := range catalog {
		t.Title = cmp.Or(t.Title, titles[t.Name])
		kind := "imperative"
		if t.Declarative {
			kind = "declarative"
		}
		l.Tools = append(l.Tools, Tool{Tool: t, Kind: kind, FrameURL: frames[t.FrameID]})
	}
	return l, nil
}

// settle waits until the catalog has not changed for opts.Settle, at most
// opts.MaxWait in all: a page may register tools from a script that runs
// after the load.
func settle(ctx context.Context, tab *browser.Tab, opts Options) error {
	ctx, cancel := context.WithTimeout(ctx, opts.MaxWait)
	defer cancel()
	for {
		n := tab.Trace.Len()
		quiet, cancelQuiet := context.WithTimeout(ctx, opts.Settle)
		err := tab.Trace.WaitUntil(quiet, "a change of the catalog", func(events []record.Event) bool { return len(events) > n })
		cancelQuiet()
		switch {
		case err == nil:
			continue // it changed: wait for quiet again
		case ctx.Err() != nil:
			return nil // the whole bound is used: read what there is
		default:
			return nil // quiet for opts.Settle
		}
	}
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
