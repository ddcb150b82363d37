package main

import (
	"cmp"
	"flag"
	"os"

	"github.com/agentready/agentready/runs"
)

// runFlags declares --evidence and --run-id, the same for every command
// that writes a run (<evidence>/<run-id>/), with their environment
// defaults (the ones make exports).
func runFlags(fs *flag.FlagSet) (evidence, runID *string) {
	evidence = fs.String("evidence", cmp.Or(os.Getenv("AGENTREADY_EVIDENCE"), "evidence"), "where runs are written: <evidence>/<run-id>/")
	runID = fs.String("run-id", cmp.Or(os.Getenv("AGENTREADY_RUN_ID"), runs.NewID()), "the run's id")
	return evidence, runID
}
