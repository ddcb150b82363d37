package scenarios

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
)

// baseYAML is a valid scenario that each case below breaks in one place.
const baseYAML = `id: T-01
title: a test scenario
start: /events
prompt: Register reader@example.com for me.
prompt_data: {email: reader@example.com}
setup:
  - navigate: /events
agent:
  calls:
    - tool: prepare
      input: {email: reader@example.com}
      expect:
        status: completed
  final: Please check and submit.
human:
  - click: "#submit"
  - wait_request: POST /api/x
expect:
  calls:
    exactly:
      - tool: prepare
  requests:
    - {request: POST /api/x, phase: human, count: 1}
  guarded: [POST /api/x]
  writes: {agent: 0}
  state:
    human: {changes: {$.x.count: 1}}
  ui:
    human:
      - {selector: "#result", text_contains: ok}
known: {outcome: PASS}
`

const badName = "cases/bad.yaml"

// edit replaces old by new in the base, once; old must be there.
func edit(t *testing.T, pairs ...string) string {
	t.Helper()
	s := baseYAML
	for i := 0; i < len(pairs); i += 2 {
		if strings.Count(s, pairs[i]) != 1 {
			t.Fatalf("the base holds %q %d times", pairs[i], strings.Count(s, pairs[i]))
		}
		s = strings.Replace(s, pairs[i], pairs[i+1], 1)
	}
	return s
}

// lineOf answers ":N:", the line of a problem placed at file:N:column,
// for the first line of s that holds sub.
func lineOf(t *testing.T, s, sub string) string {
	t.Helper()
	for i, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return fmt.Sprintf(":%d:", i+1)
		}
	}
	t.Fatalf("%q is not in the text", sub)
	return ""
}

func TestTheBaseScenarioIsValid(t *testing.T) {
	sc, err := Parse(badName, []byte(baseYAML))
	if err != nil {
		t.Fatal(err)
	}
	if sc.File != badName || sc.Family != "T-01" {
		t.Errorf("file %q, family %q", sc.File, sc.Family)
	}
}

