package webmcp

import (
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/webmcp"
)

// The registering script is the innermost frame with a URL, kept without
// what may be secret in it (credentials, a query's key, a fragment).
func TestTheRegisteringScriptIsRecorded(t *testing.T) {
	for _, c := range []struct {
		stack *runtime.StackTrace
		want  string
	}{
		{nil, ""},
		{&runtime.StackTrace{}, ""},
		{&runtime.StackTrace{CallFrames: []*runtime.CallFrame{{URL: ""}, {URL: "https://cdn.example/w.js?key=AIzaSECRET#x"}, {URL: "https://shop.example/app.js"}}}, "https://cdn.example/w.js"},
		{&runtime.StackTrace{CallFrames: []*runtime.CallFrame{{URL: "https://ann:pw@shop.example/app.js"}}}, "https://shop.example/app.js"},
	} {
		got := toolFromProtocol(&webmcp.Tool{Name: "t", StackTrace: c.stack}).RegisteredBy
		if got != c.want {
			t.Errorf("%+v: %q, want %q", c.stack, got, c.want)
		}
	}
}
