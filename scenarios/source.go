package scenarios

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v4"
)

// A scenario file is read into a tree of YAML nodes before it is decoded,
// so that every problem — of syntax, of a key, of meaning — is placed at
// the file, line and column where it was written. A file that extends
// another is that file's tree with its own merged in (RFC 7396 on the node
// tree): each node keeps the position and the file it was written in, so
// that a problem in a companion names the companion and one in what it
// inherited names the base (docs/decisions/2026-12-01-scenario-files.md).

// ExtendsKey is the key of a file that is a merge patch of another.
const ExtendsKey = "extends"

// tree is a scenario as read from its files: the merged document and, for
// each node, the file it was written in.
type tree struct {
	root  *yaml.Node            // the top-level mapping
	files map[*yaml.Node]string // every node → its file
	file  string                // the file asked for (the most derived)
	// chain is the files read, the asked-for one first, then what it
	// extends, and so on.
	chain []string
	today string // the day {$date} values were written out against, or ""
	// deprecated are the spellings of its files read as their current
	// ones (migrate), the asked-for file's first.
	deprecated Problems
}

// readTree reads file (with data, when given, as its contents) and what it
// extends. now is the day {$date} values resolve against when the file
// fixes no clock.
func readTree(file string, data []byte, now time.Time) (*tree, Problems) {
	return readChain(file, data, now, nil, nil)
}

// readChain reads one file of a chain of extends; below are the files
// that extend it (for cycles), and day, when set, the day of the file that
// extends it, which its own {$date} values then resolve against too (a
// companion that moves the clock moves its base's dates with it).
func readChain(file string, data []byte, now time.Time, below []string, day *time.Time) (*tree, Problems) {
	if data == nil {
		var err error
		if data, err = os.ReadFile(file); err != nil {
			return nil, Problems{{File: file, Message: readError(err)}}
		}
	}
	resolveAt := dayOf(data, now)
	if day != nil {
		resolveAt = *day
	}
	resolved, today, err := resolveDates(data, resolveAt)
	if err != nil {
		return nil, Problems{problemOfText(file, err)}
	}
	parsed, bad := parseBounded(file, resolved)
	if bad != nil {
		return nil, Problems{*bad}
	}
	doc := *parsed
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, Problems{{File: file, Message: "the file is empty: a scenario is a mapping of keys (id, title, start, prompt, agent, expect)"}}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, Problems{{File: file, Line: root.Line, Column: root.Column, Message: "a scenario is a mapping of keys (id: …, title: …), not " + kindName(root)}}
	}
	mig := migrate(file, root)
	t := &tree{root: root, files: map[*yaml.Node]string{}, file: file, chain: []string{file}, today: today, deprecated: mig.warnings}
	own(root, file, t.files)
	base, at := extendsOf(root)
	if base == "" && at == nil {
		return t, nil
	}
	if at.Kind != yaml.ScalarNode || base == "" {
		return nil, Problems{{File: file, Line: at.Line, Column: at.Column, Key: ExtendsKey, Message: "is the path of the scenario file this one changes, relative to this file (extends: EDIT-02.yaml)"}}
	}
	basePath := base
	if !filepath.IsAbs(basePath) {
		basePath = filepath.Join(filepath.Dir(file), base)
	}
	chain := append(slices.Clone(below), file)
	for _, f := range chain {
		if sameFile(f, basePath) {
			return nil, Problems{{File: file, Line: at.Line, Column: at.Column, Key: ExtendsKey,
				Message: fmt.Sprintf("a cycle of extends: %s", strings.Join(append(chain, basePath), " extends "))}}
		}
	}
	if _, err := os.Stat(basePath); err != nil {
		return nil, Problems{{File: file, Line: at.Line, Column: at.Column, Key: ExtendsKey, Message: fmt.Sprintf("%s: %s", basePath, readError(err))}}
	}
	baseDay := day
	if clockLine.Match(data) || todayLine.Match(data) {
		d := dayOf(data, now)
		baseDay = &d
	}
	bt, probs := readChain(basePath, nil, now, chain, baseDay)
	if len(probs) > 0 {
		for i := range probs {
			probs[i].Message += fmt.Sprintf(" (in %s, which %s extends)", probs[i].File, file)
		}
		return nil, probs
	}
	patch := withoutKey(root, ExtendsKey)
	t.root = mergeNodes(bt.root, patch, bt.files, file)
	for n, f := range bt.files {
		if _, mine := t.files[n]; !mine {
			t.files[n] = f
		}
	}
	t.chain = append(t.chain, bt.chain...)
	t.deprecated = append(t.deprecated, bt.deprecated...)
	if t.today == "" {
		t.today = bt.today
	}
	return t, nil
}

// extendsOf answers the extends value of a top-level mapping and its node.
func extendsOf(root *yaml.Node) (string, *yaml.Node) {
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == ExtendsKey {
			v := root.Content[i+1]
			return strings.TrimSpace(v.Value), v
		}
	}
	return "", nil
}

func sameFile(a, b string) bool {
	x, errA := filepath.Abs(a)
	y, errB := filepath.Abs(b)
	return errA == nil && errB == nil && x == y
}

