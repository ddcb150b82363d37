package toollist

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/kit/hang"
	"github.com/agentready/agentready/internal/live/browser"
)

// A page whose defects never reach the catalog: what the listing keeps of
// them (forms from the DOM, the refused registerTool() from the console),
// and whether getTools() reported annotations.
const droppedPage = `<!doctype html><title>dropped</title>
<form toolname="subscribe"><label>Email <input name="email" type="email" required></label></form>
<form toolname="book_room" tooldescription="Book a room" toolautosubmit>
  <input type="password" name="pin" autocomplete="current-password" toolparamdescription="Door PIN">
  <label><input type="radio" name="size" value="s"> Small</label><label><input type="radio" name="size" value="l"> Large</label>
  <button>Book</button>
</form>
<form action="/search"><input name="q" aria-label="Search"></form>
<iframe srcdoc="<form toolname='inner' tooldescription='Inner form'><input name='x'></form>"></iframe>
<script>
const run = async () => ({});
document.modelContext.registerTool({name: "bad name", description: "x", execute: run});
document.modelContext.registerTool({name: "with_hints", description: "Has hints", annotations: {readOnlyHint: true}, execute: run});
document.modelContext.registerTool({name: "without_hints", description: "Has none", execute: run});
</script>`

func TestReadKeepsWhatNeverReachesTheCatalog(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, droppedPage)
	}))
	defer srv.Close()
	b, err := browser.Launch(browser.OptionsFromEnv())
	if err != nil {
		t.Fatalf("these tests need Chromium (make deps installs it): %v", err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), hang.Bound)
	defer cancel()
	l, err := Read(ctx, b, srv.URL+"/", DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}

	names := strings.Join(l.Names(), ",")
	if names != "book_room,inner,with_hints,without_hints" {
		t.Errorf("catalog %s", names)
	}
	for _, tool := range l.Tools {
		switch tool.Name {
		case "with_hints", "without_hints":
			if tool.AnnotationsDeclared == nil || *tool.AnnotationsDeclared != (tool.Name == "with_hints") {
				t.Errorf("%s: annotationsDeclared %v", tool.Name, tool.AnnotationsDeclared)
			}
		default:
			if tool.AnnotationsDeclared != nil {
				t.Errorf("%s is a form: annotationsDeclared should be unknown", tool.Name)
			}
		}
	}

	if len(l.Forms) != 4 {
		t.Fatalf("forms %+v", l.Forms)
	}
	sub, book, search, inner := l.Forms[0], l.Forms[1], l.Forms[2], l.Forms[3]
	if sub.ToolName == nil || *sub.ToolName != "subscribe" || sub.ToolDescription != nil || sub.Locator() != `form[toolname="subscribe"]` {
		t.Errorf("subscribe %+v", sub)
	}
	if !book.AutoSubmit || len(book.Fields) != 2 || book.Fields[0] != (Field{Name: "pin", Type: "password", Autocomplete: "current-password", Text: "Door PIN"}) ||
		book.Fields[1].Name != "size" || book.Fields[1].Text != "Small Large" {
		t.Errorf("book_room %+v", book)
	}
	if search.ToolName != nil || search.Locator() != "form #3" || search.Fields[0].Text != "Search" {
		t.Errorf("search %+v", search)
	}
	if inner.ToolName == nil || *inner.ToolName != "inner" || inner.FrameURL != "about:srcdoc" {
		t.Errorf("inner %+v", inner)
	}

	var refused bool
	for _, e := range l.Console {
		refused = refused || strings.Contains(e.Text, "Invalid tool name")
	}
	if !refused {
		t.Errorf("the refused registerTool() is not in the console: %+v", l.Console)
	}
}

// The listing keeps each field's constraints the browser enforces, and
// names the frames of another origin whose forms it could not read.
func TestReadNamesWhatItCouldNotReadAndKeepsConstraints(t *testing.T) {
	var other string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/frame" {
			fmt.Fprint(w, `<!doctype html><form toolname="inner" tooldescription="Inner form"><input name="x"></form>`)
			return
		}
		fmt.Fprintf(w, `<!doctype html><title>outer</title>
<form toolname="code" tooldescription="Enter a code"><input name="code" minlength="3" maxlength="6" pattern="[A-Z]+"></form>
<iframe allow="tools" src="%s/frame"></iframe>`, other)
	}))
	defer srv.Close()
	other = strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	b, err := browser.Launch(browser.OptionsFromEnv())
	if err != nil {
		t.Fatalf("these tests need Chromium (make deps installs it): %v", err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), hang.Bound)
	defer cancel()
	l, err := Read(ctx, b, srv.URL+"/", DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Forms) != 1 || len(l.Forms[0].Fields) != 1 || l.Forms[0].Fields[0] != (Field{Name: "code", Type: "text", MinLength: 3, MaxLength: 6, Pattern: "[A-Z]+"}) {
		t.Errorf("forms %+v", l.Forms)
	}
	if len(l.FramesUnread) != 1 || l.FramesUnread[0] != other+"/frame" {
		t.Errorf("frames unread %v, want [%s/frame]", l.FramesUnread, other)
	}
}
