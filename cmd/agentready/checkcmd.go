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
// one a line as file:line:col: key: message (or --json, a list of them).
// It exits 1 when there is any, 2 on bad usage, 0 when all load.
func checkCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check", "agentready check [--json] DIR|FILE...", stderr)
	asJSON := fs.Bool("json", false, "print the problems as a JSON list of {file, line, column, key, message}")
	if err := parseFlags(fs, args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	var all scenarios.Problems
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
		all = append(all, problemsOf(arg, err)...)
	}
	if *asJSON {
		if all == nil {
			all = scenarios.Problems{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(all)
	} else {
		for _, p := range all {
			fmt.Fprintln(stdout, p.Error())
		}
		fmt.Fprintf(stdout, "check: %d scenarios load, %d problems\n", loaded, len(all))
	}
	if len(all) > 0 {
		return 1
	}
	return 0
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
