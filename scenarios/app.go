package scenarios

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v4"
)

// FolderFile is the file of a scenario folder that holds what is shared by
// the whole folder: the app the suite starts (package appserver) and the
// sign-in of every scenario of the folder that has none of its own
// (FolderSignIn). It is not a scenario: LoadDir passes it by.
const FolderFile = "agentready.yaml"

// AppRun is what a scenario adds to the start of its folder's app.
type AppRun struct {
	// Arguments after the command's own; {port} is the app's port.
	Args []string `yaml:"args,omitempty" json:"args,omitempty" examples:"[[--variant, writes-early]]"`
	// Environment over the folder file's; {port} is the app's port.
	Env map[string]string `yaml:"env,omitempty" json:"env,omitempty" examples:"[{ORDERS_EARLY: '1'}]"`
}

// Empty tells whether the scenario adds nothing to the start.
func (a *AppRun) Empty() bool { return a == nil || (len(a.Args) == 0 && len(a.Env) == 0) }

// folderKeys are the keys of a folder file: the app the suite starts
// (package appserver reads it) and the folder's sign-in (read here).
var folderKeys = []string{"app", "signin"}

// NearestFolder is the folder, from dir up to root (both included), whose
// folder file holds key (app or signin): the nearest one wins, so a
// subfolder's file overrides its parents' for the keys it sets and
// inherits the rest. "" when none does. A file that does not read as a
// mapping, or has a key a folder file does not, counts as holding every
// key, so that its problems are said.
func NearestFolder(dir, root, key string) string {
	d, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	r, err := filepath.Abs(root)
	if err != nil {
		r = d
	}
	for {
		if folderHas(d, key) {
			return d
		}
		parent := filepath.Dir(d)
		if d == r || parent == d || !within(parent, r) {
			return ""
		}
		d = parent
	}
}

func within(path, root string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// folderHas tells whether dir's folder file has the top-level key.
func folderHas(dir, key string) bool {
	path := filepath.Join(dir, FolderFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if err != nil {
		return true
	}
	parsed, bad := parseBounded(path, data)
	if bad != nil || len(parsed.Content) == 0 {
		return bad != nil
	}
	root := unalias(parsed.Content[0])
	if root.Kind != yaml.MappingNode {
		return true
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		// A key the file should not have (a misspelled signin) makes it the
		// nearest for every key: its problems are then said, not skipped.
		if k := root.Content[i].Value; k == key || !slices.Contains(folderKeys, k) {
			return true
		}
	}
	return false
}

// FolderSignIn reads the sign-in of dir's folder file (agentready.yaml):
// nil when there is no file or it signs in nowhere. Its problems are
// Problems at the file's lines, as a scenario's are, and its storage state
// file is named relative to it.
func FolderSignIn(dir string) (*SignIn, error) {
	path := filepath.Join(dir, FolderFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, Problems{{File: path, Message: readError(err)}}
	}
	parsed, bad := parseBounded(path, data)
	if bad != nil {
		return nil, Problems{*bad}
	}
	doc := *parsed
	if len(doc.Content) == 0 {
		return nil, nil
	}
	root := unalias(doc.Content[0])
	if root.Kind != yaml.MappingNode {
		return nil, Problems{{File: path, Line: root.Line, Column: root.Column, Message: "a folder file is a mapping with the keys app and signin"}}
	}
	var unknown, p problems
	kept := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: root.Line, Column: root.Column}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i]
		switch {
		case k.Value == "signin":
			kept.Content = append(kept.Content, k, root.Content[i+1])
		case !slices.Contains(folderKeys, k.Value):
			unknown.list = append(unknown.list, keyedProblem{line: k.Line, column: k.Column,
				message: fmt.Sprintf("unknown key %q (a folder file has %s)", k.Value, strings.Join(folderKeys, " and "))})
		}
	}
	t := &tree{root: kept, files: map[*yaml.Node]string{}, file: path, chain: []string{path}}
	own(kept, path, t.files)
	checkSchema(t, &p)
	var f struct {
		SignIn *SignIn `yaml:"signin"`
	}
	if err := kept.Decode(&f); err != nil && p.empty() {
		decodeProblems(err, &p)
	}
	if p.empty() && f.SignIn != nil {
		f.SignIn.From = path
		f.SignIn.validate(pathOf("signin"), &p)
	}
	p.list = append(unknown.list, p.list...)
	if !p.empty() {
		return nil, p.placed(path, t).sorted()
	}
	return f.SignIn, nil
}
