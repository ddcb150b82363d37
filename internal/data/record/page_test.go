package record

import (
	"strings"
	"testing"
)

func TestParseFrame(t *testing.T) {
	for s, want := range map[string]FrameKind{
		"#checkout":                  FrameSelector,
		"iframe[src^='/pay']":        FrameSelector,
		`iframe[title="Pay / card"]`: FrameSelector,
		"iframe:nth-of-type(2)":      FrameSelector,
		"/embed/pay":                 FramePath,
		"/embed/pay?step=1":          FramePath,
		"https://pay.example/embed":  FrameURL,
		"http://localhost:3000/":     FrameURL,
	} {
		got, err := ParseFrame(s)
		if err != nil || got != want {
			t.Errorf("ParseFrame(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for s, want := range map[string]string{
		"":                           "got nothing",
		" #checkout":                 "spaces around it",
		"//pay.example/embed":        "with its scheme",
		"/embed#card":                "#fragment",
		"https://pay.example/x#card": "#fragment",
		"https:///nohost":            "no host",
		"about:blank":                "only an http(s) URL",
		"ftp://files.example/":       "only an http(s) URL",
		"pay.html":                   "relative path",
		"embed/pay":                  "a / outside brackets",
		"localhost:3000/pay":         "a / outside brackets",
		"iframe[src='/pay'":          "not closed",
		"iframe[title='x]":           "quote is not closed",
		"iframe)":                    "closes nothing",
	} {
		_, err := ParseFrame(s)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseFrame(%q) = %v; want an error saying %q", s, err, want)
		}
	}
}
