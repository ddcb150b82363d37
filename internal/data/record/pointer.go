package record

import (
	"fmt"
	"strings"
)

// SplitPointer reads a JSON pointer (RFC 6901) into its reference tokens,
// unescaped (~1 is /, ~0 is ~). "" is the whole value and has no tokens; any
// other pointer starts with "/", and a "~" is followed by 0 or 1.
func SplitPointer(p string) ([]string, error) {
	if p == "" {
		return nil, nil
	}
	if !strings.HasPrefix(p, "/") {
		return nil, fmt.Errorf("%q is not a JSON pointer: it must start with /", p)
	}
	tokens := strings.Split(p[1:], "/")
	for i, t := range tokens {
		for k := 0; k < len(t); k++ {
			if t[k] == '~' && (k+1 == len(t) || (t[k+1] != '0' && t[k+1] != '1')) {
				return nil, fmt.Errorf("%q is not a JSON pointer: ~ must be followed by 0 or 1", p)
			}
		}
		tokens[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return tokens, nil
}

// JoinPointer writes reference tokens as a JSON pointer, escaping ~ and /;
// no tokens is "", the whole value.
func JoinPointer(tokens ...string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
	}
	return b.String()
}
