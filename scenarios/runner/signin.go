package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/chromedp/chromedp"
)

// signIn puts the run's sign-in in the fresh tab before the start page
// opens, and records it (evidence signIn): the command line's saved state
// and headers (Target.SignIn), each winning over the scenario's signin
// keys it covers (scenarios.SignIn.Overridden), else the scenario's. It
// answers whether a sign-in request is still to be sent, from the start
// page. A sign-in the tab could not take is the harness's fault.
func (r *runner) signIn(ctx context.Context) (request bool) {
	in, request, rec := r.sc.SignIn.Resolve(r.t.SignIn)
	if rec == nil {
		return false
	}
	r.ev.SignIn = rec
	if err := r.t.Tab.SignIn(ctx, in); err != nil {
		r.fault("sign in before the start page: %v", err)
	}
	return request
}

// signInJS sends the sign-in request from the page, as its own script
// would: the session's cookies, the form's fields or a JSON body, the
// page's CSRF token when asked; redirects are followed, so that the
// answer's Set-Cookie lands in the tab as a sign-in form's does.
const signInJS = `(async (url, method, form, body, meta, header) => {
  const headers = {};
  let payload;
  if (form !== null) payload = new URLSearchParams(form);
  else if (body !== null) { headers["Content-Type"] = "application/json"; payload = JSON.stringify(body); }
  if (meta) {
    const token = document.querySelector('meta[name="' + meta + '"]')?.content;
    if (token === undefined) return { error: "no <meta name=\"" + meta + "\"> on the page for the CSRF token" };
    headers[header] = token;
  }
  try {
    const r = await fetch(url, { method, headers, credentials: "include", body: payload, redirect: "follow" });
    await r.text();
    return { status: r.status, url: r.url };
  } catch (e) { return { error: String(e) }; }
})`

// signInRequest sends the scenario's sign-in request from the start page
// (as it is before the sign-in: often the app's sign-in page it was sent
// to), then opens the start page again, signed in. An answer other than
// 2xx is the app's, recorded and left to the checks (the page is then
// the signed-out one); no answer at all is the harness's fault.
func (r *runner) signInRequest(ctx context.Context) {
	in, rec := r.sc.SignIn, r.ev.SignIn
	method, path, _ := in.Request.Split()
	var form any
	if in.Form != nil {
		form = in.Form
	}
	meta, header := "", ""
	if in.CSRF != nil {
		meta, header = in.CSRF.Meta, in.CSRF.Header
	}
	args, err := json.Marshal([]any{r.t.BaseURL + path, method, form, in.Body, meta, header})
	if err != nil {
		r.fault("sign in by %s: %v", in.Request, err)
		return
	}
	bound, cancel := r.t.Tab.Bind(ctx)
	defer cancel()
	bound, cancelBound := context.WithTimeout(bound, r.t.Bound)
	defer cancelBound()
	out, err := chromedp.Run(bound, chromedp.Evaluate[struct {
		Status int    `json:"status"`
		URL    string `json:"url"`
		Error  string `json:"error"`
	}](signInJS+"(..."+string(args)+")", chromedp.EvalAwaitPromise))
	switch {
	case err != nil:
		rec.Error = err.Error()
	case out.Error != "":
		rec.Error = out.Error
	default:
		rec.Status = out.Status
		if u, err := url.Parse(out.URL); err == nil {
			rec.Landed = u.RequestURI()
		}
	}
	if rec.Error != "" {
		r.fault("sign in by %s: %s", in.Request, rec.Error)
		return
	}
	if rec.Status < 200 || rec.Status > 299 {
		r.ev.Unmet = append(r.ev.Unmet, fmt.Sprintf("the sign-in %s answered %d (at %s): the start page is opened signed out", strings.ToUpper(method)+" "+path, rec.Status, rec.Landed))
	}
	if err := r.t.Tab.Navigate(ctx, r.t.BaseURL+r.sc.Start); err != nil {
		r.fault("open %s after signing in: %v", r.sc.Start, err)
	}
}
