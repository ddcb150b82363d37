package scenarios

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/agentready/agentready/match"
	"github.com/agentready/agentready/record"
	"github.com/agentready/agentready/vocab"
	"github.com/theory/jsonpath"
)

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

var probeName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// Validate checks what the YAML types cannot: required fields, one action
// per step, known phases, and expectations that name only tools the
// transcript uses.
func (sc Scenario) Validate() error {
	var p problems
	sc.validateHeader(&p)
	sc.validatePersonal(&p)
	p.steps("setup", sc.Setup)
	p.steps("human", sc.Human)
	for i, c := range sc.Agent.Calls {
		checkCall(fmt.Sprintf("agent.calls[%d]", i), c, p.bad)
	}
	sc.validateCalls(&p)
	sc.validateCatalog(&p)
	sc.validateRequests(&p)
	sc.validateSnapshots(&p)
	sc.validateContent(&p)
	sc.validateKnown(&p)
	return errors.Join(p.errs...)
}

// problems collects every problem of a file, so that one load names them all.
type problems struct{ errs []error }

func (p *problems) bad(format string, args ...any) {
	p.errs = append(p.errs, fmt.Errorf(format, args...))
}

func (p *problems) steps(key string, steps []Step) {
	for i, s := range steps {
		if k := s.Kinds(); len(k) != 1 {
			p.bad("%s[%d]: a step does exactly one of call, click, fill, navigate, request, wait_for, wait_request, wait_tool (has %v)", key, i, k)
		}
		if s.Call != nil {
			checkCall(fmt.Sprintf("%s[%d].call", key, i), *s.Call, p.bad)
		}
		if r := s.Request; r != nil {
			switch {
			case r.Method == "" || !strings.HasPrefix(r.Path, "/"):
				p.bad("%s[%d].request: needs a method and a path that starts with /", key, i)
			case r.Expect.Status < 100 || r.Expect.Status > 599:
				p.bad("%s[%d].request.expect.status: %d is not an HTTP status", key, i, r.Expect.Status)
			case r.CSRF != nil && (r.CSRF.Meta == "" || r.CSRF.Header == ""):
				p.bad("%s[%d].request.csrf: needs meta and header (or true)", key, i)
			}
		}
		if s.WaitRequest != "" {
			if _, _, ok := record.SplitRequest(s.WaitRequest); !ok {
				p.bad("%s[%d].wait_request: %q is not \"METHOD /path\"", key, i, s.WaitRequest)
			}
		}
	}
}

func (sc Scenario) validateHeader(p *problems) {
	switch {
	case sc.ID == "":
		p.bad("id: missing")
	case !idPattern.MatchString(sc.ID):
		p.bad("id: %q may hold only letters, digits, '.', '_' and '-'", sc.ID)
	}
	if sc.Title == "" {
		p.bad("title: missing")
	}
	if sc.Area != "" && !idPattern.MatchString(sc.Area) {
		p.bad("area: %q may hold only letters, digits, '.', '_' and '-'", sc.Area)
	}
	if !strings.HasPrefix(sc.Start, "/") {
		p.bad("start: %q must be a path that starts with /", sc.Start)
	}
	if sc.Prompt == "" {
		p.bad("prompt: missing")
	}
	for _, k := range keys(sc.PromptData) {
		v := sc.PromptData[k]
		switch {
		case v.Value == "":
			p.bad("prompt_data.%s: missing value", k)
		case v.From != "" && !containsFold(sc.Prompt, v.From):
			p.bad("prompt_data.%s.from: %q does not appear in the prompt", k, v.From)
		case v.From == "" && !containsFold(sc.Prompt, v.Value):
			p.bad("prompt_data.%s: %q does not appear in the prompt (give the prompt's own words with from:)", k, v.Value)
		}
	}
}

