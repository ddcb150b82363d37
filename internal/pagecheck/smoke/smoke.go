package smoke

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/pagecheck/lint"
	"github.com/agentready/agentready/internal/pagecheck/toollist"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Kind names what a smoke call found.
type Kind string

// The findings.
const (
	ValidRefused    Kind = "valid-refused"    // the page refused an input its schema allows: the schema and the page disagree
	InvalidAccepted Kind = "invalid-accepted" // the page accepted an input its schema refuses: the page must validate
	NoAnswer        Kind = "no-answer"        // the tool never answered
	ReadOnlyWrites  Kind = "read-only-writes" // a tool annotated read-only sent a write to the app
	// NavigationConsequential: a registerTool() tool's call took the page
	// to another document (and its tools away) while the tool claims
	// readOnlyHint or lacks consequentialHint (playwright-webmcp's ESLint
	// rule of that name, which reads the source; here the call shows it).
	NavigationConsequential Kind = "navigation-consequential"
	// UntrustedContentUnmarked: a tool without untrustedContentHint answered
	// text shaped as an instruction to the model (playwright-webmcp's smoke
	// rule of that name): text others wrote, handed over as the site's own.
	UntrustedContentUnmarked Kind = "untrusted-content-unmarked"
	// BrowserRefused is no finding: the browser's own form validation
	// refused an input the suite made ("Form validation failed: …", Chromium
	// 156), which the schema allowed because Chromium's generated schema
	// leaves the field's constraint out. It is the suite's note (Notes).
	BrowserRefused Kind = "browser-refused"
)

// Finding is one disagreement seen in one call.
type Finding struct {
	Kind    Kind          `json:"kind"`
	Case    Case          `json:"case"`
	Result  record.Result `json:"result"`
	Writes  []string      `json:"writes,omitempty"`
	Message string        `json:"message"`
}

// Report is a smoke run of one page.
type Report struct {
	URL     string   `json:"url"`
	Offered int      `json:"offered"` // tools the page offers
	Calls   int      `json:"calls"`
	Skipped []string `json:"skipped,omitempty"` // tools not called, and why
	// Writes are the app's own write requests the calls sent, finding or
	// not: what a write tool reached (behind a sign-in: whether it did).
	Writes []Write `json:"writes,omitempty"`
	// Popups are the windows the calls opened (attached, so that a tool
	// that opens one answers): each call's, with the call.
	Popups   []Popup   `json:"popups,omitempty"`
	Findings []Finding `json:"findings"`
	// Notes are inputs of the suite's the browser refused before the page
	// saw them: the suite's mistakes, said, never blamed on the page.
	Notes []Finding `json:"notes,omitempty"`
}

// Popup is a window one call opened.
type Popup struct {
	Tool  string       `json:"tool"`
	Case  string       `json:"case"`
	Popup record.Popup `json:"popup"`
}

// Write is one call's write requests, "METHOD /path" each.
type Write struct {
	Tool     string   `json:"tool"`
	Case     string   `json:"case"`
	Requests []string `json:"requests"`
}

// Options say what may be called.
type Options struct {
	// AllowWrites calls tools not annotated read-only too: they may change
	// the app's data. Off by default.
	AllowWrites bool
	Page        toollist.Options
	Timeout     time.Duration // a call's answer (vocab.Bound when zero)
	// Tools, when given, are the only tools called (by name); one the page
	// does not offer is an error (ErrNotOffered) and nothing is called.
	Tools []string
}

// ErrNotOffered is Run's error for a tool asked for by name that the page
// does not offer.
var ErrNotOffered = errors.New("the page does not offer it")

