package report

import (
	"strings"
	"testing"
)

func TestShowMakesHiddenCharactersVisibleAndCutsLongValues(t *testing.T) {
	got := Show("a\x1b[31m\u200b\u202eb\u2066c")
	for _, want := range []string{"⟨U+001B⟩", "⟨U+200B⟩", "⟨U+202E⟩", "⟨U+2066⟩"} {
		if !strings.Contains(got, want) {
			t.Errorf("Show lacks %s: %q", want, got)
		}
	}
	long := Show(strings.Repeat("x", MaxShown+50))
	if !strings.Contains(long, "cut: 450 characters in all") {
		t.Errorf("a long value is not cut with its length: …%q", long[len(long)-40:])
	}
	if Show("line\nnext\ttab") != "line\nnext\ttab" {
		t.Error("newlines and tabs are kept")
	}
}