func (sc Scenario) validateCalls(p *problems) {
	e := sc.Expect
	if e.Case != nil && e.Case.Tool == "" {
		p.bad("expect.case.tool: missing")
	}
	if e.Calls == nil {
		return
	}
	// A call the transcript never makes is what missing_tool_call is for;
	// a call to a tool no page offers (by the catalog expectation, the
	// tools a call brings, or the transcript) cannot be met at all.
	offered := func(tool string) bool {
		if e.Catalog == nil || e.Catalog.Exactly == nil || slices.Contains(e.Catalog.Exactly, tool) {
			return true
		}
		for _, c := range sc.Agent.Calls {
			if c.Tool == tool || c.Expect != nil && c.Expect.CatalogAfter != nil && slices.Contains(c.Expect.CatalogAfter.Present, tool) {
				return true
			}
		}
		return false
	}
	for i, c := range e.Calls.Exactly {
		if err := record.CheckConstraints(c.Input); c.Input != nil && err != nil {
			p.bad("expect.calls.exactly[%d].input: %v", i, err)
		}
		if c.Tool == "" {
			p.bad("expect.calls.exactly[%d].tool: missing", i)
		} else if !offered(c.Tool) {
			p.bad("expect.calls.exactly[%d].tool: %q is not a tool the page offers (expect.catalog.exactly)", i, c.Tool)
		}
	}
	var checkNodes func(key string, nodes []CallNode)
	checkNodes = func(key string, nodes []CallNode) {
		for i, n := range nodes {
			k := fmt.Sprintf("%s[%d]", key, i)
			set := 0
			for _, b := range []bool{n.Tool != "", n.Ordered != nil, n.Unordered != nil} {
				if b {
					set++
				}
			}
			switch {
			case set != 1:
				p.bad("%s: a required call names a tool, or is {ordered: [...]} or {unordered: [...]}", k)
			case n.Tool != "" && !offered(n.Tool):
				p.bad("%s.tool: %q is not a tool the page offers (expect.catalog.exactly)", k, n.Tool)
			case n.Tool == "" && (n.Input != nil || n.Optional):
				p.bad("%s: input and optional belong to a call, not to a group", k)
			}
			if err := record.CheckConstraints(n.Input); n.Input != nil && err != nil {
				p.bad("%s.input: %v", k, err)
			}
			checkNodes(k+".ordered", n.Ordered)
			checkNodes(k+".unordered", n.Unordered)
		}
	}
	checkNodes("expect.calls.required", e.Calls.Required)
	if e.Calls.None && (len(e.Calls.Exactly) > 0 || len(e.Calls.Required) > 0) {
		p.bad("expect.calls: none contradicts exactly and required")
	}
}

func (sc Scenario) validateRequests(p *problems) {
	e := sc.Expect
	for i, r := range e.Requests {
		if r.Method == "" || !strings.HasPrefix(r.Path, "/") {
			p.bad("expect.requests[%d]: needs a method and a path that starts with /", i)
		}
		if !r.Phase.Counted() {
			p.bad("expect.requests[%d].phase: %q is not agent, human or all", i, r.Phase)
		}
	}
	for i, g := range e.Guarded {
		if _, _, ok := record.SplitRequest(g); !ok {
			p.bad("expect.guarded[%d]: %q is not \"METHOD /path\"", i, g)
		}
	}
	for _, phase := range keys(e.Writes) {
		if !phase.Judged() {
			p.bad("expect.writes.%s: phase must be agent or human", phase)
		}
	}
}

