// Package webmcp is the suite's WebMCP client: the catalog of a page's tools,
// invocation through the page API or CDP with one result type, and an ordered
// trace of every tool event, whoever caused it.
package webmcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios/vocab"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/webmcp"
)

// Recorder keeps the trace of one tab. Observe is called from the tab's
// listener, in the order the browser sent the events; everything else may be
// called from any goroutine.
type Recorder struct {
	mu      sync.Mutex
	events  []record.Event
	changed chan struct{}
	now     func() time.Time
	toolIDs map[string]string // frame+name → toolId, from raw toolsAdded (Chromium 159+)
	loaders map[string]string // frame → loader of its current document
	frames  map[string]frameDoc
	top     string // the top frame's id
	loads   []int  // len(events) at each load event of the top document (Page.loadEventFired)
}

// frameDoc is a frame's current document, as Page.frameNavigated told.
type frameDoc struct {
	url    string
	parent string
}

// NewRecorder makes an empty trace.
func NewRecorder() *Recorder {
	return &Recorder{changed: make(chan struct{}), now: time.Now}
}

// BindingName is the page binding through which the tab's init script reports
// the page-side events toolactivated and toolcancel into the same ordered stream.
const BindingName = "__agentreadyWebMCPEvent"

// Observe records ev when it is a WebMCP event. It returns fast and runs no
// command, as a chromedp listener must.
func (r *Recorder) Observe(ev any) {
	var e record.Event
	switch ev := ev.(type) {
	case *webmcp.EventToolsAdded:
		e = record.Event{Kind: record.ToolsAdded}
		for _, t := range ev.Tools {
			e.Tools = append(e.Tools, r.inFrame(toolFromProtocol(t)))
		}
	case *webmcp.EventToolsRemoved:
		e = record.Event{Kind: record.ToolsRemoved}
		for _, t := range ev.Tools {
			e.Tools = append(e.Tools, record.Tool{Name: t.Name, FrameID: string(t.FrameID)})
		}
	case *webmcp.EventToolInvoked:
		e = record.Event{Kind: record.ToolInvoked, ToolName: ev.ToolName, FrameID: string(ev.FrameID), InvocationID: ev.InvocationID, Input: inputJSON(ev.Input)}
	case *webmcp.EventToolResponded:
		e = record.Event{Kind: record.ToolResponded, InvocationID: ev.InvocationID, Status: string(ev.Status), Output: json.RawMessage(ev.Output), ErrorText: ev.ErrorText}
		if e.ErrorText == "" && ev.Exception != nil {
			e.ErrorText = ev.Exception.Description
		}
	case *page.EventFrameNavigated:
		if ev.Frame != nil {
			r.noteFrame(ev.Frame.ID.String(), ev.Frame.ParentID.String(), ev.Frame.URL)
			r.documentChanged(string(ev.Frame.ID), string(ev.Frame.LoaderID))
		}
		return
	case *page.EventLoadEventFired:
		r.mu.Lock()
		r.loads = append(r.loads, len(r.events))
		r.mu.Unlock()
		return
	case *page.EventFrameDetached:
		r.frameGone(string(ev.FrameID), "the frame was detached ("+string(ev.Reason)+")")
		return
	case *runtime.EventBindingCalled:
		if ev.Name != BindingName {
			return
		}
		var p struct {
			Kind     record.Kind       `json:"kind"`
			ToolName string            `json:"toolName"`
			Planted  vocab.AttackPlace `json:"planted"`
		}
		if json.Unmarshal([]byte(ev.Payload), &p) != nil {
			return
		}
		switch {
		case p.Kind == record.ToolActivated || p.Kind == record.ToolCanceled:
			e = record.Event{Kind: p.Kind, ToolName: p.ToolName}
		case p.Kind == record.AttackPlanted && p.Planted.Valid():
			e = record.Event{Kind: p.Kind, ToolName: p.ToolName, Planted: p.Planted}
		default:
			return
		}
	default:
		return
	}
	r.add(e)
}

// Registration is a tool entering or leaving the top document, and
// whether its load event had fired by then.
type Registration struct {
	Tool      string `json:"tool"`
	Removed   bool   `json:"removed,omitempty"`
	AfterLoad bool   `json:"afterLoad,omitempty"`
}

// Timeline answers the top document's registrations and removals since the
// trace held from events, and whether the top document's load event fired
// since. Which came first is read from the tab's ordered stream, where the
// renderer reports a registration (WebMCP.toolsAdded) as it is made and the
// load event (Page.loadEventFired) once its handlers have run: an order no
// busy machine changes, where a time measured on either side would. (The
// page's toolchange event, measured on Chromium 156, is no timestamp of a
// registration: it comes as a later task, after the load event on a page
// that registered as it was parsed.)
func (r *Recorder) Timeline(from int) (regs []Registration, loaded bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	load := -1
	if k := slices.IndexFunc(r.loads, func(n int) bool { return n >= from }); k >= 0 {
		load, loaded = r.loads[k], true
	}
	for i := from; i < len(r.events); i++ {
		e := r.events[i]
		if (e.Kind != record.ToolsAdded && e.Kind != record.ToolsRemoved) || e.Inferred != "" {
			continue
		}
		for _, t := range e.Tools {
			if t.FrameID != r.top {
				continue
			}
			regs = append(regs, Registration{Tool: t.Name, Removed: e.Kind == record.ToolsRemoved, AfterLoad: loaded && i >= load})
		}
	}
	return regs, loaded
}

