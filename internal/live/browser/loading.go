package browser

import (
	"context"
	"fmt"
	"sync"

	"github.com/chromedp/cdproto/page"
)

// loading follows whether the tab's top frame is loading a document: a tool
// whose form navigates leaves the page mid-load, and a snapshot taken then
// reads neither the old page nor the new one.
type loading struct {
	mu      sync.Mutex
	frame   string // the top frame's id (the page target's id), once known
	busy    bool
	changed chan struct{}
	// requested counts the navigations the top document asked for itself
	// (a script's location change, a link, a form's submit): the renderer
	// reports each as it is asked, ahead of anything the script does next.
	requested int
}

func newLoading() *loading { return &loading{changed: make(chan struct{})} }

func (l *loading) observe(ev any) {
	var frame string
	var busy bool
	switch ev := ev.(type) {
	case *page.EventFrameRequestedNavigation:
		l.mu.Lock()
		if l.frame == "" || string(ev.FrameID) == l.frame {
			l.requested++
		}
		l.mu.Unlock()
		return
	case *page.EventFrameStartedLoading:
		frame, busy = string(ev.FrameID), true
	case *page.EventFrameStoppedLoading:
		frame, busy = string(ev.FrameID), false
	default:
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.frame != "" && frame != l.frame {
		return
	}
	l.busy = busy
	close(l.changed)
	l.changed = make(chan struct{})
}

// WaitLoaded waits until the tab's top frame is not loading a document, never
// past ctx (give it a bound).
func (t *Tab) WaitLoaded(ctx context.Context) error {
	l := t.loading
	for {
		l.mu.Lock()
		busy, changed := l.busy, l.changed
		l.mu.Unlock()
		if !busy {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("waiting for the page to finish loading: %w", ctx.Err())
		}
	}
}

// NavigationsRequested answers how many navigations the tab's top document
// has asked for itself so far: a caller notes it before an act and compares
// after, to tell whether the act took the page elsewhere.
func (t *Tab) NavigationsRequested() int {
	t.loading.mu.Lock()
	defer t.loading.mu.Unlock()
	return t.loading.requested
}

// pageID answers the page target's id ("" before it is known).
func (l *loading) pageID() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.frame
}
