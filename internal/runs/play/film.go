package play

import (
	"context"
	"slices"
	"sync"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/scenarios/vocab"
)

// FilmMarks are the marks where a run pictures the page for its report's
// filmstrip: the human mark, the page as the agent left it (what the person
// saw before confirming, and what the checks of the page after the agent
// judged). The start of the agent's phase gets none (the page as loaded,
// which no check looks at), and the end has the screenshot every run takes.
// Why, with the numbers: docs/decisions/2026-11-30-filmstrip.md.
var FilmMarks = []vocab.Phase{vocab.PhaseHuman}

// FilmQuality is the JPEG quality of a picture: the page's text stays
// readable at a third of the size of a PNG.
const FilmQuality = 60

// Film takes a tab's pictures at FilmMarks; AtMark is a runner.Target's.
type Film struct {
	tab    *browser.Tab
	taking sync.WaitGroup
	mu     sync.Mutex
	frames []bundle.Frame
	// lastLook is the page as the person left it, pictured at the leave
	// mark: once the run has navigated away, the tab shows another
	// document, so this is the run's screenshot (docs/decisions/
	// 2026-12-04-leave-phase.md).
	lastLook []byte
}

// NewFilm films tab.
func NewFilm(tab *browser.Tab) *Film { return &Film{tab: tab} }

// AtMark starts a picture of the page at the marks of FilmMarks and
// answers the wait for it: the runner reads the app's state meanwhile (most
// of a picture's time is Chromium producing a frame) and waits before it
// acts on the page, so the picture is the page at the mark. A picture that
// cannot be taken within the bound of a step is left out (the report then
// has none).
func (f *Film) AtMark(ctx context.Context, phase vocab.Phase) (wait func()) {
	if phase == vocab.PhaseLeave {
		return f.atLeave(ctx)
	}
	if !slices.Contains(FilmMarks, phase) {
		return nil
	}
	done := make(chan struct{})
	f.taking.Add(1)
	go func() {
		defer f.taking.Done()
		defer close(done)
		if img := f.picture(ctx); len(img) > 0 {
			f.mu.Lock()
			f.frames = append(f.frames, bundle.Frame{Phase: phase, Image: img})
			f.mu.Unlock()
		}
	}()
	return func() { <-done }
}

func (f *Film) picture(ctx context.Context) []byte {
	ctx, cancel := f.tab.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, vocab.Bound)
	defer cancelBound()
	q := int64(FilmQuality)
	res, err := chromedp.Call(ctx, page.CaptureScreenshot, page.CaptureScreenshotParams{
		Format: page.CaptureScreenshotFormatJpeg, Quality: &q, OptimizeForSpeed: new(true)})
	if err != nil {
		return nil
	}
	return res.Data
}

// atLeave starts the last look (a PNG, as the end screenshot was) and
// answers the wait for it: the runner waits before it hides the page.
func (f *Film) atLeave(ctx context.Context) (wait func()) {
	done := make(chan struct{})
	f.taking.Add(1)
	go func() {
		defer f.taking.Done()
		defer close(done)
		img := screenshot(ctx, f.tab)
		f.mu.Lock()
		f.lastLook = img
		f.mu.Unlock()
	}()
	return func() { <-done }
}

// LastLook answers the page as the person left it, pictured at the leave
// mark, or nil when the run did not leave the page or the picture failed.
func (f *Film) LastLook() []byte {
	if f == nil {
		return nil
	}
	f.taking.Wait()
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lastLook
}

// Frames answers the pictures taken, once those being taken are done.
func (f *Film) Frames() []bundle.Frame {
	if f == nil {
		return nil
	}
	f.taking.Wait()
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.frames)
}