// Run calls every tool of the page at url with the inputs its schema gives,
// each on a fresh page, and reports what disagreed.
func Run(ctx context.Context, b *browser.Browser, pageURL string, opts Options) (Report, error) {
	rep := Report{URL: pageURL, Findings: []Finding{}}
	listing, err := toollist.Read(ctx, b, pageURL, opts.Page)
	if err != nil {
		return rep, err
	}
	rep.Offered = len(listing.Tools)
	for _, name := range opts.Tools {
		if !slices.Contains(listing.Names(), name) {
			return rep, fmt.Errorf("%s: %w (it offers: %s)", name, ErrNotOffered, strings.Join(listing.Names(), ", "))
		}
	}
	for _, t := range listing.Sorted() {
		if len(opts.Tools) > 0 && !slices.Contains(opts.Tools, t.Name) {
			continue
		}
		if !t.Annotations.ReadOnly && !opts.AllowWrites {
			rep.Skipped = append(rep.Skipped, t.Name+": not annotated read-only (--allow-writes calls it)")
			continue
		}
		cases, err := CasesFor(t.Tool, formFields(listing, t))
		if err != nil {
			rep.Skipped = append(rep.Skipped, err.Error())
			continue
		}
		for _, c := range cases {
			f, writes, popups, err := call(ctx, b, pageURL, t.Tool, c, opts)
			if err != nil {
				return rep, err
			}
			rep.Calls++
			for _, p := range popups {
				rep.Popups = append(rep.Popups, Popup{Tool: t.Name, Case: c.Name, Popup: p})
			}
			if len(writes) > 0 {
				rep.Writes = append(rep.Writes, Write{Tool: t.Name, Case: c.Name, Requests: writes})
			}
			switch {
			case f != nil && f.Kind == BrowserRefused:
				rep.Notes = append(rep.Notes, *f)
			case f != nil:
				rep.Findings = append(rep.Findings, *f)
			}
		}
	}
	return rep, nil
}

// formValidationFailed starts the error Chromium 156 answers a declarative
// tool's call with when the form's own constraint validation refuses the
// values the call filled in (an email without @): the page never saw them.
const formValidationFailed = "UnknownError: Form validation failed:"

// formFields answers the fields of the form a declarative tool is made of,
// by name; nil for a registerTool() tool, or a form the listing could not
// read (a cross-origin frame's).
func formFields(l toollist.Listing, t toollist.Tool) map[string]toollist.Field {
	if !t.Declarative {
		return nil
	}
	page := cmp.Or(t.FrameURL, l.URL)
	for _, f := range l.Forms {
		if f.ToolName == nil || *f.ToolName != t.Name || strings.TrimSuffix(f.FrameURL, "/") != strings.TrimSuffix(page, "/") {
			continue
		}
		out := map[string]toollist.Field{}
		for _, fd := range f.Fields {
			out[fd.Name] = fd
		}
		return out
	}
	return nil
}

