package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/kit/hostile"
)

// A scenario file that is an alias bomb, too deep or too large is refused
// naming the file and where, before anything walks it. Known bad, before:
// check walked the bomb past a minute (measured: 20 s and counting).
func TestAScenarioFileIsBounded(t *testing.T) {
	for name, src := range map[string]string{
		"an alias bomb": baseYAML + hostile.AliasBomb("bomb"),
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
	if err := os.WriteFile(filepath.Join(dir, FolderFile), []byte(hostile.AliasBomb("app")), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := FolderSignIn(dir); err == nil || !strings.Contains(err.Error(), FolderFile) || !strings.Contains(err.Error(), "aliases expand") {
		t.Errorf("the folder file's bomb: %v", err)
	}
}
