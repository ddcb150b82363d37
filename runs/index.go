package runs

import (
	"cmp"
	"errors"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentready/agentready/bundle"
	"github.com/agentready/agentready/report"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/vocab"
)

// Row is one scenario of a run.
type Row struct {
	ID       string
	Outcome  vocab.Outcome
	Expected bool   // the verdict the scenario means to reach (PASS, or its known answer)
	Spec     string // how the spec ended, when a test framework ran it
	// The rest the run's page reads from the scenario's bundle.
	Title    string
	Meant    string // the verdict the scenario means to reach: PASS, or its known answer and codes
	Codes    []vocab.Code
	Duration time.Duration
	Failed   []judge.Check // the checks that did not pass
	// Diagnosis is where a FAIL first departs (the verdict's), nil otherwise.
	Diagnosis *judge.Diagnosis
	Missing   string // why the bundle could not be read, when it could not
}

// Bad tells whether the row is a failure of the run: a spec that did not
// pass, or, without a test framework, a verdict other than the one the
// scenario means to reach. (A spec may run a scenario to assert its FAIL
// itself: that verdict is what the spec expects.)
func (r Row) Bad() bool {
	if r.Spec != "" {
		return r.Spec != "passed"
	}
	return !r.Expected
}

// AsExpected tells whether the verdict is the one expected: the one the
// scenario means to reach, or the one its passing spec asserted.
func (r Row) AsExpected() bool { return r.Expected || (r.Spec == "passed") }

// Shown is how the run's page words the verdict: a known-answer case that
// reached its answer reads "FAIL, as expected", not as a failure.
func (r Row) Shown() string {
	switch {
	case r.Expected && r.Outcome != vocab.Pass:
		return string(r.Outcome) + ", as expected"
	case r.AsExpected() && r.Outcome != vocab.Pass:
		return string(r.Outcome) + ", as its spec expects"
	}
	return string(r.Outcome)
}

// Specs counts the specs of a test framework's run.
type Specs struct{ Passed, Failed, Skipped int }

// Index is a run's page: its totals, then a row per scenario, failures first.
type Index struct {
	RunID string
	Rows  []Row
	Specs *Specs // nil when no test framework ran the scenarios
}