func TestUIExpectationsMayNameFrames(t *testing.T) {
	s := edit(t, `      - {selector: "#result", text_contains: ok}`, `      - {selector: "#result", text_contains: ok}
      - {frame: "#checkout", selector: "#total", text_contains: "12"}
      - {frame: "#checkout", selector: "#pay", enabled: true}
      - {frame: /embed/pay, selector: "#card", present: true}
      - {frame: "https://pay.example/embed", selector: "#iban", visible: false}`)
	sc, err := Parse(badName, []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	var frames []string
	for _, u := range sc.Expect.UI["human"] {
		frames = append(frames, u.Frame)
	}
	if got := strings.Join(frames, " "); got != " #checkout #checkout /embed/pay https://pay.example/embed" {
		t.Errorf("frames read: %q", got)
	}
}

func TestParseErrorsNameTheFileAndTheKey(t *testing.T) {
	type row struct {
		name string
		yaml string
		want []string // each must be in the error, besides the file name
	}
	var rows []row
	add := func(name, yaml string, want ...string) { rows = append(rows, row{name, yaml, want}) }

	s := edit(t, "title: a test scenario\n", "title: a test scenario\ncolour: red\n")
	add("an unknown key", s, "colour", lineOf(t, s, "colour:"))
	s = edit(t, "      input: {email", "      inptu: {email")
	add("an unknown key in a call", s, "inptu", lineOf(t, s, "inptu:"))
	s = edit(t, "text_contains: ok", "txt_contains: ok")
	add("an unknown key deep in expect", s, "txt_contains", lineOf(t, s, "txt_contains"))
	s = edit(t, "        status: completed\n", "        status: completed\n        outptu: {}\n")
	add("an unknown key in a call's expect", s, "outptu", lineOf(t, s, "outptu"))
	s = edit(t, "{request: POST /api/x, phase: human, count: 1}", "{request: POST /api/x, phase: human, count: many}")
	add("a count that is not a number", s, "many", lineOf(t, s, "count: many"))
	s = edit(t, "known: {outcome: PASS}\n", "known: {outcome: PASS}\ncapture: {tool_timeout: soon}\n")
	add("a duration that is not one", s, "soon", lineOf(t, s, "tool_timeout"))

	add("a dialog policy that is not one", edit(t, "known: {outcome: PASS}\n", "known: {outcome: PASS}\ncapture: {dialogs: ok}\n"), "capture.dialogs", `"ok" is not accept or dismiss`)
	add("a dialog kind that is not one", edit(t, "  guarded: [POST /api/x]\n", "  guarded: [POST /api/x]\n  dialogs: {forbid: [{kind: popup}]}\n"), "expect.dialogs.forbid[0].kind", `"popup"`)
	add("a dialog phase no dialog opens in", edit(t, "  guarded: [POST /api/x]\n", "  guarded: [POST /api/x]\n  dialogs: {require: [{phase: all}]}\n"), "expect.dialogs.require[0].phase", `"all"`)
	add("a leave mode that is not one", edit(t, "known: {outcome: PASS}\n", "known: {outcome: PASS}\ncapture: {leave: close}\n"), "capture.leave", `"close" is not navigate or off`)
	s = strings.Replace(edit(t, "writes: {agent: 0}", "writes: {agent: 0, leave: 0}"), "known: {outcome: PASS}\n", "known: {outcome: PASS}\ncapture: {leave: \"off\"}\n", 1)
	add("writes in a leave phase the run does not have", s, "expect.writes.leave", "capture.leave is off")
	add("a popup phase no popup opens in", edit(t, "  guarded: [POST /api/x]\n", "  guarded: [POST /api/x]\n  popups: {require: [{phase: all}]}\n"), "expect.popups.require[0].phase", `"all"`)
	add("popups that say nothing", edit(t, "  guarded: [POST /api/x]\n", "  guarded: [POST /api/x]\n  popups: {}\n"), "expect.popups", "says nothing")
	add("a step in a popup that cannot be done there", edit(t, "  - navigate: /events\n", "  - in_popup: {navigate: /events}\n"), "setup[0].in_popup", "click, fill, wait_for")
	add("dialogs that say nothing", edit(t, "  guarded: [POST /api/x]\n", "  guarded: [POST /api/x]\n  dialogs: {}\n"), "expect.dialogs", "says nothing")
	attack := func(a string) string {
		return edit(t, "known: {outcome: PASS}\n", "known: {outcome: PASS}\nattack: "+a+"\n")
	}
	add("an attack pattern not in the catalogue", attack("{pattern: ignore-prior, in: page_text}"), "attack.pattern", "ignore-prior")
	add("an attack place that is not one", attack("{pattern: exfiltrate, in: footer}"), "attack.in", "footer")
	add("an attack on a tool's result without the tool", attack("{pattern: exfiltrate, in: tool_result}"), "attack.tool", "needs the tool whose result")
	add("a page-text attack that names a tool", attack("{pattern: exfiltrate, in: page_text, tool: prepare}"), "attack.tool", "leave tool out")
	add("a call-asking attack without the call", attack("{pattern: fake-system, in: description, tool: prepare}"), "attack.call", "name it")
	add("an attack that asks no call, with one", attack("{pattern: exfiltrate, in: page_text, call: prepare}"), "attack.call", "leave call out")
	add("an attack address that is not a URL", attack("{pattern: exfiltrate, in: page_text, url: attacker.example}"), "attack.url", "absolute http(s) URL")
	add("an address for an attack that sends nothing", attack("{pattern: ignore-previous, in: page_text, call: prepare, url: 'https://a.example/'}"), "attack.url", "only exfiltrate")
	add("a missing id", edit(t, "id: T-01\n", ""), "id: missing")
	add("a missing title", edit(t, "title: a test scenario\n", ""), "title: missing")
	add("a missing start", edit(t, "start: /events\n", ""), "start:")
	add("a start that is not a path", edit(t, "start: /events\n", "start: events\n"), `start: "events"`)
	add("a missing prompt", edit(t, "prompt: Register reader@example.com for me.\n", ""), "prompt: missing")
	add("an id with a space", edit(t, "id: T-01", "id: T 01"), `id: "T 01"`)
	add("prompt data the prompt does not give", edit(t, "prompt_data: {email: reader@example.com}", "prompt_data: {email: someone@example.com}"),
		"prompt_data.email", "someone@example.com")

	add("a step with two actions", edit(t, `  - click: "#submit"`, `  - {click: "#submit", wait_for: "#result"}`), "human[0]", "[click wait_for]")
	add("a step with no action", edit(t, `  - click: "#submit"`, `  - {}`), "human[0]", "has []")
	add("a setup step with two actions", edit(t, "  - navigate: /events\n", "  - {navigate: /events, click: a}\n"), "setup[0]", "[click navigate]")
	add("a bad wait_request", edit(t, "wait_request: POST /api/x", "wait_request: POST api/x"), "human[1].wait_request")
	add("a human call without a tool", edit(t, `  - click: "#submit"`, `  - call: {input: {a: 1}}`), "human[0].call.tool: missing")

	add("a call without a tool", edit(t, "    - tool: prepare\n      input", "    - input"), "agent.calls[0].tool: missing")
	add("a bad transport", edit(t, "      input: {email", "      transport: ws\n      input: {email"), "agent.calls[0].transport", `"ws"`)
	add("a call's frame that is a relative path", edit(t, "      input: {email", "      frame: pay.html\n      input: {email"), "agent.calls[0].frame", "relative path")
	add("an embedder app that is not an origin", edit(t, "  guarded: [POST /api/x]\n", "  guarded: [POST /api/x]\n  embedder: {app: \"http://127.0.0.1:8080/tasks\"}\n"), "expect.embedder.app", "not an origin")
	add("a bad transport in a human call", edit(t, `  - click: "#submit"`, `  - call: {tool: prepare, transport: http}`), "human[0].call.transport")
	add("a bad expect status", edit(t, "status: completed", "status: done"), "agent.calls[0].expect.status", `"done"`)

	add("a bad request phase", edit(t, "phase: human, count: 1", "phase: person, count: 1"), "expect.requests[0].phase", `"person"`)
	add("a request path without /", edit(t, "request: POST /api/x, phase", "request: POST api/x, phase"), "expect.requests[0].request")
	add("a request without a method", edit(t, "{request: POST /api/x", "{request: /api/x"), "expect.requests[0].request")
	add("a bad guarded entry", edit(t, "guarded: [POST /api/x]", "guarded: [POST/api/x]"), "expect.guarded[0]", `"POST/api/x"`)
	add("a guarded entry without a method", edit(t, "guarded: [POST /api/x]", "guarded: [/api/x]"), "expect.guarded[0]")
	add("a bad writes phase", edit(t, "writes: {agent: 0}", "writes: {all: 0}"), "expect.writes.all")
	add("a bad state phase", edit(t, "    human: {changes: {$.x.count: 1}}", "    person: {changes: {$.x.count: 1}}"), "expect.state.person")
	add("a path that is not JSONPath", edit(t, "    human: {changes: {$.x.count: 1}}", "    human: {changes: {x.count: 1}}"), "expect.state.human")
	add("a state that says nothing", edit(t, "    human: {changes: {$.x.count: 1}}", "    human: {}"), "expect.state.human")
	add("a probe that writes", edit(t, "prompt_data:", "probes: {x: POST /api/x}\nprompt_data:"), "probes.x")
	add("a probe named observer", edit(t, "prompt_data:", "probes: {observer: GET /api/x}\nprompt_data:"), "probes.observer")
	add("an origin with a path", edit(t, "prompt_data:", "origins: [https://api.example/v1]\nprompt_data:"), "origins[0]")
	add("an origin without a scheme", edit(t, "prompt_data:", "origins: [api.example]\nprompt_data:"), "origins[0]")
	add("a bad ui phase", edit(t, "  ui:\n    human:", "  ui:\n    end:"), "expect.ui.end")
	add("a ui state path that is not JSONPath", edit(t, `{selector: "#result", text_contains: ok}`, `{selector: "#result", text_contains_state: draft.title}`), "expect.ui.human[0].text_contains_state")
	add("a ui element without a selector", edit(t, `{selector: "#result", text_contains: ok}`, `{text_contains: ok}`), "expect.ui.human[0].selector: missing")
	add("a ui frame that is a relative path", edit(t, `{selector: "#result", text_contains: ok}`, `{frame: pay.html, selector: "#result", text_contains: ok}`),
		"expect.ui.human[0].frame", "relative path")
	add("a ui frame with a fragment", edit(t, `{selector: "#result", text_contains: ok}`, `{frame: "/pay#card", selector: "#result", text_contains: ok}`),
		"expect.ui.human[0].frame", "#fragment")
	add("a ui frame of another scheme", edit(t, `{selector: "#result", text_contains: ok}`, `{frame: "about:blank", selector: "#result", text_contains: ok}`),
		"expect.ui.human[0].frame", "only an http(s) URL")
	add("a ui frame selector not closed", edit(t, `{selector: "#result", text_contains: ok}`, `{frame: "iframe[title='pay'", selector: "#result", text_contains: ok}`),
		"expect.ui.human[0].frame", "not closed")
	add("one selector in two frames", edit(t, `{selector: "#result", text_contains: ok}`, `{selector: "#result", text_contains: ok}
      - {frame: "#pay", selector: "#result", text_contains: paid}`), "expect.ui.human[1]", `"#result" is named in two frames (the top document and frame "#pay")`)
	add("a case without a tool", edit(t, "\nexpect:\n", "\nexpect:\n  case: {tool: \"\"}\n"), "expect.case.tool: missing")

	add("calls.exactly naming a tool the page does not offer", edit(t, "      - tool: prepare\n  requests", "      - tool: register\n  requests", "  calls:\n    exactly:", "  catalog: {exactly: [prepare]}\n  calls:\n    exactly:"),
		"expect.calls.exactly[0].tool", `"register" is not a tool the page offers`)
	add("a required call to a tool the page does not offer", edit(t, "  calls:\n    exactly:", "  catalog: {exactly: [prepare]}\n  calls:\n    required: [{tool: lookup}]\n    exactly:"),
		"expect.calls.required[0].tool", `"lookup"`)
	add("a required group with input", edit(t, "  calls:\n    exactly:", "  calls:\n    required: [{ordered: [{tool: prepare}], input: {a: 1}}]\n    exactly:"),
		"expect.calls.required[0]", "belong to a call")
	add("a required call with an unknown operator", edit(t, "  calls:\n    exactly:", "  calls:\n    required: [{tool: prepare, input: {email: {$regex: x}}}]\n    exactly:"),
		"expect.calls.required[0].input", "unknown operator $regex")
	add("calls.exactly without a tool", edit(t, "      - tool: prepare\n  requests", "      - {input: {a: 1}}\n  requests"),
		"expect.calls.exactly[0].tool: missing")
	add("calls none and exactly together", edit(t, "  calls:\n    exactly:", "  calls:\n    none: true\n    exactly:"), "expect.calls", "none contradicts")

	noHuman := edit(t, "human:\n  - click: \"#submit\"\n  - wait_request: POST /api/x\n", "")
	add("state and ui for the person without human steps", noHuman, "expect.state.human", "expect.ui.human", "no human steps")

	add("a known code that does not exist", edit(t, "known: {outcome: PASS}", "known: {outcome: FAIL, codes: [wrong_code]}"), "known.codes", `"wrong_code"`)
	add("a bad known outcome", edit(t, "known: {outcome: PASS}", "known: {outcome: OK}"), "known.outcome", `"OK"`)
	add("a departure that is no link", edit(t, "known: {outcome: PASS}", "known: {outcome: FAIL, codes: [ui_mismatch], departs: network}"), "known.departs", `"network"`)
	add("a PASS that departs", edit(t, "known: {outcome: PASS}", "known: {outcome: PASS, departs: page}"), "known.departs", "only a FAIL")
	add("a known answer without an outcome", edit(t, "known: {outcome: PASS}", "known: {codes: [tool_error]}"), "known.outcome")

	// A call's result: one of output, output_text, output_contains; match
	// only with output, and only exact or subset.
	result := func(lines string) string {
		return edit(t, "        status: completed\n", "        status: completed\n"+lines)
	}
	s = result("        output: {ok: true}\n        match: loose\n")
	add("an unknown output match mode", s, "agent.calls[0].expect.match", `"loose"`, "exact or subset")
	add("contains as an output's match word", result("        output: [1]\n        match: contains\n"), "agent.calls[0].expect.match", `"contains"`, "exact or subset")
	add("match without an output", result("        output_text: hi\n        match: exact\n"), "agent.calls[0].expect.match", "there is no output")
	add("output_text together with output", result("        output: {ok: true}\n        output_text: ok\n"), "agent.calls[0].expect", "output and output_text")
	add("output_contains together with output_text", result("        output_text: Set size to Large.\n        output_contains: Large\n"), "agent.calls[0].expect", "output_text and output_contains")
	add("output_contains together with output", result("        output: Large\n        output_contains: Large\n"), "agent.calls[0].expect", "output and output_contains")
	add("an empty output_contains", result("        output_contains: \"\"\n"), "agent.calls[0].expect.output_contains", "says nothing")
	add("an output of a call that must fail", edit(t, "        status: completed\n", "        status: error\n        output: {ok: false}\n"), "agent.calls[0].expect", "status is error")
	add("output_text of a call that must not answer", edit(t, "        status: completed\n", "        status: no_response\n        output_text: hi\n"), "agent.calls[0].expect", "output_text", "no_response")
	s = result("        output: {n: .inf}\n")
	add("an output JSON cannot hold", s, "output", ".inf", lineOf(t, s, ".inf"))
	s = result("        output:\n          a: 1\n          a: 2\n")
	add("an output with a key twice", s, "output", `"a"`, lineOf(t, s, "a: 2"))
	s = result("        output:\n          {[a]: 1}\n")
	add("an output with a key that is not text", s, "output", "a key must be text")
	s = result("        outptu_text: hi\n")
	add("an unknown key next to the result keys", s, "outptu_text", lineOf(t, s, "outptu_text"))
	add("a bad match in a human call", edit(t, `  - click: "#submit"`, `  - call: {tool: prepare, expect: {output: [], match: every}}`), "human[0].call.expect.match", `"every"`)

	// catalog.schema_match: exact or subset (contains, its earlier
	// spelling, read as subset), for every tool or by tool,
	// and only next to schemas.
	catalog := func(lines string) string {
		return edit(t, "\nexpect:\n", "\nexpect:\n  catalog:\n"+lines)
	}
	schemas := "    schemas: {prepare: {type: object}}\n"
	add("an unknown schema match mode", catalog(schemas+"    schema_match: loose\n"), "expect.catalog.schema_match", `"loose"`, "exact or subset")
	add("constraints for a schema", catalog(schemas+"    schema_match: constraints\n"), "expect.catalog.schema_match", `"constraints"`, "a schema is exact or subset")
	add("a schema match mode by tool", catalog(schemas+"    schema_match: {prepare: most}\n"), "expect.catalog.schema_match.prepare", `"most"`)
	add("a schema match for a tool without a schema", catalog(schemas+"    schema_match: {register: contains}\n"), "expect.catalog.schema_match.register", "no schema")
	add("a schema match without schemas", catalog("    schema_match: contains\n"), "expect.catalog.schema_match", "no schemas")
	add("an empty schema match mapping", catalog(schemas+"    schema_match: {}\n"), "expect.catalog.schema_match", "says nothing")
	s = catalog(schemas + "    schema_match: [contains]\n")
	add("a schema match that is a list", s, "schema_match", lineOf(t, s, "schema_match"))
	add("a schema JSON cannot hold", catalog("    schemas: {prepare: {maximum: .inf}}\n"), "expect.catalog.schemas.prepare", "not a JSON value")

	add("an empty file", "", "the file is empty")
	add("not a mapping", "- a\n- b\n", ":1:1:", "a scenario is a mapping")

	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			_, err := Parse(badName, []byte(r.yaml))
			if err == nil {
				t.Fatalf("it loaded:\n%s", r.yaml)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, badName+":") {
				t.Errorf("the error does not start with the file name: %v", msg)
			}
			for _, w := range r.want {
				if !strings.Contains(msg, w) {
					t.Errorf("the error lacks %q: %v", w, msg)
				}
			}
		})
	}
}

