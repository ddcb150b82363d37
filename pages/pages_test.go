package pages

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/internal/kit/hang"
	"github.com/agentready/agentready/internal/live/browser/browsertest"
)

func TestMain(m *testing.M) { browsertest.Main(m) }

// drift answers what a page object names that its page, on a fresh app,
// does not have: selectors no element matches, and tools the page does not
// offer or offers besides.
func drift(t *testing.T, baseURL string, p Page) (missing []string, tools []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
	defer cancel()
	tab := browsertest.Tab(t)
	if err := tab.Navigate(ctx, baseURL+p.Path()); err != nil {
		t.Fatal(err)
	}
	in, release := tab.Bind(ctx)
	defer release()
	els, err := Snapshot(in, p.Selectors()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, el := range els {
		if !el.Present {
			missing = append(missing, el.Selector)
		}
	}
	catalog, err := tab.Tools.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return missing, catalog.Names()
}

func startApp(t *testing.T) string {
	t.Helper()
	app, err := refapp.Start(refapp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.Close() })
	return app.URL
}

// Every page object stands for its page: each selector it names is there
// on a fresh app, and the page offers exactly the tools it says.
func TestEveryPageObjectMatchesItsPage(t *testing.T) {
	base := startApp(t)
	for _, p := range All() {
		t.Run(p.Path(), func(t *testing.T) {
			if len(p.Selectors()) == 0 {
				t.Fatal("a page object that names no selector proves nothing here")
			}
			missing, tools := drift(t, base, p)
			if len(missing) > 0 {
				t.Errorf("not on the page: %v", missing)
			}
			if want := p.Tools(); !slices.Equal(tools, want) && !(len(tools) == 0 && len(want) == 0) {
				t.Errorf("the page offers %v, its object says %v", tools, want)
			}
		})
	}
}

// renamed is a page object that drifted: one selector and one tool renamed
// since the page last changed.
type renamed struct{ Registration }

func (r renamed) Selectors() []string {
	return append(r.Registration.Selectors(), "#attendee-name")
}
func (renamed) Tools() []string { return []string{"prepare_registration"} }

// The check bites: a drifted page object is seen, selector and tool alike.
func TestADriftedPageObjectIsSeen(t *testing.T) {
	base := startApp(t)
	p := renamed{Registration{EventID: EventIntro}}
	missing, tools := drift(t, base, p)
	if !slices.Equal(missing, []string{"#attendee-name"}) {
		t.Errorf("missing %v, want only the renamed selector", missing)
	}
	if slices.Equal(tools, p.Tools()) {
		t.Errorf("the page's tools %v pass for the renamed ones", tools)
	}
}

// A page object's Fill and Click reach fields and buttons inside open
// shadow roots, as the scenarios' steps do: a design system's sign-up form
// is typed into and sent through its host.
func TestFillAndClickPierceOpenShadowRoots(t *testing.T) {
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>shadow form</title><sign-up></sign-up><script>
customElements.define("sign-up", class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: "open"}).innerHTML = '<input id="who" value="old"><button id="send">Send</button><p id="sent"></p>';
    this.shadowRoot.getElementById("send").addEventListener("click", () => { this.shadowRoot.getElementById("sent").textContent = "sent " + this.shadowRoot.getElementById("who").value; }); }
});
</script>`)
	}))
	defer app.Close()
	ctx, cancel := context.WithTimeout(t.Context(), hang.Bound)
	defer cancel()
	tab := browsertest.Tab(t)
	if err := tab.Navigate(ctx, app.URL); err != nil {
		t.Fatal(err)
	}
	in, release := tab.Bind(ctx)
	defer release()
	if _, err := chromedp.Run(in, chromedp.Steps(Fill("sign-up >>> #who", "Ada"), Click("#send"))); err != nil {
		t.Fatal(err)
	}
	el, err := SnapshotOne(in, "#sent")
	if err != nil || el.Text != "sent Ada" {
		t.Errorf("after Fill and Click inside the shadow root: %+v, %v; want sent Ada", el, err)
	}
}
