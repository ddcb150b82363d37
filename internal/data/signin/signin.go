// Package signin is what puts a browser tab where a signed-in person's
// would be before the start page loads: a saved browser state (a
// Playwright storageState file: cookies and each origin's localStorage)
// and extra HTTP headers (an API key, a bearer token) sent with every
// request of the tab. It reads and checks files, flags and keys, and
// talks to no browser, so that the scenario format (and its pure judge)
// can use it; browser.Tab.SignIn applies it to a tab.
package signin

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"golang.org/x/net/http/httpguts"

	"github.com/agentready/agentready/internal/data/record"
)

// State is a saved browser state in Playwright's storageState format.
// Fields Playwright adds that the suite does not apply (IndexedDB, a
// cookie's partition key) are read and left alone.
type State struct {
	Cookies []Cookie `json:"cookies"`
	Origins []Origin `json:"origins"`
}

// Cookie is one cookie of a State. Expires is seconds since the epoch,
// -1 (or 0) for a session cookie.
type Cookie struct {
	Name     string  `json:"name"`
	Value    string  `json:"value"`
	Domain   string  `json:"domain"`
	Path     string  `json:"path"`
	Expires  float64 `json:"expires"`
	HTTPOnly bool    `json:"httpOnly"`
	Secure   bool    `json:"secure"`
	SameSite string  `json:"sameSite"` // Strict, Lax or None; "" for the browser's default
}

// Origin is one origin's localStorage.
type Origin struct {
	Origin       string `json:"origin"`
	LocalStorage []Item `json:"localStorage"`
}

// Item is one localStorage entry.
type Item struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Load reads a storageState file. A file that is not there, not JSON, or
// whose cookies or origins could not be applied as written is an error
// that names the file and the entry.
func Load(path string) (*State, error) {
	data, err := record.ReadInput(path)
	if err != nil {
		return nil, fmt.Errorf("storage state: %w", err)
	}
	s, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("storage state %s: %w", path, err)
	}
	return s, nil
}

// Parse reads a storageState document (see Load).
func Parse(data []byte) (*State, error) {
	var s State
	if err := json.Unmarshal(data, &s); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			return nil, fmt.Errorf("not JSON (at byte %d): %v", syn.Offset, err)
		case errors.As(err, &typ):
			return nil, fmt.Errorf("not a storage state (cookies and origins, as Playwright's storageState writes it): %s must be %s, not %s", cmpOr(typ.Field, "the document"), typ.Type, typ.Value)
		}
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	for i, c := range s.Cookies {
		if err := c.check(); err != nil {
			return nil, fmt.Errorf("cookies[%d]: %w", i, err)
		}
	}
	for i, o := range s.Origins {
		if _, err := originOf(o.Origin); err != nil {
			return nil, fmt.Errorf("origins[%d]: %w", i, err)
		}
		for j, it := range o.LocalStorage {
			if it.Name == "" {
				return nil, fmt.Errorf("origins[%d].localStorage[%d]: a name is required", i, j)
			}
		}
	}
	return &s, nil
}

// CookiePath is the cookie's path, / when the file gives none.
func (c Cookie) CookiePath() string { return cmpOr(c.Path, "/") }

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func (c Cookie) check() error {
	switch {
	case c.Name == "":
		return errors.New("a name is required")
	case !httpguts.ValidHeaderFieldName(c.Name): // a cookie name is an HTTP token
		return fmt.Errorf("name %q is not a cookie name", c.Name)
	case strings.ContainsAny(c.Value, ";\r\n\x00"):
		return fmt.Errorf("the value of %s holds a character a cookie cannot (;, CR, LF or NUL)", c.Name)
	case c.Domain == "":
		return fmt.Errorf("%s: a domain is required (such as 127.0.0.1 or .example.com)", c.Name)
	case c.Expires != -1 && (c.Expires < 0 || math.IsNaN(c.Expires) || math.IsInf(c.Expires, 0)):
		return fmt.Errorf("%s: expires must be seconds since 1970, or -1 for a session cookie", c.Name)
	}
	switch c.SameSite {
	case "", "Strict", "Lax", "None":
	default:
		return fmt.Errorf("%s: sameSite must be Strict, Lax or None, not %q", c.Name, c.SameSite)
	}
	return nil
}

// originOf checks an origin as Playwright writes it: scheme, host and
// port, no path.
func originOf(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("origin %q is not an http(s) origin such as http://127.0.0.1:3000", raw)
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("origin %q has more than a scheme, host and port", raw)
	}
	return u.Scheme + "://" + u.Host, nil
}

// ParseHeader reads one --header value, "Name: value". The name must be
// an HTTP field name and the value a field value (no CR or LF).
func ParseHeader(raw string) (name, value string, err error) {
	name, value, ok := strings.Cut(raw, ":")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	switch {
	case !ok:
		return "", "", fmt.Errorf("header %q: write it as 'Name: value'", raw)
	case !httpguts.ValidHeaderFieldName(name):
		return "", "", fmt.Errorf("header %q: %q is not a header name", raw, name)
	case !httpguts.ValidHeaderFieldValue(value):
		return "", "", fmt.Errorf("header %q: the value holds a character a header cannot (a control character such as CR or LF)", raw)
	}
	switch strings.ToLower(name) {
	case "cookie", "host", "content-length":
		return "", "", fmt.Errorf("header %q: %s is the browser's to send (a cookie belongs in --storage-state)", raw, http.CanonicalHeaderKey(name))
	}
	return http.CanonicalHeaderKey(name), value, nil
}

// Options are a sign-in for a tab: a saved state, headers, or both. The
// zero value does nothing.
type Options struct {
	State   *State
	Headers map[string]string // canonical name → value
}

// Empty says the options do nothing.
func (o Options) Empty() bool { return o.State == nil && len(o.Headers) == 0 }

// AddHeader adds one --header value (see ParseHeader).
func (o *Options) AddHeader(raw string) error {
	name, value, err := ParseHeader(raw)
	if err != nil {
		return err
	}
	if o.Headers == nil {
		o.Headers = map[string]string{}
	}
	o.Headers[name] = value
	return nil
}

// HeaderNames are the names of the extra headers, sorted: what a report
// may say about them (their values may be secrets).
func (o Options) HeaderNames() []string {
	var out []string
	for n := range o.Headers {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// AppliedKey is the sessionStorage key the localStorage script leaves in
// an origin once it has written the state's items there, so that a later
// document of the same tab keeps what the page itself changed.
const AppliedKey = "agentready:storage-state-applied"

// StorageScript writes each origin's items in the first document of that
// origin in the tab; "" when there are none.
func (s *State) StorageScript() string {
	byOrigin := map[string]map[string]string{}
	for _, o := range s.Origins {
		if len(o.LocalStorage) == 0 {
			continue
		}
		origin, _ := originOf(o.Origin)
		items := byOrigin[origin]
		if items == nil {
			items = map[string]string{}
			byOrigin[origin] = items
		}
		for _, it := range o.LocalStorage {
			items[it.Name] = it.Value
		}
	}
	if len(byOrigin) == 0 {
		return ""
	}
	data, _ := json.Marshal(byOrigin)
	key, _ := json.Marshal(AppliedKey)
	return `(() => {
  const items = (` + string(data) + `)[location.origin];
  if (!items) return;
  try {
    if (sessionStorage.getItem(` + string(key) + `)) return;
    for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);
    sessionStorage.setItem(` + string(key) + `, "1");
  } catch (e) { console.error("agentready storage state:", String(e)); }
})();`
}
