package browser

import (
	"fmt"
	"net/url"
	"strings"
)

// checkBrowserURL says what is wrong with the address of a browser to
// attach to (AGENTREADY_BROWSER_URL) before it is dialled, naming the
// variable: a websocket (ws://, wss://) or the browser's HTTP endpoint
// (http://host:port), with a host.
func checkBrowserURL(raw string) error {
	name := EnvBrowserURL + "=" + raw
	u, err := url.Parse(raw)
	switch {
	case (err != nil || u.Scheme == "" || u.Opaque != "") && !strings.Contains(raw, "://") && hostOnly(raw):
		return fmt.Errorf("%w: %s lacks its scheme: give http://%s (the browser's --remote-debugging-port) or its ws:// address", ErrPreflight, name, raw)
	case err != nil:
		return fmt.Errorf("%w: %s is not a URL: %v", ErrPreflight, name, err)
	case u.Scheme != "ws" && u.Scheme != "wss" && u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%w: %s: the scheme %q is not supported: give ws://, wss://, http:// or https://", ErrPreflight, name, u.Scheme)
	case u.Host == "":
		return fmt.Errorf("%w: %s names no host (such as http://127.0.0.1:9222)", ErrPreflight, name)
	}
	return nil
}

// hostOnly: raw is a host and port a scheme short of a URL (localhost:9222).
func hostOnly(raw string) bool {
	u, err := url.Parse("http://" + raw)
	return err == nil && u.Host != ""
}
