// Package hostile writes the input an attacker hands a loader, for the
// tests that prove each loader refuses it at once: one spelling of each,
// shared by every package that reads files.
package hostile

import "strings"

// AliasBomb is a YAML mapping under key of ten levels of nine aliases:
// some 450 bytes that stand for 9^10 nodes.
func AliasBomb(key string) string {
	var b strings.Builder
	b.WriteString(key + ":\n  a: &a [x, x, x, x, x, x, x, x, x]\n")
	prev := "a"
	for _, n := range "bcdefghij" {
		b.WriteString("  " + string(n) + ": &" + string(n) + " [" + strings.Repeat("*"+prev+", ", 8) + "*" + prev + "]\n")
		prev = string(n)
	}
	return b.String()
}

// DeepJSON is a JSON array nested depth deep.
func DeepJSON(depth int) string {
	return strings.Repeat("[", depth) + strings.Repeat("]", depth)
}
