package runner

import (
	"context"
	"encoding/json"
	"maps"
	"net/url"
	"slices"

	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// reviewJS reads, in one evaluation, what the person has before them as
// they click sel: the form of the clicked element (its form owner, else the
// closest form) as new FormData(form, submitter) reads it — what the form
// would submit, in document order, a file by its name — each entry with
// whether its control was hidden from the person; and, for each selector of
// named, the first matching element's value (a control's) or trimmed text.
//
// An entry is matched to its control by name, in document order, among the
// controls that give entries (enabled; a checkbox or radio when checked; a
// select once per selected option; a file input once per file, or once
// with none; the submitter only among the buttons). An entry no control
// gave (a formdata listener added it) was not shown either. Hidden is
// type=hidden, or not rendered or visibility hidden
// (checkVisibility({visibilityProperty: true}) false). FormData fires the
// form's formdata event, as the submission itself does.
var reviewJS = `((sel, named) => {
  const deep = ` + browser.DeepJS + `;
  const el = deep(sel)[0];
  if (!el || !el.checkVisibility()) return { notYet: true };
  const out = { inForm: false, form: [], seen: {}, hidden: [], errors: [] };
  for (const s of named) {
    try {
      const e = deep(s)[0];
      if (!e) continue;
      const control = e instanceof HTMLInputElement || e instanceof HTMLTextAreaElement || e instanceof HTMLSelectElement;
      out.seen[s] = control ? e.value : e.innerText.trim();
      if (e.type === "hidden" || !e.checkVisibility({ visibilityProperty: true })) out.hidden.push(s);
    } catch (err) { out.errors.push(s + ": " + err.message); }
  }
  const form = el.form instanceof HTMLFormElement ? el.form : el.closest("form");
  if (!form) return out;
  out.inForm = true;
  const button = el.closest("button, input[type=submit], input[type=image]");
  const submitter = button && button.form === form && (button.type === "submit" || button.type === "image") ? button : null;
  const data = submitter ? new FormData(form, submitter) : new FormData(form);
  const by = new Map();
  const put = (name, c, n = 1) => {
    if (!by.has(name)) by.set(name, []);
    for (let i = 0; i < n; i++) by.get(name).push(c);
  };
  for (const c of form.elements) {
    if (c.matches(":disabled")) continue;
    const name = c.name ?? "";
    switch (c.localName === "input" ? c.type : c.localName) {
      case "checkbox": case "radio": if (c.checked && name) put(name, c); break;
      case "file": if (name) put(name, c, Math.max(1, c.files.length)); break;
      case "select": if (name) put(name, c, [...c.selectedOptions].filter((o) => !o.disabled).length); break;
      case "image": if (c === submitter) { const p = name ? name + "." : ""; put(p + "x", c); put(p + "y", c); } break;
      case "submit": case "button": case "reset": if (c === submitter && name) put(name, c); break;
      case "fieldset": case "output": case "object": break;
      default:
        if (name) put(name, c);
        if (c.dirName) put(c.dirName, c);
    }
  }
  const shown = (c) => !!c && c.type !== "hidden" && c.checkVisibility({ visibilityProperty: true });
  for (const [name, value] of data) {
    const c = by.get(name)?.shift();
    const file = value instanceof File;
    out.form.push({ name, value: file ? value.name : value, hidden: !shown(c), file, required: !!c && !!c.required });
  }
  return out;
})`

// reviewed is what reviewJS answers.
type reviewed struct {
	NotYet bool                  `json:"notYet"` // the element is not there, or not visible, yet
	InForm bool                  `json:"inForm"`
	Form   []scenarios.FormField `json:"form"`
	Seen   map[string]string     `json:"seen"`
	Hidden []string              `json:"hidden"`
	Errors []string              `json:"errors"`
}

// review records what the person has before them at their click step i on
// sel, read in the page just before the click, and where the request log
// stands: a request after it came after the click. The element is to be
// seen first, as the click waits for it: when it is not yet, or the read
// fails (a navigation replaced the document), the read waits for it too
// (an error then is the step's) and reads again. A second failed read is a
// fault, and no review is recorded; the click goes on.
func (r *runner) review(ctx context.Context, i int, sel string) error {
	args, err := json.Marshal([]any{sel, r.seenSelectors()})
	if err != nil {
		r.faultFrom(vocab.PhaseHuman, "read the page before human step %d (click %s): %v", i, sel, err)
		return nil
	}
	read := chromedp.Evaluate[reviewed](reviewJS + "(..." + string(args) + ")")
	got, err := chromedp.Run(ctx, read)
	if err != nil || got.NotYet {
		// Not there yet, or the document went while it was read (the last
		// click navigated): once the element is there, read again.
		if err := chromedp.Do(ctx, chromedp.WaitVisible(sel, browser.Deep(sel))); err != nil {
			return err
		}
		got, err = chromedp.Run(ctx, read)
	}
	switch {
	case err != nil:
		r.faultFrom(vocab.PhaseHuman, "read the page before human step %d (click %s): %v", i, sel, err)
		return nil
	case got.NotYet:
		r.faultFrom(vocab.PhaseHuman, "read the page before human step %d (click %s): the element went out of sight", i, sel)
		return nil
	}
	for _, e := range got.Errors {
		r.faultFrom(vocab.PhaseHuman, "read the page before human step %d (click %s): selector %s", i, sel, e)
	}
	rv := scenarios.Review{Phase: vocab.PhaseHuman, Index: i, Click: sel, Requests: r.t.Tab.Net.Len()}
	if got.InForm {
		rv.Form = cmpOr(got.Form, []scenarios.FormField{})
	}
	if len(got.Seen) > 0 {
		rv.Seen = got.Seen
	}
	if len(got.Hidden) > 0 {
		rv.SeenHidden = got.Hidden
	}
	r.ev.Reviews = append(r.ev.Reviews, rv)
	return nil
}

// seenSelectors are the selectors the submitted expectations name as
// showing a value, sorted, each once.
func (r *runner) seenSelectors() []string {
	set := map[string]bool{}
	for _, x := range r.sc.Expect.Submitted {
		for _, sel := range x.Fields {
			set[sel] = true
		}
	}
	return cmpOr(slices.Sorted(maps.Keys(set)), []string{}) // a list, even empty, for the page
}

// ofApp answers whether a URL is the app's (scenarios.Scenario.OfApp):
// the requests whose bodies are kept and whose writes are replayed. Bodies
// sent to any other origin are not ours to keep (docs/decisions).
func (r *runner) ofApp(raw string) bool { return r.sc.OfApp(r.t.BaseURL, raw) }

// pathOf is a URL's path, or the URL when it has none.
func pathOf(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Path != "" {
		return u.Path
	}
	return raw
}
