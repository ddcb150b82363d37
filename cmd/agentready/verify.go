package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/agentready/agentready/internal/evidence/bundle"
)

// verify checks bundles; a folder without a manifest is taken as a run
// folder and every folder in it is checked as a bundle. It exits 1 when any
// bundle does not verify (or a run folder's folder is no whole bundle), 2
// on bad usage, a folder that holds no bundle at all, or a bundle whose
// files cannot be read as a record (damaged: each problem names the file
// and the field).
func verify(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("verify", "agentready verify [--json] BUNDLE|RUN-FOLDER|EVIDENCE-FOLDER...", stderr)
	asJSON := fs.Bool("json", false, "print one JSON report per bundle")
	if err := parseFlags(fs, args); err != nil {
		return flagExit(err)
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: agentready verify [--json] BUNDLE|RUN-FOLDER|EVIDENCE-FOLDER...")
		return 2
	}
	var dirs []string
	for _, arg := range fs.Args() {
		found, err := bundlesIn(arg)
		if err != nil {
			fmt.Fprintln(stderr, "agentready verify:", err)
			return 2
		}
		dirs = append(dirs, found...)
	}
	var reports []bundle.Report
	failed, damaged := 0, 0
	for _, d := range dirs {
		rep := bundle.Verify(d)
		reports = append(reports, rep)
		if !rep.OK {
			failed++
		}
		if rep.Damaged {
			damaged++
		}
		if *asJSON {
			continue
		}
		if rep.OK {
			fmt.Fprintf(stdout, "ok     %s  %s (%s)\n", rep.ScenarioID, d, rep.Outcome)
			continue
		}
		fmt.Fprintf(stdout, "%s %s  %s\n", map[bool]string{false: "FAILED", true: "DAMAGED"}[rep.Damaged], rep.ScenarioID, d)
		for _, p := range rep.Problems {
			fmt.Fprintf(stdout, "       %s: %s\n", p.File, p.Problem)
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(reports)
	} else {
		fmt.Fprintf(stdout, "verify: %d passed, %d failed\n", len(dirs)-failed, failed)
	}
	switch {
	case damaged > 0:
		return 2
	case failed > 0:
		return 1
	}
	return 0
}

// bundlesIn answers path itself when it is a bundle; for a run folder,
// every folder directly inside it, each of which must be a whole bundle (a
// folder without its manifest is verified, and fails, rather than left
// out: a run folder that lost part of a bundle does not verify); for a
// folder of run folders at any depth (the --evidence given to run, which
// writes <evidence>/<run-id>/), the bundles of each run folder in it.
func bundlesIn(path string) ([]string, error) {
	out, err := bundlesAt(path, maxEvidenceDepth)
	if err == nil && len(out) == 0 {
		err = fmt.Errorf("%s: no bundle here (no %s in it or in its folders, at any depth)", path, bundle.ManifestFile)
	}
	return out, err
}

// maxEvidenceDepth bounds the walk down an evidence folder: run folders
// sit one level below it (shards, merges and copies a few more).
const maxEvidenceDepth = 6

func bundlesAt(path string, depth int) ([]string, error) {
	if depth < 0 {
		return nil, nil
	}
	run, err := runFolder(path)
	if err != nil || run != nil {
		return run, err
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			found, err := bundlesAt(filepath.Join(path, e.Name()), depth-1)
			if err != nil {
				return nil, err
			}
			out = append(out, found...)
		}
	}
	return out, nil
}

// runFolder answers path when it is a bundle, and every folder directly
// in it when one of them is (a run folder); nil when neither.
func runFolder(path string) ([]string, error) {
	if _, err := os.Stat(filepath.Join(path, bundle.ManifestFile)); err == nil {
		return []string{path}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	var out []string
	whole := 0
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, filepath.Join(path, e.Name()))
			if _, err := os.Stat(filepath.Join(path, e.Name(), bundle.ManifestFile)); err == nil {
				whole++
			}
		}
	}
	if whole == 0 {
		return nil, nil
	}
	slices.Sort(out)
	return out, nil
}
