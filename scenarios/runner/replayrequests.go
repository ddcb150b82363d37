package runner

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/html"

	"github.com/agentready/agentready/internal/data/match"
	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
)

// A replay's request (replays.go): built from the recorded one, then
// changed as an attacker's copy is: another origin's page, no CSRF field,
// stale preconditions.

// csrfMeta is the content of the page's <meta name="csrf-token">, or "".
func csrfMeta(r io.Reader) string {
	z := html.NewTokenizer(r)
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			t := z.Token()
			if t.Data != "meta" {
				continue
			}
			var name, content string
			for _, a := range t.Attr {
				switch strings.ToLower(a.Key) {
				case "name":
					name = a.Val
				case "content":
					content = a.Val
				}
			}
			if strings.EqualFold(name, "csrf-token") {
				return content
			}
		}
	}
}

// outgoing is a request about to be sent.
type outgoing struct {
	method, url string
	headers     map[string]string
	body        string
	// asPerson sends it with the person's cookies as they stand when it
	// leaves, and keeps what its answer sets; else it carries cookies.
	asPerson bool
	cookies  []*http.Cookie
}

// unsent are headers the client sets itself, or that belong to the
// browser's connection rather than to the request.
var unsent = []string{"cookie", "host", "content-length", "connection", "accept-encoding"}

// build makes the recorded request q again, as the person's browser sent
// it: Chromium 156 records a request's headers (requestWillBeSent) without
// the Origin and Sec-Fetch-* it adds when it sends them, so they are put
// back, as for a request of the app's own page (a form's post is a
// navigation). An app that refuses a write without them (a strict
// Sec-Fetch-Site check) would refuse every replay and the control for it,
// whatever the rule a replay attacks.
func (p *replayer) build(q record.Request) *outgoing {
	h := map[string]string{}
	for k, v := range q.RequestHeaders {
		if !slices.Contains(unsent, strings.ToLower(k)) && !strings.HasPrefix(k, ":") {
			h[k] = v
		}
	}
	browser := map[string]string{"Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty"}
	if strings.EqualFold(q.ResourceType, "Document") {
		browser["Sec-Fetch-Mode"], browser["Sec-Fetch-Dest"] = "navigate", "document"
	}
	if !slices.Contains([]string{http.MethodGet, http.MethodHead}, q.Method) {
		if u, err := url.Parse(q.URL); err == nil {
			browser["Origin"] = u.Scheme + "://" + u.Host
		}
	}
	for k, v := range browser {
		if !hasHeader(h, k) {
			h[k] = v
		}
	}
	return &outgoing{method: q.Method, url: q.URL, headers: h, body: q.Body, asPerson: true}
}

func headerValue(h map[string]string, name string) string {
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

func hasHeader(h map[string]string, name string) bool {
	return slices.ContainsFunc(slices.Collect(maps.Keys(h)), func(k string) bool { return strings.EqualFold(k, name) })
}

// otherOrigin is an origin of the app's site that is not the app's: the
// same scheme and host on another port. A site is a scheme and a
// registrable domain, ports apart, so a page there is same-site: the
// browser sends it the person's cookies whatever their SameSite.
func otherOrigin(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return "null"
	}
	port := "1"
	if u.Port() == port {
		port = "2"
	}
	return u.Scheme + "://" + net.JoinHostPort(u.Hostname(), port)
}

// simpleMethods are those a page of another origin sends without asking
// the app first (a CORS preflight).
var simpleMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost}

// safelisted are the request headers a page of another origin may set
// without a preflight (the CORS-safelisted ones, Content-Type apart), and
// those the browser sets itself on any request.
func safelisted(name string) bool {
	n := strings.ToLower(name)
	return slices.Contains([]string{"accept", "accept-language", "content-language", "user-agent"}, n) || strings.HasPrefix(n, "sec-ch-")
}

// simpleContentTypes are the Content-Types a page of another origin may
// send without a preflight.
var simpleContentTypes = []string{"application/x-www-form-urlencoded", "multipart/form-data", "text/plain"}

// asOtherOriginsPage makes req what a page of another origin of the app's
// site can make the person's browser send (the no_csrf replay): the
// person's cookies, all of them (SameSite does not hold between the
// origins of one site); Origin, Referer and Sec-Fetch-Site: same-site as
// the browser sets them; no header such a page cannot set without the
// app's consent to a preflight (a CSRF token's, X-Requested-With, an
// Idempotency-Key); a body it cannot send as such (JSON) sent as
// text/plain, as fetch(url, {mode: "no-cors", credentials: "include",
// body}) sends it; and no CSRF field. Such a page cannot send a method
// other than GET, HEAD or POST at all: why answers so.
// docs/decisions/2026-12-04-faithful-replays.md says why this attacker.
func asOtherOriginsPage(req *outgoing, base string, csrf *scenarios.ReplayNames) (changes []string, why string) {
	if !slices.Contains(simpleMethods, req.method) {
		return nil, "a page of another origin cannot send " + req.method + " without the app's consent to a CORS preflight, which this replay does not ask"
	}
	if ct := headerValue(req.headers, "Content-Type"); strings.HasPrefix(strings.ToLower(ct), "multipart/") {
		return nil, "the body is " + ct + ", whose fields the replay does not read: a CSRF field in it could not be left out"
	}
	origin := otherOrigin(base)
	h := map[string]string{}
	form := false
	for _, k := range slices.Sorted(maps.Keys(req.headers)) {
		v := req.headers[k]
		switch {
		case strings.EqualFold(k, "Content-Type"):
			mt, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(v)), ";")
			if slices.Contains(simpleContentTypes, strings.TrimSpace(mt)) {
				h[k] = v
				form = mt != "text/plain"
				continue
			}
			h[k] = "text/plain;charset=UTF-8"
			changes = append(changes, "Content-Type "+v+" sent as text/plain;charset=UTF-8 (another origin's page cannot send "+v+" without a preflight)")
		case safelisted(k):
			h[k] = v
		case strings.EqualFold(k, "Referer") || strings.EqualFold(k, "Origin") || strings.HasPrefix(strings.ToLower(k), "sec-fetch-"):
		default:
			changes = append(changes, k+" header left out (another origin's page cannot set it without a preflight)")
		}
	}
	mode, dest := "no-cors", "empty"
	if form {
		mode, dest = "navigate", "document" // a form's post
	}
	h["Origin"], h["Referer"] = origin, origin+"/"
	h["Sec-Fetch-Site"], h["Sec-Fetch-Mode"], h["Sec-Fetch-Dest"] = "same-site", mode, dest
	req.headers = h
	changes = append(changes, "from a page of "+origin+", another origin of the same site (Origin, Referer, Sec-Fetch-Site: same-site), with the person's cookies")
	changes = append(changes, stripNamed(req, csrf, csrfName, func(string, any) (any, bool) { return nil, false })...)
	return changes, ""
}

