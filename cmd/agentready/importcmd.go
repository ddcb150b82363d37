package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/runs/agentmodel"
	"github.com/agentready/agentready/internal/sources/inspector"
	"github.com/agentready/agentready/scenarios"
)

// importCmd is `agentready import inspector TRACE.json --start URL --id ID
// [--out FILE]`: a Model Context Tool Inspector "Copy trace" as a scenario
// (prompt, calls with inputs, final words, expectations scaffolded from
// what the trace recorded). A trace it cannot read is an error and nothing
// is written; it refuses to overwrite a file.
func importCmd(args []string, stdout, stderr io.Writer) int {
	const usage = "usage: agentready import inspector TRACE.json --start URL --id ID [--out FILE]\n       agentready import model BUNDLE [--id ID] [--out FILE]"
	if len(args) > 0 && args[0] == "model" {
		return importModel(args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "inspector" {
		fmt.Fprintln(stderr, usage)
		fmt.Fprintln(stderr, "  (it imports the Model Context Tool Inspector's \"Copy trace\", or the bundle of a model's run)")
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
			return 0
		}
		return 2
	}
	fs := newFlags("import inspector", "agentready import inspector TRACE.json --start URL --id ID [--out FILE]", stderr)
	id := fs.String("id", "", "the scenario's ID (letters, digits, '.', '_', '-')")
	start := fs.String("start", "", "the page the trace was taken on: its URL (or a path)")
	out := fs.String("out", "", "the file to write (default: <id>.yaml in the current folder; - for standard output)")
	if err := parseFlags(fs, args[1:]); err != nil {
		return flagExit(err)
	}
	if fs.NArg() != 1 || *id == "" || *start == "" {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	target, ok := newScenarioFile("import", *id, *out, stderr)
	if !ok {
		return 2
	}
	data, err := record.ReadInput(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "agentready import: %v; nothing was written\n", err)
		return 2
	}
	tr, err := inspector.Parse(data)
	if err != nil {
		fmt.Fprintf(stderr, "agentready import: %s: %v; nothing was written\n", fs.Arg(0), err)
		return 2
	}
	y, err := tr.Scenario(inspector.Options{ID: *id, Start: *start, Source: filepath.Base(fs.Arg(0))})
	if err != nil {
		fmt.Fprintf(stderr, "agentready import: %s: %v; nothing was written\n", fs.Arg(0), err)
		return 2
	}
	if code, done := writeScenario(target, y, stdout, stderr); done {
		return code
	}
	fmt.Fprintf(stdout, "wrote %s: %d call(s), final words %s; check its expectations and add what the trace cannot show (see the file's header)\n",
		target, len(tr.Calls), map[bool]string{true: "recorded", false: "absent"}[tr.Final != nil])
	return 0
}

// importModel is `agentready import model BUNDLE [--id ID] [--out FILE]`:
// a recorded live run (run --agent openai) written out as a scenario for
// the deterministic suite (agentmodel.ScenarioFile): its transcript is
// what the model did, its known answer the live run's verdict. A bundle
// that does not verify, or that holds no whole play of a model, is an
// error and nothing is written.
func importModel(args []string, stdout, stderr io.Writer) int {
	const usage = "usage: agentready import model BUNDLE [--id ID] [--out FILE]"
	fs := newFlags("import model", usage, stderr)
	id := fs.String("id", "", "the scenario's ID (default: the bundle's scenario's, with .recorded)")
	out := fs.String("out", "", "the file to write (default: <id>.yaml in the current folder; - for standard output)")
	if err := parseFlags(fs, args); err != nil {
		return flagExit(err)
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	dir := fs.Arg(0)
	if rep := bundle.Verify(dir); !rep.OK {
		fmt.Fprintf(stderr, "agentready import: %s does not verify (agentready verify %s says why); nothing was written\n", dir, dir)
		return 2
	}
	b, err := bundle.Read(dir)
	if err != nil {
		fmt.Fprintf(stderr, "agentready import: %s: %v; nothing was written\n", dir, err)
		return 2
	}
	if *id == "" {
		*id = b.Scenario.ID + ".recorded"
	}
	target, ok := newScenarioFile("import", *id, *out, stderr)
	if !ok {
		return 2
	}
	y, err := agentmodel.ScenarioFile(b, *id)
	if err != nil {
		fmt.Fprintf(stderr, "agentready import: %s: %v; nothing was written\n", dir, err)
		return 2
	}
	if code, done := writeScenario(target, y, stdout, stderr); done {
		return code
	}
	fmt.Fprintf(stdout, "wrote %s: the model's transcript, known %s; agentready run --scenarios %s replays it without the model\n", target, b.Verdict.Outcome, filepath.Dir(target))
	return 0
}

// writeScenario writes an imported scenario file to target ("-": stdout),
// headed by its schema line, with the schema beside it for the user's
// editor. done is true when the command ends here (stdout, or an error),
// with its exit code.
func writeScenario(target string, y []byte, stdout, stderr io.Writer) (code int, done bool) {
	if target == "-" {
		_, _ = stdout.Write(scenarios.HeadedBySchema(y))
		return 0, true
	}
	y, err := scenarios.WithSchema(filepath.Dir(target), y)
	if err == nil {
		err = os.WriteFile(target, y, 0o644)
	}
	if err != nil {
		fmt.Fprintln(stderr, "agentready import:", err)
		return 1, true
	}
	return 0, false
}
