package record

import (
	"net/url"
	"strings"
)

// Origin is a URL's origin, scheme://host:port with the scheme's default
// port spelled out, so that https://a.example and https://a.example:443
// are one, and a WebSocket's ws(s) read as http(s); "" for a URL without a
// scheme and a host.
func Origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443", "ws": "80", "wss": "443"}[strings.ToLower(u.Scheme)]
	}
	// A WebSocket to the app's host is the app's: ws is http's scheme for
	// sockets, wss https's.
	scheme := map[string]string{"ws": "http", "wss": "https"}[strings.ToLower(u.Scheme)]
	if scheme == "" {
		scheme = strings.ToLower(u.Scheme)
	}
	return scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// SameOrigin tells whether raw is of base's origin: the one rule of the
// judge and the runner. An empty base (a record made without a base URL)
// is every origin.
func SameOrigin(base, raw string) bool {
	if base == "" {
		return true
	}
	o := Origin(base)
	return o != "" && o == Origin(raw)
}
