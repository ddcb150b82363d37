package scenarios

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentready/agentready/internal/data/signin"
)

// SignIn is how a run signs in before its start page opens (package
// signin reads and checks it; the runner applies it to the tab): a saved
// browser state, extra headers, and a request sent from the tab whose
// Set-Cookie lands in the browser. A scenario's own replaces its folder
// file's whole; {off: reason} signs in with neither.
type SignIn struct {
	// A Playwright storageState JSON file (cookies and each origin's
	// localStorage), relative to the file that names it; applied to the
	// tab before the start page opens.
	StorageState string `yaml:"storage_state,omitempty" json:"storage_state,omitempty" examples:"[reader.storage-state.json]"`
	// Extra HTTP headers sent with every request of the tab (other
	// origins too): name → value. Cookie, Host and Content-Length are the
	// browser's to send.
	Headers map[string]string `yaml:"headers,omitempty" json:"headers,omitempty" examples:"[{X-Api-Key: test-key-1}]"`
	// A sign-in request "METHOD /path", sent from the start page as its
	// own script would (the session's cookies; redirects followed), before
	// the start page is opened again, signed in.
	Request RequestLine `yaml:"request,omitempty" json:"request,omitempty" examples:"[POST /login]"`
	// The request's body as form fields (application/x-www-form-urlencoded),
	// as a sign-in form posts them.
	Form map[string]string `yaml:"form,omitempty" json:"form,omitempty" examples:"[{name: reader, password: library}]"`
	// The request's body as JSON, for an API that signs in by JSON.
	Body any `yaml:"body,omitempty" json:"body,omitempty" examples:"[{user: reader, password: library}]"`
	// The page's CSRF token sent with the request: true for <meta
	// name="csrf-token"> and X-CSRF-Token.
	CSRF *CSRF `yaml:"csrf,omitempty" json:"csrf,omitempty" examples:"[true]"`
	// No sign-in for this scenario, not even its folder file's: the
	// reason. It wins over the other keys (a known-bad companion's patch
	// of its base's sign-in).
	Off string `yaml:"off,omitempty" json:"off,omitempty" examples:"[the known-bad companion runs signed out]"`

	// State is the storage state file as read when the scenario loaded.
	State *signin.State `yaml:"-" json:"-"`
	// From is the file the sign-in was written in: the scenario's, or its
	// folder file's (agentready.yaml) when it has none of its own.
	From string `yaml:"-" json:"-"`
}

// Active tells whether there is a sign-in to do.
func (s *SignIn) Active() bool { return s != nil && s.Off == "" }

// Options are the sign-in's saved state and headers, as package signin
// applies them (the headers as checked when the scenario loaded).
func (s *SignIn) Options() signin.Options {
	var o signin.Options
	if !s.Active() {
		return o
	}
	o.State = s.State
	for _, name := range slices.Sorted(maps.Keys(s.Headers)) {
		_ = o.AddHeader(name + ": " + s.Headers[name])
	}
	return o
}

// Overridden names the keys of the sign-in that the command line's
// sign-in replaces: --storage-state replaces storage_state and request
// (each gives the tab its session), --header replaces headers.
func (s *SignIn) Overridden(cli signin.Options) []string {
	if !s.Active() {
		return nil
	}
	var keys []string
	if cli.State != nil {
		if s.StorageState != "" {
			keys = append(keys, "storage_state")
		}
		if s.Request != "" {
			keys = append(keys, "request")
		}
	}
	if len(cli.Headers) > 0 && len(s.Headers) > 0 {
		keys = append(keys, "headers")
	}
	return keys
}