// validateSnapshots checks the expectations of what is true after a phase:
// the app's state and the page.
func (sc Scenario) validateSnapshots(p *problems) {
	e := sc.Expect
	for _, name := range keys(sc.Probes) {
		if !probeName.MatchString(name) || name == record.ObserverSource {
			p.bad("probes.%s: a probe's name is a word of letters, digits and _, and not %q", name, record.ObserverSource)
		}
		if m, path, ok := record.SplitRequest(sc.Probes[name]); !ok || m != "GET" {
			p.bad("probes.%s: %q is not \"GET /path\" (a probe only reads)", name, sc.Probes[name])
		} else if strings.Contains(path, "#") {
			p.bad("probes.%s: %q has a fragment", name, path)
		}
	}
	for _, phase := range keys(e.State) {
		if !phase.Judged() {
			p.bad("expect.state.%s: phase must be agent or human", phase)
		}
		w := e.State[phase]
		for _, q := range keys(w.Equals) {
			if err := record.CheckConstraints(w.Equals[q]); err != nil {
				p.bad("expect.state.%s.equals %s: %v", phase, q, err)
			}
		}
		for _, q := range append(keys(w.Equals), keys(w.Changes)...) {
			if _, err := jsonpath.Parse(q); err != nil {
				p.bad("expect.state.%s: %q is not a JSONPath query (RFC 9535): %v", phase, q, err)
			}
		}
		if !w.Unchanged && len(w.Equals) == 0 && len(w.Changes) == 0 {
			p.bad("expect.state.%s: says nothing (unchanged, equals, changes)", phase)
		}
	}
	for _, phase := range keys(e.UI) {
		if !phase.Judged() {
			p.bad("expect.ui.%s: phase must be agent or human", phase)
		}
		frameOf := map[string]string{} // selector → the frame it was first named in
		for i, u := range e.UI[phase] {
			if u.Selector == "" {
				p.bad("expect.ui.%s[%d].selector: missing", phase, i)
			}
			if u.Frame != "" {
				if _, err := record.ParseFrame(u.Frame); err != nil {
					p.bad("expect.ui.%s[%d].frame: %v", phase, i, err)
				}
			}
			if f, ok := frameOf[u.Selector]; ok && f != u.Frame {
				// The judge tells recorded elements apart by selector.
				p.bad("expect.ui.%s[%d]: selector %q is named in two frames (%s and %s) in one phase: make the selectors differ", phase, i, u.Selector, frameName(f), frameName(u.Frame))
			} else if !ok {
				frameOf[u.Selector] = u.Frame
			}
			if !u.SaysSomething() {
				p.bad("expect.ui.%s[%d]: says nothing about %s (present, visible, enabled, value, text_contains, text, count, checked, attributes, tool_form_active, tool_submit_active)", phase, i, u.Selector)
			}
			if err := record.CheckConstraints(u.Count); u.Count != nil && err != nil {
				p.bad("expect.ui.%s[%d].count: %v", phase, i, err)
			}
			if err := record.CheckConstraints(u.Text); u.Text != nil && err != nil {
				p.bad("expect.ui.%s[%d].text: %v", phase, i, err)
			}
			for _, name := range keys(u.Attributes) {
				if err := record.CheckConstraints(u.Attributes[name]); err != nil {
					p.bad("expect.ui.%s[%d].attributes.%s: %v", phase, i, name, err)
				}
			}
		}
	}
	for _, phase := range keys(e.Page) {
		pe := e.Page[phase]
		if !phase.Judged() {
			p.bad("expect.page.%s: phase must be agent or human", phase)
		}
		if pe.URL == nil && pe.Path == nil {
			p.bad("expect.page.%s: says nothing (url, path)", phase)
		}
		if err := record.CheckConstraints(pe.URL); pe.URL != nil && err != nil {
			p.bad("expect.page.%s.url: %v", phase, err)
		}
		if err := record.CheckConstraints(pe.Path); pe.Path != nil && err != nil {
			p.bad("expect.page.%s.path: %v", phase, err)
		}
	}
	if len(sc.Human) == 0 {
		if _, ok := e.State[vocab.PhaseHuman]; ok {
			p.bad("expect.state.human: the scenario has no human steps")
		}
		if _, ok := e.UI[vocab.PhaseHuman]; ok {
			p.bad("expect.ui.human: the scenario has no human steps")
		}
		if _, ok := e.Page[vocab.PhaseHuman]; ok {
			p.bad("expect.page.human: the scenario has no human steps")
		}
	}
}

