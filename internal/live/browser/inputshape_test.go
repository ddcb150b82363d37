package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/scenarios/vocab"
)

// shapePage registers echo, which counts its runs. With ?first-shape, the
// page's own script gives executeTool the API's first shape, as a browser
// before Chromium 156 had it: a JSON string taken, an object refused by the
// binding ("Failed to parse input") before any tool runs. With ?own-error,
// the tool itself throws a TypeError.
const shapePage = `<!doctype html><title>shape</title><script>
window.runs = 0;
const q = location.search;
document.modelContext.registerTool({
  name: "echo", description: "Echo the input back.", inputSchema: {type: "object", properties: {word: {type: "string"}}},
  execute(input) {
    runs++;
    if (q.includes("own-error")) throw new TypeError("the tool's own error");
    return JSON.stringify({word: input.word});
  },
});
if (q.includes("first-shape")) {
  const proto = Object.getPrototypeOf(document.modelContext), original = proto.executeTool;
  proto.executeTool = function (tool, input) {
    if (typeof input !== "string") return Promise.reject(new TypeError("Failed to execute 'executeTool' on 'ModelContext': Failed to parse input"));
    return original.call(this, tool, JSON.parse(input));
  };
}
</script>`

// A call through the page API says how executeTool took its input, works
// with either shape, and never runs a tool twice: a tool's own error is
// not taken for a refused shape.
func TestExecuteToolTakesEitherShapeAndSaysWhich(t *testing.T) {
	b := launched(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, shapePage)
	}))
	t.Cleanup(srv.Close)
	for _, c := range []struct {
		query, status, shape string
	}{
		{"", "completed", "object"},
		{"?first-shape", "completed", "json-string"},
		{"?own-error", "error", ""}, // Chromium 156: "UnknownError: Tool was executed but the invocation failed"
	} {
		tab := openTab(t, b, srv.URL+"/"+c.query)
		waitCatalog(t, tab, "echo")
		res := tab.Tools.Invoke(t.Context(), "echo", map[string]string{"word": "hi"}, vocab.PageAPI)
		if string(res.Status) != c.status || res.InputShape != c.shape {
			t.Errorf("%q: status %s, shape %q (%s), want %s, %q", c.query, res.Status, res.InputShape, res.ErrorText, c.status, c.shape)
		}
		if c.status == "completed" && string(res.Output) != `{"word":"hi"}` {
			t.Errorf("%q: output %s", c.query, res.Output)
		}
		ctx, cancel := tab.Bind(context.Background())
		runs, err := chromedp.Run(ctx, chromedp.Evaluate[int]("runs"))
		cancel()
		if err != nil || runs != 1 {
			t.Errorf("%q: the tool ran %d times (%v), want once", c.query, runs, err)
		}
	}
}
