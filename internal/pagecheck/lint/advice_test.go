package lint

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/pagecheck/toollist"
)

// A script of the page's own origin (a file, an inline script, a blob it
// made) is no finding; one of another origin is, named with its URL; a
// frame's tool is held against the frame's origin, not the top's.
func TestThirdPartyRegistration(t *testing.T) {
	for script, want := range map[string]bool{
		"":                                      false,
		pageURL:                                 false,
		"http://127.0.0.1:9/static/app.js":      false,
		"blob:http://127.0.0.1:9/5f2a-77":       false,
		"http://localhost:9/widget.js":          true,
		"https://127.0.0.1:9/app.js":            true,
		"blob:https://cdn.example/5f2a":         true,
		"chrome-extension://abc/content.js":     false, // no origin of the web to compare
		"http://127.0.0.1:10/app.js":            true,
		"HTTP://127.0.0.1:9/upper-case-host.js": false,
	} {
		l := clean()
		l.Tools[0].RegisteredBy = script
		fs := Check(l)
		if got := slices.Contains(rulesOf(fs), "third-party-registration"); got != want {
			t.Errorf("%q: flagged %v, want %v: %+v", script, got, want, fs)
		}
		if want && !strings.Contains(fs[0].Message, script) {
			t.Errorf("%q is not named: %s", script, fs[0].Message)
		}
	}
	l := clean()
	l.Tools[0].FrameURL, l.Tools[0].RegisteredBy = "https://pay.example/embed", "https://pay.example/embed.js"
	if fs := Check(l); len(fs) != 0 {
		t.Errorf("a frame's own script: %+v", fs)
	}
}

// Money moved by an autosubmitted form is an error of
// declarative-autosubmit-sensitive; a person's data is a warning of its own;
// without toolautosubmit neither is anything.
func TestAutosubmitMoneyAndPersonalData(t *testing.T) {
	check := func(name, description string, auto bool, fields ...toollist.Field) []string {
		l := clean()
		f := toolForm(name, description, fields...)
		f.AutoSubmit = auto
		l.Forms = append(l.Forms, f)
		return rulesOf(Check(l))
	}
	amount := toollist.Field{Name: "amount", Type: "number", Text: "Amount in euros"}
	iban := toollist.Field{Name: "to_iban", Type: "text", Text: "To"}
	phone := toollist.Field{Name: "contact", Type: "tel", Text: "Phone"}
	street := toollist.Field{Name: "line1", Type: "text", Autocomplete: "shipping street-address", Text: "Street"}
	for _, c := range []struct {
		name, description string
		auto              bool
		fields            []toollist.Field
		want              []string
	}{
		{"transfer_funds", "Move money between the person's accounts", true, []toollist.Field{amount}, []string{"declarative-autosubmit-sensitive"}},
		{"tip_author", "Leave a tip for the author of a post", true, nil, []string{"declarative-autosubmit-sensitive"}},
		{"send_gift", "Send a gift of some euros to a friend", true, []toollist.Field{amount, iban}, []string{"declarative-autosubmit-sensitive"}},
		{"transfer_funds", "Move money between the person's accounts", false, []toollist.Field{amount}, nil},
		{"call_back", "Ask the shop to ring the person back", true, []toollist.Field{phone}, []string{"declarative-autosubmit-personal"}},
		{"ship_here", "Set where an order is shipped", true, []toollist.Field{street}, []string{"declarative-autosubmit-personal"}},
		{"ship_here", "Set where an order is shipped", false, []toollist.Field{street}, nil},
		{"search_stock", "Find books in stock by title", true, []toollist.Field{{Name: "title", Type: "text", Text: "Title"}}, nil},
	} {
		if got := check(c.name, c.description, c.auto, c.fields...); !slices.Equal(got, c.want) {
			t.Errorf("%s (autosubmit %v): %v, want %v", c.name, c.auto, got, c.want)
		}
	}
}

// A field Chromium gives no description says so, and names the words it
// had that Chromium does not read.
func TestFieldDescriptionNamesIgnoredWords(t *testing.T) {
	l := clean()
	l.Tools[1].InputSchema = json.RawMessage(`{"type":"object","properties":{"guests":{"type":"string"}}}`)
	l.Forms[0].Fields[0].Text = "Number of guests" // an aria-label
	fs := Check(l)
	if len(fs) != 1 || fs[0].Rule != "declarative-field-description" || !strings.Contains(fs[0].Message, "aria-label") {
		t.Errorf("%+v", fs)
	}
	// An imperative tool's undescribed parameter is param-description-missing's, not this.
	l = clean()
	l.Tools[0].InputSchema = json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)
	if got := rulesOf(Check(l)); !slices.Equal(got, []string{"param-description-missing"}) {
		t.Errorf("%v", got)
	}
}

