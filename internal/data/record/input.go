package record

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// The bounds of a JSON file a user hands the suite (an eval file, an
// Inspector trace, a storage state, a tool contract): refused at once,
// naming the file, rather than read into memory or walked without end
// (issue 45). JSON has no aliases; what is left is size and depth. The
// deepest document the suite is known to meet is a tool schema 150 levels
// deep (the realpages /deep page), carried inside a trace entry.
const (
	MaxInputBytes = 64 << 20 // a trace of thousands of calls is a few MB
	MaxInputDepth = 1000
)

// ReadInput reads a file the suite was handed, refusing one larger than
// MaxInputBytes before it is read (a pipe: as soon as it passes them) and
// one nested deeper than MaxInputDepth; the error names the file.
func ReadInput(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() && info.Size() > MaxInputBytes {
		return nil, tooLarge(path, info.Size())
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxInputBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > MaxInputBytes {
		return nil, tooLarge(path, int64(len(data)))
	}
	if err := CheckDepth(data, MaxInputDepth); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return data, nil
}

func tooLarge(path string, size int64) error {
	return fmt.Errorf("%s: the file is %d bytes or more: a file the suite reads is at most %d (%d MiB)", path, size, MaxInputBytes, MaxInputBytes>>20)
}

// CheckDepth refuses JSON text whose arrays and objects nest deeper than
// max, naming the line and column where it passes it; one pass, no
// decoding (strings are skipped, their brackets are text).
func CheckDepth(data []byte, max int) error {
	depth, inString := 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inString && c == '\\':
			i++
		case inString:
			inString = c != '"'
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
			if depth > max {
				line := bytes.Count(data[:i], []byte("\n")) + 1
				col := i - bytes.LastIndexByte(data[:i], '\n')
				return fmt.Errorf("%d:%d: nested more than %d deep: a file the suite reads nests at most %d arrays and objects", line, col, max, max)
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return nil
}
