package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/record"
)

// frameLoc is where a frame's document can be read: a session and an
// execution context in it (0: the session's own main world, as for a
// cross-site iframe's own session).
type frameLoc struct {
	s       cdp.Session
	context runtime.ExecutionContextID
}

// snapshot runs snapshotJS in the frame.
func (l frameLoc) snapshot(ctx context.Context, selectors []string) ([]record.Element, error) {
	arg, _ := json.Marshal(selectors)
	res, err := cdp.Call(ctx, l.s, runtime.Evaluate, runtime.EvaluateParams{Expression: snapshotJS + "(" + string(arg) + ")",
		ContextID: l.context, ReturnByValue: new(true)})
	if err != nil {
		return nil, err
	}
	if d := res.ExceptionDetails; d != nil {
		if d.Exception != nil && d.Exception.Description != "" {
			return nil, errors.New(d.Exception.Description)
		}
		return nil, errors.New(d.Text)
	}
	var els []record.Element
	if res.Result == nil {
		return nil, errors.New("no result")
	}
	if err := jsonv2.Unmarshal(res.Result.Value, &els, chromedp.DefaultUnmarshalOptions); err != nil {
		return nil, err
	}
	return els, nil
}

// pageSession is the tab's page, as a session.
func (t *Tab) pageSession() (cdp.Session, error) {
	c := chromedp.FromContext(t.Ctx)
	if c == nil || c.Target == nil {
		return nil, errors.New("the tab has no page")
	}
	return c.Target, nil
}

// frameInfo is one frame of the tab: its id, URL and the session whose
// process holds its document.
type frameInfo struct {
	id    cdp.FrameID
	url   string
	owner cdp.Session
}

// findFrame finds the frame spec names (record.ParseFrame) and where to
// read it.
func (t *Tab) findFrame(ctx context.Context, spec string) (frameLoc, error) {
	id, owner, err := t.frameNamed(ctx, spec)
	if err != nil {
		return frameLoc{}, err
	}
	// A cross-site iframe is a target of its own: read it in its session.
	for _, c := range t.kids.list() {
		if c.typ == "iframe" && string(c.id) == string(id) {
			return frameLoc{s: t.childSession(string(c.session))}, nil
		}
	}
	// A frame in the process of its parent: an isolated world in it sees
	// its DOM (and leaves the page's own scripts alone).
	w, err := cdp.Call(ctx, owner, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: id, WorldName: "agentready-snapshot"})
	if err != nil {
		return frameLoc{}, fmt.Errorf("open the frame: %w", err)
	}
	return frameLoc{s: owner, context: w.ExecutionContextID}, nil
}

// frameNamed finds the frame spec names (record.ParseFrame): its id and
// the session of the process that holds its document, or of its parent's
// (for a frame named by its iframe's selector).
func (t *Tab) frameNamed(ctx context.Context, spec string) (cdp.FrameID, cdp.Session, error) {
	kind, err := record.ParseFrame(spec)
	if err != nil {
		return "", nil, err
	}
	top, err := t.pageSession()
	if err != nil {
		return "", nil, err
	}
	var id cdp.FrameID
	owner := top
	if kind == record.FrameSelector {
		if id, err = iframeBySelector(ctx, top, spec); err != nil {
			return "", nil, err
		}
	} else {
		frames, err := t.frames(ctx, top)
		if err != nil {
			return "", nil, err
		}
		var hits []frameInfo
		for _, f := range frames {
			if frameMatches(kind, spec, f.url) {
				hits = append(hits, f)
			}
		}
		switch len(hits) {
		case 0:
			var urls []string
			for _, f := range frames {
				urls = append(urls, f.url)
			}
			return "", nil, fmt.Errorf("no frame's URL starts with it (frames: %s)", strings.Join(urls, ", "))
		case 1:
			id, owner = hits[0].id, hits[0].owner
		default:
			var urls []string
			for _, f := range hits {
				urls = append(urls, f.url)
			}
			return "", nil, fmt.Errorf("%d frames match (%s): name one by a longer URL or by its iframe's selector", len(hits), strings.Join(urls, ", "))
		}
	}
	return id, owner, nil
}

// frameMatches: the frame's URL starts with spec (kind FrameURL), or its
// path and query do (FramePath): record.FrameURLMatches, one rule.
func frameMatches(kind record.FrameKind, spec, raw string) bool {
	return record.FrameMatchesURL(kind, spec, raw)
}

// iframeBySelector finds the frame of the iframe element the selector
// matches first in the top document.
func iframeBySelector(ctx context.Context, top cdp.Session, sel string) (cdp.FrameID, error) {
	const group = "agentready-frame"
	defer func() {
		_, _ = cdp.Call(ctx, top, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: group})
	}()
	arg, _ := json.Marshal(sel)
	res, err := cdp.Call(ctx, top, runtime.Evaluate, runtime.EvaluateParams{Expression: "document.querySelector(" + string(arg) + ")", ObjectGroup: group})
	if err != nil {
		return "", err
	}
	if d := res.ExceptionDetails; d != nil {
		msg := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg = d.Exception.Description
		}
		return "", fmt.Errorf("not a selector the page accepts: %s", firstLine(msg))
	}
	if res.Result == nil || res.Result.ObjectID == "" {
		return "", errors.New("no element of the top document matches it")
	}
	desc, err := cdp.Call(ctx, top, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: res.Result.ObjectID})
	if err != nil {
		return "", err
	}
	n := desc.Node
	if n == nil || !slices.Contains([]string{"IFRAME", "FRAME"}, n.NodeName) {
		name := "node"
		if n != nil {
			name = strings.ToLower(n.NodeName)
		}
		return "", fmt.Errorf("it matches a <%s>, not an iframe", name)
	}
	if n.FrameID == "" {
		return "", errors.New("the iframe has no document")
	}
	return n.FrameID, nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// frames lists the tab's frames but the top one: those in the page's
// process and, for each cross-site iframe, its own.
func (t *Tab) frames(ctx context.Context, top cdp.Session) ([]frameInfo, error) {
	var out []frameInfo
	seen := map[cdp.FrameID]int{}
	add := func(s cdp.Session, tree *page.FrameTree, root bool) {
		var walk func(n *page.FrameTree, depth int)
		walk = func(n *page.FrameTree, depth int) {
			if n == nil || n.Frame == nil {
				return
			}
			if depth > 0 || !root {
				f := frameInfo{id: n.Frame.ID, url: n.Frame.URL, owner: s}
				if i, ok := seen[f.id]; ok {
					if depth == 0 {
						out[i] = f // the frame's own process knows it best
					}
				} else {
					seen[f.id] = len(out)
					out = append(out, f)
				}
			}
			for _, c := range n.ChildFrames {
				walk(c, depth+1)
			}
		}
		walk(tree, 0)
	}
	res, err := cdp.Call(ctx, top, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		return nil, fmt.Errorf("list the frames: %w", err)
	}
	add(top, res.FrameTree, true)
	for _, c := range t.kids.list() {
		if c.typ != "iframe" {
			continue
		}
		s := t.childSession(string(c.session))
		res, err := cdp.Call(ctx, s, page.GetFrameTree, cdp.Empty{})
		if err != nil {
			continue // gone meanwhile
		}
		add(s, res.FrameTree, false)
	}
	return out, nil
}