// call makes one case's call on a fresh page and judges what came of it.
func call(ctx context.Context, b *browser.Browser, pageURL string, t record.Tool, c Case, opts Options) (*Finding, []string, []record.Popup, error) {
	tab, err := b.NewTab(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	defer tab.Close()
	if p := opts.Page.Prepare; p != nil {
		if err := p(ctx, tab); err != nil {
			return nil, nil, nil, err
		}
	}
	if err := tab.Navigate(ctx, pageURL); err != nil {
		return nil, nil, nil, fmt.Errorf("open %s: %w", pageURL, err)
	}
	if err := tab.Tools.WaitTool(ctx, t.Name, true); err != nil {
		return nil, nil, nil, fmt.Errorf("%s is not offered on a fresh page: %w", t.Name, err)
	}
	if opts.Timeout > 0 {
		tab.Tools.Timeout = opts.Timeout
	}
	// The tool's frame in this tab: frame ids are a tab's own.
	frame := t.FrameID
	for _, here := range tab.Trace.Catalog() {
		if here.Name == t.Name && here.Frame == t.Frame {
			frame = here.FrameID
			break
		}
	}
	mark, traced, asked := tab.Net.Len(), tab.Trace.Len(), tab.NavigationsRequested()
	res := tab.Tools.Invoke(ctx, t.Name, c.Input, vocab.PageAPI)
	settled, cancel := tab.Bind(ctx)
	settled, cancelBound := context.WithTimeout(settled, vocab.Bound/3)
	_ = tab.Net.WaitOpen(settled, func(r record.Request) bool { return !r.Streams() }) // a stream never ends
	cancelBound()
	cancel()
	var writes []string
	for _, r := range tab.Net.Requests().Since(mark).Writes() {
		if record.SameOrigin(pageURL, r.URL) {
			writes = append(writes, r.Method+" "+r.Path)
		}
	}
	popups := tab.Popups.Entries()
	f := Finding{Case: c, Result: res, Writes: writes}
	refusedIt, why := record.Refused(res)
	switch {
	case t.Annotations.ReadOnly && len(writes) > 0:
		f.Kind, f.Message = ReadOnlyWrites, fmt.Sprintf("%s is annotated read-only, and sent %s", t.Name, strings.Join(writes, ", "))
	case !t.Declarative && (t.Annotations.ReadOnly || !t.Annotations.Consequential) &&
		((t.Frame == "" && tab.NavigationsRequested() > asked) || navigated(tab.Trace.Events(), traced, frame)):
		claim := "is not annotated consequentialHint"
		if t.Annotations.ReadOnly {
			claim = "is annotated readOnlyHint"
		}
		f.Kind, f.Message = NavigationConsequential, fmt.Sprintf("%s took the page to another document, and its tools with it (%s), and %s: say consequentialHint, never readOnlyHint", t.Name, c.Name, claim)
	case res.Status == vocab.NoResponse:
		f.Kind, f.Message = NoAnswer, fmt.Sprintf("%s did not answer (%s)", t.Name, c.Name)
	case c.Valid && refusedIt && t.Declarative && strings.HasPrefix(res.ErrorText, formValidationFailed):
		f.Kind, f.Message = BrowserRefused, fmt.Sprintf("%s: the browser refused the suite's input before the page saw it (%s): %s", t.Name, c.Name, res.ErrorText)
	case c.Valid && refusedIt:
		f.Kind, f.Message = ValidRefused, fmt.Sprintf("%s refused an input its schema allows (%s): %s", t.Name, c.Name, why)
	case !c.Valid && !refusedIt:
		f.Kind, f.Message = InvalidAccepted, fmt.Sprintf("%s accepted an input its schema refuses (%s)", t.Name, c.Name)
	case !t.Annotations.UntrustedContent && instructionIn(res) != "":
		f.Kind, f.Message = UntrustedContentUnmarked, fmt.Sprintf("%s answered text shaped as an instruction to the model (%s) without annotations.untrustedContentHint (%s): mark what others wrote, or keep it out of the result", t.Name, instructionIn(res), c.Name)
	default:
		return nil, writes, popups, nil
	}
	return &f, writes, popups, nil
}

// navigated tells whether, after the trace's first from events, the
// document of frame (the tool's: the page's own when "") went away: the
// suite removes a document's tools when its frame navigates or goes
// (record.Event.Inferred).
func navigated(events []record.Event, from int, frame string) bool {
	for _, e := range events[min(from, len(events)):] {
		if e.Kind == record.ToolsRemoved && e.Inferred != "" && (frame == "" || e.FrameID == frame) {
			return true
		}
	}
	return false
}

// instructionIn answers where a result holds text shaped as an instruction
// to the model, and which shape ("/0/text: ignore previous instructions"),
// or "": its text, or every string of its JSON, at any depth.
func instructionIn(res record.Result) string {
	if shape := lint.InstructionShape(res.OutputText); shape != "" {
		return shape
	}
	var v any
	if len(res.Output) == 0 || json.Unmarshal(res.Output, &v) != nil {
		return ""
	}
	var walk func(v any, at string, depth int) string
	walk = func(v any, at string, depth int) string {
		if depth > 64 {
			return ""
		}
		switch x := v.(type) {
		case string:
			if shape := lint.InstructionShape(x); shape != "" {
				return cmp.Or(at, "/") + ": " + shape
			}
		case []any:
			for i, c := range x {
				if found := walk(c, fmt.Sprintf("%s/%d", at, i), depth+1); found != "" {
					return found
				}
			}
		case map[string]any:
			keys := slices.Sorted(maps.Keys(x))
			for _, k := range keys {
				if found := walk(x[k], at+"/"+k, depth+1); found != "" {
					return found
				}
			}
		}
		return ""
	}
	return walk(v, "", 0)
}