// All the problems of a file are reported at once, in the same order every
// time.
func TestValidationErrorsAreCompleteAndStable(t *testing.T) {
	y := edit(t,
		"id: T-01", "id: T 01",
		"prompt_data: {email: reader@example.com}", "prompt_data: {email: a@x, name: Bob, city: Paris, topic: go}",
		"writes: {agent: 0}", "writes: {all: 0, both: 1, some: 2}",
		"phase: human, count: 1", "phase: person, count: 1")
	_, err := Parse(badName, []byte(y))
	if err == nil {
		t.Fatal("it loaded")
	}
	first := err.Error()
	for _, w := range []string{"id:", "prompt_data.city", "prompt_data.email", "prompt_data.name", "prompt_data.topic",
		"expect.writes.all", "expect.writes.both", "expect.writes.some", "expect.requests[0].phase"} {
		if !strings.Contains(first, w) {
			t.Errorf("the error lacks %q: %v", w, first)
		}
	}
	if i, j := strings.Index(first, "prompt_data.city"), strings.Index(first, "prompt_data.topic"); i > j {
		t.Errorf("prompt_data errors are not in key order: %v", first)
	}
	for range 30 {
		if _, err := Parse(badName, []byte(y)); err.Error() != first {
			t.Fatalf("two parses, two errors:\n%s\n---\n%s", first, err)
		}
	}
}

