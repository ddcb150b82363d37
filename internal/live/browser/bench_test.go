package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdpwebmcp "github.com/chromedp/cdproto/webmcp"
	"github.com/chromedp/chromedp"
)

// BenchmarkTabAgainstBareChromedp measures the harness's own cost per spec
// (an isolated context, WebMCP on, trace and network capture, a navigation,
// teardown) against the same steps done with bare chromedp calls, in the same
// run and interleaved, and reports the ratio of the medians: only a ratio
// means anything on a noisy machine. Target: ≤ 1.3.
//
//	go test -run - -bench TabAgainstBare -benchtime 20x ./browser
func BenchmarkTabAgainstBareChromedp(b *testing.B) {
	br, err := Launch(Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>t</title><script>document.modelContext?.registerTool({name:"t",description:"t",inputSchema:{type:"object",properties:{}},execute:()=>({})})</script>`)
	}))
	defer page.Close()

	harness := func() error {
		tab, err := br.NewTab(b.Context())
		if err != nil {
			return err
		}
		defer tab.Close()
		if err := tab.Navigate(b.Context(), page.URL); err != nil {
			return err
		}
		_, err = tab.Tools.Catalog(b.Context())
		return err
	}
	bare := func() error {
		ctx, cancel := chromedp.NewContext(br.Context(), chromedp.WithNewBrowserContext(), chromedp.WithListener(func(any) {}))
		defer cancel()
		if err := chromedp.Do(ctx, chromedp.Navigate(page.URL)); err != nil {
			return err
		}
		if _, err := chromedp.Call(ctx, cdpwebmcp.Enable, cdp.Empty{}); err != nil {
			return err
		}
		return chromedp.Cancel(ctx)
	}
	var h, r []time.Duration
	b.ResetTimer()
	for range b.N {
		for _, way := range []struct {
			f   func() error
			out *[]time.Duration
		}{{bare, &r}, {harness, &h}} {
			start := time.Now()
			if err := way.f(); err != nil {
				b.Fatal(err)
			}
			br.Settle() // the harness's work done ahead or behind is its cost too
			*way.out = append(*way.out, time.Since(start))
		}
	}
	median := func(d []time.Duration) float64 {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return float64(d[len(d)/2])
	}
	b.ReportMetric(median(h)/1e6, "harness-ms")
	b.ReportMetric(median(r)/1e6, "bare-ms")
	b.ReportMetric(median(h)/median(r), "ratio")
}
