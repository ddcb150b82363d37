package results

import (
	"cmp"
	"fmt"
	"io"
	"strings"
)

// PrintTable prints the rows as the terminal shows a run, the ones not as
// meant first: a line each (ID, or <id>.run-N for a run of several; verdict against the one meant, time, the
// link a FAIL departs at, codes); under each one not as meant, its first
// failed checks, one line each, and its bundle's folder; then the totals.
func PrintTable(w io.Writer, rows []Row) {
	rows = Sorted(rows)
	idW, vW, dW := len("scenario"), len("verdict"), len("departs")
	for _, r := range rows {
		idW, vW, dW = max(idW, len(r.Folder())), max(vW, len([]rune(r.Verdict()))), max(dW, len(r.Departs()))
	}
	fmt.Fprintf(w, "\n%-*s  %-*s  %6s  %-*s  %s\n", idW, "scenario", vW, "verdict", "time", dW, "departs", "codes")
	for _, r := range rows {
		v := r.Verdict()
		fmt.Fprintf(w, "%-*s  %s%s  %5.1fs  %-*s  %s\n", idW, r.Folder(), v, strings.Repeat(" ", vW-len([]rune(v))), r.Seconds, dW, cmp.Or(string(r.Departs()), "-"), cmp.Or(codes(r.Codes), "-"))
		if r.NotAsMeant() {
			for _, line := range r.Why() {
				fmt.Fprintf(w, "%*s%s\n", idW+2, "", line)
			}
		}
	}
	fmt.Fprintf(w, "scenarios: %s\n", Totals(rows))
}