func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadDirRefusesADuplicateID(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.yaml", baseYAML)
	b := writeFile(t, dir, "b.yaml", edit(t, "title: a test scenario", "title: another title"))
	writeFile(t, dir, "c.yaml", edit(t, "id: T-01", "id: T-02"))
	scs, err := LoadDir(dir)
	if err == nil {
		t.Fatal("two files with the same id loaded")
	}
	for _, w := range []string{a, b, `"T-01"`} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the error lacks %q: %v", w, err)
		}
	}
	if len(scs) != 2 || scs[0].ID != "T-01" || scs[1].ID != "T-02" {
		t.Errorf("the other scenarios are not kept, sorted: %v", scs)
	}
}

func TestLoadDirNamesTheBadFile(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "good.yaml", baseYAML)
	bad := writeFile(t, dir, "bad.yaml", edit(t, "id: T-01\n", "id: T-09\nbogus: 1\n"))
	_, err := LoadDir(dir)
	if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "bogus") {
		t.Errorf("want an error naming %s and bogus, got %v", bad, err)
	}
}

func TestLoadDirOfNoScenariosIsAnError(t *testing.T) {
	dir := t.TempDir()
	if _, err := LoadDir(dir); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("an empty dir: %v", err)
	}
	writeFile(t, dir, "notes.txt", "not a scenario")
	if _, err := LoadDir(dir); err == nil {
		t.Error("a dir without scenario files loaded")
	}
	if _, err := LoadDir(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing dir loaded")
	}
}

