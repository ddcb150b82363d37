package browser

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/signin"
)

// SignIn puts a sign-in (package signin: a saved browser state, extra
// headers) in the tab, before it opens the start page: the extra headers,
// the cookies (Network.setCookies, in the tab's own browser context), and
// each origin's localStorage, written by a script that runs in the
// origin's first document of the tab before any of the page's own.
func (t *Tab) SignIn(ctx context.Context, o signin.Options) error {
	if o.Empty() {
		return nil
	}
	ctx, cancel := t.Bind(ctx)
	defer cancel()
	if len(o.Headers) > 0 {
		h := network.Headers{}
		for k, v := range o.Headers {
			h[k] = v
		}
		if _, err := chromedp.Call(ctx, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: h}); err != nil {
			return fmt.Errorf("set the extra headers: %w", err)
		}
	}
	if o.State == nil {
		return nil
	}
	if len(o.State.Cookies) > 0 {
		params := make([]*network.CookieParam, 0, len(o.State.Cookies))
		for _, c := range o.State.Cookies {
			p := &network.CookieParam{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.CookiePath(),
				Secure: c.Secure, HTTPOnly: c.HTTPOnly, SameSite: network.CookieSameSite(c.SameSite)}
			if c.Expires > 0 {
				p.Expires = cdp.TimeSinceEpoch(c.Expires)
			}
			params = append(params, p)
		}
		if _, err := chromedp.Call(ctx, network.SetCookies, network.SetCookiesParams{Cookies: params}); err != nil {
			return fmt.Errorf("set the storage state's cookies: %w", err)
		}
	}
	if script := o.State.StorageScript(); script != "" {
		if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script}); err != nil {
			return fmt.Errorf("set the storage state's localStorage: %w", err)
		}
	}
	return nil
}
