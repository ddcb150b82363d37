package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// newFlags is a command's flag set: errors and help on stderr, the help
// headed by the command's usage line (what it takes besides its flags).
func newFlags(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s\n\nflags (before or after the arguments):\n", usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses a command's flags wherever they stand among its
// arguments, as a person types them (agentready merge A B --run-id r): Go's
// flag package stops at the first argument, and would take --run-id for a
// run folder. A flag takes the next word as its value unless it is a
// boolean (its own Value says so) or is written --name=value; "--" ends
// the flags.
func parseFlags(fs *flag.FlagSet, args []string) error {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			rest = append(rest, args[i+1:]...)
			i = len(args)
		case len(a) > 1 && a[0] == '-':
			flags = append(flags, a)
			name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if f := fs.Lookup(name); f != nil && !hasValue && !isBoolFlag(f) && i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
		default:
			rest = append(rest, a)
		}
	}
	return fs.Parse(append(append(flags, "--"), rest...))
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// flagExit is a command's exit code when its flags did not parse: 0 when
// the person asked for the help (-h, --help), which the flag set has
// printed, 2 on a bad flag.
func flagExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}