// noteFrame keeps a frame's document URL, for the tools it offers.
func (r *Recorder) noteFrame(frame, parent, url string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.frames == nil {
		r.frames = map[string]frameDoc{}
	}
	r.frames[frame] = frameDoc{url: url, parent: parent}
	if parent == "" {
		r.top = frame
	}
}

// inFrame notes on a tool of a frame other than the top one that frame's
// document and whether it is of another origin than the top document.
func (r *Recorder) inFrame(t record.Tool) record.Tool {
	r.mu.Lock()
	defer r.mu.Unlock()
	f, known := r.frames[t.FrameID]
	if !known || f.parent == "" {
		return t
	}
	t.Frame = f.url
	if top, ok := r.frames[r.top]; ok {
		t.CrossOrigin = origin(f.url) != origin(top.url)
	}
	return t
}

// origin is a URL's scheme, host and port ("" when it has none).
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// documentChanged notes a frame's new document: the tools of the document it
// had leave the catalog (Chromium 156 sends no toolsRemoved for them).
func (r *Recorder) documentChanged(frame, loader string) {
	r.mu.Lock()
	if r.loaders == nil {
		r.loaders = map[string]string{}
	}
	prev, known := r.loaders[frame]
	r.loaders[frame] = loader
	r.mu.Unlock()
	if known && prev != loader {
		r.frameGone(frame, "the frame's document was replaced (navigation)")
	}
}

// FrameGone removes, with an inferred event, every tool the frame's
// document had registered: for a frame whose going only the tab sees (a
// cross-site iframe's target detached).
func (r *Recorder) FrameGone(frame, why string) { r.frameGone(frame, why) }

// frameGone removes, with an inferred event, every tool the frame's
// document had registered.
func (r *Recorder) frameGone(frame, why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var gone []record.Tool
	for _, t := range record.CatalogAt(r.events, len(r.events)) {
		if t.FrameID == frame {
			gone = append(gone, record.Tool{Name: t.Name, FrameID: t.FrameID})
		}
	}
	if len(gone) == 0 {
		return
	}
	r.addLocked(record.Event{Kind: record.ToolsRemoved, Tools: gone, FrameID: frame, Inferred: why})
}

func (r *Recorder) add(e record.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.addLocked(e)
}

func (r *Recorder) addLocked(e record.Event) {
	e.Seq = len(r.events) + 1
	e.Time = r.now()
	r.events = append(r.events, e)
	close(r.changed)
	r.changed = make(chan struct{})
}

// inputJSON keeps the invocation input as JSON when it is JSON, and as a JSON
// string otherwise.
func inputJSON(s string) json.RawMessage {
	if json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	b, _ := json.Marshal(s)
	return b
}

// Events returns a copy of the trace.
func (r *Recorder) Events() []record.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]record.Event(nil), r.events...)
}

// Len is the number of events so far: a mark to look after.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.events)
}

// WaitFor waits until an event after mark satisfies match, or ctx ends. It
// answers the event, or an error that says what was awaited.
func (r *Recorder) WaitFor(ctx context.Context, mark int, what string, match func(record.Event) bool) (record.Event, error) {
	var found record.Event
	err := r.WaitUntil(ctx, what, func(events []record.Event) bool {
		for _, e := range events[min(mark, len(events)):] {
			if match(e) {
				found = e
				return true
			}
		}
		return false
	})
	return found, err
}

// WaitUntil waits until cond holds for the trace so far, or ctx ends. cond
// sees a copy of the events and runs without the recorder's lock.
func (r *Recorder) WaitUntil(ctx context.Context, what string, cond func([]record.Event) bool) error {
	for {
		r.mu.Lock()
		events := append([]record.Event(nil), r.events...)
		changed := r.changed
		r.mu.Unlock()
		if cond(events) {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", what, ctx.Err())
		}
	}
}

// Catalog is the catalog after every event recorded so far.
func (r *Recorder) Catalog() record.Catalog {
	c, _ := r.CatalogSeen()
	return c
}

// CatalogSeen is Catalog with the number of events it folds: a mark to
// wait after that no event can slip past between the read and the wait.
func (r *Recorder) CatalogSeen() (record.Catalog, int) {
	events := r.Events()
	return r.withToolIDs(record.CatalogAt(events, len(events))), len(events)
}
