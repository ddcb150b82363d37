package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/live/webmcp"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

const directJS = `(async (url, method, body, meta, header, cookie, token) => {
  const headers = { Accept: "application/json" };
  if (body !== null) headers["Content-Type"] = "application/json";
  if (meta) {
    const token = document.querySelector('meta[name="' + meta + '"]')?.content;
    if (token === undefined) return { error: "no <meta name=\"" + meta + "\"> on the page for the CSRF token" };
    headers[header] = token;
  }
  if (cookie) {
    const kv = document.cookie.split("; ").find((c) => c.startsWith(cookie + "="));
    if (kv === undefined) return { error: "no cookie " + cookie + " the page's script can read for the CSRF token" };
    headers[header] = decodeURIComponent(kv.slice(cookie.length + 1));
  }
  if (token !== null) headers[header] = token;
  try {
    const r = await fetch(url, { method, headers, credentials: "include", body: body === null ? undefined : JSON.stringify(body) });
    const text = await r.text();
    let parsed = null;
    try { parsed = JSON.parse(text); } catch (_) {}
    return { status: r.status, body: parsed };
  } catch (e) { return { error: String(e) }; }
})`

// direct sends a request from the page as the person's session: their
// cookies and CSRF token, none of the page's own checks.
func (r *runner) direct(ctx context.Context, phase vocab.Phase, i int, d scenarios.DirectRequest) scenarios.DirectRecord {
	rec := scenarios.DirectRecord{Phase: phase, Index: i, Method: strings.ToUpper(d.Method), Path: d.Path}
	r.settleDocument(ctx)
	ctx, cancel := r.t.Tab.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, r.t.Bound)
	defer cancelBound()
	meta, header, cookie := "", "", ""
	var token *string
	if c := d.CSRF; c != nil {
		meta, header, cookie = c.Meta, c.Header, c.Cookie
		if c.From != nil {
			t, err := r.csrfFrom(ctx, *c.From)
			if err != nil {
				rec.Error = "the CSRF token: " + err.Error()
				return rec
			}
			token = &t
		}
	}
	out, err := r.fromPage(ctx, d.Path, rec.Method, d.Body, meta, header, cookie, token)
	switch {
	case err != nil:
		rec.Error = err.Error()
	case out.Error != "":
		rec.Error = out.Error
	default:
		rec.Status = out.Status
		if string(out.Body) != "null" {
			rec.Body = out.Body
		}
	}
	return rec
}

// pageAnswer is what directJS answers: the status and JSON body, or why
// there was no answer.
type pageAnswer struct {
	Status int             `json:"status"`
	Body   json.RawMessage `json:"body"`
	Error  string          `json:"error"`
}

// fromPage sends a request from the page with directJS (its CSRF token
// from meta, cookie or token when given) and answers what came back.
func (r *runner) fromPage(ctx context.Context, path, method string, body any, meta, header, cookie string, token *string) (pageAnswer, error) {
	args, err := json.Marshal([]any{r.t.BaseURL + path, method, body, meta, header, cookie, token})
	if err != nil {
		return pageAnswer{}, err
	}
	return chromedp.Run(ctx, chromedp.Evaluate[pageAnswer](directJS+"(..."+string(args)+")", chromedp.EvalAwaitPromise))
}

// csrfFrom reads the token a read of the app answers, as the page's own
// script would get it: sent from the page (the person's session), its JSON
// answer's one value at the path.
func (r *runner) csrfFrom(ctx context.Context, from scenarios.CSRFFrom) (string, error) {
	method, p, _ := from.Request.Split()
	out, err := r.fromPage(ctx, p, method, nil, "", "", "", nil)
	switch {
	case err != nil:
		return "", err
	case out.Error != "":
		return "", errors.New(out.Error)
	case out.Status >= 400:
		return "", fmt.Errorf("%s answered %d", from.Request, out.Status)
	}
	token, err := scenarios.TakeValue(out.Body, from.Path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", from.Request, err)
	}
	return token, nil
}

