package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"

	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/pagecheck/toollist"
)

// manyTools is a page that registers n read-only tools at load, as a big
// catalogue's site would.
const manyTools = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Items</title></head><body>
<h1>Items</h1>
<script type="module">
const n = Number(new URLSearchParams(location.search).get("n"));
for (let i = 0; i < n; i++) {
  document.modelContext.registerTool({
    name: "lookup_item_" + String(i).padStart(4, "0"),
    description: "Look up item " + i + " of the catalogue by its code; read-only.",
    inputSchema: { type: "object", properties: { code: { type: "string", description: "the item's code" } }, required: ["code"] },
    annotations: { readOnlyHint: true },
    execute: async ({ code }) => ({ ok: true, code }),
  });
}
</script></body></html>`

// catalogAxis reads the catalog of a page of n tools in the browser the
// environment names (as every command starts its browser): open, let the
// tools settle, list them with what the page API says of each.
func catalogAxis(ctx context.Context) (Axis, func(), error) {
	b, release, err := browser.LaunchFromEnv(ctx)
	if err != nil {
		return Axis{}, nil, err
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(manyTools))
	}))
	closeAll := func() { srv.Close(); _ = release() }
	ax := Axis{Name: "catalog", Unit: "tools on a page, in Chromium", Sizes: []int{10, 100, 500, 2000}, Prepare: func(n int) (*Work, error) {
		url := srv.URL + "/?n=" + strconv.Itoa(n)
		return &Work{Stages: []Stage{{"read catalog", func() error {
			l, err := toollist.Read(ctx, b, url, toollist.DefaultOptions)
			if err != nil {
				return err
			}
			if len(l.Tools) != n {
				return fmt.Errorf("the page offered %d tools, want %d", len(l.Tools), n)
			}
			return nil
		}}}}, nil
	}}
	return ax, closeAll, nil
}