// validateContent checks the expectations of what requests carried:
// content (a body, or the resource the bodies make) and submitted (what
// the person had before them at a click).
func (sc Scenario) validateContent(p *problems) {
	e := sc.Expect
	for i, c := range e.Content {
		key := fmt.Sprintf("expect.content[%d]", i)
		if _, _, ok := record.SplitRequest(c.Request); !ok {
			p.bad("%s.request: %q is not \"METHOD /path\"", key, c.Request)
		}
		switch {
		case c.Phase != "" && !c.Phase.Counted():
			p.bad("%s.phase: %q is not agent, human or all", key, c.Phase)
		case c.Phase == vocab.PhaseHuman && len(sc.Human) == 0:
			p.bad("%s.phase: human, and the scenario has no human steps", key)
		}
		if (c.Body == nil) == (c.Resource == nil) {
			p.bad("%s: give exactly one of body (what each request carried) and resource (what the requests make of it)", key)
		}
		if c.Body != nil {
			checkDocument(key+".body", c.Body, p.bad)
		}
		if r := c.Resource; r != nil {
			if r.Before == "" {
				p.bad("%s.resource.before: missing (a JSONPath query of the state before the phase, such as $.config)", key)
			} else if _, err := jsonpath.Parse(r.Before); err != nil {
				p.bad("%s.resource.before: %q is not a JSONPath query (RFC 9535): %v", key, r.Before, err)
			}
			if !r.Merge.Valid() {
				p.bad("%s.resource.merge: %q is not merge-patch, json-patch or replace", key, r.Merge)
			}
			if r.Equals == nil {
				p.bad("%s.resource.equals: missing (the whole resource as it must be)", key)
			} else {
				checkDocument(key+".resource.equals", r.Equals, p.bad)
			}
		}
	}
	var clicks []string
	for _, s := range sc.Human {
		if s.Click != "" {
			clicks = append(clicks, s.Click)
		}
	}
	for i, s := range e.Submitted {
		key := fmt.Sprintf("expect.submitted[%d]", i)
		if _, _, ok := record.SplitRequest(s.Request); !ok {
			p.bad("%s.request: %q is not \"METHOD /path\"", key, s.Request)
		}
		switch {
		case len(clicks) == 0:
			p.bad("%s: the scenario has no human click step, so nothing the person reviewed is recorded", key)
		case s.Click != "" && !slices.Contains(clicks, s.Click):
			p.bad("%s.click: %q is not the selector of a human click step (%s)", key, s.Click, strings.Join(clicks, ", "))
		}
		for _, ptr := range keys(s.Fields) {
			if err := checkPlace(ptr); err != nil {
				p.bad("%s.fields: %v", key, err)
			}
			if strings.TrimSpace(s.Fields[ptr]) == "" {
				p.bad("%s.fields %s: the selector is empty", key, ptr)
			}
		}
		for k, ptr := range s.Ignore {
			if err := checkPlace(ptr); err != nil {
				p.bad("%s.ignore[%d]: %v", key, k, err)
				continue
			}
			tokens, _ := record.SplitPointer(ptr)
			for _, t := range tokens {
				if _, err := path.Match(t, ""); err != nil {
					p.bad("%s.ignore[%d]: %q is not a pattern (path.Match): %v", key, k, t, err)
				}
			}
		}
	}
}

// checkPlace refuses what is not a JSON pointer to a place inside a body
// ("" is the whole body, which names no one place).
func checkPlace(ptr string) error {
	if ptr == "" {
		return fmt.Errorf(`"" is the whole body: name a place in it, such as /title`)
	}
	_, err := record.SplitPointer(ptr)
	return err
}

// checkDocument refuses an expected document JSON cannot hold, or one
// with a constraint that is not one.
func checkDocument(key string, v any, bad func(string, ...any)) {
	if _, err := json.Marshal(v); err != nil {
		bad("%s: not a JSON value: %v", key, err)
	} else if err := record.CheckConstraints(v); err != nil {
		bad("%s: %v", key, err)
	}
}

func frameName(f string) string {
	if f == "" {
		return "the top document"
	}
	return fmt.Sprintf("frame %q", f)
}

func (sc Scenario) validateKnown(p *problems) {
	if sc.Known == nil {
		return
	}
	if !sc.Known.Outcome.Valid() {
		p.bad("known.outcome: %q is not PASS, FAIL or INCONCLUSIVE", sc.Known.Outcome)
	}
	for _, c := range sc.Known.Codes {
		if !c.Known() {
			p.bad("known.codes: %q is not a failure code (see scenarios/README.md)", c)
		}
	}
	if d := sc.Known.Departs; d != "" {
		if d.Index() < 0 {
			p.bad("known.departs: %q is not a link of the chain (see scenarios/README.md)", d)
		} else if sc.Known.Outcome != vocab.Fail {
			p.bad("known.departs: only a FAIL departs somewhere; outcome is %s", sc.Known.Outcome)
		}
	}
}

