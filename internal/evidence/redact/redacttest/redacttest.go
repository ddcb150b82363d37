// Package redacttest is what the tests of redaction share: the spellings a
// value can take in a bundle's files, and a search of every file of a
// bundle for any of them (canaries that must leak 0 times).
package redacttest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Spellings are the ways a value can be written in a bundle's files: as it
// is, inside a JSON string, in HTML (html/template writes + as &#43;), and
// escaped for a URL query, path or form, by JavaScript's
// encodeURIComponent, or as a path with + escaped too.
func Spellings(v string) []string {
	out := []string{v}
	add := func(s string) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	j, _ := json.Marshal(v)
	add(string(j[1 : len(j)-1]))
	var page strings.Builder
	_ = template.Must(template.New("").Parse("{{.}}")).Execute(&page, v)
	add(page.String())
	add(html.EscapeString(v))
	add(url.QueryEscape(v))
	add(url.PathEscape(v))
	add(strings.ReplaceAll(url.PathEscape(v), "+", "%2B"))
	add(encodeURIComponent(v))
	return out
}

// encodeURIComponent escapes as JavaScript's does.
func encodeURIComponent(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// Leaks searches every file under dir (pictures, the HAR and folders
// included) for every spelling of every value, and answers each one found
// as `file holds "value" (as "spelling")`. An empty folder is an error: it
// would find nothing, and prove nothing.
func Leaks(dir string, values []string) ([]string, error) {
	var found []string
	files := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		for _, v := range values {
			for _, s := range Spellings(v) {
				if bytes.Contains(data, []byte(s)) {
					found = append(found, fmt.Sprintf("%s holds %q (as %q)", rel, v, s))
				}
			}
		}
		return nil
	})
	if err == nil && files == 0 {
		err = fmt.Errorf("%s holds no file", dir)
	}
	return found, err
}
