package webmcp

import (
	"context"
	"sync"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// answerHold holds the answers the page's script requests get (the Fetch domain,
// paused at the Response stage: the app has done what the request asked,
// and the page has not heard so) while a call that is to be canceled runs,
// so that the cancel lands while the call still waits for its answer
// (issue 44 item 4). Without it, a tool that answers in 35 ms never sees a
// cancel sent at 0 ms: the race decided which path the run tested.
// docs/decisions/2026-12-06-a-cancel-that-lands.md says why this and not
// the page's clock alone.
type answerHold struct {
	c       *Client
	stop    context.CancelFunc
	mu      sync.Mutex
	held    []fetch.RequestID
	first   chan struct{} // closed when the first answer is held
	firstOK bool
	done    chan struct{} // the listener ended
}

// holdAnswers starts holding the tab's answers; release lets them go.
func (c *Client) holdAnswers(ctx context.Context) (*answerHold, error) {
	tab, cancelTab := c.bind(ctx)
	listen, stopListen := context.WithCancel(tab)
	h := &answerHold{c: c, first: make(chan struct{}), done: make(chan struct{}),
		stop: func() { stopListen(); cancelTab() }}
	paused := chromedp.Events(listen, fetch.RequestPaused) // subscribed before the domain is on
	go func() {
		defer close(h.done)
		for ev, err := range paused {
			if err != nil {
				return
			}
			h.mu.Lock()
			h.held = append(h.held, ev.RequestID)
			if !h.firstOK {
				h.firstOK = true
				close(h.first)
			}
			h.mu.Unlock()
		}
	}()
	bounded, cancel := context.WithTimeout(tab, c.bound())
	defer cancel()
	// Only the script's own requests (fetch, XHR): a tool's answer waits
	// on those. A request of the page's load held (its favicon, measured)
	// kept the next call from starting at all.
	patterns := []*fetch.RequestPattern{
		{URLPattern: "*", ResourceType: network.ResourceTypeFetch, RequestStage: fetch.RequestStageResponse},
		{URLPattern: "*", ResourceType: network.ResourceTypeXHR, RequestStage: fetch.RequestStageResponse},
	}
	if _, err := chromedp.Call(bounded, fetch.Enable, fetch.EnableParams{Patterns: patterns}); err != nil {
		h.stop()
		<-h.done
		return nil, err
	}
	return h, nil
}

// firstHeld is closed once an answer is held; nil for no hold (a wait on
// it never ends).
func (h *answerHold) firstHeld() <-chan struct{} {
	if h == nil {
		return nil
	}
	return h.first
}

// release lets every held answer go on to the page and stops holding.
// It answers how many it held.
func (h *answerHold) release() int {
	if h == nil {
		return 0
	}
	ctx, cancel := h.c.within(context.Background(), h.c.bound())
	defer cancel()
	// Off first: a request paused after this is not paused at all; the
	// Fetch domain resumes what it still holds when it is disabled, and
	// each one held is continued besides.
	_, _ = chromedp.Call(ctx, fetch.Disable, cdp.Empty{})
	h.stop()
	<-h.done
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, id := range h.held {
		_, _ = chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id})
	}
	return len(h.held)
}
