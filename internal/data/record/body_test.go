package record

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func bodyReq(headers map[string]string, body string) Request {
	return Request{Method: "POST", Path: "/api/x", RequestHeaders: headers, HasBody: body != "", Body: body}
}

func TestABodyIsReadByItsContentType(t *testing.T) {
	multipartBody := strings.Join([]string{
		"--XyZ",
		`Content-Disposition: form-data; name="title"`,
		"",
		"Keynote",
		"--XyZ",
		`Content-Disposition: form-data; name="tag"`,
		"",
		"go",
		"--XyZ",
		`Content-Disposition: form-data; name="tag"`,
		"",
		"web",
		"--XyZ",
		`Content-Disposition: form-data; name="slides"; filename="deck.pdf"`,
		"Content-Type: application/pdf",
		"",
		"%PDF-1.7 …",
		"--XyZ",
		`Content-Disposition: form-data; name="photo"; filename=""`,
		"Content-Type: application/octet-stream",
		"",
		"",
		"--XyZ--",
		"",
	}, "\r\n")
	tests := []struct {
		name    string
		headers map[string]string
		body    string
		want    any
	}{
		{"the same key in two objects", map[string]string{"Content-Type": "application/json"}, `{"a":{"id":"x","n":{"id":"y"}},"b":[{"id":"z"},{"id":"z"}]}`,
			map[string]any{"a": map[string]any{"id": "x", "n": map[string]any{"id": "y"}}, "b": []any{map[string]any{"id": "z"}, map[string]any{"id": "z"}}}},
		{"json", map[string]string{"Content-Type": "application/json"}, `{"a":[1,2.50],"b":null}`,
			map[string]any{"a": []any{json.Number("1"), json.Number("2.50")}, "b": nil}},
		{"json with a charset, header in lower case", map[string]string{"content-type": "application/json; charset=utf-8"}, `[true]`, []any{true}},
		{"a +json type", map[string]string{"CONTENT-TYPE": "application/merge-patch+json"}, `{"x":"y"}`, map[string]any{"x": "y"}},
		{"no type, JSON body", nil, ` {"x":1} `, map[string]any{"x": json.Number("1")}},
		// fetch with a string body and no header sends text/plain.
		{"JSON sent as text/plain", map[string]string{"Content-Type": "text/plain;charset=UTF-8"}, `{"x":1}`, map[string]any{"x": json.Number("1")}},
		{"form", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, "email=a%40b.example&name=Ann+Lee&tag=go&tag=web&empty=",
			map[string]any{"email": "a@b.example", "name": "Ann Lee", "tag": []any{"go", "web"}, "empty": ""}},
		{"multipart", map[string]string{"Content-Type": "multipart/form-data; boundary=XyZ"}, multipartBody,
			map[string]any{"title": "Keynote", "tag": []any{"go", "web"}, "slides": map[string]any{"filename": "deck.pdf"},
				"photo": map[string]any{"filename": ""}}}, // a file input with no file chosen is still a file part
	}
	for _, tt := range tests {
		got, err := bodyReq(tt.headers, tt.body).BodyDocument()
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %#v, want %#v", tt.name, got, tt.want)
		}
	}
}

func TestABodyThatIsNoDocumentSaysWhy(t *testing.T) {
	tests := []struct {
		name    string
		headers map[string]string
		body    string
		want    string
	}{
		{"json that does not parse", map[string]string{"Content-Type": "application/json"}, `{"a":`, "application/json and not JSON"},
		{"two JSON values", map[string]string{"Content-Type": "application/json"}, `{} {}`, "more follows"},
		{"a key twice", map[string]string{"Content-Type": "application/json"}, `{"sessions":[{"id":"b"}],"sessions":[{"id":"a"},{"id":"b"}]}`, `"sessions" appears twice`},
		{"a key twice, deeper", map[string]string{"Content-Type": "application/json"}, `{"a":[{"x":1,"y":{"k":[]},"x":2}]}`, `"x" appears twice`},
		{"no type, not JSON", nil, "a=1", "no Content-Type and is not JSON"},
		{"another type", map[string]string{"Content-Type": "text/csv"}, `{"a":1}`, "text/csv, which is read as no document"},
		{"plain text that is not JSON", map[string]string{"Content-Type": "text/plain;charset=UTF-8"}, `a=1`, "text/plain and not JSON"},
		{"a bad form escape", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, "a=%zz", "form body does not parse"},
		{"multipart without a boundary", map[string]string{"Content-Type": "multipart/form-data"}, "--x--", "no boundary"},
		{"multipart cut short", map[string]string{"Content-Type": "multipart/form-data; boundary=XyZ"}, "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nhalf", "multipart body does not parse"},
		{"a type that does not parse", map[string]string{"Content-Type": "application/json; charset"}, "{}", "does not parse"},
	}
	for _, tt := range tests {
		got, err := bodyReq(tt.headers, tt.body).BodyDocument()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %#v, error %v; want an error saying %q", tt.name, got, err, tt.want)
		}
	}
	if _, err := (Request{HasBody: true}).BodyDocument(); !errors.Is(err, ErrBodyLost) {
		t.Errorf("a body the log lost: %v", err)
	}
	if _, err := (Request{}).BodyDocument(); !errors.Is(err, ErrNoBody) {
		t.Errorf("no body: %v", err)
	}
}

func TestJSONPointers(t *testing.T) {
	for _, p := range []string{"", "/a", "/a/0/b", "/a~1b/~0c", "/", "//x"} {
		tokens, err := SplitPointer(p)
		if err != nil {
			t.Errorf("%q: %v", p, err)
			continue
		}
		if back := JoinPointer(tokens...); back != p {
			t.Errorf("%q → %q → %q", p, tokens, back)
		}
	}
	// RFC 6901: ~1 is undone before ~0, so ~01 is the key "~1", not "/".
	if got, _ := SplitPointer("/~01"); !reflect.DeepEqual(got, []string{"~1"}) {
		t.Errorf("/~01 splits to %q, want [\"~1\"]", got)
	}
	if got, _ := SplitPointer("/a~1b/~0c"); !reflect.DeepEqual(got, []string{"a/b", "~c"}) {
		t.Errorf("unescaped: %q", got)
	}
	for _, p := range []string{"a/b", "/a~2", "/a~"} {
		if _, err := SplitPointer(p); err == nil {
			t.Errorf("%q read as a pointer", p)
		}
	}
}
