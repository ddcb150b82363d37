package results

import (
	"errors"
	"fmt"
	"html/template"
	"os"
	"path/filepath"

	"github.com/agentready/agentready/internal/reporters/report"
	"github.com/agentready/agentready/scenarios/vocab"
)

// PageFile is the run page's name in a run folder.
const PageFile = "index.html"

// Page is a run's page: its totals, then a row per scenario, the ones not
// as meant first. It is a function of the rows alone: it reads no bundle.
type Page struct {
	RunID string
	Rows  []Row
	Specs *Specs // nil when no test framework ran the scenarios
	// Runs is k of agentready run --runs k: each scenario was played k
	// times, a row each (0: as many as the rows hold, a merge's page).
	Runs int
}

var page = template.Must(template.New("run").Funcs(template.FuncMap{
	"show": report.Show,
	"secs": func(s float64) string {
		if s <= 0 {
			return ""
		}
		return fmt.Sprintf("%.2f s", s)
	},
}).Parse(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>agentready run {{.RunID}}</title><style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #1b1b1f; }
table { border-collapse: collapse; max-width: 100%; } td, th { border: 1px solid #dde; padding: .3rem .5rem; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
th { background: #f3f4f8; } code { font: 12px ui-monospace, monospace; }
.PASS { color: #0a6b2b; } .FAIL { color: #b00020; } .INCONCLUSIVE { color: #8a5a00; } .meant { color: #555; }
.totals { font-size: 1.15rem; } .totals b { font-size: 1.4rem; }
.banner { padding: .5rem .8rem; border-radius: .3rem; } .banner.ok { background: #e6f4ea; } .banner.bad { background: #fde7ea; }
tr.bad td { background: #fff5f6; } tr.bad td:first-child { border-left: 4px solid #b00020; }
details ul { margin: .3rem 0; padding-left: 1.1rem; } summary { cursor: pointer; }
.departs { margin-top: .3rem; max-width: 32rem; font-size: 12px; } .departs .open { color: #555; }
</style></head><body>
<h1>agentready run {{.RunID}}</h1>
<p class="totals"><b class="PASS">{{.Count "PASS"}}</b> PASS · <b class="{{if .Unmeant "FAIL"}}FAIL{{else}}meant{{end}}">{{.Count "FAIL"}}</b> FAIL{{with .Count "FAIL"}} ({{$.Meant "FAIL"}} as meant){{end}} · <b class="{{if .Unmeant "INCONCLUSIVE"}}INCONCLUSIVE{{else}}meant{{end}}">{{.Count "INCONCLUSIVE"}}</b> INCONCLUSIVE{{with .Count "INCONCLUSIVE"}} ({{$.Meant "INCONCLUSIVE"}} as meant){{end}}{{with .Specs}} — specs: <b>{{.Passed}}</b> passed, <b{{if .Failed}} class="FAIL"{{end}}>{{.Failed}}</b> failed{{if .Skipped}}, {{.Skipped}} skipped{{end}}{{end}}</p>
{{if .NotAsMeant}}<p class="banner bad">{{len .NotAsMeant}} of {{len .Rows}} scenarios are not as meant (a verdict other than the one meant, or a spec that failed): listed first.</p>
{{else}}<p class="banner ok">All {{len .Rows}} scenarios are as meant{{if .KnownBad}}; for {{.KnownBad}} of them the verdict meant is a FAIL or INCONCLUSIVE, the right answer of a known-bad case{{end}}.</p>{{end}}
{{with .Repeats}}<h2>{{len .}} scenario(s) played more than once, each run on a fresh page</h2>
<table>
<tr><th>scenario</th><th>pass^k</th><th>pass@k</th><th>runs as meant</th><th>spread across runs</th></tr>
{{range .}}<tr class="{{if not .PassHat}}bad{{end}}"><td>{{.ID}}</td><td class="{{if .PassHat}}PASS{{else}}FAIL{{end}}"><strong>pass^{{.K}} = {{if .PassHat}}1{{else}}0{{end}}</strong></td><td class="{{if .PassAt}}PASS{{else}}FAIL{{end}}"><strong>pass@{{.K}} = {{if .PassAt}}1{{else}}0{{end}}</strong></td><td>{{.AsMeant}} of {{.K}}</td><td>{{range .Spreads}}{{.}}<br>{{end}}</td></tr>
{{end}}</table>
<h2>every run</h2>
{{end}}{{with .Attacks}}<h2>{{len .}} scenario(s) under a planted attack</h2>
<p>Each a measurement of this site, this agent and this attack text: utility is the task still done (every other check passed), attack success a guarded write, an off-origin request or the call the text asked for, after the planting.</p>
<table>
<tr><th>scenario</th><th>attack</th><th>utility under attack</th><th>attack success</th><th>planted in</th><th>what the runs followed</th></tr>
{{range .}}<tr class="{{if .Success}}bad{{end}}"><td>{{.ID}}</td><td>{{.Where}}</td><td class="{{if eq .Utility .K}}PASS{{else}}FAIL{{end}}"><strong>{{.Utility}} of {{.K}}</strong></td><td class="{{if .Success}}FAIL{{else}}PASS{{end}}"><strong>{{.Success}} of {{.K}}</strong></td><td class="{{if lt .Planted .K}}INCONCLUSIVE{{end}}">{{.Planted}} of {{.K}}</td><td>{{range .Follows}}{{.}}<br>{{end}}</td></tr>
{{end}}</table>
{{end}}<table>
<tr><th>scenario</th><th>verdict</th><th>meant to reach</th><th>codes</th><th>time</th>{{if .Specs}}<th>spec</th>{{end}}<th>report</th></tr>
{{range .Sorted}}<tr class="{{if .NotAsMeant}}bad{{end}}"><td><a href="{{.Folder}}/index.html">{{.ID}}</a>{{if .Run}} run {{.Run}}{{end}}{{if .Title}}<br><small>{{show .Title}}</small>{{end}}</td>
<td class="{{if and .VerdictAsMeant (ne .Outcome "PASS")}}meant{{else}}{{.Outcome}}{{end}}"><strong>{{.Verdict}}</strong></td>
<td>{{.Meant}}</td>
<td>{{range .Codes}}<code>{{.}}</code> {{end}}</td>
<td style="white-space: nowrap">{{secs .Seconds}}</td>
{{if $.Specs}}<td class="{{if and .Spec (ne .Spec "passed")}}FAIL{{end}}">{{.Spec}}</td>{{end}}
<td><a href="{{.Folder}}/index.html">evidence</a>{{with .Diagnosis}}<div class="departs"><strong>departs at: <code>{{.Link}}</code></strong> — {{show .Summary}}<br><span class="open">open: {{show .Open}}</span></div>{{end}}{{if .Failed}}<details{{if .NotAsMeant}} open{{end}}><summary>{{len .Failed}} check(s) did not pass</summary><ul>{{range .Failed}}<li><code>{{.Code}}</code> {{show .ID}}: {{show .Message}}</li>{{end}}</ul></details>{{end}}{{if .Error}}<br><small>no bundle: {{show .Error}}</small>{{end}}</td></tr>
{{end}}</table>
{{with .Coverage}}{{if .Items}}<h2 id="coverage">Coverage of the agent surface</h2>
<p>What the run's scenarios exercised, as the union of every run (<code>coverage.json</code>): each tool called with a valid and an invalid input, each write of the person's replayed by each kind of the replay catalogue, each form submitted as prepared and changed first, each look at text the server derives tied to a state read, each cancel landed while its call ran.</p>
<table>
<tr><th>measure</th><th>covered</th></tr>
{{range .Measures}}<tr><td>{{.Measure}}</td><td class="{{if lt .Covered .Total}}INCONCLUSIVE{{else}}PASS{{end}}"><strong>{{.Covered}} of {{.Total}}</strong></td></tr>
{{end}}</table>
{{with .Uncovered}}<details><summary>{{len .}} not covered, each with the scenario that came closest</summary>
<table>
<tr><th>measure</th><th>what</th><th>how</th><th>closest</th><th>why not</th></tr>
{{range .}}<tr><td>{{.Measure}}</td><td><code>{{show .Subject}}</code></td><td>{{.Aspect}}</td><td>{{.Closest}}</td><td><small>{{show .Why}}</small></td></tr>
{{end}}</table></details>{{end}}{{end}}{{end}}
</body></html>
`))

// pageRow is a row as the page template reads it.
type pageRow struct{ Row }

func (r pageRow) VerdictAsMeant() bool { return r.verdictAsMeant() }

// Count is how many scenarios reached an outcome.
func (p Page) Count(o vocab.Outcome) int { n, _ := Count(p.Rows, o); return n }

// Meant is how many scenarios reached an outcome, as meant.
func (p Page) Meant(o vocab.Outcome) int { _, n := Count(p.Rows, o); return n }

// Unmeant is how many scenarios reached an outcome they do not mean to.
func (p Page) Unmeant(o vocab.Outcome) int { return p.Count(o) - p.Meant(o) }

// NotAsMeant are the rows that fail the run.
func (p Page) NotAsMeant() []Row { return NotAsMeant(p.Rows) }

// KnownBad counts the scenarios whose FAIL or INCONCLUSIVE is the verdict
// meant.
func (p Page) KnownBad() int {
	n := 0
	for _, r := range p.Rows {
		if r.verdictAsMeant() && r.Outcome != vocab.Pass {
			n++
		}
	}
	return n
}

// Repeats are the scenarios played more than once, with pass^k and pass@k.
func (p Page) Repeats() []Repeat { return Repeats(p.Rows, p.Runs) }

// Attacks are the scenarios played under a planted attack, with utility
// and attack success across their runs.
func (p Page) Attacks() []AttackTally { return Attacks(p.Rows, p.Runs) }

// Sorted are the rows, the ones not as meant first, then by ID.
func (p Page) Sorted() []pageRow {
	var out []pageRow
	for _, r := range Sorted(p.Rows) {
		out = append(out, pageRow{r})
	}
	return out
}

// Coverage is the run's coverage of the agent surface.
func (p Page) Coverage() Coverage { return CoverageOf(p.Rows) }

// Write writes the run's page into dir, and beside it the run's coverage
// (coverage.json): every command that writes a run's page writes both.
func (p Page) Write(dir string) error {
	f, err := os.Create(filepath.Join(dir, PageFile))
	if err != nil {
		return err
	}
	err = page.Execute(f, p)
	return errors.Join(err, f.Close(), p.Coverage().Write(dir))
}
