package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// A --settle that cannot be waited by is refused, saying why, before any
// browser starts (exit 2), by every command that reads a page.
func TestABadSettleIsRefused(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--settle", "0s"}, "--settle 0s: the quiet time must be more than 0"},
		{[]string{"--settle", "-1s"}, "the quiet time must be more than 0"},
		{[]string{"--max-wait", "0s"}, "--max-wait 0s: the longest wait must be more than 0"},
		{[]string{"--settle", "10s", "--max-wait", "5s"}, "--settle 10s is longer than --max-wait 5s"},
		{[]string{"--settle", "soon"}, `invalid value "soon" for flag -settle`},
	} {
		for name, cmd := range map[string]func([]string, io.Writer, io.Writer) int{"catalog": catalogCmd, "lint": lintCmd, "init": initCmd, "smoke": smokeCmd} {
			var out, errs bytes.Buffer
			args := append([]string{}, c.args...)
			if name == "init" {
				args = append(args, "--id", "X-01")
			}
			code := cmd(append(args, "http://127.0.0.1:1/"), &out, &errs)
			if code != 2 || !strings.Contains(errs.String(), c.want) {
				t.Errorf("%s %v: exit %d, %q; want 2 and %q", name, c.args, code, errs.String(), c.want)
			}
		}
	}
}
