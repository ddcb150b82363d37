package browser

import (
	"context"
	"errors"
	"fmt"

	"strings"
	"sync"

	"github.com/chromedp/cdproto/audits"
	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios/vocab"
)

// WebMCPIssuePrefix begins the errorType of every issue Chromium reports
// about a WebMCP form through its Audits domain (Chromium 156:
// FormModelContextMissingToolName, …MissingToolDescription,
// …RequiredParameterMissingName, …ParameterMissingName,
// …ParameterMissingTitleAndDescription).
const WebMCPIssuePrefix = "FormModelContext"

// IssueLog keeps the WebMCP issues Chromium reports on a tab's sessions:
// its page's and each cross-site iframe's. Chromium 156 reports each issue
// twice; one is kept.
type IssueLog struct {
	mu   sync.Mutex
	seen map[issueKey]bool
	raw  []issueOn
	more chan struct{} // closed, and replaced, when an issue is added
}

type issueKey struct {
	session target.SessionID
	typ     audits.GenericIssueErrorType
	frame   cdp.FrameID
	node    cdp.BackendNodeID
	attr    string
}

// issueOn is an issue and the session (empty: the page's) it came on.
type issueOn struct {
	session target.SessionID
	details audits.GenericIssueDetails
}

func (l *IssueLog) observe(session target.SessionID, ev any) {
	e, ok := ev.(*audits.EventIssueAdded)
	if !ok || e.Issue == nil || e.Issue.Code != audits.InspectorIssueCodeGenericIssue || e.Issue.Details == nil {
		return
	}
	d := e.Issue.Details.GenericIssueDetails
	if d == nil || !strings.HasPrefix(string(d.ErrorType), WebMCPIssuePrefix) {
		return
	}
	k := issueKey{session, d.ErrorType, d.FrameID, d.ViolatingNodeID, d.ViolatingNodeAttribute}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen[k] {
		return
	}
	if l.seen == nil {
		l.seen = map[issueKey]bool{}
	}
	l.seen[k] = true
	l.raw = append(l.raw, issueOn{session, *d})
	if l.more != nil {
		close(l.more)
		l.more = nil
	}
}

// WaitFor waits until the log holds n issues, or ctx ends.
func (l *IssueLog) WaitFor(ctx context.Context, n int) error {
	for {
		l.mu.Lock()
		if len(l.raw) >= n {
			l.mu.Unlock()
			return nil
		}
		if l.more == nil {
			l.more = make(chan struct{})
		}
		more := l.more
		l.mu.Unlock()
		select {
		case <-more:
		case <-ctx.Done():
			return fmt.Errorf("%d browser issue(s) of %d: %w", l.Len(), n, ctx.Err())
		}
	}
}

// Len is how many issues the log holds: a caller that reads a page's issues
// notes it before the page loads, and reads those after.
func (l *IssueLog) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.raw)
}

func (l *IssueLog) from(i int) []issueOn {
	l.mu.Lock()
	defer l.mu.Unlock()
	if i >= len(l.raw) {
		return nil
	}
	return append([]issueOn(nil), l.raw[i:]...)
}

// describeJS names an element and its form for a person reading a finding.
const describeJS = `function () {
  const el = this;
  const form = el.tagName === "FORM" ? el : el.form || el.closest("form");
  const doc = el.ownerDocument;
  let locator = "";
  if (form) {
    const index = Array.from(doc.forms).indexOf(form);
    locator = form.id ? "form#" + form.id : form.hasAttribute("toolname") ? 'form[toolname="' + form.getAttribute("toolname") + '"]' : "form #" + (index + 1);
  }
  let element = "";
  if (el !== form) {
    const tag = el.tagName.toLowerCase();
    element = tag + (tag === "input" ? "[type=" + el.type + "]" : "");
    if (el.name) element += '[name="' + el.name + '"]';
    else if (el.id) element += "#" + el.id;
    else element += " #" + (form ? Array.from(form.elements).indexOf(el) + 1 : 0) + " of its form";
    const label = [...Array.from(el.labels || [], (l) => l.textContent), el.getAttribute("aria-label"), el.getAttribute("placeholder")]
      .filter(Boolean).map((s) => s.trim().replace(/\s+/g, " ")).filter(Boolean)[0];
    if (label) element += ' ("' + label.slice(0, 60) + '")';
  }
  return { frameUrl: doc.location.href, form: locator, toolname: form ? form.getAttribute("toolname") || "" : "", element };
}`

// WebMCPIssues answers the WebMCP issues Chromium reported on the tab since
// the log held from of them, each located at its element while the
// element's document is there (so: before the page is left).
func (t *Tab) WebMCPIssues(ctx context.Context, from int) []record.BrowserIssue {
	raw := t.Issues.from(from)
	if len(raw) == 0 {
		return nil
	}
	ctx, cancel := t.Bind(ctx)
	defer cancel()
	ctx, cancelBound := context.WithTimeout(ctx, vocab.Bound)
	defer cancelBound()
	top, err := t.pageSession()
	out := make([]record.BrowserIssue, 0, len(raw))
	for _, r := range raw {
		is := record.BrowserIssue{Type: string(r.details.ErrorType), Attribute: r.details.ViolatingNodeAttribute}
		s := top
		if r.session != "" {
			s = t.childSession(string(r.session))
		}
		switch {
		case err != nil:
			is.Unlocated = err.Error()
		case r.details.ViolatingNodeID == 0:
			is.Unlocated = "Chromium named no element"
		default:
			if e := locateIssue(ctx, s, r.details.ViolatingNodeID, &is); e != nil {
				is.Unlocated = e.Error()
			}
		}
		out = append(out, is)
	}
	return out
}

// locateIssue fills is with the element's and its form's names.
func locateIssue(ctx context.Context, s cdp.Session, node cdp.BackendNodeID, is *record.BrowserIssue) error {
	obj, err := cdp.Call(ctx, s, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: node, ObjectGroup: "agentready-issues"})
	if err != nil {
		return err
	}
	defer func() {
		_, _ = cdp.Call(ctx, s, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: "agentready-issues"})
	}()
	res, err := cdp.Call(ctx, s, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: describeJS, ObjectID: obj.Object.ObjectID, ReturnByValue: new(true)})
	if err != nil {
		return err
	}
	if res.ExceptionDetails != nil {
		return errors.New("the element could not be described: " + res.ExceptionDetails.Text)
	}
	var v struct {
		FrameURL string `json:"frameUrl"`
		Form     string `json:"form"`
		ToolName string `json:"toolname"`
		Element  string `json:"element"`
	}
	if err := jsonv2.Unmarshal(res.Result.Value, &v, chromedp.DefaultUnmarshalOptions); err != nil {
		return err
	}
	is.FrameURL, is.Form, is.ToolName, is.Element = v.FrameURL, v.Form, v.ToolName, v.Element
	return nil
}
