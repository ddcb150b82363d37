package mdtable

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func write(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "README.md")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRowsOfOneSectionOnly(t *testing.T) {
	p := write(t, "## Other\n\n| `x` | 1 |\n\n## Codes\n\n| code | n |\n| --- | --- |\n| `a` |  1 |\n| `b` | 2 |\n\n## After\n\n| `c` | 3 |\n")
	rows, err := Rows(p, "Codes", 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]string{{"`a`", "1"}, {"`b`", "2"}}; !reflect.DeepEqual(rows, want) {
		t.Errorf("rows %q, want %q", rows, want)
	}
}

func TestARowOfAnotherWidthOrNoTableIsAnError(t *testing.T) {
	p := write(t, "## Codes\n\n| `a` | 1 | extra |\n")
	if _, err := Rows(p, "Codes", 2); err == nil || !strings.Contains(err.Error(), "3 cells") {
		t.Errorf("a row of 3 cells: %v", err)
	}
	if _, err := Rows(p, "Missing", 2); err == nil || !strings.Contains(err.Error(), "no table") {
		t.Errorf("no such section: %v", err)
	}
}
