package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/kit/hang"
)

// shadowPage nests open shadow roots two deep, has the same id in the light
// DOM and in a shadow root, and hides a button in a closed root.
const shadowPage = `<!doctype html><title>shadow</title>
<p id="same">light</p>
<outer-box id="o"></outer-box>
<closed-box></closed-box>
<script>
customElements.define("inner-box", class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: "open"}).innerHTML = '<button id="go">Go</button><p id="said">not yet</p>'; 
    this.shadowRoot.getElementById("go").addEventListener("click", () => { this.shadowRoot.getElementById("said").textContent = "clicked"; }); }
});
customElements.define("outer-box", class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: "open"}).innerHTML = '<p id="same">shadow</p><inner-box id="i"></inner-box>'; }
});
customElements.define("closed-box", class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: "closed"}).innerHTML = '<button id="secret">Secret</button>'; }
});
</script>`

// TestSelectorsPierceOpenShadowRoots: a click reaches a button two open
// shadow roots deep, a look reads text inside one and names its hosts, the
// light DOM's match comes first, ">>>" names a path, and a closed root's
// button is not found (its page's own script cannot reach it either).
func TestSelectorsPierceOpenShadowRoots(t *testing.T) {
	b := launched(t)
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, shadowPage) }))
	defer app.Close()
	ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
	defer cancel()
	tab, _ := clockedTab(t, ctx, b, app.URL)
	defer tab.Close()
	if err := tab.Do(ctx, chromedp.Click("#go", Deep("#go"), chromedp.NodeVisible)); err != nil {
		t.Fatalf("click inside the shadow roots: %v", err)
	}
	els, err := tab.Snapshot(ctx, ElementRef{Selector: "#said"}, ElementRef{Selector: "#same"}, ElementRef{Selector: "outer-box >>> #same"},
		ElementRef{Selector: "#secret"})
	if err != nil {
		t.Fatal(err)
	}
	said, same, path, secret := els[0], els[1], els[2], els[3]
	if !said.Present || said.Text != "clicked" || said.Host != "outer-box#o >>> inner-box#i" {
		t.Errorf("#said = %+v, want text clicked inside outer-box#o >>> inner-box#i", said)
	}
	if same.Text != "light" || same.Count != 2 || same.Host != "" {
		t.Errorf("#same = %+v, want the light DOM's first of 2", same)
	}
	if path.Text != "shadow" || path.Host != "outer-box#o" {
		t.Errorf("outer-box >>> #same = %+v, want the shadow root's", path)
	}
	if secret.Present {
		t.Errorf("a closed shadow root's button was found: %+v", secret)
	}
	// A selector that is no selector fails at once, saying so, instead of
	// waiting out the bound as for an element not there yet.
	start := time.Now()
	err = tab.Do(ctx, chromedp.Click("#go[", Deep("#go["), chromedp.NodeVisible))
	if err == nil || !strings.Contains(err.Error(), "is not a selector") || time.Since(start) > 5*time.Second {
		t.Errorf("an invalid selector: %v after %s", err, time.Since(start))
	}
}