var indexPage = template.Must(template.New("run").Funcs(template.FuncMap{
	"show": report.Show,
	"secs": func(d time.Duration) string {
		if d <= 0 {
			return ""
		}
		return fmt.Sprintf("%.2f s", d.Seconds())
	},
}).Parse(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>agentready run {{.RunID}}</title><style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #1b1b1f; }
table { border-collapse: collapse; } td, th { border: 1px solid #dde; padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: #f3f4f8; } code { font: 12px ui-monospace, monospace; }
.PASS { color: #0a6b2b; } .FAIL { color: #b00020; } .INCONCLUSIVE { color: #8a5a00; } .meant { color: #555; }
.totals { font-size: 1.15rem; } .totals b { font-size: 1.4rem; }
.banner { padding: .5rem .8rem; border-radius: .3rem; } .banner.ok { background: #e6f4ea; } .banner.bad { background: #fde7ea; }
tr.bad td { background: #fff5f6; } tr.bad td:first-child { border-left: 4px solid #b00020; }
details ul { margin: .3rem 0; padding-left: 1.1rem; } summary { cursor: pointer; }
.departs { margin-top: .3rem; max-width: 32rem; font-size: 12px; } .departs .open { color: #555; }
</style></head><body>
<h1>agentready run {{.RunID}}</h1>
<p class="totals"><b class="PASS">{{.Count "PASS"}}</b> PASS · <b class="{{if .Unmeant "FAIL"}}FAIL{{else}}meant{{end}}">{{.Count "FAIL"}}</b> FAIL{{with .Count "FAIL"}} ({{$.Meant "FAIL"}} as expected){{end}} · <b class="{{if .Unmeant "INCONCLUSIVE"}}INCONCLUSIVE{{else}}meant{{end}}">{{.Count "INCONCLUSIVE"}}</b> INCONCLUSIVE{{with .Count "INCONCLUSIVE"}} ({{$.Meant "INCONCLUSIVE"}} as expected){{end}}{{with .Specs}} — specs: <b>{{.Passed}}</b> passed, <b{{if .Failed}} class="FAIL"{{end}}>{{.Failed}}</b> failed{{if .Skipped}}, {{.Skipped}} skipped{{end}}{{end}}</p>
{{if .Bad}}<p class="banner bad">{{len .Bad}} of {{len .Rows}} scenarios did not reach the verdict expected of them (or their spec failed): listed first.</p>
{{else}}<p class="banner ok">All {{len .Rows}} scenarios reached the verdict expected of them{{if .KnownBad}}; for {{.KnownBad}} of them that is a FAIL or INCONCLUSIVE, the right answer of a known-bad case{{end}}.</p>{{end}}
<table>
<tr><th>scenario</th><th>verdict</th><th>meant to reach</th><th>codes</th><th>time</th>{{if .Specs}}<th>spec</th>{{end}}<th>report</th></tr>
{{range .Sorted}}<tr class="{{if .Bad}}bad{{end}}"><td><a href="{{.ID}}/index.html">{{.ID}}</a>{{if .Title}}<br><small>{{show .Title}}</small>{{end}}</td>
<td class="{{if and .AsExpected (ne .Outcome "PASS")}}meant{{else}}{{.Outcome}}{{end}}"><strong>{{.Shown}}</strong></td>
<td>{{.Meant}}</td>
<td>{{range .Codes}}<code>{{.}}</code> {{end}}</td>
<td style="white-space: nowrap">{{secs .Duration}}</td>
{{if $.Specs}}<td class="{{if and .Spec (ne .Spec "passed")}}FAIL{{end}}">{{.Spec}}</td>{{end}}
<td><a href="{{.ID}}/index.html">evidence</a>{{with .Diagnosis}}<div class="departs"><strong>departs at: <code>{{.Link}}</code></strong> — {{show .Summary}}<br><span class="open">open: {{show .Open}}</span></div>{{end}}{{if .Failed}}<details{{if .Bad}} open{{end}}><summary>{{len .Failed}} check(s) did not pass</summary><ul>{{range .Failed}}<li><code>{{.Code}}</code> {{show .ID}}: {{show .Message}}</li>{{end}}</ul></details>{{end}}{{if .Missing}}<br><small>{{show .Missing}}</small>{{end}}</td></tr>
{{end}}</table>
</body></html>
`))

// Count is how many scenarios reached an outcome.
func (x Index) Count(o vocab.Outcome) int {
	n := 0
	for _, r := range x.Rows {
		if r.Outcome == o {
			n++
		}
	}
	return n
}

// Meant is how many scenarios reached an outcome expected of them.
func (x Index) Meant(o vocab.Outcome) int {
	n := 0
	for _, r := range x.Rows {
		if r.Outcome == o && r.AsExpected() {
			n++
		}
	}
	return n
}

// Unmeant is how many scenarios reached an outcome they do not mean to.
func (x Index) Unmeant(o vocab.Outcome) int { return x.Count(o) - x.Meant(o) }

// Bad are the rows that failed the run.
func (x Index) Bad() []Row {
	return slices.DeleteFunc(slices.Clone(x.Rows), func(r Row) bool { return !r.Bad() })
}

// KnownBad counts the scenarios whose FAIL or INCONCLUSIVE is the answer
// expected of them.
func (x Index) KnownBad() int {
	n := 0
	for _, r := range x.Rows {
		if r.AsExpected() && r.Outcome != vocab.Pass {
			n++
		}
	}
	return n
}

// Sorted are the rows, failures first, then by ID.
func (x Index) Sorted() []Row {
	rows := slices.Clone(x.Rows)
	slices.SortFunc(rows, func(a, b Row) int {
		if a.Bad() != b.Bad() {
			if a.Bad() {
				return -1
			}
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	return rows
}

// Fill reads each row's bundle under dir (dir/<ID>) for what the page says
// of it beyond the outcome: the title, the verdict meant, codes, time and
// the checks that did not pass.
func (x Index) Fill(dir string) Index {
	x.Rows = slices.Clone(x.Rows)
	for i, r := range x.Rows {
		s, err := bundle.ReadSummary(filepath.Join(dir, r.ID))
		if err != nil {
			x.Rows[i].Missing = "no bundle: " + err.Error()
			x.Rows[i].Meant = cmp.Or(r.Meant, "?")
			continue
		}
		r.Title, r.Codes, r.Failed, r.Diagnosis = s.Title, s.Verdict.Codes, s.Verdict.Failed(), s.Verdict.Diagnosis
		r.Meant = string(vocab.Pass)
		if s.Known != nil {
			r.Meant = string(s.Known.Outcome)
			for _, c := range s.Known.Codes {
				r.Meant += " " + string(c)
			}
		}
		if !s.Meta.Start.IsZero() && s.Meta.End.After(s.Meta.Start) {
			r.Duration = s.Meta.End.Sub(s.Meta.Start)
		}
		x.Rows[i] = r
	}
	return x
}

// Write writes the run's index.html into dir, reading each scenario's bundle there.
func (x Index) Write(dir string) error {
	f, err := os.Create(filepath.Join(dir, "index.html"))
	if err != nil {
		return err
	}
	err = indexPage.Execute(f, x.Fill(dir))
	return errors.Join(err, f.Close())
}

// WriteIndex writes the run's index.html, linking every bundle: totals, then
// a row per scenario, failures first.
func WriteIndex(dir, runID string, rows []Row) error {
	return Index{RunID: runID, Rows: rows}.Write(dir)
}

// PrintVerdicts writes one line per scenario, failures first, with the link
// a FAIL departs at (read from its bundle in dir), and the totals.
func PrintVerdicts(w io.Writer, dir string, rows []Row) {
	x := Index{Rows: rows}.Fill(dir)
	fmt.Fprintf(w, "\nScenario verdicts (evidence in %s):\n", dir)
	for _, r := range x.Sorted() {
		meant := "as meant"
		if r.Bad() {
			meant = "NOT as meant"
		}
		line := fmt.Sprintf("  %-13s %-28s %s", r.Outcome, r.ID, meant)
		if r.Spec != "" {
			line += "  (spec " + r.Spec + ")"
		}
		if r.Diagnosis != nil {
			line += "  departs at " + string(r.Diagnosis.Link)
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintf(w, "  %d PASS, %d FAIL, %d INCONCLUSIVE; %d not as meant\n", x.Count(vocab.Pass), x.Count(vocab.Fail), x.Count(vocab.Inconclusive), len(x.Bad()))
}
