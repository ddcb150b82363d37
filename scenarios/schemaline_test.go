package scenarios

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// A new file names the schema once, and the schema beside it is this
// suite's, replacing an older one.
func TestWithSchemaHeadsTheFileAndWritesTheSchemaBeside(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, SchemaFile)
	if err := os.WriteFile(stale, []byte(`{"old":true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := WithSchema(dir, []byte("id: X\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := SchemaLine + "id: X\n"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if again := HeadedBySchema(got); !bytes.Equal(again, got) {
		t.Errorf("a headed file was headed again: %q", again)
	}
	schema, err := os.ReadFile(stale)
	if err != nil || !bytes.Equal(schema, Schema()) {
		t.Errorf("the stale schema was not replaced: %.40s %v", schema, err)
	}
	if _, err := WithSchema(filepath.Join(stale, "under-a-file"), []byte("id: X\n")); err == nil {
		t.Error("a folder under a file: no error")
	}
}

// The quick start's `init --out scenarios/ORDER-01.yaml` runs in a project
// that has no scenarios folder yet: the folder is made, not an error after
// the page was read.
func TestWithSchemaMakesAFolderThatDoesNotExistYet(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "scenarios", "orders")
	if _, err := WithSchema(dir, []byte("id: X\n")); err != nil {
		t.Fatal(err)
	}
	if schema, err := os.ReadFile(filepath.Join(dir, SchemaFile)); err != nil || !bytes.Equal(schema, Schema()) {
		t.Errorf("no schema in the new folder: %.40s %v", schema, err)
	}
}
