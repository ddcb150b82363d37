package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// aliasBomb is ten levels of nine aliases under key: 451 bytes that stand
// for 9^10 nodes.
func aliasBomb(key string) string {
	var b strings.Builder
	b.WriteString(key + ":\n  a: &a [x, x, x, x, x, x, x, x, x]\n")
	prev := "a"
	for _, n := range "bcdefghij" {
		b.WriteString("  " + string(n) + ": &" + string(n) + " [" + strings.Repeat("*"+prev+", ", 8) + "*" + prev + "]\n")
		prev = string(n)
	}
	return b.String()
}

// A scenario file that is an alias bomb, too deep or too large is refused
// naming the file and where, before anything walks it. Known bad, before:
// check walked the bomb past a minute (measured: 20 s and counting).
func TestAScenarioFileIsBounded(t *testing.T) {
	for name, src := range map[string]string{
		"an alias bomb": baseYAML + aliasBomb("bomb"),
		"too deep":      baseYAML + "deep: " + strings.Repeat("[", 150) + strings.Repeat("]", 150) + "\n",
		"too large":     baseYAML + "# " + strings.Repeat("x", maxYAMLBytes) + "\n",
	} {
		_, err := Parse("bomb.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), "bomb.yaml") || !(strings.Contains(err.Error(), "aliases expand") || strings.Contains(err.Error(), "at most")) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := Parse("base.yaml", []byte(baseYAML+"x-anchors: {a: &a 1, b: *a}\n")); err != nil && strings.Contains(err.Error(), "aliases expand") {
		t.Errorf("a file with a few aliases is refused: %v", err)
	}
}

// The folder file too.
func TestAFolderFileIsBounded(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FolderFile), []byte(aliasBomb("app")), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := FolderSignIn(dir); err == nil || !strings.Contains(err.Error(), FolderFile) || !strings.Contains(err.Error(), "aliases expand") {
		t.Errorf("the folder file's bomb: %v", err)
	}
}
