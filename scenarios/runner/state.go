package runner

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/live/observer"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// journalOn: the app keeps a journal and the scenario records it.
func (r *runner) journalOn() bool { return r.t.Observer != nil && r.sc.Capture.JournalOn() }

// state reads the app's state from every source it has: the observation
// endpoint, and the scenario's probes of the app's own API, fetched in the
// page so that they carry the person's session. window is the phase whose
// window the probes' requests fall in (the judge leaves them out of its
// counts). No source at all is no state (nil): unknown, not empty.
func (r *runner) state(ctx context.Context, window vocab.Phase) *record.Snapshot {
	if r.t.Observer == nil && len(r.sc.Probes) == 0 {
		return nil
	}
	s := &record.Snapshot{Docs: map[string]json.RawMessage{}}
	failed := func(source string, err error) {
		if s.Errors == nil {
			s.Errors = map[string]string{}
		}
		s.Errors[source] = err.Error()
	}
	// answered keeps a server error the app gave a read after the agent's
	// phase began as the app's answer (the judge fails its state), and
	// says whether it did; before the agent, it is a read that failed.
	afterAgent := window != vocab.PhaseAgent
	// A read that failed is a fault of the phase whose state it is: what
	// earlier phases recorded stands.
	of := map[vocab.Phase]vocab.Phase{vocab.PhaseAgent: vocab.PhaseSetup, vocab.PhaseHuman: vocab.PhaseAgent}[window]
	of = cmp.Or(of, vocab.PhaseHuman)
	answered := func(source string, status int) bool {
		if !afterAgent || status < 500 {
			return false
		}
		if s.Answered == nil {
			s.Answered = map[string]int{}
		}
		s.Answered[source] = status
		return true
	}
	// The observation endpoint is read while the page fetches the probes:
	// two reads of the same moment, neither of which changes anything.
	// What they answer is recorded in the same order as before.
	type observed struct {
		doc json.RawMessage
		err error
	}
	var obs chan observed
	if r.t.Observer != nil {
		obs = make(chan observed, 1)
		go func() {
			doc, err := r.t.Observer.State(ctx)
			obs <- observed{doc, err}
		}()
	}
	var docs map[string]probed
	var probeErr error
	// Each probe carries a token of its own, drawn here: the judge takes
	// a request as the harness's only when it carries one of these, once
	// (issue 43 item 6: page script can set any header, not this value).
	tokens := map[string]string{}
	for name := range r.sc.Probes {
		tokens[name] = rand.Text()
	}
	if len(r.sc.Probes) > 0 {
		docs, probeErr = r.probe(ctx, tokens)
	}
	if obs != nil {
		if o := <-obs; o.err != nil {
			var ae *observer.AnswerError
			if !errors.As(o.err, &ae) || !answered(record.ObserverSource, ae.Status) {
				r.faultFrom(of, "read the app's state: %v", o.err)
			}
			failed(record.ObserverSource, o.err)
		} else {
			s.Docs[record.ObserverSource] = o.doc
		}
	}
	if len(r.sc.Probes) > 0 {
		if err := probeErr; err != nil {
			r.faultFrom(of, "probe the app's state: %v", err)
		}
		for _, name := range slices.Sorted(maps.Keys(r.sc.Probes)) {
			method, path, _ := r.sc.Probes[name].Split()
			r.ev.ProbeReads = append(r.ev.ProbeReads, scenarios.ProbeRead{Window: window, Method: method, Path: path, Token: tokens[name]})
			switch got, ok := docs[name]; {
			case !ok:
				failed(name, fmt.Errorf("not read"))
			case got.Error != "":
				answered(name, got.Status)
				failed(name, errors.New(got.Error))
			default:
				s.Docs[name] = got.Body
			}
		}
	}
	return s
}

const probeJS = `(async (base, probes, header) => {
  const out = {};
  await Promise.all(probes.map(async ([name, path, token]) => {
    try {
      const r = await fetch(base + path, { headers: { Accept: "application/json", [header]: token }, credentials: "include", cache: "no-store" });
      const text = await r.text();
      if (!r.ok) { out[name] = { error: "GET " + path + " answered " + r.status + ": " + text.slice(0, 200), status: r.status }; return; }
      try { out[name] = { body: JSON.parse(text) }; } catch (e) { out[name] = { error: "GET " + path + " did not answer JSON: " + text.slice(0, 200) }; }
    } catch (e) { out[name] = { error: "GET " + path + ": " + String(e) }; }
  }));
  return out;
})`

type probed struct {
	Body   json.RawMessage `json:"body"`
	Error  string          `json:"error"`
	Status int             `json:"status"` // of an answer that was not 2xx
}

// settleDocument lets a navigation in progress (a form that submitted to a
// result page) finish before the page is read: the new document, not a page
// half way between two. A load that does not finish within the bound is
// news about the app, kept as unmet.
func (r *runner) settleDocument(ctx context.Context) {
	loaded, cancel := context.WithTimeout(ctx, r.t.Bound)
	defer cancel()
	if err := r.t.Tab.WaitLoaded(loaded); err != nil && ctx.Err() == nil {
		r.ev.Unmet = append(r.ev.Unmet, "the page did not finish loading within "+r.t.Bound.String())
	}
}

// probe fetches every probe from the page, all at once, started in name
// order: reads that change nothing need not wait for each other (the judge
// matches them to the journal by method and path, not by order).
func (r *runner) probe(ctx context.Context, tokens map[string]string) (map[string]probed, error) {
	r.settleDocument(ctx)
	var pairs [][3]string
	for _, name := range slices.Sorted(maps.Keys(r.sc.Probes)) {
		_, path, _ := r.sc.Probes[name].Split()
		pairs = append(pairs, [3]string{name, path, tokens[name]})
	}
	args, err := json.Marshal([]any{r.t.BaseURL, pairs, record.ProbeHeader})
	if err != nil {
		return nil, err
	}
	ctx, cancel := r.t.Tab.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, r.t.Bound)
	defer cancelBound()
	return chromedp.Run(ctx, chromedp.Evaluate[map[string]probed](probeJS+"(..."+string(args)+")", chromedp.EvalAwaitPromise))
}

// sessionHash names the tab's session the way the app's journal does
// (observer.SessionHash of its session cookie), so that the journal is
// judged for this tab only; "" when the tab has no such cookie.
func (r *runner) sessionHash(ctx context.Context) (string, error) {
	name := cmp.Or(r.t.Observer.SessionCookie, observer.DefaultSessionCookie)
	ctx, cancel := r.t.Tab.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, r.t.Bound)
	defer cancelBound()
	res, err := chromedp.Call(ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{r.t.BaseURL + "/"}})
	if err != nil {
		return "", fmt.Errorf("read the session cookie %s: %w", name, err)
	}
	for _, c := range res.Cookies {
		if c.Name == name {
			return observer.SessionHash(c.Value), nil
		}
	}
	return "", nil
}
