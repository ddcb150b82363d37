package play

import (
	"bytes"
	"context"
	"image/png"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/scenarios"
)

// The run's screenshot is the page as the person left it. The leave phase
// navigates away (to about:blank here: the scenario reads no probes), so a
// screenshot taken when the record is sealed would show a blank page: the
// page's own colour at the centre proves which was kept.
func TestTheScreenshotIsThePageThePersonLeft(t *testing.T) {
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<!doctype html><title>left</title><style>html,body{margin:0;height:100%;background:rgb(200,0,120)}</style><button id=done>Done</button>`))
	}))
	defer app.Close()
	b, err := browser.Launch(browser.OptionsFromEnv())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sc, err := scenarios.Parse("LEFT-01.yaml", []byte("id: LEFT-01\ntitle: the page is left\nstart: /\nprompt: nothing\nhuman:\n  - click: '#done'\nexpect:\n  writes: {human: 0}\n"))
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := Scenario(ctx, sc, Options{Browser: b, App: App{BaseURL: app.URL}, RunID: "r1", Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	got, err := bundle.Read(sealed.Row.Bundle)
	if err != nil {
		t.Fatal(err)
	}
	if got.Evidence.Leave == nil {
		t.Fatal("the run did not leave the page: this test proves nothing")
	}
	img, err := png.Decode(bytes.NewReader(got.Screenshot))
	if err != nil {
		t.Fatalf("the screenshot: %v", err)
	}
	bounds := img.Bounds()
	r, g, bl, _ := img.At(bounds.Dx()/2, bounds.Dy()/2).RGBA()
	if r>>8 != 200 || g>>8 != 0 || bl>>8 != 120 {
		t.Errorf("the screenshot's centre is rgb(%d,%d,%d), not the page's rgb(200,0,120): it shows the page the run went to", r>>8, g>>8, bl>>8)
	}
}
