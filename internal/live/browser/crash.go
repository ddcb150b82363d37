package browser

import (
	"context"
	"errors"
	"sync"
	"time"
)

// ErrRendererCrashed ends the waits of a tab whose renderer crashed: the page
// is gone, and nothing it was asked answers any more.
var ErrRendererCrashed = errors.New("the page's renderer crashed (Inspector.targetCrashed)")

// crash is what a tab knows of its renderer's crash: Inspector.targetCrashed
// (the renderer process died: out of memory, killed, a browser bug). The
// first one closes done and ends alive, so every wait bound to the tab
// (Bind) stops at once instead of running to its bound.
type crash struct {
	once  sync.Once
	done  chan struct{}
	at    time.Time
	alive context.Context // ends with ErrRendererCrashed as its cause
	end   context.CancelCauseFunc
}

func newCrash(ctx context.Context) *crash {
	c := &crash{done: make(chan struct{})}
	c.alive, c.end = context.WithCancelCause(ctx)
	return c
}

func (c *crash) crashed() {
	c.once.Do(func() {
		c.at = time.Now()
		close(c.done)
		c.end(ErrRendererCrashed)
	})
}

// Crashed is closed once the tab's renderer crashed; it is never closed for
// a tab not opened by NewTab.
func (t *Tab) Crashed() <-chan struct{} {
	if t.crash == nil {
		return nil
	}
	return t.crash.done
}

// CrashedAt answers when the tab's renderer crashed, and whether it did.
func (t *Tab) CrashedAt() (time.Time, bool) {
	if t.crash == nil {
		return time.Time{}, false
	}
	select {
	case <-t.crash.done:
		return t.crash.at, true
	default:
		return time.Time{}, false
	}
}

// alive is the tab's context until its renderer crashes.
func (t *Tab) alive() context.Context {
	if t.crash == nil {
		return t.Ctx
	}
	return t.crash.alive
}
