package crawl

import (
	"html/template"
	"io"
)

// page is the crawl's report as one page a person reads in a browser: the
// site's readiness with what each figure is made of, the drift, and each
// page's tools and findings. html/template escapes what the pages wrote.
var pageTemplate = template.Must(template.New("crawl").Parse(`<!doctype html>
<html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>agentready crawl: {{.Start}}</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:1.5rem auto;max-width:72rem;padding:0 1rem;color:#1b1b1b}
table{border-collapse:collapse;width:100%;table-layout:fixed}td,th{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
.error{color:#a40000}.warning{color:#8a5a00}.info{color:#555}code{font-size:.9em}
</style>
<h1>Crawl of {{.Start}}</h1>
<p>{{len .Pages}} page(s) read{{if .Stopped}}; stopped at <code>{{.Stopped}}</code>, {{len .Left}} page(s) found and not read{{end}}.</p>
<h2 id="readiness">Readiness</h2>
{{with .Readiness}}<p>{{.PagesWithTools}} of {{.Pages}} page(s) offer tools ({{.Tools}} tool(s)); {{.RulesClean}} of {{.RulesRun}} lint rules clean; {{.Drifting}} drifting tool(s).</p>
{{if .Failing}}<table><tr><th style="width:16rem">rule</th><th style="width:6rem">severity</th><th style="width:6rem">findings</th><th>pages</th></tr>
{{range .Failing}}<tr><td><code>{{.Rule}}</code></td><td class="{{.Severity}}">{{.Severity}}</td><td>{{.Findings}}</td><td>{{range .Pages}}<a href="#{{.}}">{{.}}</a> {{end}}</td></tr>
{{end}}</table>{{end}}{{end}}
<h2 id="drift">Drift</h2>
{{if .Drift}}{{range .Drift}}<p><code>{{.Tool}}</code>: {{len .Variants}} different {{.What}}</p><ul>
{{range .Variants}}<li><code>{{.Value}}</code> on {{range .Pages}}<a href="#{{.}}">{{.}}</a> {{end}}</li>{{end}}</ul>
{{end}}{{else}}<p>No tool differs from page to page.</p>{{end}}
<h2 id="pages">Pages</h2>
{{range .Pages}}<h3 id="{{.URL}}"><a href="{{.URL}}">{{.URL}}</a></h3>
{{if .Error}}<p class="error">not read: {{.Error}}</p>{{else}}
<p>{{len .Tools}} tool(s){{range .Tools}} <code>{{.Name}}</code>{{end}}{{with .Readiness}}; {{.RulesClean}} of {{.RulesRun}} lint rules clean{{end}}{{if .From}}; reached from <a href="#{{.From}}">{{.From}}</a>{{end}}.</p>
{{if .Findings}}<table>{{range .Findings}}<tr><td style="width:16rem"><code>{{.Rule}}</code></td><td style="width:6rem" class="{{.Severity}}">{{.Severity}}</td><td>{{if .Tool}}<code>{{.Tool}}</code>: {{end}}{{.Message}}</td></tr>
{{end}}</table>{{end}}{{end}}{{end}}
</html>
`))

// WriteHTML writes the crawl as one HTML page.
func WriteHTML(w io.Writer, rep Report) error { return pageTemplate.Execute(w, rep) }
