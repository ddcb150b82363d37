package runs

import (
	"errors"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentready/agentready/vocab"
)

// Row is one scenario of a run.
type Row struct {
	ID       string
	Outcome  vocab.Outcome
	Expected bool   // the verdict the scenario means to reach (PASS, or its known answer)
	Spec     string // how the spec ended, when a test framework ran it
}

var indexPage = template.Must(template.New("run").Parse(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>agentready run {{.ID}}</title><style>body{font:14px system-ui,sans-serif;margin:1.5rem}td,th{border:1px solid #dde;padding:.3rem .5rem;text-align:left}table{border-collapse:collapse}
.PASS{color:#0a6b2b}.FAIL{color:#b00020}.INCONCLUSIVE{color:#8a5a00}</style></head><body>
<h1>agentready run {{.ID}}</h1><table><tr><th>scenario</th><th>verdict</th><th>as meant</th>{{if .Specs}}<th>spec</th>{{end}}</tr>
{{range .Rows}}<tr><td><a href="{{.ID}}/index.html">{{.ID}}</a></td><td class="{{.Outcome}}">{{.Outcome}}</td><td>{{if .Expected}}yes{{else}}NO{{end}}</td>{{if $.Specs}}<td>{{.Spec}}</td>{{end}}</tr>
{{end}}</table></body></html>
`))

// WriteIndex writes the run's index.html, linking every bundle, rows in ID order.
func WriteIndex(dir, runID string, rows []Row) error {
	rows = slices.Clone(rows)
	slices.SortFunc(rows, func(a, b Row) int { return strings.Compare(a.ID, b.ID) })
	f, err := os.Create(filepath.Join(dir, "index.html"))
	if err != nil {
		return err
	}
	specs := slices.ContainsFunc(rows, func(r Row) bool { return r.Spec != "" })
	err = indexPage.Execute(f, struct {
		ID    string
		Rows  []Row
		Specs bool
	}{runID, rows, specs})
	return errors.Join(err, f.Close())
}

// PrintVerdicts writes one line per scenario.
func PrintVerdicts(w io.Writer, dir string, rows []Row) {
	rows = slices.Clone(rows)
	slices.SortFunc(rows, func(a, b Row) int { return strings.Compare(a.ID, b.ID) })
	fmt.Fprintf(w, "\nScenario verdicts (evidence in %s):\n", dir)
	for _, r := range rows {
		meant := "as meant"
		if !r.Expected {
			meant = "NOT as meant"
		}
		line := fmt.Sprintf("  %-13s %-28s %s", r.Outcome, r.ID, meant)
		if r.Spec != "" {
			line += "  (spec " + r.Spec + ")"
		}
		fmt.Fprintln(w, line)
	}
}