func (r *runner) call(ctx context.Context, phase vocab.Phase, i int, c scenarios.Call) {
	tools := r.t.Tab.Tools
	r.settleCatalog(ctx, vocab.SettleCall, phase, i, c.Tool)
	settled := len(r.ev.CatalogSettles) - 1
	before := r.t.Tab.Trace.Catalog().Names()
	if a := r.ev.Attack; a != nil {
		a.CallMarks = append(a.CallMarks, scenarios.Mark{Trace: r.t.Tab.Trace.Len(), Requests: r.t.Tab.Net.Len()})
	}
	var res record.Result
	var probe *scenarios.Probe
	// A value carried from an earlier call's result is taken now, and the
	// call recorded with it in place: what was sent (scenarios/carry.go).
	input, carried, err := scenarios.ResolveCarried(c.Input, r.ev.Calls)
	if err == nil {
		c.Input = input
	}
	if err == nil && c.Expect != nil && c.Expect.NotInCatalog {
		// A probe of a tool that must be absent looks first, and calls
		// only what is absent (the browser's refusal is its evidence):
		// calling a tool that is there would run what must not be reachable.
		tool, offered, lookErr := tools.Offered(ctx, c.Tool, c.Frame)
		probe = &scenarios.Probe{Offered: offered}
		switch {
		case lookErr != nil:
			// A look that failed is no look: the probe calls nothing, and
			// the fault says why its verdict stands on nothing.
			probe = nil
			err = fmt.Errorf("look for %s before a probe, without calling it: %w", c.Tool, lookErr)
		case offered:
			probe.Frame = tool.Frame
		}
	}
	switch {
	case err != nil:
		res = record.Result{Tool: c.Tool, Transport: c.Transport.OrDefault(), Status: vocab.Failed, ErrorText: "not called: " + err.Error()}
	case probe != nil && probe.Offered:
		res = record.Result{Tool: c.Tool, Transport: c.Transport.OrDefault(), Status: vocab.Failed,
			ErrorText: "not called: " + c.Tool + " is offered, and a probe of a tool that must be absent never calls one that is there"}
	case phase == vocab.PhaseAgent && c.Expect != nil && c.Expect.AnsweredIn == vocab.PhaseHuman:
		var p *webmcp.Pending
		if p, err = tools.Start(ctx, c.Tool, c.Frame, c.Input, c.Transport.OrDefault()); err == nil {
			r.pending = append(r.pending, pendingCall{call: len(r.ev.Calls), p: p})
			res = p.Result()
		}
	case c.CancelAfter != nil: // the agent's own timeout, then (in a later call) its retry
		res, err = tools.InvokeCanceling(ctx, c.Tool, c.Frame, c.Input, c.Transport.OrDefault(), time.Duration(*c.CancelAfter), r.advance(ctx))
	default:
		res, err = tools.InvokeIn(ctx, c.Tool, c.Frame, c.Input, c.Transport.OrDefault())
	}
	if err != nil {
		// The call could not be addressed (no such frame, or a name several
		// frames offer and the call names none): the case's mistake, never
		// the page's answer.
		r.faultFrom(phase, "%s call %d (%s): %v", phase, i, c.Tool, err)
		res.Status, res.ErrorText = vocab.Failed, err.Error()
	}
	if c.Expect == nil || !c.Expect.NotInCatalog {
		r.lateTool(ctx, settled, c.Tool, before)
	}
	if x := c.Expect; x != nil && x.CatalogAfter != nil {
		// Tools enter and leave the catalog just after an answer; wait (a
		// bounded time) for the state the scenario looks for before recording.
		// The tools that must leave first: when the call navigates, they
		// leave with the old document, and only then is a tool that must be
		// present looked for in the new one (a site-wide tool is on both:
		// the old document's would answer at once).
		advance := r.advance(ctx) // on the page's clock, as the settle
		for _, t := range x.CatalogAfter.Absent {
			_ = tools.WaitToolOn(ctx, t, false, advance)
		}
		for _, t := range x.CatalogAfter.Present {
			_ = tools.WaitToolOn(ctx, t, true, advance)
		}
	}
	r.ev.Calls = append(r.ev.Calls, scenarios.CallRecord{Phase: phase, Index: i, Call: c, Result: res,
		CatalogBefore: before, CatalogAfter: r.t.Tab.Trace.Catalog().Names(), Probe: probe, Carried: carried})
}

func (r *runner) steps(ctx context.Context, phase vocab.Phase, steps []scenarios.Step) {
	for i, s := range steps {
		err := r.step(ctx, phase, i, s)
		switch {
		case err == nil:
		case s.IsWait() && errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
			r.ev.Unmet = append(r.ev.Unmet, fmt.Sprintf("%s step %d (%s): not within %s", phase, i, strings.Join(s.Kinds(), ","), r.t.Bound))
		default:
			r.faultFrom(phase, "%s step %d (%s): %v", phase, i, strings.Join(s.Kinds(), ","), err)
		}
	}
}

func (r *runner) step(ctx context.Context, phase vocab.Phase, i int, s scenarios.Step) error {
	tab := r.t.Tab
	if !s.IsWait() {
		r.actedAt = tab.Net.Len()
	}
	switch {
	case s.Call != nil:
		r.call(ctx, phase, i, *s.Call)
		return nil
	case s.Request != nil:
		r.ev.Direct = append(r.ev.Direct, r.direct(ctx, phase, i, *s.Request))
		return nil
	case s.Navigate != "":
		if err := tab.Navigate(ctx, r.t.BaseURL+s.Navigate); err != nil {
			return err
		}
		r.settleCatalog(ctx, vocab.SettleNavigate, phase, i, "")
		return nil
	case s.WaitTool != "":
		return tab.Tools.WaitToolOn(ctx, s.WaitTool, true, r.advance(ctx))
	case s.ClosePopup:
		ctx, cancel := context.WithTimeout(ctx, r.t.Bound)
		defer cancel()
		return tab.ClosePopup(ctx)
	case s.InPopup != nil:
		// The popup is waited for within the step's bound, then acted on
		// as the page is (no review: what a person saw in another window
		// is not read).
		ctx, cancelBound := context.WithTimeout(ctx, r.t.Bound)
		defer cancelBound()
		ctx, cancel, err := tab.BindPopup(ctx)
		if err != nil {
			return err
		}
		defer cancel()
		return r.act(ctx, i, *s.InPopup, false, nil) // the popup's time is its own
	}
	ctx, cancel := tab.Bind(ctx)
	defer cancel()
	if s.IsWait() {
		// On the page's clock, bounded by its time (webmcp.UntilOnPage):
		// a real-time bound here would cut a grant of the clock short.
		if advance := r.advance(ctx); advance != nil {
			return r.act(ctx, i, s, false, advance)
		}
	}
	ctx, cancelBound := context.WithTimeout(ctx, r.t.Bound)
	defer cancelBound()
	return r.act(ctx, i, s, phase == vocab.PhaseHuman, nil)
}

