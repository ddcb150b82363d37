package scenarios

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v4"
)

// Load reads and validates one scenario file. A scenario that says no
// signin of its own takes its folder file's (FolderSignIn).
func Load(path string) (Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Scenario{}, err
	}
	sc, err := Parse(path, data)
	if err != nil {
		return sc, err
	}
	d := filepath.Dir(path)
	folder, err := FolderSignIn(cmp.Or(NearestFolder(d, d, "signin"), d))
	if err != nil {
		return Scenario{}, err
	}
	sc.AppFolder = NearestFolder(d, d, "app")
	return withFolderSignIn(sc, folder), nil
}

// withFolderSignIn gives a scenario that says no signin its folder's.
func withFolderSignIn(sc Scenario, folder *SignIn) Scenario {
	if sc.SignIn == nil && folder != nil {
		own := *folder
		sc.SignIn = &own
	}
	return sc
}

// DefaultDir is where the suite's own scenarios are, relative to the module root.
const DefaultDir = "scenarios/cases"

// LoadDir reads every scenario file (*.yaml, *.yml) in dir and the folders
// below it, with the scenarios each one's vary: makes, sorted by ID. A file that does not load, and an ID used twice,
// are errors that name the file; the scenarios that did load are answered
// too, but a caller must not run a folder with errors as if it were whole.
func LoadDir(dir string) ([]Scenario, error) {
	paths, err := scenarioFiles(dir)
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s: no scenario files (*.yaml, *.yml) here or below", dir)
	}
	var out []Scenario
	var errs []error
	seen := map[string]string{}
	// Each folder file is read once, and its problems said once.
	// A folder's settings are its nearest folder file's, up to dir (the
	// nearest file that sets a key wins for that key).
	folders := map[string]*SignIn{}
	for _, p := range paths {
		d := NearestFolder(filepath.Dir(p), dir, "signin")
		if _, read := folders[d]; !read && d != "" {
			folder, err := FolderSignIn(d)
			if err != nil {
				errs = append(errs, &FileError{Path: filepath.Join(d, FolderFile), Err: err})
			}
			folders[d] = folder
		}
		data, err := os.ReadFile(p)
		var sc Scenario
		if err == nil {
			sc, err = Parse(p, data)
			sc = withFolderSignIn(sc, folders[d])
			sc.AppFolder = NearestFolder(filepath.Dir(p), dir, "app")
		}
		if err != nil {
			errs = append(errs, &FileError{Path: p, Labels: guessLabels(p), Err: err})
			continue
		}
		if first, dup := seen[sc.ID]; dup {
			errs = append(errs, &FileError{Path: p, Labels: sc.Labels(), Err: fmt.Errorf("%s: id %q is already used by %s", p, sc.ID, first)})
			continue
		}
		seen[sc.ID] = p
		out = append(out, sc)
		for _, v := range sc.Varied() {
			if first, dup := seen[v.ID]; dup {
				errs = append(errs, &FileError{Path: p, Labels: sc.Labels(), Err: fmt.Errorf("%s: vary makes the id %q, which %s uses already", p, v.ID, first)})
				continue
			}
			seen[v.ID] = p
			out = append(out, v)
		}
	}
	slices.SortFunc(out, func(a, b Scenario) int { return strings.Compare(a.ID, b.ID) })
	return out, errors.Join(errs...)
}

// FileError is a scenario file that did not load, with the labels it would
// have carried (read leniently), so that a run filtered to that scenario
// still meets the error instead of silently running nothing.
type FileError struct {
	Path   string
	Labels []string
	Err    error
}

func (e *FileError) Error() string { return e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// FileErrors lists the files of a LoadDir error.
func FileErrors(err error) []*FileError {
	var out []*FileError
	var joined interface{ Unwrap() []error }
	if errors.As(err, &joined) {
		for _, e := range joined.Unwrap() {
			var fe *FileError
			if errors.As(e, &fe) {
				out = append(out, fe)
			}
		}
	}
	return out
}

// guessLabels reads a file that does not load as loosely as YAML allows,
// for the labels its scenario would have had, and adds the file's name.
func guessLabels(path string) []string {
	stem := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".yaml"), ".yml")
	var loose struct {
		ID, Family, Area string
	}
	if data, err := os.ReadFile(path); err == nil {
		_ = yaml.Unmarshal(data, &loose)
	}
	sc := Scenario{ID: loose.ID, Family: loose.Family, Area: loose.Area}
	if sc.Family == "" {
		sc.Family, _, _ = strings.Cut(sc.ID, ".")
	}
	var out []string
	for _, l := range append(sc.Labels(), stem) {
		if l != "" && idPattern.MatchString(l) && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// scenarioFiles lists the *.yaml and *.yml files in dir and below, in
// lexical order; folders whose name starts with "." are skipped, and so
// are the folder files (FolderFile).
func scenarioFiles(dir string) ([]string, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && p != dir && strings.HasPrefix(d.Name(), "."):
			return filepath.SkipDir
		case !d.IsDir() && d.Name() == FolderFile:
			// The folder's shared file (the app to start) is not a scenario.
		case !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")):
			paths = append(paths, p)
		}
		return nil
	})
	return paths, err
}
