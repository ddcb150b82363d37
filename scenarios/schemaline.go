package scenarios

import (
	"bytes"
	"os"
	"path/filepath"
)

// SchemaLine is the first line of a scenario file that names its schema
// for editors (the YAML language server), by a path relative to the file.
const SchemaLine = "# yaml-language-server: $schema=" + SchemaFile + "\n"

// WithSchema makes a new scenario file of dir name its schema: it puts
// SchemaLine first and writes the schema beside the file, so that an
// editor checks the file offline against the schema of this very version
// of the suite. A schema file already there is replaced only when it
// differs (an older suite's). A folder that does not exist yet is made,
// as the quick start's `init --out scenarios/ORDER-01.yaml` in a new
// project needs. It answers the file's bytes.
func WithSchema(dir string, file []byte) ([]byte, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, SchemaFile)
	if old, err := os.ReadFile(path); err != nil || !bytes.Equal(old, schemaJSON) {
		if err := os.WriteFile(path, schemaJSON, 0o644); err != nil {
			return nil, err
		}
	}
	return HeadedBySchema(file), nil
}

// HeadedBySchema puts SchemaLine first, unless the file has it already.
func HeadedBySchema(file []byte) []byte {
	if bytes.HasPrefix(file, []byte(SchemaLine)) {
		return file
	}
	return append([]byte(SchemaLine), file...)
}