func readError(err error) string {
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "no such file"
	case errors.Is(err, os.ErrPermission):
		return "not readable (permission denied)"
	}
	return err.Error()
}

// own records the file of every node under n.
func own(n *yaml.Node, file string, files map[*yaml.Node]string) {
	if n == nil {
		return
	}
	files[n] = file
	for _, c := range n.Content {
		own(c, file, files)
	}
}

// withoutKey is a mapping without one of its keys (a new node; n stays).
func withoutKey(n *yaml.Node, key string) *yaml.Node {
	out := *n
	out.Content = nil
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != key {
			out.Content = append(out.Content, n.Content[i], n.Content[i+1])
		}
	}
	return &out
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// mergeNodes applies patch to target as RFC 7396 applies a merge patch to
// a JSON document: a mapping merges key by key, a null removes its key,
// anything else (a list too) replaces what was there. Neither tree is
// changed: merged mappings are new nodes, owned (files) by the file of the
// mapping they merge into; every other node keeps its own.
func mergeNodes(target, patch *yaml.Node, files map[*yaml.Node]string, patchFile string) *yaml.Node {
	patch = unalias(patch)
	if patch.Kind != yaml.MappingNode {
		return patch
	}
	target = unalias(target)
	var out yaml.Node
	if target != nil && target.Kind == yaml.MappingNode {
		out = *target
		out.Content = slices.Clone(target.Content)
		files[&out] = files[target]
	} else {
		out = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: patch.Line, Column: patch.Column}
		files[&out] = patchFile
	}
	for i := 0; i+1 < len(patch.Content); i += 2 {
		k, v := patch.Content[i], unalias(patch.Content[i+1])
		at := -1
		for j := 0; j+1 < len(out.Content); j += 2 {
			if out.Content[j].Value == k.Value {
				at = j
				break
			}
		}
		switch {
		case isNull(v) && at >= 0:
			out.Content = slices.Delete(out.Content, at, at+2)
		case isNull(v):
		case at >= 0:
			out.Content[at+1] = mergeNodes(out.Content[at+1], v, files, patchFile)
			out.Content[at] = k // the key as the patch writes it, at its place
		default:
			out.Content = append(out.Content, k, mergeNodes(nil, v, files, patchFile))
		}
	}
	return &out
}

func unalias(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// locate answers the file, line and column of the value at path (of its
// key, with onKey). Where the path leads to nothing (a key that is
// missing), it answers the deepest mapping or list on the way.
func (t *tree) locate(path keyPath, onKey bool) (string, int, int) {
	n, key := t.root, (*yaml.Node)(nil)
	for _, seg := range path {
		next, k := child(n, seg)
		if next == nil {
			key = nil
			break
		}
		n, key = next, k
	}
	at := n
	if onKey && key != nil {
		at = key
	}
	file := t.files[at]
	if file == "" {
		file = t.file
	}
	return file, at.Line, at.Column
}

// fileAt answers the file of the node at a line and column: the most
// derived file that has one there.
func (t *tree) fileAt(line, column int) string {
	for _, f := range t.chain {
		for n, nf := range t.files {
			if nf == f && n.Line == line && n.Column == column {
				return f
			}
		}
	}
	return t.file
}

// firstColumn answers the column of the first node written on a line of
// the asked-for file, or 1.
func (t *tree) firstColumn(line int) int {
	col := 0
	for n, f := range t.files {
		if f == t.file && n.Line == line && (col == 0 || n.Column < col) {
			col = n.Column
		}
	}
	return max(col, 1)
}

// child is the value of a mapping's key or a list's element, and its key.
func child(n *yaml.Node, seg any) (value, key *yaml.Node) {
	n = unalias(n)
	if n == nil {
		return nil, nil
	}
	switch seg := seg.(type) {
	case string:
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == seg {
					return unalias(n.Content[i+1]), n.Content[i]
				}
			}
		}
	case int:
		if n.Kind == yaml.SequenceNode && seg >= 0 && seg < len(n.Content) {
			return unalias(n.Content[seg]), nil
		}
	}
	return nil, nil
}

// kindName words a node's kind for a message.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.ScalarNode:
		if isNull(n) {
			return "nothing (null)"
		}
		return fmt.Sprintf("the value %q", n.Value)
	}
	return "something else"
}

// syntaxProblem places a YAML syntax error at its line and column.
func syntaxProblem(file string, err error) Problem {
	var pe *yaml.ParserError
	if errors.As(err, &pe) {
		// The parser's column counts from 0 (it is libyaml's mark); where
		// the error has a context (a flow list not closed), it is where the
		// context starts.
		return Problem{File: file, Line: max(pe.Line, 1), Column: pe.Column + 1, Message: "YAML: " + pe.Message}
	}
	return Problem{File: file, Message: "YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
}

// problemOfText places an error that says "line N: …" at its line.
func problemOfText(file string, err error) Problem {
	msg := err.Error()
	var line int
	if _, e := fmt.Sscanf(msg, "line %d:", &line); e == nil {
		_, rest, _ := strings.Cut(msg, ":")
		return Problem{File: file, Line: line, Column: 1, Message: strings.TrimSpace(rest)}
	}
	return Problem{File: file, Message: msg}
}
