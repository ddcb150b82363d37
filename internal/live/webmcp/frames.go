package webmcp

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/cdp"

	"github.com/agentready/agentready/internal/data/record"
)

// Frames is what the client needs of its tab to call a tool where it
// lives: a tool of an iframe is called in that iframe, over the page API
// (its document's modelContext) and over CDP (the session that reports its
// tools: a cross-site iframe's own). Package browser implements it.
type Frames interface {
	// Resolve answers the id of the frame spec names (record.ParseFrame).
	Resolve(ctx context.Context, spec string) (string, error)
	// Session answers the session that reports the frame's tools; nil for
	// the page's own.
	Session(frame string) cdp.Session
	// Call runs the JavaScript function fn in the frame's document, with
	// its window as this, on args, awaits it and answers its value as JSON.
	// A JavaScript exception is a *PageException.
	Call(ctx context.Context, frame, fn string, args ...any) (json.RawMessage, error)
}

// PageException is a JavaScript exception thrown by a call in the page.
type PageException struct{ Text string }

func (e *PageException) Error() string { return e.Text }

// ErrAmbiguous answers a call by name alone to a tool several frames offer
// (none of them the top document): which one is meant is the caller's to say.
type ErrAmbiguous struct {
	Tool   string
	Frames []string // the frames' documents
}

func (e *ErrAmbiguous) Error() string {
	return fmt.Sprintf("%d frames offer a tool %q (%s) and the call names none: name one with frame (its iframe's selector, or the start of its URL or path)",
		len(e.Frames), e.Tool, strings.Join(e.Frames, ", "))
}

// Offered tells whether the page offers name now, in frame when given (a
// record.ParseFrame spec), anywhere otherwise, and the tool it offers:
// without calling it. Several frames offering it is offered.
func (c *Client) Offered(ctx context.Context, name, frame string) (record.Tool, bool, error) {
	ctx, cancel := c.within(ctx, c.bound())
	defer cancel()
	t, ok, err := c.pick(ctx, name, frame)
	var amb *ErrAmbiguous
	if errors.As(err, &amb) {
		return record.Tool{Name: name, Frame: amb.Frames[0]}, true, nil
	}
	return t, ok, err
}

// pick finds the tool a call means: the one the named frame offers; else,
// by name alone, the only one of that name, or the top document's when
// several frames offer one (the page's own tool before an embedded one's).
// Not offered at all, it answers ok false and a tool of that name in the
// named frame (or the top document), so that the call is still made and
// the browser's own "not found" recorded.
func (c *Client) pick(ctx context.Context, name, frame string) (tool record.Tool, ok bool, err error) {
	var want string
	if frame != "" {
		if c.Frames == nil {
			return record.Tool{}, false, fmt.Errorf("frame %q: this tab cannot reach frames", frame)
		}
		if want, err = c.Frames.Resolve(ctx, frame); err != nil {
			return record.Tool{}, false, fmt.Errorf("frame %q: %w", frame, err)
		}
	}
	top := mainFrame(ctx)
	var offered []record.Tool
	for _, t := range c.trace.Catalog() {
		if t.Name == name && (want == "" || t.FrameID == want) {
			offered = append(offered, t)
		}
	}
	switch len(offered) {
	case 0:
		return record.Tool{Name: name, FrameID: cmp.Or(want, top)}, false, nil
	case 1:
		return offered[0], true, nil
	}
	var frames []string
	for _, t := range offered {
		if t.FrameID == top {
			return t, true, nil
		}
		frames = append(frames, t.Frame)
	}
	return record.Tool{Name: name}, false, &ErrAmbiguous{Tool: name, Frames: frames}
}