// Resolve is the sign-in a run does, with the command line's (cli) over
// the keys it covers (Overridden): what to put in the tab before the start
// page, whether the sign-in request is still to be sent, and its record
// (names and counts only). A nil record: there is no sign-in to do.
func (s *SignIn) Resolve(cli signin.Options) (in signin.Options, request bool, rec *SignInRecord) {
	if cli.Empty() && !s.Active() {
		return in, false, nil
	}
	in = s.Options()
	request = s.Active() && s.Request != ""
	if cli.State != nil {
		in.State, request = cli.State, false
	}
	if len(cli.Headers) > 0 {
		in.Headers = cli.Headers
	}
	rec = &SignInRecord{Overridden: s.Overridden(cli), Headers: in.HeaderNames()}
	if in.State != nil {
		rec.StorageState = "(--storage-state)"
		if cli.State == nil {
			rec.StorageState = filepath.Base(s.StorageState)
		}
		rec.Cookies, rec.Origins = len(in.State.Cookies), len(in.State.Origins)
	}
	if request {
		rec.Request = string(s.Request)
	}
	var from []string
	if !cli.Empty() {
		from = append(from, "command line")
	}
	fileUsed := request || (in.State != nil && cli.State == nil) || (len(s.Options().Headers) > 0 && len(cli.Headers) == 0)
	switch {
	case !s.Active() || !fileUsed:
	case filepath.Base(s.From) == FolderFile:
		from = append(from, "folder file")
	default:
		from = append(from, "scenario")
	}
	rec.From = strings.Join(from, " and ")
	return in, request, rec
}

// validate checks the sign-in's meaning and reads its storage state file,
// relative to file; at is where it is written (signin).
func (s *SignIn) validate(at keyPath, p *problems) {
	if s == nil {
		return
	}
	if s.Off != "" {
		return // whatever else it says: a companion's patch of its base's sign-in
	}
	if s.StorageState == "" && len(s.Headers) == 0 && s.Request == "" {
		p.bad(at, "says no way to sign in: give storage_state, headers or request (or off: with the reason)")
	}
	for _, name := range slices.Sorted(maps.Keys(s.Headers)) {
		if _, _, err := signin.ParseHeader(name + ": " + s.Headers[name]); err != nil {
			p.bad(at.key("headers").key(name), "%s", strings.Replace(err.Error(), "--storage-state", "storage_state", 1))
		}
	}
	if s.Request != "" {
		if _, path, ok := s.Request.Split(); !ok || !strings.HasPrefix(path, "/") {
			p.bad(at.key("request"), "%q is not \"METHOD /path\" (a path of the app, such as POST /login)", s.Request)
		}
	}
	switch {
	case s.Form != nil && s.Body != nil:
		p.bad(at.key("body"), "a request has one body: form (form fields) or body (JSON), not both")
	case s.Request == "" && (s.Form != nil || s.Body != nil || s.CSRF != nil):
		key := "form"
		if s.Body != nil {
			key = "body"
		} else if s.CSRF != nil {
			key = "csrf"
		}
		p.bad(at.key(key), "belongs to a sign-in request: give request (\"POST /login\") too")
	}
	if s.CSRF != nil && (s.CSRF.Meta == "" || s.CSRF.Header == "") {
		p.bad(at.key("csrf"), "a sign-in reads its token from the login page's <meta>: give meta and header (or true); cookie and from are for send")
	}
	if s.StorageState != "" && s.State == nil {
		path := s.StorageState
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(s.From), path)
		}
		st, err := signin.Load(path)
		if err != nil {
			msg := strings.TrimPrefix(err.Error(), "storage state: ")
			p.bad(at.key("storage_state"), "%s", strings.TrimPrefix(msg, "storage state "))
			return
		}
		s.State = st
	}
}

// String words the sign-in for a person: its ways and where it is written,
// never a value.
func (s *SignIn) String() string {
	if s == nil {
		return "none"
	}
	if s.Off != "" {
		return fmt.Sprintf("off (%s)", s.Off)
	}
	var ways []string
	if s.StorageState != "" {
		ways = append(ways, "storage_state "+s.StorageState)
	}
	if len(s.Headers) > 0 {
		ways = append(ways, "headers "+strings.Join(slices.Sorted(maps.Keys(s.Headers)), ", "))
	}
	if s.Request != "" {
		ways = append(ways, "request "+string(s.Request))
	}
	return strings.Join(ways, "; ")
}
