// Package mdtable reads the rows of a Markdown table that stands under a
// "## " heading, for the tests that keep a README's table equal to what
// the code declares (the failure codes, the links of the chain).
package mdtable

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// Rows answers the rows of the table in the section headed "## section" of
// the file: each row whose first cell is code (starts with a backquote),
// its cells trimmed. The header and separator rows are left out. A row of
// another width than cells, and a section without such rows, are errors.
func Rows(path, section string, cells int) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows [][]string
	in := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if h, ok := strings.CutPrefix(line, "## "); ok {
			in = h
			continue
		}
		if in != section || !strings.HasPrefix(line, "| `") {
			continue
		}
		row := strings.Split(strings.Trim(line, "|"), " | ")
		for i := range row {
			row[i] = strings.TrimSpace(row[i])
		}
		if len(row) != cells {
			return nil, fmt.Errorf("%s, %q: a row of %d cells, want %d: %s", path, section, len(row), cells, line)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s has no table under ## %s", path, section)
	}
	return rows, nil
}
