package browser

import (
	"context"
	"testing"

	"github.com/agentready/agentready/internal/kit/hang"
)

// The next tab opens once the taken one has loaded its first page (not
// while it loads), or at once when another tab is asked for first: a
// caller that takes two tabs before loading either still gets the second.
func TestTheNextTabOpensAfterTheFirstLoadOrWhenAsked(t *testing.T) {
	b := launched(t)
	ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
	defer cancel()
	b.Settle() // the tab opened at launch is ready
	first, err := b.NewTab(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	b.Settle()
	if n := len(b.spare); n != 0 {
		t.Fatalf("%d tab(s) opened ahead before the taken tab loaded a page", n)
	}
	second, err := b.NewTab(ctx) // never navigated the first: asked for, it opens
	if err != nil {
		t.Fatalf("a second tab asked for before the first loaded: %v", err)
	}
	defer second.Close()
	if err := second.Navigate(ctx, "about:blank"); err != nil {
		t.Fatal(err)
	}
	b.Settle()
	if n := len(b.spare); n != 1 {
		t.Fatalf("%d tab(s) opened ahead after the taken tab loaded its page, want 1", n)
	}
}

// Two callers that each take a tab and wait for the other before loading
// a page both get theirs, and a browser closed while a tab it gave has
// loaded nothing still closes.
func TestTabsTakenTogetherBeforeAnyLoadAndABrowserClosedThen(t *testing.T) {
	b := launched(t)
	ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
	defer cancel()
	for round := range 3 {
		tabs := make(chan *Tab, 2)
		errs := make(chan error, 2)
		for range 2 {
			go func() {
				tab, err := b.NewTab(ctx)
				errs <- err
				tabs <- tab
			}()
		}
		for range 2 {
			if err := <-errs; err != nil {
				t.Fatalf("round %d: two tabs asked for together: %v", round, err)
			}
		}
		(<-tabs).Close()
		(<-tabs).Close()
	}
	if _, err := b.NewTab(ctx); err != nil { // taken, never loaded, never closed
		t.Fatal(err)
	}
	closed := make(chan struct{})
	go func() { b.Close(); close(closed) }()
	select {
	case <-closed:
	case <-ctx.Done():
		t.Fatal("the browser did not close while a tab it gave had loaded nothing")
	}
}