func deleteHeader(h map[string]string, name string) bool {
	for k := range h {
		if strings.EqualFold(k, name) {
			delete(h, k)
			return true
		}
	}
	return false
}

// stripNamed changes every header and JSON or form field of req that
// names (or, without names, the rule by name) picks: to what value answers
// for it, or away when it answers false. It answers what it changed.
func stripNamed(req *outgoing, names *scenarios.ReplayNames, byName func(string) bool, value func(name string, old any) (any, bool)) []string {
	var changes []string
	pickHeader := func(k string) bool {
		if names != nil && len(names.Headers) > 0 {
			return slices.ContainsFunc(names.Headers, func(n string) bool { return strings.EqualFold(n, k) })
		}
		return byName(k)
	}
	for _, k := range slices.Sorted(maps.Keys(req.headers)) {
		if !pickHeader(k) {
			continue
		}
		if v, ok := value(k, req.headers[k]); ok {
			req.headers[k] = fmt.Sprint(v)
			changes = append(changes, k+" header replaced")
		} else {
			delete(req.headers, k)
			changes = append(changes, k+" header left out")
		}
	}
	pickField := func(ptr, name string) bool {
		if names != nil && len(names.Fields) > 0 {
			return slices.Contains(names.Fields, ptr)
		}
		return byName(name)
	}
	if isForm(req.headers) {
		vals, err := url.ParseQuery(req.body)
		if err != nil {
			return changes
		}
		for _, k := range slices.Sorted(maps.Keys(vals)) {
			if !pickField("/"+k, k) {
				continue
			}
			if v, ok := value(k, vals.Get(k)); ok {
				vals.Set(k, fmt.Sprint(v))
				changes = append(changes, "/"+k+" replaced")
			} else {
				vals.Del(k)
				changes = append(changes, "/"+k+" left out")
			}
		}
		req.body = vals.Encode()
		return changes
	}
	var body any
	if req.body == "" || json.Unmarshal([]byte(req.body), &body) != nil {
		return changes
	}
	var walk func(v any, at string)
	walk = func(v any, at string) {
		obj, ok := v.(map[string]any)
		if !ok {
			return
		}
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			ptr := match.Pointer(at, k)
			if !pickField(ptr, k) {
				walk(obj[k], ptr)
				continue
			}
			if nv, ok := value(k, obj[k]); ok {
				obj[k] = nv
				changes = append(changes, ptr+" replaced")
			} else {
				delete(obj, k)
				changes = append(changes, ptr+" left out")
			}
		}
	}
	walk(body, "")
	b, _ := json.Marshal(body)
	req.body = string(b)
	return changes
}

func isForm(h map[string]string) bool {
	for k, v := range h {
		if strings.EqualFold(k, "Content-Type") && strings.HasPrefix(strings.ToLower(v), "application/x-www-form-urlencoded") {
			return true
		}
	}
	return false
}

// csrfName: a header or field whose name holds csrf or xsrf, or Rails'
// authenticity_token.
func csrfName(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "csrf") || strings.Contains(n, "xsrf") || n == "authenticity_token"
}

// preconditionWords are the names of a write's preconditions.
var preconditionWords = []string{"intent", "nonce", "version", "etag", "revision"}

func preconditionName(name string) bool {
	n := strings.ToLower(name)
	if n == "if-match" || n == "if-unmodified-since" {
		return true
	}
	return slices.ContainsFunc(preconditionWords, func(w string) bool { return strings.Contains(n, w) })
}

func preconditionNames(n *scenarios.ReplayNames) string {
	if n != nil && len(n.Headers)+len(n.Fields) > 0 {
		return "named: " + strings.Join(append(slices.Clone(n.Headers), n.Fields...), ", ")
	}
	return "no If-Match or If-Unmodified-Since, no field whose name holds " + strings.Join(preconditionWords, ", ")
}

// staleValue is a precondition no app issued, of the same type.
func staleValue(name string, old any) (any, bool) {
	switch strings.ToLower(name) {
	case "if-match":
		return staleETag, true
	case "if-unmodified-since":
		return "Sat, 01 Jan 2000 00:00:00 GMT", true
	}
	switch v := old.(type) {
	case float64:
		return v - 1, true
	case string:
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return strconv.FormatInt(n-1, 10), true
		}
		return "agentready-stale-" + v, true
	}
	return "agentready-stale", true
}

func carriesPrecondition(req *outgoing, names *scenarios.ReplayNames) bool {
	probe := &outgoing{headers: maps.Clone(req.headers), body: req.body}
	return len(stripNamed(probe, names, preconditionName, staleValue)) > 0
}