func checkCall(key string, c Call, bad func(string, ...any)) {
	if c.Tool == "" {
		bad("%s.tool: missing", key)
	}
	if !c.Transport.Valid() {
		bad("%s.transport: %q is not page or cdp", key, c.Transport)
	}
	if c.Expect != nil && !c.Expect.Status.Valid() {
		bad("%s.expect.status: %q is not completed, error, canceled or no_response", key, c.Expect.Status)
	}
	if c.Expect != nil {
		checkResult(key+".expect", c.Expect, bad)
	}
}

// checkResult refuses expectations of a call's result that cannot all hold
// or say nothing: two ways of saying what the result is, a match mode
// without an output, an output of a call that must not complete.
func checkResult(key string, x *CallExpect, bad func(string, ...any)) {
	said := x.ResultKeys()
	if len(said) > 1 {
		bad("%s: %s each say what the result is: give one (output compares a JSON value, output_text the whole text, output_contains a part of it)", key, strings.Join(said, " and "))
	}
	if x.Output != nil && x.OutputJSON != nil {
		bad("%s.output: set both as an object (Output) and as another value (OutputJSON)", key)
	}
	if want, ok := x.WantOutput(); ok {
		if _, err := json.Marshal(want); err != nil {
			bad("%s.output: not a JSON value: %v", key, err)
		} else if err := record.CheckConstraints(want); err != nil {
			bad("%s.output: %v", key, err)
		}
	}
	switch x.Match {
	case "", MatchExact, MatchSubset:
	case MatchConstraints:
		if want, ok := x.WantOutput(); ok {
			if err := match.Check(want); err != nil {
				bad("%s.output: %v", key, err)
			}
		}
	case MatchContains:
		bad("%s.match: %q is a schema's word; an output is exact, subset or constraints", key, x.Match)
	default:
		bad("%s.match: %q is not exact or subset (or constraints, to match as webmcp-evals does)", key, x.Match)
	}
	if _, ok := x.WantOutput(); x.Match != "" && !ok {
		bad("%s.match: says how output is compared, and there is no output", key)
	}
	if x.OutputContains != nil && *x.OutputContains == "" {
		bad("%s.output_contains: empty, so it says nothing (to expect an empty text, write output_text: \"\")", key)
	}
	if len(said) > 0 && x.Status != "" && x.Status != vocab.Completed {
		bad("%s: %s is about the result of a completed call, and status is %s", key, said[0], x.Status)
	}
}

// validateCatalog checks the catalog expectation's schemas and how they are
// compared.
func (sc Scenario) validateCatalog(p *problems) {
	c := sc.Expect.Catalog
	if c == nil {
		return
	}
	for _, name := range keys(c.Schemas) {
		if _, err := json.Marshal(c.Schemas[name]); err != nil {
			p.bad("expect.catalog.schemas.%s: not a JSON value: %v", name, err)
		}
	}
	m := c.SchemaMatch
	if m.IsZero() {
		return
	}
	if len(c.Schemas) == 0 {
		p.bad("expect.catalog.schema_match: says how schemas are compared, and there are no schemas")
	}
	mode := func(key string, v Match) {
		switch v {
		case MatchExact, MatchContains:
		case MatchSubset, MatchConstraints:
			p.bad("%s: %q is an output's word; a schema is exact or contains", key, v)
		default:
			p.bad("%s: %q is not exact or contains", key, v)
		}
	}
	switch {
	case m.ByTool == nil:
		mode("expect.catalog.schema_match", m.All)
	case len(m.ByTool) == 0:
		p.bad("expect.catalog.schema_match: an empty mapping says nothing")
	}
	for _, tool := range keys(m.ByTool) {
		mode("expect.catalog.schema_match."+tool, m.ByTool[tool])
		if _, ok := c.Schemas[tool]; !ok {
			p.bad("expect.catalog.schema_match.%s: %s has no schema in expect.catalog.schemas", tool, tool)
		}
	}
}

// keys answers a map's keys in order.
func keys[K ~string, V any](m map[K]V) []K { return slices.Sorted(maps.Keys(m)) }