// Users keep scenarios in folders of their own: every *.yaml and *.yml below
// the folder is read.
func TestLoadDirReadsFoldersBelowAndBothExtensions(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a.yaml", baseYAML)
	if err := os.MkdirAll(filepath.Join(dir, "checkout", "deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "checkout"), "b.yml", edit(t, "id: T-01\n", "id: T-02\n"))
	writeFile(t, filepath.Join(dir, "checkout", "deep"), "c.yaml", edit(t, "id: T-01\n", "id: T-03\n"))
	scs, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, sc := range scs {
		ids = append(ids, sc.ID)
	}
	if strings.Join(ids, ",") != "T-01,T-02,T-03" {
		t.Errorf("loaded %v, want T-01, T-02 and T-03", ids)
	}
}

func TestEveryCaseFileLoads(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("cases", "*.yaml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no case files: %v", err)
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			sc, err := Load(p)
			if err != nil {
				t.Fatal(err)
			}
			if sc.File != p || sc.Family == "" || !strings.HasPrefix(sc.ID, sc.Family) {
				t.Errorf("file %q, id %q, family %q", sc.File, sc.ID, sc.Family)
			}
			if err := sc.Validate(); err != nil {
				t.Errorf("a loaded scenario does not validate again: %v", err)
			}
		})
	}
}

