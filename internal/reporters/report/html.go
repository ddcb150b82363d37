// Package report renders what a run recorded for people: a bundle's page
// (index.html: the checks that did not pass, each linked to the rows of
// evidence it named, a filmstrip, one timeline of the run, every record),
// safe for untrusted values. It reads bundles and verdicts and writes
// nothing of its own into them: package bundle stores and verifies, and
// takes the page this package renders (Write).
package report

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
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

var page = template.Must(template.New("bundle").Funcs(template.FuncMap{
	"show":  Show,
	"lower": func(s any) string { return strings.ToLower(fmt.Sprint(s)) },
	"png": func(b []byte) template.URL {
		return template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(b))
	},
	"picture": func(p *Picture) template.URL {
		// The type is ours (image/jpeg or image/png), never the record's.
		return template.URL("data:" + p.Mime + ";base64," + base64.StdEncoding.EncodeToString(p.Data))
	},
	"side": func(v json.RawMessage) string {
		if v == nil {
			return "nothing"
		}
		return Show(v)
	},
	"pointer": func(p string) string { return cmp.Or(Show(p), "(the whole value)") },
	"mark": func(s vocab.CheckStatus) string {
		return map[vocab.CheckStatus]string{vocab.CheckPass: "✓", vocab.CheckFail: "✗", vocab.CheckInconclusive: "?"}[s]
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
.meant { color: #555; font-weight: normal; font-size: 1rem; }
table { border-collapse: collapse; width: 100%; } td, th { border: 1px solid #dde; padding: .25rem .4rem; vertical-align: top; text-align: left; }
th { background: #f3f4f8; } pre, code, .v { font: 12px/1.35 ui-monospace, monospace; white-space: pre-wrap; word-break: break-all; }
tr.counted td { background: #fff6d6; } .meta td:first-child { width: 12rem; color: #555; }
img { max-width: 100%; border: 1px solid #ccd; }
.check { border: 1px solid #dde; border-left: 4px solid #b00020; padding: .4rem .6rem; margin: .6rem 0; }
.check.inconclusive { border-left-color: #8a5a00; }
.check:target, tr:target td { background: #e8f0ff; }
.check p { margin: .2rem 0; } .diff td:first-child { width: 30%; }
.film { display: flex; gap: .8rem; flex-wrap: wrap; } .film figure { margin: 0; flex: 1 1 14rem; max-width: 24rem; }
.film figcaption { font-size: 12px; color: #555; }
.tl td:nth-child(1) { width: 2.5rem; color: #777; } .tl td:nth-child(2) { width: 4rem; } .tl td:nth-child(3) { width: 4.5rem; color: #555; }
.tl td:nth-child(5) { width: 38%; } .tl td:last-child { width: 7rem; }
.tl tr.mark td { background: #f3f4f8; font-weight: 600; border-top: 2px solid #99a; }
.tl tr.dim td { color: #888; } .tl tr.bad td:nth-child(4) { color: #b00020; }
.tl tr.call td:nth-child(4), .tl tr.step td:nth-child(4) { font-weight: 600; }
a.chk { display: inline-block; margin: 0 .15rem .15rem 0; padding: 0 .3rem; border-radius: .6rem; font-size: 12px; text-decoration: none; border: 1px solid #ccd; }
a.chk.fail { background: #fde7ea; color: #b00020; border-color: #f3b5bf; } a.chk.pass { color: #0a6b2b; } a.chk.inconclusive { background: #fff3d6; color: #8a5a00; }
.changes { margin: 0; padding-left: 1rem; }
.diagnosis { border: 1px solid #f3b5bf; background: #fff8f9; padding: .5rem .8rem; margin: 1rem 0; }
.diagnosis p { margin: .3rem 0; } .diagnosis .open { color: #444; }
ol.chain { display: flex; flex-wrap: wrap; gap: .3rem; list-style: none; padding: 0; margin: .4rem 0; }
ol.chain li { padding: .1rem .5rem; border-radius: .6rem; border: 1px solid #ccd; font-size: 12px; color: #555; }
ol.chain li.held { color: #0a6b2b; border-color: #9fd3ae; } ol.chain li.unseen { background: #fff3d6; color: #8a5a00; border-color: #e8c98a; }
ol.chain li.departs { background: #b00020; color: #fff; border-color: #b00020; font-weight: 600; } ol.chain li.later { background: #fde7ea; color: #b00020; border-color: #f3b5bf; }
details { margin-top: 1rem; } summary { cursor: pointer; font-weight: 600; }
</style>
</head>
<body>
<h1>{{.Meta.ScenarioID}} <span class="{{.Shown}}">{{.Verdict.Outcome}}</span>{{if .KnownBad}} <span class="meant">as expected: a known-answer case</span>{{end}}</h1>
<p>{{show .Scenario.Title}}</p>
<p>Codes: {{range .Verdict.Codes}}<code>{{.}}</code> {{else}}none{{end}}{{if not .AsMeant}} · <strong class="FAIL">not the verdict this scenario means to reach</strong> ({{.Meant}}){{end}}</p>
<table class="meta">
<tr><td>run</td><td>{{.Meta.RunID}}, {{.Meta.Start.Format "2006-01-02 15:04:05Z07:00"}} → {{.Meta.End.Format "15:04:05"}}</td></tr>
<tr><td>suite</td><td>{{.Meta.SuiteVersion}} {{.Meta.SuiteCommit}}</td></tr>
<tr><td>browser</td><td>{{.Meta.Chromium}} (protocol {{.Meta.Protocol}})</td></tr>
<tr><td>app</td><td>{{.Meta.BaseURL}}{{if .Meta.Variant}} · variant <code>{{.Meta.Variant}}</code>{{end}}</td></tr>
<tr><td>redacted</td><td>{{range .Meta.Redacted}}<code>{{.}}</code> {{else}}nothing{{end}}</td></tr>
</table>

{{with .Diagnosis}}<div class="diagnosis" id="diagnosis">
<p><strong class="FAIL">departs at: <code>{{.D.Link}}</code></strong> — {{show .D.Summary}}</p>
<ol class="chain">{{range .Chain}}<li class="{{.State}}" title="{{.Holds}}">{{.Link}}{{with .Word}} · {{.}}{{end}}</li>{{end}}</ol>
<p>Failing there: {{range .Checks}}<a class="chk fail" href="#check-{{.N}}" title="{{show .ID}}">✗{{.N}} {{show .ID}}</a> {{end}}</p>
<p class="open">Open: {{show .D.Open}}</p>
</div>
{{end}}{{if .Failed}}<h2 id="failed">Checks that did not pass</h2>
{{if .KnownBad}}<p>This scenario is a known-answer case: these are the findings it means to produce.</p>{{end}}
{{range .Failed}}<div class="check {{.C.Status}}" id="check-{{.N}}">
<p><strong class="{{.C.Status}}">{{.C.Status}}</strong> #{{.N}} <code>{{.C.Code}}</code> <span class="v">{{show .C.ID}}</span> <small>({{.C.Source}})</small></p>
<p>{{show .C.Message}}</p>
{{if .C.Differences}}<table class="diff"><tr><th>JSON pointer</th><th>expected</th><th>actual</th></tr>
{{range .C.Differences}}<tr><td class="v">{{pointer .Pointer}}</td><td class="v">{{side .Expected}}</td><td class="v">{{side .Actual}}</td></tr>
{{end}}</table>{{else}}{{if .C.Expected}}<p>expected: <span class="v">{{show .C.Expected}}</span></p>{{end}}{{if .C.Actual}}<p>actual: <span class="v">{{show .C.Actual}}</span></p>{{end}}{{end}}
<p>Evidence: {{range .Rows}}<a href="#ev-{{.N}}">#{{.N}} {{.Phase}}: {{show .What}}</a>; {{else}}no row of the timeline (the check is about the harness or the scenario itself){{end}}</p>
</div>
{{end}}{{end}}

{{if .Pictures}}<h2 id="filmstrip">Filmstrip</h2>
<div class="film">{{range .Pictures}}<figure id="frame-{{.P.Phase}}"><a href="#ev-{{.Row}}"><img alt="the page at the {{.P.Phase}} mark" src="{{picture .P}}"></a><figcaption>{{.Caption}}</figcaption></figure>
{{end}}</div>{{end}}

<h2 id="timeline">Timeline</h2>
<p>Everything the run recorded, in order (how it is ordered: docs/decisions/2026-11-30-report-timeline.md). The last column names the checks that used a row; highlighted requests are counted by a check.</p>
<table class="tl">
<tr><th>#</th><th>phase</th><th>who</th><th>what</th><th>detail</th><th>checks</th></tr>
{{range .Rows}}<tr id="ev-{{.N}}" class="{{.Kind}}{{if .Bad}} bad{{end}}{{if .Dim}} dim{{end}}{{if .Counted}} counted{{end}}"><td>{{.N}}</td><td>{{.Phase}}</td><td>{{.Who}}</td><td>{{show .What}}{{if .Journal}}<br><small>{{show .Journal}}</small>{{end}}{{if .Picture}} · <a href="#frame-{{.Picture.Phase}}">picture</a>{{end}}</td><td class="v">{{if .Changes}}<ul class="changes">{{range .Changes}}<li>{{show .Source}} {{pointer .Pointer}}: {{side .Expected}} → {{side .Actual}}</li>{{end}}</ul>{{end}}{{show .Detail}}{{if .Cut}} <a class="whole" href="{{.File}}">the whole value: {{.File}}</a>{{end}}</td><td>{{range .Refs}}<a class="chk {{.Status}}" href="#check-{{.N}}" title="{{show .ID}}">{{mark .Status}}{{.N}}</a>{{end}}</td></tr>
{{end}}</table>

<h2 id="checks">All checks</h2>
<table>
<tr><th>#</th><th>status</th><th>source</th><th>check</th><th>code</th><th>message</th><th>expected</th><th>actual</th><th>rows</th></tr>
{{range .All}}<tr id="{{if eq .C.Status "pass"}}check-{{.N}}{{else}}row-check-{{.N}}{{end}}"><td>{{.N}}</td><td class="{{.C.Status}}">{{.C.Status}}</td><td>{{.C.Source}}</td><td class="v">{{show .C.ID}}</td><td>{{.C.Code}}</td><td>{{show .C.Message}}</td><td class="v">{{show .C.Expected}}</td><td class="v">{{show .C.Actual}}</td><td>{{range .Rows}}<a href="#ev-{{.N}}">#{{.N}}</a> {{end}}</td></tr>
{{end}}</table>

<h2>Prompt and final words</h2>
<p><strong>Prompt</strong></p><pre>{{show .Scenario.Prompt}}</pre>
{{range .Evidence.Dialogue}}<p><strong>The agent asked</strong> (after {{.AfterCalls}} call(s))</p><pre>{{show .Asked}}</pre>
<p><strong>The person answered</strong></p><pre>{{if .Answered}}{{show .Says}}{{else}}(no reply of the scenario's user: fitted: the dialogue ended){{end}}</pre>
{{end}}<p><strong>Final words</strong></p><pre>{{if .Evidence.Final}}{{show .Evidence.Final}}{{else}}(the agent said nothing){{end}}</pre>

{{if or .Evidence.Faults .Evidence.Unmet}}<h2>Harness</h2>
{{range .Evidence.Faults}}<pre>fault: {{show .}}</pre>{{end}}
{{range .Evidence.Unmet}}<pre>wait not met: {{show .}}</pre>{{end}}{{end}}

{{if .Evidence.AppOutput}}<h2>The app's output</h2>
<p>The last lines the app the suite started wrote (redacted like the rest); no check reads them.</p>
<pre>{{range .Evidence.AppOutput}}{{show .}}
{{end}}</pre>{{end}}

{{if .Evidence.Dialogs}}<h2>Dialogs</h2>
{{range .Evidence.Dialogs}}<pre>{{.Kind}} in {{.Phase}}: {{show .Message}} ({{if .Accepted}}accepted{{else}}dismissed{{end}}){{if .Error}} — not answered: {{show .Error}}{{end}}</pre>{{end}}{{end}}

{{if .Evidence.Popups}}<h2>Popups</h2>
{{range .Evidence.Popups}}<pre>{{show .URL}} opened in {{.Phase}}{{if .Closed}}, closed by the {{.ClosedBy}}{{else}}, left open{{end}}{{if .Tools}}; its tools: {{range $i, $t := .Tools}}{{if $i}}, {{end}}{{$t.Name}}{{end}}{{end}}{{if .Error}} — not followed: {{show .Error}}{{end}}</pre>{{end}}{{end}}

<h2>Console</h2>
{{range .Evidence.Console}}<pre>{{.Type}}: {{show .Text}}</pre>{{else}}<p>No errors or warnings.</p>{{end}}

<details><summary>The records one by one</summary>
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
{{if .Evidence.Pages}}<table>
<tr><th>after</th><th>URL</th></tr>
{{range $p, $u := .Evidence.Pages}}<tr><td>{{$p}}</td><td class="v">{{show $u}}</td></tr>
{{end}}</table>{{end}}
<table>
<tr><th>after</th><th>frame</th><th>selector</th><th>count</th><th>present</th><th>visible</th><th>enabled</th><th>checked</th><th>value</th><th>text</th><th>attributes</th><th>:tool-form-active</th><th>:tool-submit-active</th></tr>
{{range .UI}}{{$p := .Phase}}{{range .Elements}}<tr><td>{{$p}}</td><td class="v">{{show .Frame}}</td><td class="v">{{show .Selector}}</td><td>{{.Count}}</td><td>{{.Present}}</td><td>{{.Visible}}</td><td>{{.Enabled}}</td><td>{{.Checked}}</td><td class="v">{{show .Value}}</td><td class="v">{{show .Text}}</td><td class="v">{{if .Attributes}}{{show .Attributes}}{{end}}</td><td>{{.ToolFormActive}}</td><td>{{.ToolSubmitActive}}</td></tr>
{{end}}{{end}}</table>

{{if .Evidence.Reviews}}<h2>What the person had before them at each click</h2>
<table>
<tr><th>step</th><th>clicked</th><th>requests before</th><th>form (name = value)</th><th>named elements</th></tr>
{{range .Evidence.Reviews}}<tr><td>{{.Phase}} {{.Index}}</td><td class="v">{{show .Click}}</td><td>{{.Requests}}</td><td class="v">{{range .Form}}{{show .Name}} = {{show .Value}}{{if .Hidden}} (hidden){{end}}<br>{{else}}(not in a form){{end}}</td><td class="v">{{range $sel, $v := .Seen}}{{show $sel}}: {{show $v}}<br>{{end}}{{if .SeenHidden}}not visible: {{range .SeenHidden}}{{show .}} {{end}}{{end}}</td></tr>
{{end}}</table>{{end}}
</details>
{{if .FailureShot}}<p>When the spec failed:</p><img alt="screenshot when the spec failed" src="{{png .FailureShot}}">{{end}}
</body>
</html>
`))

type countedRequest struct {
	R       record.Request
	Counted bool
}

type checkRef struct {
	N      int
	Status vocab.CheckStatus
	ID     string
}

type rowView struct {
	Row
	Refs    []checkRef
	Counted bool
	// Cut: the page shows an excerpt of Detail; the whole value is in
	// File, one click away (it is stored once, in the bundle's record).
	Cut bool
}

type checkView struct {
	N    int
	C    judge.Check
	Rows []Row
}

// diagnosisView is the verdict's diagnosis as the report shows it: the
// chain, each link marked, and links to the failing checks at the first.
type diagnosisView struct {
	D      *judge.Diagnosis
	Chain  []chainStep
	Checks []checkRef
}

type chainStep struct {
	Link  vocab.Link
	Holds string
	State string // held, unseen, departs, later, or "" (after the departure, not departing)
	Word  string
}

func newDiagnosisView(v judge.Verdict) *diagnosisView {
	d := v.Diagnosis
	if d == nil {
		return nil
	}
	dv := &diagnosisView{D: d}
	for _, info := range vocab.Chain {
		st := chainStep{Link: info.Link, Holds: info.Holds}
		switch {
		case info.Link == d.Link:
			st.State, st.Word = "departs", "departs first"
		case slices.Contains(d.Held, info.Link):
			st.State, st.Word = "held", "held"
		case slices.Contains(d.Unseen, info.Link):
			st.State, st.Word = "unseen", "not seen"
		case slices.Contains(d.Later, info.Link):
			st.State, st.Word = "later", "also departs"
		}
		dv.Chain = append(dv.Chain, st)
	}
	for k, c := range v.Checks {
		if c.Status == vocab.CheckFail && judge.CheckLink(c) == d.Link {
			dv.Checks = append(dv.Checks, checkRef{N: k + 1, Status: c.Status, ID: c.ID})
		}
	}
	return dv
}

type pictureView struct {
	P       *Picture
	Row     int
	Caption string
}

var captions = map[vocab.Phase]string{
	vocab.PhaseAgent: "agent mark: the page before the agent's first call",
	vocab.PhaseHuman: "human mark: the page as the agent left it, what the person saw",
	vocab.PhaseEnd:   "end: the page after the person's last step",
}

// HTML renders the bundle as one self-contained page that runs no script:
// the checks that did not pass, each with its differences and the rows of
// evidence it used; the filmstrip; the timeline; every check; the records.
func HTML(b bundle.Bundle) []byte {
	type phaseState struct {
		Phase vocab.Phase
		S     *record.Snapshot
	}
	type phaseUI struct {
		Phase    vocab.Phase
		Elements any
	}
	if b.Evidence == nil {
		b.Evidence = &scenarios.Evidence{}
	}
	tl := BuildTimeline(b)
	view := struct {
		bundle.Bundle
		Shown    string // the verdict's colour: a known-answer case that reached its answer is not red
		AsMeant  bool
		KnownBad bool
		Meant    string
		// Diagnosis is where a FAIL first departs, nil for other verdicts.
		Diagnosis *diagnosisView
		Failed    []checkView
		All       []checkView
		Rows      []rowView
		Pictures  []pictureView
		// FailureShot is the picture taken when the spec failed, when it
		// is not the end's (shown in the filmstrip already).
		FailureShot []byte
		Requests    []countedRequest
		States      []phaseState
		UI          []phaseUI
	}{Bundle: b}
	view.AsMeant = judge.AsMeant(b.Scenario, b.Verdict)
	view.Meant = b.Scenario.Meant().String()
	view.Diagnosis = newDiagnosisView(b.Verdict)
	view.KnownBad = view.AsMeant && b.Verdict.Outcome != vocab.Pass
	view.Shown = string(b.Verdict.Outcome)
	if !bytes.Equal(b.Failure, b.Screenshot) {
		view.FailureShot = b.Failure
	}
	if view.KnownBad {
		view.Shown = "meant"
	}
	countedReq := map[int]bool{}
	for _, r := range tl.Rows {
		rv := rowView{Row: r, Cut: r.File != "" && utf8.RuneCountInString(r.Detail) > MaxShown}
		for _, ci := range r.Checks {
			c := b.Verdict.Checks[ci]
			rv.Refs = append(rv.Refs, checkRef{N: ci + 1, Status: c.Status, ID: c.ID})
			if c.Source == vocab.SrcNetwork || c.Source == vocab.SrcJournal {
				rv.Counted = r.Kind == RowRequest || r.Kind == RowJournal
			}
		}
		if rv.Counted && r.Kind == RowRequest {
			for _, ref := range r.refs {
				if ref.Kind == vocab.RefRequest {
					countedReq[ref.Index] = true
				}
			}
		}
		view.Rows = append(view.Rows, rv)
		if r.Picture != nil {
			view.Pictures = append(view.Pictures, pictureView{P: r.Picture, Row: r.N, Caption: captions[r.Picture.Phase]})
		}
	}
	for ci, c := range b.Verdict.Checks {
		cv := checkView{N: ci + 1, C: c}
		for _, n := range tl.Checks[ci] {
			cv.Rows = append(cv.Rows, tl.Rows[n-1])
		}
		view.All = append(view.All, cv)
		if c.Status != vocab.CheckPass {
			view.Failed = append(view.Failed, cv)
		}
	}
	for i, r := range b.Evidence.Requests {
		view.Requests = append(view.Requests, countedRequest{R: r, Counted: countedReq[i]})
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
	if err := page.Execute(&buf, view); err != nil {
		return []byte("<!doctype html><title>report error</title><p>" + template.HTMLEscapeString(err.Error()))
	}
	return buf.Bytes()
}

// Write renders the bundle's page and writes the bundle with it (bundle.Write).
func Write(dir string, b bundle.Bundle) error { return bundle.Write(dir, b, HTML(b)) }
