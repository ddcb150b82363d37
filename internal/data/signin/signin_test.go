package signin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseReadsPlaywrightsFormat(t *testing.T) {
	s, err := Parse([]byte(`{"cookies":[{"name":"sid","value":"v1","domain":"127.0.0.1","path":"/","expires":-1,"httpOnly":true,"secure":false,"sameSite":"Lax"}],
	  "origins":[{"origin":"http://127.0.0.1:3000","localStorage":[{"name":"token","value":"t"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Cookies) != 1 || s.Cookies[0].Name != "sid" || !s.Cookies[0].HTTPOnly || s.Origins[0].LocalStorage[0].Value != "t" {
		t.Errorf("read %+v", s)
	}
}

// Bad input is an error naming the entry and the reason, never a panic.
func TestParseRefusesBadStates(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{`{`, "not JSON"},
		{`[]`, "not a storage state"},
		{`{"cookies": {"name": "x"}}`, "cookies must be"},
		{`{"cookies":[{"value":"v","domain":"h"}]}`, "cookies[0]: a name is required"},
		{`{"cookies":[{"name":"a b","value":"v","domain":"h"}]}`, `name "a b" is not a cookie name`},
		{`{"cookies":[{"name":"a","value":"v;x","domain":"h"}]}`, "holds a character"},
		{`{"cookies":[{"name":"a","value":"v"}]}`, "a domain is required"},
		{`{"cookies":[{"name":"a","value":"v","domain":"h","sameSite":"lax"}]}`, "sameSite must be Strict, Lax or None"},
		{`{"cookies":[{"name":"a","value":"v","domain":"h","expires":-5}]}`, "expires must be"},
		{`{"origins":[{"origin":"127.0.0.1:3000"}]}`, "origins[0]: origin \"127.0.0.1:3000\" is not an http(s) origin"},
		{`{"origins":[{"origin":"http://h/path"}]}`, "more than a scheme"},
		{`{"origins":[{"origin":"http://h","localStorage":[{"value":"v"}]}]}`, "origins[0].localStorage[0]: a name is required"},
	} {
		_, err := Parse([]byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%s) = %v, want an error with %q", c.doc, err, c.want)
		}
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("a missing file: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(bad, []byte("cookies: []"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(bad); err == nil || !strings.Contains(err.Error(), "state.json: not JSON") {
		t.Errorf("a YAML file: %v", err)
	}
}

func TestParseHeader(t *testing.T) {
	if n, v, err := ParseHeader("x-api-key:  k1 "); err != nil || n != "X-Api-Key" || v != "k1" {
		t.Errorf("ParseHeader = %q %q %v", n, v, err)
	}
	for _, c := range []struct{ raw, want string }{
		{"X-Api-Key k1", "write it as 'Name: value'"},
		{"X Api: k1", "is not a header name"},
		{": k1", "is not a header name"},
		{"X-A: a\nb", "a control character"},
		{"Cookie: sid=1", "--storage-state"},
	} {
		if _, _, err := ParseHeader(c.raw); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseHeader(%q) = %v, want %q", c.raw, err, c.want)
		}
	}
}
