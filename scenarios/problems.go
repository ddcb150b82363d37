package scenarios

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Problem is one thing wrong with a scenario file, named where a person
// finds it in an editor: the file, the line and column (1-based; 0 when the
// problem is not at one place, such as a file that cannot be read), the key
// (expect.requests[0].count) and what was expected.
type Problem struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Key     string `json:"key,omitempty"` // "" for the file as a whole
	Message string `json:"message"`
	// Unread says the file was refused before it was read (too large, an
	// alias bomb, too deep): hostile input, not a mistake in a scenario,
	// which every command refuses with exit 2.
	Unread bool `json:"unread,omitempty"`
}

// Unread tells whether any of ps refused a file unread.
func (ps Problems) Unread() bool {
	for _, p := range ps {
		if p.Unread {
			return true
		}
	}
	return false
}

func (p Problem) Error() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", p.Line, max(p.Column, 1))
	}
	b.WriteString(": ")
	if p.Key != "" {
		b.WriteString(p.Key + ": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// Problems are every problem of one load, in the order of the files and
// their lines: one load names them all.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}

// sorted orders problems by file, line and column, keeping the order of
// problems at one place, and drops repeats.
func (ps Problems) sorted() Problems {
	out := slices.Clone(ps)
	slices.SortStableFunc(out, func(a, b Problem) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column),
			strings.Compare(a.Key, b.Key), strings.Compare(a.Message, b.Message))
	})
	return slices.Compact(out)
}

// keyPath is where a value is in a scenario: keys of mappings (strings)
// and indexes of lists (ints), from the top of the file.
type keyPath []any

func pathOf(segments ...any) keyPath { return keyPath(segments) }

// key is the path one key further in.
func (k keyPath) key(name string) keyPath { return append(slices.Clip(k), name) }

// index is the path one list element further in.
func (k keyPath) index(i int) keyPath { return append(slices.Clip(k), i) }

var plainKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// String writes the path as a person reads it: expect.requests[0].count,
// and a key that is no plain word quoted: expect.state.human.equals["$.x"].
func (k keyPath) String() string {
	var b strings.Builder
	for _, s := range k {
		switch s := s.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", s)
		case string:
			switch {
			case !plainKey.MatchString(s):
				b.WriteString("[" + strconv.Quote(s) + "]")
			case b.Len() > 0:
				b.WriteString("." + s)
			default:
				b.WriteString(s)
			}
		}
	}
	return b.String()
}

// problems collects every problem of a file, each at its key, so that one
// load names them all and each is placed at its line.
type problems struct{ list []keyedProblem }

type keyedProblem struct {
	at      keyPath
	onKey   bool // at the key itself (an unknown key), not at its value
	message string
	// line and column, for a problem the decoder placed itself (at is nil)
	line, column int
}

// bad records a problem with the value at path.
func (p *problems) bad(at keyPath, format string, args ...any) {
	p.list = append(p.list, keyedProblem{at: at, message: fmt.Sprintf(format, args...)})
}

// badKey records a problem with a key itself, such as one that is not known.
func (p *problems) badKey(at keyPath, format string, args ...any) {
	p.list = append(p.list, keyedProblem{at: at, onKey: true, message: fmt.Sprintf(format, args...)})
}

func (p *problems) empty() bool { return len(p.list) == 0 }

// placed answers the problems at their files' lines; without a tree (a
// scenario built in code), every problem names only the file and its key.
func (p *problems) placed(file string, t *tree) Problems {
	out := make(Problems, 0, len(p.list))
	for _, kp := range p.list {
		pr := Problem{File: file, Key: kp.at.String(), Message: kp.message}
		switch {
		case t != nil && kp.line > 0:
			pr.Line, pr.Column = kp.line, kp.column
			if pr.Column == 0 {
				pr.Column = t.firstColumn(kp.line)
			}
			pr.File = t.fileAt(pr.Line, pr.Column)
		case t != nil:
			pr.File, pr.Line, pr.Column = t.locate(kp.at, kp.onKey)
		}
		out = append(out, pr)
	}
	return out
}