// act does a click, fill or wait in the window ctx is bound to; with
// review, what the person had before them is read before a click. A wait
// runs on the page's clock through advance (webmcp.UntilOnPage), or in
// real time, bounded by ctx, when advance is nil.
func (r *runner) act(ctx context.Context, i int, s scenarios.Step, review bool, advance webmcp.Advance) error {
	tab := r.t.Tab
	switch {
	case s.Click != "":
		if review {
			if err := r.review(ctx, i, s.Click); err != nil {
				return err
			}
		}
		return chromedp.Do(ctx, chromedp.Click(s.Click, browser.Deep(s.Click), chromedp.NodeVisible))
	case len(s.Fill) > 0:
		for _, sel := range slices.Sorted(maps.Keys(s.Fill)) {
			// A person replaces a value by selecting it and typing over it.
			// chromedp.Clear empties the value attribute, which no longer
			// holds the value once a script or a tool has set it: the typed
			// text was appended to a tool's prepared value.
			if err := chromedp.Do(ctx, chromedp.Focus(sel, browser.Deep(sel))); err != nil {
				return err
			}
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](selectFocused)); err != nil {
				return err
			}
			if err := typeValue(ctx, sel, s.Fill[sel]); err != nil {
				return err
			}
		}
		return nil
	case s.WaitFor != "" && advance != nil:
		return webmcp.UntilOnPage(ctx, advance, r.t.Bound, func(ctx context.Context) (bool, error) {
			found, err := chromedp.Run(ctx, chromedp.Evaluate[bool](browser.DeepFirst(s.WaitFor)+" !== null"))
			if midNavigation(err) {
				return false, nil // the page is between documents: look again in the next one
			}
			return found, err
		})
	case s.WaitFor != "":
		return chromedp.Do(ctx, chromedp.WaitReady(s.WaitFor, browser.Deep(s.WaitFor)))
	case s.WaitRequest != "":
		method, p, _ := s.WaitRequest.Split()
		match := func(q record.Request) bool { return record.MatchRequest(q.Method, q.Path, method, p) }
		if advance != nil {
			return webmcp.UntilOnPage(ctx, advance, r.t.Bound, func(context.Context) (bool, error) {
				_, ok := tab.Net.Find(r.actedAt, match)
				return ok, nil
			})
		}
		_, err := tab.Net.WaitFor(ctx, r.actedAt, match)
		return err
	}
	return fmt.Errorf("nothing to do")
}

// midNavigation tells whether an evaluation failed only because the
// document it ran in went away under it: a form's POST that navigates, a
// redirect. Chromium 156 answers "Inspected target navigated or closed"
// (-32000), or that the execution context was destroyed or cannot be found.
// A wait for an element looks again in the next document; it is no fault.
func midNavigation(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "Inspected target navigated or closed") ||
		strings.Contains(msg, "Execution context was destroyed") ||
		strings.Contains(msg, "Cannot find context with specified id")
}

// selectFocused selects the whole value of the focused control, so that
// the keys typed next replace it.
const selectFocused = `(e => { if (e && typeof e.select === "function") { e.select(); return true } return false })(document.activeElement)`

// cmpOr answers v, or empty when v is nil: a record that was taken but held
// nothing is empty, not missing.
func cmpOr[S ~[]E, E any](v, empty S) S {
	if v == nil {
		return empty
	}
	return v
}

// typeValue types value into the focused control at sel as a person's
// keyboard does. A combining mark (the accent of a decomposed é) is no
// key: chromedp.SendKeys dropped it, measured, and the page got "cafe" for
// "café" written in two code points. A value holding one is inserted as
// an input method inserts text (Input.insertText), every code point kept.
func typeValue(ctx context.Context, sel, value string) error {
	if !strings.ContainsFunc(value, func(r rune) bool { return unicode.Is(unicode.Mn, r) }) {
		return chromedp.Do(ctx, chromedp.SendKeys(sel, value, browser.Deep(sel)))
	}
	_, err := chromedp.Call(ctx, input.InsertText, input.InsertTextParams{Text: value})
	return err
}
