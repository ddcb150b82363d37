package scenarios

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"
)

// A Fixed is one place check --fix rewrote: the file's text there before
// and after.
type Fixed struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Was  string `json:"was"`
	Now  string `json:"now"`
}

func (f Fixed) String() string {
	return fmt.Sprintf("%s:%d: %s → %s", f.File, f.Line, oneLine(f.Was), oneLine(f.Now))
}

func oneLine(s string) string {
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(slices.DeleteFunc(lines, func(l string) bool { return l == "" }), " ")
}

// Fix answers a scenario file's text rewritten to the current spelling and
// what it rewrote; nothing when the file holds no deprecated spelling. Only
// the nodes rewritten change: every other byte (comments, order, layout,
// a prompt folded over lines) is the file's. The rewritten text must load
// without a deprecation to the very scenario the file loads to, or Fix
// answers an error and nothing (a defect of the suite, not of the file).
// A file that does not load is not rewritten: its problems come first.
func Fix(file string) ([]byte, []Fixed, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %s", file, readError(err))
	}
	// A file of CRLF lines is rewritten as LF text and written back CRLF.
	crlf := bytes.Contains(data, []byte("\r\n"))
	if crlf {
		data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	}
	before, err := Parse(file, data)
	if err != nil {
		return nil, nil, err
	}
	if len(ofFile(file, before.Deprecated)) == 0 {
		return nil, nil, nil
	}
	// The tree is the one the loader reads, {$date} values written out;
	// a rewrite's lines hold none, so its place is the same in the file.
	resolved, _, err := resolveDates(data, dayOf(data, time.Now()))
	if err != nil {
		return nil, nil, problemOfText(file, err)
	}
	doc, bad := parseBounded(file, resolved)
	if bad != nil {
		return nil, nil, *bad
	}
	m := migrate(file, doc.Content[0])
	type splice struct {
		start, end int
		text       string
		line       int
	}
	var splices []splice
	for _, r := range m.rewrote {
		start, end, err := spanOf(resolved, &r.before)
		if err == nil {
			var ok bool
			if start, end, ok = inFile(data, resolved, start, end); !ok {
				err = fmt.Errorf("a {$date} on its lines")
			}
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %v: rewrite it as the warning says", file, r.before.Line, err)
		}
		splices = append(splices, splice{start, end, render(r.node, &r.before), r.before.Line})
	}
	slices.SortFunc(splices, func(a, b splice) int { return b.start - a.start })
	out := slices.Clone(data)
	var fixed []Fixed
	for i, s := range splices {
		if i > 0 && s.end > splices[i-1].start {
			return nil, nil, fmt.Errorf("%s:%d: two rewrites overlap: rewrite it as the warnings say", file, s.line)
		}
		fixed = append(fixed, Fixed{File: file, Line: s.line, Was: string(data[s.start:s.end]), Now: s.text})
		out = slices.Concat(out[:s.start], []byte(s.text), out[s.end:])
	}
	slices.Reverse(fixed)
	after, err := Parse(file, out)
	if crlf {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: the rewritten file would not load (a defect of agentready; the file is unchanged): %v", file, err)
	}
	if left := ofFile(file, after.Deprecated); len(left) > 0 {
		return nil, nil, fmt.Errorf("%s: the rewritten file would still warn (a defect of agentready; the file is unchanged): %v", file, left[0])
	}
	a, _ := json.Marshal(before)
	b, _ := json.Marshal(after)
	if !bytes.Equal(a, b) {
		return nil, nil, fmt.Errorf("%s: the rewritten file would load to another scenario (a defect of agentready; the file is unchanged)", file)
	}
	return out, fixed, nil
}

// ofFile are the warnings of file itself, not of what it extends.
func ofFile(file string, ps Problems) Problems {
	var out Problems
	for _, p := range ps {
		if p.File == file {
			out = append(out, p)
		}
	}
	return out
}

// inFile maps a span of resolved to the file's own bytes by line: the
// lines it covers must be the file's own (no {$date} was written out on
// them); a {$date} on another line moves no line.
func inFile(data, resolved []byte, start, end int) (int, int, bool) {
	lineStart := bytes.LastIndexByte(resolved[:start], '\n') + 1
	lineEnd := len(resolved)
	if i := bytes.IndexByte(resolved[end:], '\n'); i >= 0 {
		lineEnd = end + i
	}
	first := bytes.Count(resolved[:lineStart], []byte("\n"))
	fileStart := 0
	for range first {
		i := bytes.IndexByte(data[fileStart:], '\n')
		if i < 0 {
			return 0, 0, false
		}
		fileStart += i + 1
	}
	fileEnd := fileStart + (lineEnd - lineStart)
	if fileEnd > len(data) || !bytes.Equal(data[fileStart:fileEnd], resolved[lineStart:lineEnd]) {
		return 0, 0, false
	}
	return fileStart + (start - lineStart), fileStart + (end - lineStart), true
}

