package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/agentready/agentready/scenarios"
)

// checkCmd loads and validates scenario files without a browser, for an
// editor's save hook or a pre-commit hook: every problem of every file,
// one a line as file:line:col: key: message (or --json, a list of them),
// and every deprecated spelling, which loads, as a warning. It exits 1
// when there is any problem, 2 on bad usage or a file refused unread (too
// large, an alias bomb), 0 when all load. --fix first
// rewrites each deprecated spelling to the current one in place, printing
// each change.
func checkCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check", "agentready check [--json] [--fix] DIR|FILE...", stderr)
	asJSON := fs.Bool("json", false, "print the problems as a JSON list of {file, line, column, key, message} (with --fix, an object of problems, deprecated and fixed)")
	fix := fs.Bool("fix", false, "rewrite every deprecated spelling to the current one, in place, keeping the rest of each file as it is")
	if err := parseFlags(fs, args); err != nil {
		return flagExit(err)
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	var all scenarios.Problems
	var fixed []scenarios.Fixed
	if *fix {
		var bad scenarios.Problems
		fixed, bad = fixFiles(fs.Args())
		all = append(all, bad...)
	}
	var loadedAll []scenarios.Scenario
	loaded := 0
	for _, arg := range fs.Args() {
		info, err := os.Stat(arg)
		if err != nil {
			all = append(all, scenarios.Problem{File: arg, Message: "no such file or folder"})
			continue
		}
		var scs []scenarios.Scenario
		if info.IsDir() {
			scs, err = scenarios.LoadDir(arg)
		} else {
			var sc scenarios.Scenario
			if sc, err = scenarios.Load(arg); err == nil {
				scs = append(scs, sc)
			}
		}
		loaded += len(scs)
		loadedAll = append(loadedAll, scs...)
		all = append(all, problemsOf(arg, err)...)
	}
	deprecated := scenarios.DeprecatedIn(loadedAll)
	switch {
	case *asJSON && *fix:
		writeJSON(stdout, struct {
			Problems   scenarios.Problems `json:"problems"`
			Deprecated scenarios.Problems `json:"deprecated"`
			Fixed      []scenarios.Fixed  `json:"fixed"`
		}{orEmpty(all), orEmpty(deprecated), orEmpty(fixed)})
	case *asJSON:
		writeJSON(stdout, orEmpty(all))
	default:
		for _, f := range fixed {
			fmt.Fprintln(stdout, "fixed:", f)
		}
		for _, p := range all {
			fmt.Fprintln(stdout, p.Error())
		}
		for _, p := range deprecated {
			fmt.Fprintln(stdout, "warning:", p.Error())
		}
		fmt.Fprintf(stdout, "check: %d scenarios load, %d problems", loaded, len(all))
		if *fix {
			fmt.Fprintf(stdout, ", %d spellings rewritten", len(fixed))
		}
		if len(deprecated) > 0 {
			fmt.Fprintf(stdout, ", %d deprecated spellings (agentready check --fix rewrites them)", len(deprecated))
		}
		fmt.Fprintln(stdout)
	}
	switch {
	case all.Unread():
		return 2 // a file refused unread (an alias bomb): bad input, not a scenario's mistake
	case len(all) > 0:
		return 1
	}
	return 0
}

// fixFiles rewrites the deprecated spellings of every scenario file the
// arguments name; a file that cannot be rewritten is a problem, and the
// others are still rewritten.
func fixFiles(args []string) ([]scenarios.Fixed, scenarios.Problems) {
	var fixed []scenarios.Fixed
	var bad scenarios.Problems
	for _, arg := range args {
		files, err := scenarios.FilesOf(arg)
		if err != nil {
			continue // the load says what is wrong with it
		}
		for _, f := range files {
			data, changes, err := scenarios.Fix(f)
			switch {
			case err != nil:
				var ps scenarios.Problems
				if !errors.As(err, &ps) { // a file that does not load: the load says why
					bad = append(bad, scenarios.Problem{File: f, Message: "not rewritten: " + err.Error()})
				}
			case changes != nil:
				if err := scenarios.WriteFixed(f, data); err != nil {
					bad = append(bad, scenarios.Problem{File: f, Message: "not rewritten: " + err.Error()})
					continue
				}
				fixed = append(fixed, changes...)
			}
		}
	}
	return fixed, bad
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// problemsOf lists the problems of a load error: each file's, each at its
// place; an error that is no list of them (a folder that cannot be read)
// is one problem of what was asked for.
func problemsOf(arg string, err error) scenarios.Problems {
	if err == nil {
		return nil
	}
	var out scenarios.Problems
	var fileErrs []error
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		fileErrs = joined.Unwrap()
	} else {
		fileErrs = []error{err}
	}
	for _, e := range fileErrs {
		var ps scenarios.Problems
		var fe *scenarios.FileError
		switch {
		case errors.As(e, &ps):
			out = append(out, ps...)
		case errors.As(e, &fe):
			out = append(out, scenarios.Problem{File: fe.Path, Message: fe.Err.Error()})
		default:
			out = append(out, scenarios.Problem{File: arg, Message: e.Error()})
		}
	}
	return out
}