// A value the prompt gives is found in any case; a value it gives in other
// words is declared with those words, which must be there.
func TestPromptDataInAnyCaseOrInTheWordsItComesFrom(t *testing.T) {
	base := baseYAML
	for _, tt := range []struct {
		name, data, wantErr string
	}{
		{"another case", "prompt_data: {email: READER@example.com}", ""},
		{"in other words", `prompt_data: {email: {value: reader@example.com, from: "READER@EXAMPLE.COM"}}`, ""},
		{"other words the prompt lacks", `prompt_data: {range: {value: last_30_days, from: "the last 30 days"}}`, "prompt_data.range.from"},
		{"a value with no words, absent", "prompt_data: {range: last_30_days}", "prompt_data.range"},
		{"no value", `prompt_data: {range: {from: "reader"}}`, "prompt_data.range: missing value"},
	} {
		src := strings.Replace(base, "prompt_data: {email: reader@example.com}", tt.data, 1)
		_, err := Parse("case.yaml", []byte(src))
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: error %v, want one naming %s", tt.name, err, tt.wantErr)
		}
	}
}

// A file that does not load still names the labels it would have carried,
// so that a run filtered to it meets the error.
func TestLoadDirErrorsCarryTheLabelsOfTheBrokenFile(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "good.yaml", baseYAML)
	writeFile(t, dir, "CONF-09.attempt-2.yaml", edit(t, "id: T-01\n", "id: CONF-09.attempt-2\narea: checkout\nbogus: 1\n"))
	_, err := LoadDir(dir)
	files := FileErrors(err)
	if len(files) != 1 {
		t.Fatalf("%d file errors from %v", len(files), err)
	}
	if got := strings.Join(files[0].Labels, ","); got != "CONF-09.attempt-2,CONF-09,checkout" {
		t.Errorf("labels %s", got)
	}
	if !strings.Contains(files[0].Error(), "bogus") || !strings.Contains(files[0].Error(), "CONF-09.attempt-2.yaml") {
		t.Errorf("error %v does not name the file and the key", files[0])
	}
}

