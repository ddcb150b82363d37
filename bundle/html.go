package bundle

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"strings"
	"unicode"

	"github.com/agentready/agentready/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/vocab"
)

// MaxShown is how many characters of one untrusted value a report shows.
const MaxShown = 400

// Show makes an untrusted value safe to read: control, format and bidi
// characters (which can hide or reorder text) become visible codes, and a
// long value is cut with its full length said. html/template escapes the rest.
func Show(v any) string {
	var s string
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		s = v
	case *string:
		if v == nil {
			return ""
		}
		s = *v
	case json.RawMessage:
		s = string(v)
	default:
		b, _ := json.Marshal(v)
		s = string(b)
	}
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == MaxShown {
			fmt.Fprintf(&b, "… [cut: %d characters in all]", len([]rune(s)))
			break
		}
		n++
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || (r >= 0x2028 && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

var report = template.Must(template.New("bundle").Funcs(template.FuncMap{
	"show":  Show,
	"lower": func(s any) string { return strings.ToLower(fmt.Sprint(s)) },
	"png": func(b []byte) template.URL {
		return template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(b))
	},
}).Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>{{.Meta.ScenarioID}} · {{.Verdict.Outcome}} · agentready evidence</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #1b1b1f; }
h1 { margin: 0 0 .3rem; } h2 { margin-top: 2rem; border-bottom: 1px solid #ccd; }
.PASS, .pass { color: #0a6b2b; } .FAIL, .fail { color: #b00020; } .INCONCLUSIVE, .inconclusive { color: #8a5a00; }
table { border-collapse: collapse; width: 100%; } td, th { border: 1px solid #dde; padding: .25rem .4rem; vertical-align: top; text-align: left; }
th { background: #f3f4f8; } pre, code, .v { font: 12px/1.35 ui-monospace, monospace; white-space: pre-wrap; word-break: break-all; }
tr.counted td { background: #fff6d6; } .meta td:first-child { width: 12rem; color: #555; }
img { max-width: 100%; border: 1px solid #ccd; }
</style>
</head>
<body>
<h1>{{.Meta.ScenarioID}} <span class="{{.Verdict.Outcome}}">{{.Verdict.Outcome}}</span></h1>
<p>{{show .Scenario.Title}}</p>
<p>Codes: {{range .Verdict.Codes}}<code>{{.}}</code> {{else}}none{{end}}</p>
<table class="meta">
<tr><td>run</td><td>{{.Meta.RunID}}, {{.Meta.Start.Format "2006-01-02 15:04:05Z07:00"}} → {{.Meta.End.Format "15:04:05"}}</td></tr>
<tr><td>suite</td><td>{{.Meta.SuiteVersion}} {{.Meta.SuiteCommit}}</td></tr>
<tr><td>browser</td><td>{{.Meta.Chromium}} (protocol {{.Meta.Protocol}})</td></tr>
<tr><td>app</td><td>{{.Meta.BaseURL}}{{if .Meta.Variant}} · variant <code>{{.Meta.Variant}}</code>{{end}}</td></tr>
<tr><td>redacted</td><td>{{range .Meta.Redacted}}<code>{{.}}</code> {{else}}nothing{{end}}</td></tr>
</table>

<h2>Checks</h2>
<table>
<tr><th>status</th><th>source</th><th>check</th><th>code</th><th>message</th><th>expected</th><th>actual</th></tr>
{{range .Verdict.Checks}}<tr><td class="{{.Status}}">{{.Status}}</td><td>{{.Source}}</td><td class="v">{{show .ID}}</td><td>{{.Code}}</td><td>{{show .Message}}</td><td class="v">{{show .Expected}}</td><td class="v">{{show .Actual}}</td></tr>
{{end}}</table>

<h2>Prompt and final words</h2>
<p><strong>Prompt</strong></p><pre>{{show .Scenario.Prompt}}</pre>
<p><strong>Final words</strong></p><pre>{{if .Evidence.Final}}{{show .Evidence.Final}}{{else}}(the agent said nothing){{end}}</pre>

<h2>Tool calls</h2>
<table>
<tr><th>phase</th><th>tool</th><th>input</th><th>status</th><th>output or error</th><th>ms</th></tr>
{{range .Evidence.Calls}}<tr><td>{{.Phase}} {{.Index}}</td><td>{{show .Call.Tool}}</td><td class="v">{{show .Call.Input}}</td><td>{{.Result.Status}}</td><td class="v">{{if .Result.Output}}{{show .Result.Output}}{{else}}{{show .Result.OutputText}} {{show .Result.ErrorText}}{{end}}</td><td>{{.Result.Duration.Milliseconds}}</td></tr>
{{end}}</table>

<h2>Trace (as the browser sent it)</h2>
<table>
<tr><th>#</th><th>event</th><th>tool</th><th>invocation</th><th>detail</th></tr>
{{range .Evidence.Trace}}<tr><td>{{.Seq}}</td><td>{{.Kind}}</td><td>{{show .ToolName}}{{range .Tools}}{{show .Name}} {{end}}</td><td class="v">{{.InvocationID}}</td><td class="v">{{show .Status}} {{show .Input}} {{show .Output}} {{show .ErrorText}}</td></tr>
{{end}}</table>

<h2>Requests</h2>
{{if .Evidence.Requests}}<table>
<tr><th>#</th><th>method</th><th>path</th><th>status</th><th>body</th></tr>
{{range .Requests}}<tr{{if .Counted}} class="counted"{{end}}><td>{{.R.Seq}}</td><td>{{.R.Method}}</td><td class="v">{{show .R.Path}}</td><td>{{if .R.Failure}}failed: {{show .R.Failure}}{{else}}{{.R.Status}}{{end}}</td><td class="v">{{show .R.Body}}</td></tr>
{{end}}</table><p>Highlighted: requests a check counts.</p>{{else}}<p>Network capture was off.</p>{{end}}

<h2>App journal</h2>
{{if .Evidence.Journal}}<table>
<tr><th>#</th><th>method</th><th>path</th><th>status</th><th>code</th></tr>
{{range .Evidence.Journal}}<tr><td>{{.Seq}}</td><td>{{.Method}}</td><td class="v">{{show .Path}}</td><td>{{.Status}}</td><td>{{show .Code}}</td></tr>
{{end}}</table>{{else}}<p>The app was not observed.</p>{{end}}

<h2>State</h2>
<table>
<tr><th>when</th><th>hash</th><th>documents (by source)</th><th>not read</th></tr>
{{range .States}}<tr><td>{{.Phase}}</td>{{if .S}}<td class="v">{{.S.Hash}}</td><td class="v">{{show .S.Docs}}</td><td class="v">{{show .S.Errors}}</td>{{else}}<td colspan="3">not read (no probes, no observer)</td>{{end}}</tr>
{{end}}</table>

<h2>Page</h2>
<table>
<tr><th>after</th><th>selector</th><th>present</th><th>visible</th><th>enabled</th><th>value</th><th>text</th><th>:tool-form-active</th><th>:tool-submit-active</th></tr>
{{range .UI}}{{$p := .Phase}}{{range .Elements}}<tr><td>{{$p}}</td><td class="v">{{show .Selector}}</td><td>{{.Present}}</td><td>{{.Visible}}</td><td>{{.Enabled}}</td><td class="v">{{show .Value}}</td><td class="v">{{show .Text}}</td><td>{{.ToolFormActive}}</td><td>{{.ToolSubmitActive}}</td></tr>
{{end}}{{end}}</table>
{{if .Screenshot}}<p>At the end:</p><img alt="screenshot at the end of the run" src="{{png .Screenshot}}">{{end}}
{{if .Failure}}<p>When the spec failed:</p><img alt="screenshot when the spec failed" src="{{png .Failure}}">{{end}}

{{if or .Evidence.Faults .Evidence.Unmet}}<h2>Harness</h2>
{{range .Evidence.Faults}}<pre>fault: {{show .}}</pre>{{end}}
{{range .Evidence.Unmet}}<pre>wait not met: {{show .}}</pre>{{end}}{{end}}

<h2>Console</h2>
{{range .Evidence.Console}}<pre>{{.Type}}: {{show .Text}}</pre>{{else}}<p>No errors or warnings.</p>{{end}}
</body>
</html>
`))

type countedRequest struct {
	R       record.Request
	Counted bool
}

// HTML renders the bundle as one self-contained page that runs no script.
func HTML(b Bundle) []byte {
	type phaseState struct {
		Phase vocab.Phase
		S     *record.Snapshot
	}
	type phaseUI struct {
		Phase    vocab.Phase
		Elements any
	}
	view := struct {
		Bundle
		Requests []countedRequest
		States   []phaseState
		UI       []phaseUI
	}{Bundle: b}
	for _, r := range b.Evidence.Requests {
		view.Requests = append(view.Requests, countedRequest{R: r, Counted: counted(b.Scenario, r)})
	}
	for _, p := range []vocab.Phase{vocab.StateBefore, vocab.PhaseAgent, vocab.PhaseHuman} {
		if s, ok := b.Evidence.States[p]; ok {
			view.States = append(view.States, phaseState{p, s})
		}
		if els, ok := b.Evidence.UI[p]; ok {
			view.UI = append(view.UI, phaseUI{p, els})
		}
	}
	var buf bytes.Buffer
	if err := report.Execute(&buf, view); err != nil {
		return []byte("<!doctype html><title>report error</title><p>" + template.HTMLEscapeString(err.Error()))
	}
	return buf.Bytes()
}

func counted(sc scenarios.Scenario, r record.Request) bool {
	for _, e := range sc.Expect.Requests {
		if record.MatchRequest(r.Method, r.Path, e.Method, e.Path) {
			return true
		}
	}
	for _, g := range sc.Expect.Guarded {
		method, path, _ := record.SplitRequest(g)
		if record.MatchRequest(r.Method, r.Path, method, path) {
			return true
		}
	}
	return false
}
