package appserver

import (
	"net"
	"testing"
)

// TestAListenerIsTheAppsOnlyOnAnAddressItsURLReaches: the port-owner check
// looks at listeners that receive the URL's connections, not every
// listener of the port: a program on [::1]:P does not answer 127.0.0.1:P.
func TestAListenerIsTheAppsOnlyOnAnAddressItsURLReaches(t *testing.T) {
	for _, tt := range []struct {
		listen, host string
		want         bool
	}{
		{"127.0.0.1", "127.0.0.1", true},
		{"0.0.0.0", "127.0.0.1", true},
		{"::", "127.0.0.1", true},
		{"::ffff:127.0.0.1", "127.0.0.1", true},
		{"::1", "127.0.0.1", false},
		{"127.0.0.2", "127.0.0.1", false},
		{"::1", "::1", true},
		{"::", "::1", true},
		{"0.0.0.0", "::1", false},
		{"127.0.0.1", "::1", false},
		{"::1", "localhost", true},
		{"127.0.0.1", "localhost", true},
		{"192.168.1.5", "localhost", false},
	} {
		if got := receives(net.ParseIP(tt.listen), tt.host); got != tt.want {
			t.Errorf("a listener on %s for %s: %v, want %v", tt.listen, tt.host, got, tt.want)
		}
	}
}