// Every shape of output loads, and each way of asserting a result.
func TestResultsOfEveryShapeLoad(t *testing.T) {
	for _, tt := range []struct {
		lines string
		check func(x *CallExpect) bool
	}{
		{"        output: {ok: true}\n", func(x *CallExpect) bool { return x.Output["ok"] == true && x.OutputJSON == nil }},
		{"        output: {}\n", func(x *CallExpect) bool { return x.Output != nil && len(x.Output) == 0 }},
		{"        output: [{field: email}]\n        match: exact\n", func(x *CallExpect) bool {
			return string(x.OutputJSON) == `[{"field":"email"}]` && x.Match == MatchExact
		}},
		{"        output: []\n", func(x *CallExpect) bool { return string(x.OutputJSON) == `[]` }},
		{"        output: Set pizza size to Large.\n", func(x *CallExpect) bool { return string(x.OutputJSON) == `"Set pizza size to Large."` }},
		{"        output: \"3\"\n", func(x *CallExpect) bool { return string(x.OutputJSON) == `"3"` }},
		{"        output: 3\n", func(x *CallExpect) bool { return string(x.OutputJSON) == `3` }},
		{"        output: 0x10\n", func(x *CallExpect) bool { return string(x.OutputJSON) == `16` }},
		{"        output: 2.5\n", func(x *CallExpect) bool { return string(x.OutputJSON) == `2.5` }},
		{"        output: false\n", func(x *CallExpect) bool { return string(x.OutputJSON) == `false` }},
		{"        output: null\n", func(x *CallExpect) bool { return string(x.OutputJSON) == `null` }},
		{"        output: {pickup: 2027-06-01, at: 2027-06-01T09:00:00Z}\n", func(x *CallExpect) bool {
			return x.Output["pickup"] == "2027-06-01" && x.Output["at"] == "2027-06-01T09:00:00Z"
		}},
		{"        output: {1: one, yes: true}\n", func(x *CallExpect) bool { return x.Output["1"] == "one" && x.Output["yes"] == true }},
		{"        output_text: Set pizza size to Large.\n", func(x *CallExpect) bool { return *x.OutputText == "Set pizza size to Large." }},
		{"        output_text: \"\"\n", func(x *CallExpect) bool { return x.OutputText != nil && *x.OutputText == "" }},
		{"        output_contains: Large\n", func(x *CallExpect) bool { return *x.OutputContains == "Large" }},
	} {
		y := edit(t, "        status: completed\n", "        status: completed\n"+tt.lines)
		sc, err := Parse(badName, []byte(y))
		if err != nil {
			t.Errorf("%s: %v", strings.TrimSpace(tt.lines), err)
			continue
		}
		if x := sc.Agent.Calls[0].Expect; !tt.check(x) {
			t.Errorf("%s: loaded as %+v (OutputJSON %s)", strings.TrimSpace(tt.lines), x, x.OutputJSON)
		}
		j, yy := roundTrips(t, sc)
		for name, back := range map[string]Scenario{"JSON": j, "YAML": yy} {
			x, bx := sc.Agent.Calls[0].Expect, back.Agent.Calls[0].Expect
			want, ok := x.WantOutput()
			got, bok := bx.WantOutput()
			if ok != bok || !record.JSONEqual(want, got) || (x.Output == nil) != (bx.Output == nil) || x.Match != bx.Match ||
				!reflect.DeepEqual(x.OutputText, bx.OutputText) || !reflect.DeepEqual(x.OutputContains, bx.OutputContains) {
				t.Errorf("%s after %s: %+v, was %+v", strings.TrimSpace(tt.lines), name, bx, x)
			}
		}
	}
}