func TestNamingStyles(t *testing.T) {
	for name, want := range map[string]NamingStyle{
		"search": Single, "search_books": SnakeCase, "searchBooks": CamelCase, "search-books": KebabCase,
		"books.search": DotCase, "SearchBooks": PascalCase, "Search_books": Mixed, "search_Books": Mixed,
		"get_item2": SnakeCase, "v2Search": CamelCase,
	} {
		if got := Style(name); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	// Parameters are held to the page's parameters, tools to its tools.
	l := clean()
	l.Tools = append(l.Tools, titled(tool("find_hotels", "Look up hotel rooms for one night in one town", `{"type":"object","properties":{"checkIn":{"type":"string","description":"Day"},"check_out":{"type":"string","description":"Day"},"night_count":{"type":"integer","description":"Nights"}}}`), "Find hotels"))
	fs := Check(l)
	if len(fs) != 1 || fs[0].Rule != "naming-consistency" || fs[0].Tool != "find_hotels" || !strings.Contains(fs[0].Message, `"checkIn" (camelCase)`) || strings.Contains(fs[0].Message, "its name") {
		t.Errorf("%+v", fs)
	}
}

func TestToolNameStyle(t *testing.T) {
	c := Config{"tool-name-style": On}
	for name, want := range map[string]bool{"search_books": false, "search": false, "book_table": false, "shipping_rates": true, "searchBooks": true, "cart": true} {
		l := toollist.Listing{URL: pageURL, Tools: []toollist.Tool{titled(tool(name, "Something this tool does for the person", goodSchema), "T")}}
		if got := slices.Contains(rulesOf(CheckWith(l, c)), "tool-name-style"); got != want {
			t.Errorf("%s: flagged %v, want %v", name, got, want)
		}
	}
}

// Keywords are found where a schema is, not where a name is; a form's
// schema is Chromium's and is left alone.
func TestUnevenKeywordsAtSchemaPlacesOnly(t *testing.T) {
	var v any
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"if":{"type":"string","description":"a name"},"not":{"type":"object","properties":{"x":{"oneOf":[{"type":"string"},{"$ref":"#/$defs/n"}]}}}},"$defs":{"n":{"type":"number","not":{"const":3}}}}`), &v)
	var got []string
	keywordsIn(v, "", 64, &got)
	want := []string{"oneOf at /properties/not/properties/x", "$ref at /properties/not/properties/x/oneOf/1", "not at /$defs/n"}
	if !slices.Equal(got, want) {
		t.Errorf("%q, want %q", got, want)
	}
	l := clean()
	l.Tools[1].InputSchema = json.RawMessage(`{"type":"object","properties":{"guests":{"type":"string","description":"Guests","enum":["2","4"],"anyOf":[{"const":"2","title":"Two"},{"const":"4","title":"Four"}]}}}`)
	if fs := Check(l); len(fs) != 0 {
		t.Errorf("a form's own schema: %+v", fs)
	}
}

// A schema that is an object but not a valid JSON Schema is schema-shape's,
// by the maintained validator (santhosh-tekuri/jsonschema, draft 2020-12).
func TestSchemaValidity(t *testing.T) {
	for _, schema := range []string{
		`{"type":"object","properties":{"n":{"type":"strnig","description":"N"}}}`,
		`{"type":"object","properties":{"n":{"type":"string","minLength":-1,"description":"N"}}}`,
		`{"type":"object","properties":{"n":{"type":"string","description":"N"}},"required":"n"}`,
		`{"type":"object","properties":{"n":{"type":"string","pattern":"(","description":"N"}}}`,
	} {
		l := clean()
		l.Tools[0].InputSchema = json.RawMessage(schema)
		fs := Check(l)
		if !slices.Contains(rulesOf(fs), "schema-shape") {
			t.Errorf("%s: %+v", schema, fs)
		}
	}
}

func TestConfigSettings(t *testing.T) {
	c := Config{}
	for _, ok := range []string{"tool-title-missing=on", "too-many-tools=off", "naming-consistency=error", "no-tools=warning"} {
		if err := c.ParseSetting(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	// A mistyped ID is answered with the IDs there are, so the person can
	// pick one without leaving the terminal.
	for bad, says := range map[string]string{"tool-title-missing": "ID=setting", "no-such-rule=on": `"no-such-rule"`, "tool-name-styles=on": "the rules: no-tools, ", "description-when-to-use!=on": "tool-name-style, ", "no-tools=loud": `"loud"`} {
		before := len(c)
		if err := c.ParseSetting(bad); err == nil || !strings.Contains(err.Error(), says) || len(c) != before {
			t.Errorf("%s: %v", bad, err)
		}
	}
	l := clean()
	l.Tools = append(l.Tools, titled(tool("findTrains", "Look up rail departures for one station", goodSchema), "Find trains"))
	fs := CheckWith(l, c)
	if len(fs) != 1 || fs[0].Rule != "naming-consistency" || fs[0].Severity != Error {
		t.Errorf("%+v", fs)
	}
	if fs := CheckWith(l, Config{"naming-consistency": Off}); len(fs) != 0 {
		t.Errorf("off: %+v", fs)
	}
}