// WriteFixed writes a fixed file in place: a new file renamed over it, so
// that a file is either as it was or whole.
func WriteFixed(file string, data []byte) error {
	file, err := filepath.EvalSymlinks(file) // a linked file is written where it is, the link kept
	if err != nil {
		return err
	}
	info, err := os.Stat(file)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".fix-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(info.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// spanOf answers where a node is written in data, from its first byte to
// the byte after its last: a plain or quoted scalar on one line, a flow
// collection (after its anchor, if it has one) to its closing bracket, a
// block mapping to its last line indented as deep as its keys. A flow
// collection that holds a comment is refused: written again on one line,
// the comment would be lost.
func spanOf(data []byte, n *yaml.Node) (int, int, error) {
	start, ok := offsetOf(data, n.Line, n.Column)
	if !ok {
		return 0, 0, fmt.Errorf("no such place %d:%d", n.Line, n.Column)
	}
	body := start
	if data[start] == '&' { // an anchor: the node is written after it
		for body < len(data) && data[body] != ' ' && data[body] != '\n' {
			body++
		}
		for body < len(data) && data[body] == ' ' {
			body++
		}
	}
	switch {
	case body != start && (body >= len(data) || data[body] != '{' && data[body] != '['):
		return 0, 0, fmt.Errorf("an anchored value check --fix does not rewrite")
	case n.Kind == yaml.ScalarNode && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0:
		end, ok := quotedEnd(data, start)
		if !ok {
			return 0, 0, fmt.Errorf("a quoted value not closed on its line")
		}
		return start, end, nil
	case n.Kind == yaml.ScalarNode && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0:
		end := start + len(n.Value)
		if end > len(data) || string(data[start:end]) != n.Value {
			return 0, 0, fmt.Errorf("a value over several lines")
		}
		return start, end, nil
	case n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode:
		if data[body] == '{' || data[body] == '[' {
			end, commented, ok := flowEnd(data, body)
			switch {
			case !ok:
				return 0, 0, fmt.Errorf("a flow collection not closed")
			case commented:
				return 0, 0, fmt.Errorf("a comment inside a {…} or […] written over lines")
			}
			return start, end, nil
		}
		if n.Kind == yaml.MappingNode {
			return start, blockEnd(data, start, n.Column-1), nil
		}
	}
	return 0, 0, fmt.Errorf("a value of a form check --fix does not rewrite")
}

// offsetOf is the byte offset of a line and column (both from 1, the
// column in characters, as the YAML parser counts them).
func offsetOf(data []byte, line, column int) (int, bool) {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return 0, false
		}
		off += i + 1
	}
	for c := 1; c < column; c++ {
		if off >= len(data) || data[off] == '\n' {
			return 0, false
		}
		_, w := utf8.DecodeRune(data[off:])
		off += w
	}
	return off, off < len(data)
}

// quotedEnd is the byte after the quote that closes the one at start.
func quotedEnd(data []byte, start int) (int, bool) {
	q := data[start]
	for i := start + 1; i < len(data) && data[i] != '\n'; i++ {
		switch {
		case q == '"' && data[i] == '\\':
			i++
		case q == '\'' && data[i] == '\'' && i+1 < len(data) && data[i+1] == '\'':
			i++
		case data[i] == q:
			return i + 1, true
		}
	}
	return 0, false
}

// flowEnd is the byte after the bracket that closes the one at start, and
// whether a comment stands between. A quote opens a quoted value only
// where a value starts (an apostrophe in o'neil is text); # begins a
// comment only after white space or at a line's start.
func flowEnd(data []byte, start int) (int, bool, bool) {
	depth, commented := 0, false
	valueStart := func(i int) bool {
		for j := i - 1; j >= start; j-- {
			switch data[j] {
			case ' ', '\t':
				continue
			case '{', '[', ',', ':', '\n':
				return true
			}
			return false
		}
		return true
	}
	for i := start; i < len(data); i++ {
		switch data[i] {
		case '"', '\'':
			if !valueStart(i) {
				continue
			}
			end, ok := quotedEnd(data, i)
			if !ok {
				return 0, false, false
			}
			i = end - 1
		case '#':
			if i == 0 || data[i-1] == ' ' || data[i-1] == '\t' || data[i-1] == '\n' {
				commented = true
				for i < len(data) && data[i] != '\n' {
					i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, commented, true
			}
		}
	}
	return 0, false, false
}

// blockEnd is the end of the last line of a block mapping whose keys are
// indented by indent: the lines after its first run while they are blank,
// comments, or indented at least as deep; a comment or a blank line after
// its last key is left where it is.
func blockEnd(data []byte, start, indent int) int {
	end := bytes.IndexByte(data[start:], '\n')
	if end < 0 {
		return len(data)
	}
	end += start
	for off := end + 1; off < len(data); {
		next := bytes.IndexByte(data[off:], '\n')
		lineEnd := len(data)
		if next >= 0 {
			lineEnd = off + next
		}
		line := data[off:lineEnd]
		trimmed := bytes.TrimLeft(line, " ")
		switch {
		case len(bytes.TrimSpace(line)) == 0 || trimmed[0] == '#':
		case len(line)-len(trimmed) < indent:
			return end
		default:
			end = lineEnd
		}
		off = lineEnd + 1
	}
	return end
}

// render writes a rewritten node as before was written: a flow collection
// on one line, a block mapping indented where it stood, a scalar as the
// encoder quotes it.
func render(n *yaml.Node, before *yaml.Node) string {
	if n.Kind == yaml.ScalarNode || before.Style&yaml.FlowStyle != 0 {
		return flowText(n)
	}
	c := deepCopy(n)
	c.HeadComment, c.FootComment = "", "" // above and below the span, where the file keeps them
	if len(c.Content) > 0 {
		c.Content[0].HeadComment = ""
	}
	// A comment after the last key is below the span too: the file keeps it.
	for cur := &c; len(cur.Content) > 0; {
		if cur.Kind == yaml.MappingNode && len(cur.Content) >= 2 {
			cur.Content[len(cur.Content)-2].FootComment = ""
		}
		cur = cur.Content[len(cur.Content)-1]
		cur.FootComment = ""
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&c); err != nil {
		return flowText(n)
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	pad := strings.Repeat(" ", before.Column-1)
	for i := 1; i < len(lines); i++ {
		if lines[i] != "" {
			lines[i] = pad + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

// FilesOf are the scenario files a path names: itself, or a folder's
// files and those below it (as LoadDir reads them).
func FilesOf(path string) ([]string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{path}, nil
	}
	return scenarioFiles(path)
}