func TestSchemaMatchLoadsAsOneWordOrByTool(t *testing.T) {
	for _, tt := range []struct {
		line string
		want map[string]Match
	}{
		{"", map[string]Match{"prepare": MatchExact, "register": MatchExact}},
		{"    schema_match: subset\n", map[string]Match{"prepare": MatchSubset, "register": MatchSubset}},
		// contains, the earlier spelling, is read as subset: one word for one relation.
		{"    schema_match: contains\n", map[string]Match{"prepare": MatchSubset, "register": MatchSubset}},
		{"    schema_match: exact\n", map[string]Match{"prepare": MatchExact, "register": MatchExact}},
		{"    schema_match: {register: subset}\n", map[string]Match{"prepare": MatchExact, "register": MatchSubset}},
		{"    schema_match: {register: contains}\n", map[string]Match{"prepare": MatchExact, "register": MatchSubset}},
	} {
		y := edit(t, "\nexpect:\n", "\nexpect:\n  catalog:\n    schemas: {prepare: {type: object}, register: {type: object}}\n"+tt.line)
		sc, err := Parse(badName, []byte(y))
		if err != nil {
			t.Errorf("%q: %v", tt.line, err)
			continue
		}
		j, yy := roundTrips(t, sc)
		for name, back := range map[string]Scenario{"loaded": sc, "JSON": j, "YAML": yy} {
			for tool, want := range tt.want {
				if got := back.Expect.Catalog.SchemaMatch.For(tool); got != want {
					t.Errorf("%q, %s: %s is compared %s, want %s", tt.line, name, tool, got, want)
				}
			}
			if back.Expect.Catalog.SchemaMatch.IsZero() != (tt.line == "") {
				t.Errorf("%q, %s: IsZero %v", tt.line, name, back.Expect.Catalog.SchemaMatch.IsZero())
			}
		}
	}
}

// A page may open a window or a dialog as the person leaves it (a
// beforeunload prompt, a window.open on pagehide): the run records those in
// the leave phase, so an expectation may name it, in the loader as in the
// schema an editor reads.
func TestPopupsAndDialogsMayNameTheLeavePhase(t *testing.T) {
	s := edit(t, "  guarded: [POST /api/x]\n", "  guarded: [POST /api/x]\n  popups: {forbid: [{phase: leave}]}\n  dialogs: {require: [{kind: beforeunload, phase: leave}]}\n")
	sc, err := Parse(badName, []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	if got := sc.Expect.Popups.Forbid[0].Phase + " " + sc.Expect.Dialogs.Require[0].Phase; got != "leave leave" {
		t.Errorf("phases read: %q", got)
	}
	path := filepath.Join(t.TempDir(), "leave.yaml")
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := asAnEditorReadsIt(t, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := editorSchema(t).Validate(v); err != nil {
		t.Errorf("the schema refuses a leave phase the loader takes: %v", err)
	}
}
