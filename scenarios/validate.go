package scenarios

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/agentready/agentready/internal/data/match"
	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios/vocab"
	"github.com/theory/jsonpath"
)

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

var probeName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// Validate checks what the schema cannot: meanings, such as a prompt that
// gives its data, one action per step, expectations that name only tools
// a page offers. A scenario read from a file is validated as it loads, at
// its lines; Validate is for one built in code, and names only the keys.
func (sc Scenario) Validate() error {
	var p problems
	sc.validate(&p)
	sc.checkToolNames(&p)
	if p.empty() {
		return nil
	}
	return p.placed(sc.File, nil)
}

func (sc Scenario) validate(p *problems) {
	sc.validateHeader(p)
	sc.validatePersonal(p)
	sc.SignIn.validate(pathOf("signin"), p)
	p.steps(pathOf("setup"), sc.Setup)
	p.steps(pathOf("human"), sc.Human)
	for i, c := range sc.Agent.Calls {
		checkCall(pathOf("agent", "calls", i), c, p)
	}
	sc.validateAnsweredIn(p)
	sc.validateCarried(p)
	sc.validateCalls(p)
	sc.validateCatalog(p)
	sc.validateRequests(p)
	sc.validateReplays(p)
	sc.validateSnapshots(p)
	sc.validateContent(p)
	sc.validateKnown(p)
	sc.validateDialogs(p)
	sc.validateAttack(p)
	sc.validateDialogue(p)
	checkEmbedder(sc.Expect.Embedder, p)
	sc.validatePopups(p)
	sc.validateReach(p)
	sc.validateVary(p)
}

func (p *problems) steps(key keyPath, steps []Step) {
	for i, s := range steps {
		at := key.index(i)
		if k := s.Kinds(); len(k) != 1 {
			p.bad(at, "a step does exactly one of %s (has %v)", strings.Join(stepKinds, ", "), k)
		}
		if s.Call != nil {
			checkCall(at.key("call"), *s.Call, p)
			if x := s.Call.Expect; x != nil && x.AnsweredIn != "" {
				p.bad(at.key("call").key("expect").key("answered_in"), "only an agent's call (agent.calls) is left pending for the person's steps")
			}
		}
		if r := s.Request; r != nil {
			switch {
			case r.Method == "" || !strings.HasPrefix(r.Path, "/"):
				p.bad(at.key("send").key("request"), "needs a method and a path that starts with /: \"METHOD /path\"")
			case r.Expect.Status < 100 || r.Expect.Status > 599:
				p.bad(at.key("send").key("expect").key("status"), "%d is not an HTTP status", r.Expect.Status)
			case r.CSRF != nil && r.CSRF.Header == "":
				p.bad(at.key("send").key("csrf"), "needs the header the token is sent in (or true: meta csrf-token, header X-CSRF-Token)")
			case r.CSRF != nil && csrfSources(r.CSRF) != 1:
				p.bad(at.key("send").key("csrf"), "says where the token is with exactly one of meta (a <meta> element's name), cookie (a cookie's name) or from ({request, path}: a read that answers it)")
			case r.CSRF != nil && r.CSRF.From != nil && !validPath(r.CSRF.From.Path):
				p.bad(at.key("send").key("csrf").key("from").key("path"), "%q is not an RFC 9535 JSONPath ($.csrfToken)", r.CSRF.From.Path)
			case r.CSRF != nil && r.CSRF.From != nil && !validLine(r.CSRF.From.Request):
				p.bad(at.key("send").key("csrf").key("from").key("request"), "a request is \"METHOD /path\" (GET /api/session)")
			case r.Expect.CodeAt != "" && !validPath(r.Expect.CodeAt):
				p.bad(at.key("send").key("expect").key("code_at"), "%q is not an RFC 9535 JSONPath ($.error)", r.Expect.CodeAt)
			}
		}
		if s.WaitRequest != "" {
			if _, _, ok := s.WaitRequest.Split(); !ok {
				p.bad(at.key("wait_request"), "%q is not \"METHOD /path\"", s.WaitRequest)
			}
		}
		if in := s.InPopup; in != nil {
			if k := in.Kinds(); len(k) != 1 || !slices.Contains([]string{"click", "fill", "wait_for"}, k[0]) {
				p.bad(at.key("in_popup"), "does exactly one of click, fill, wait_for in the popup (has %v)", k)
			}
		}
	}
}

func (sc Scenario) validateHeader(p *problems) {
	switch {
	case sc.ID == "":
		p.bad(pathOf("id"), "missing: the scenario's unique id (letters, digits, '.', '_' and '-')")
	case !idPattern.MatchString(sc.ID):
		p.bad(pathOf("id"), "%q may hold only letters, digits, '.', '_' and '-'", sc.ID)
	}
	if sc.Title == "" {
		p.bad(pathOf("title"), "missing: what the scenario shows, in one line")
	}
	if sc.Area != "" && !idPattern.MatchString(sc.Area) {
		p.bad(pathOf("area"), "%q may hold only letters, digits, '.', '_' and '-'", sc.Area)
	}
	if !strings.HasPrefix(sc.Start, "/") {
		p.bad(pathOf("start"), "%q must be a path that starts with /", sc.Start)
	}
	if sc.Prompt == "" {
		p.bad(pathOf("prompt"), "missing: what the person asked, word for word")
	}
	for _, k := range keys(sc.PromptData) {
		v := sc.PromptData[k]
		at := pathOf("prompt_data", k)
		switch {
		case v.Value == "":
			p.bad(at, "missing value")
		case v.From != "" && !containsFold(sc.Prompt, v.From) && !sc.givenByReply(v.From):
			p.bad(at.key("from"), "%q does not appear in the prompt (nor in a reply of user:)", v.From)
		case v.From == "" && !containsFold(sc.Prompt, v.Value) && !sc.givenByReply(v.Value):
			p.bad(at, "%q does not appear in the prompt, nor in a reply of user: (give the prompt's own words with from:)", v.Value)
		}
	}
}

func (sc Scenario) validateCalls(p *problems) {
	e := sc.Expect
	if e.Case != nil && e.Case.Tool == "" {
		p.bad(pathOf("expect", "case", "tool"), "missing")
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
		at := pathOf("expect", "calls", "exactly", i)
		if err := record.CheckConstraints(c.Input); c.Input != nil && err != nil {
			p.bad(at.key("input"), "%v", err)
		}
		if c.Tool == "" {
			p.bad(at.key("tool"), "missing")
		} else if !offered(c.Tool) {
			p.bad(at.key("tool"), "%q is not a tool the page offers (expect.catalog.exactly)%s", c.Tool, suggestion(c.Tool, sc.pinnedTools(), ""))
		}
	}
	var checkNodes func(key keyPath, nodes []CallNode)
	checkNodes = func(key keyPath, nodes []CallNode) {
		for i, n := range nodes {
			k := key.index(i)
			set := 0
			for _, b := range []bool{n.Tool != "", n.Ordered != nil, n.Unordered != nil} {
				if b {
					set++
				}
			}
			switch {
			case set != 1:
				p.bad(k, "a required call names a tool, or is {ordered: [...]} or {unordered: [...]}")
			case n.Tool != "" && !offered(n.Tool):
				p.bad(k.key("tool"), "%q is not a tool the page offers (expect.catalog.exactly)%s", n.Tool, suggestion(n.Tool, sc.pinnedTools(), ""))
			case n.Tool == "" && (n.Input != nil || n.Optional):
				p.bad(k, "input and optional belong to a call, not to a group")
			}
			if err := record.CheckConstraints(n.Input); n.Input != nil && err != nil {
				p.bad(k.key("input"), "%v", err)
			}
			checkNodes(k.key("ordered"), n.Ordered)
			checkNodes(k.key("unordered"), n.Unordered)
		}
	}
	checkNodes(pathOf("expect", "calls", "required"), e.Calls.Required)
	if e.Calls.None && (len(e.Calls.Exactly) > 0 || len(e.Calls.Required) > 0) {
		p.bad(pathOf("expect", "calls"), "none contradicts exactly and required")
	}
}

func (sc Scenario) validateRequests(p *problems) {
	e := sc.Expect
	for i, r := range e.Requests {
		at := pathOf("expect", "requests", i)
		switch {
		case r.Method == "" || !strings.HasPrefix(r.Path, "/"):
			p.bad(at.key("request"), "needs a method and a path that starts with /: \"METHOD /path\"")
		case strings.ContainsAny(r.Path, " \t"):
			p.bad(at.key("request"), "%q has words after its path: write \"METHOD /path\" (a space in the path as %%20; a WebSocket message's pattern goes in message:)", r.Method+" "+r.Path)
		}
		switch _, err := regexp.Compile(r.Message); {
		case r.Message != "" && r.Method != record.SocketMessage:
			p.bad(at.key("message"), "is a pattern for the messages of a WebSocket line (\"WS /path\"), not of %s", r.Method)
		case err != nil:
			p.bad(at.key("message"), "is not a regular expression (RE2): %v", err)
		}
		if !r.Phase.Counted() {
			p.bad(at.key("phase"), "%q is not agent, human, leave or all", r.Phase)
		}
	}
	for i, g := range e.Guarded {
		if _, _, ok := g.Split(); !ok {
			p.bad(pathOf("expect", "guarded", i), "%q is not \"METHOD /path\"", g)
		}
	}
	if !sc.Capture.Leave.On() {
		for i, r := range e.Requests {
			if r.Phase == vocab.PhaseLeave {
				p.bad(pathOf("expect", "requests", i, "phase"), "leave, and capture.leave is off: the run stays on the page")
			}
		}
		if _, ok := e.Writes[vocab.PhaseLeave]; ok {
			p.badKey(pathOf("expect", "writes", string(vocab.PhaseLeave)), "leave, and capture.leave is off: the run stays on the page")
		}
	}
	for _, phase := range keys(e.Writes) {
		if !phase.Windowed() {
			p.badKey(pathOf("expect", "writes", string(phase)), "phase must be agent, human or leave")
		}
	}
}

// validateSnapshots checks the expectations of what is true after a phase:
// the app's state and the page.
func (sc Scenario) validateSnapshots(p *problems) {
	e := sc.Expect
	for i, o := range sc.Origins {
		if u, err := url.Parse(o); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.Trim(u.Path, "/") != "" || u.RawQuery != "" || u.Fragment != "" {
			p.bad(pathOf("origins").index(i), "%q is no origin: write scheme://host[:port], as https://api.shop.example", o)
		}
	}
	for _, name := range keys(sc.Probes) {
		at := pathOf("probes", name)
		if !probeName.MatchString(name) || name == record.ObserverSource {
			p.badKey(at, "a probe's name is a word of letters, digits and _, and not %q", record.ObserverSource)
		}
		if m, path, ok := sc.Probes[name].Split(); !ok || m != "GET" {
			p.bad(at, "%q is not \"GET /path\" (a probe only reads)", sc.Probes[name])
		} else if strings.Contains(path, "#") {
			p.bad(at, "%q has a fragment", path)
		}
	}
	for _, phase := range keys(e.State) {
		at := pathOf("expect", "state", string(phase))
		if !phase.Judged() {
			p.badKey(at, "phase must be agent or human")
		}
		w := e.State[phase]
		for _, q := range keys(w.Equals) {
			if err := record.CheckConstraints(w.Equals[q]); err != nil {
				p.bad(at.key("equals").key(q), "%v", err)
			}
		}
		for _, q := range keys(w.Equals) {
			if _, err := jsonpath.Parse(q); err != nil {
				p.badKey(at.key("equals").key(q), "%q is not a JSONPath query (RFC 9535): %v", q, err)
			}
		}
		for _, q := range keys(w.Changes) {
			if _, err := jsonpath.Parse(q); err != nil {
				p.badKey(at.key("changes").key(q), "%q is not a JSONPath query (RFC 9535): %v", q, err)
			}
		}
		if !w.Unchanged && len(w.Equals) == 0 && len(w.Changes) == 0 {
			p.bad(at, "says nothing (unchanged, equals, changes)")
		}
	}
	for _, phase := range keys(e.UI) {
		if !phase.Judged() {
			p.badKey(pathOf("expect", "ui", string(phase)), "phase must be agent or human")
		}
		frameOf := map[string]string{} // selector → the frame it was first named in
		for i, u := range e.UI[phase] {
			at := pathOf("expect", "ui", string(phase), i)
			if u.Selector == "" {
				p.bad(at.key("selector"), "missing")
			}
			if u.Frame != "" {
				if _, err := record.ParseFrame(u.Frame); err != nil {
					p.bad(at.key("frame"), "%v", err)
				}
			}
			if f, ok := frameOf[u.Selector]; ok && f != u.Frame {
				// The judge tells recorded elements apart by selector.
				p.bad(at, "selector %q is named in two frames (%s and %s) in one phase: make the selectors differ", u.Selector, frameName(f), frameName(u.Frame))
			} else if !ok {
				frameOf[u.Selector] = u.Frame
			}
			if !u.SaysSomething() {
				p.bad(at, "says nothing about %s (present, visible, enabled, value, text_contains, text_contains_state, text, count, checked, attributes, tool_form_active, tool_submit_active)", u.Selector)
			}
			if u.TextContainsState != "" {
				if _, err := jsonpath.Parse(u.TextContainsState); err != nil {
					p.bad(at.key("text_contains_state"), "%v", err)
				}
			}
			if err := record.CheckConstraints(u.Count); u.Count != nil && err != nil {
				p.bad(at.key("count"), "%v", err)
			}
			if err := record.CheckConstraints(u.Text); u.Text != nil && err != nil {
				p.bad(at.key("text"), "%v", err)
			}
			for _, name := range keys(u.Attributes) {
				if err := record.CheckConstraints(u.Attributes[name]); err != nil {
					p.bad(at.key("attributes").key(name), "%v", err)
				}
			}
		}
	}
	for _, phase := range keys(e.Page) {
		pe := e.Page[phase]
		at := pathOf("expect", "page", string(phase))
		if !phase.Judged() {
			p.badKey(at, "phase must be agent or human")
		}
		if pe.URL == nil && pe.Path == nil {
			p.bad(at, "says nothing (url, path)")
		}
		if err := record.CheckConstraints(pe.URL); pe.URL != nil && err != nil {
			p.bad(at.key("url"), "%v", err)
		}
		if err := record.CheckConstraints(pe.Path); pe.Path != nil && err != nil {
			p.bad(at.key("path"), "%v", err)
		}
	}
	if len(sc.Human) == 0 {
		for key, set := range map[string]bool{"state": hasKey(e.State, vocab.PhaseHuman),
			"ui": hasKey(e.UI, vocab.PhaseHuman), "page": hasKey(e.Page, vocab.PhaseHuman)} {
			if set {
				p.badKey(pathOf("expect", key, string(vocab.PhaseHuman)), "the scenario has no human steps")
			}
		}
	}
}

// validateContent checks the expectations of what requests carried:
// content (a body, or the resource the bodies make) and submitted (what
// the person had before them at a click).
func (sc Scenario) validateContent(p *problems) {
	e := sc.Expect
	for i, c := range e.Content {
		key := pathOf("expect", "content", i)
		if _, _, ok := c.Request.Split(); !ok {
			p.bad(key.key("request"), "%q is not \"METHOD /path\"", c.Request)
		}
		switch {
		case c.Phase != "" && !c.Phase.Counted():
			p.bad(key.key("phase"), "%q is not agent, human, leave or all", c.Phase)
		case c.Phase == vocab.PhaseLeave && c.Resource != nil:
			p.bad(key.key("resource"), "the leave phase has no state before it of its own: judge its requests by body")
		case c.Phase == vocab.PhaseHuman && len(sc.Human) == 0:
			p.bad(key.key("phase"), "human, and the scenario has no human steps")
		}
		if (c.Body == nil) == (c.Resource == nil) {
			p.bad(key, "give exactly one of body (what each request carried) and resource (what the requests make of it)")
		}
		if c.Body != nil {
			checkDocument(key.key("body"), c.Body, p)
		}
		if r := c.Resource; r != nil {
			at := key.key("resource")
			if r.Before == "" {
				p.bad(at.key("before"), "missing (a JSONPath query of the state before the phase, such as $.config)")
			} else if _, err := jsonpath.Parse(r.Before); err != nil {
				p.bad(at.key("before"), "%q is not a JSONPath query (RFC 9535): %v", r.Before, err)
			}
			if !r.Merge.Valid() {
				p.bad(at.key("merge"), "%q is not merge-patch, json-patch or replace", r.Merge)
			}
			if r.Equals == nil {
				p.bad(at.key("equals"), "missing (the whole resource as it must be)")
			} else {
				checkDocument(at.key("equals"), r.Equals, p)
			}
		}
	}
	var clicks []string
	for _, s := range sc.Human {
		if s.Click != "" {
			clicks = append(clicks, s.Click)
		}
	}
	if r := e.ReviewedIsSent; r != nil && strings.TrimSpace(r.Off) == "" {
		p.bad(pathOf("expect", "reviewed_is_sent", "off"), "a reason is required: say why this scenario's writes may differ from what the person saw")
	}
	for i, s := range e.Submitted {
		key := pathOf("expect", "submitted", i)
		if _, _, ok := s.Request.Split(); !ok {
			p.bad(key.key("request"), "%q is not \"METHOD /path\"", s.Request)
		}
		switch {
		case len(clicks) == 0:
			p.bad(key, "the scenario has no human click step, so nothing the person reviewed is recorded")
		case s.Click != "" && !slices.Contains(clicks, s.Click):
			p.bad(key.key("click"), "%q is not the selector of a human click step (%s)", s.Click, strings.Join(clicks, ", "))
		}
		for _, ptr := range keys(s.Fields) {
			if err := checkPlace(ptr); err != nil {
				p.badKey(key.key("fields").key(ptr), "%v", err)
			}
			if strings.TrimSpace(s.Fields[ptr]) == "" {
				p.bad(key.key("fields").key(ptr), "the selector is empty")
			}
		}
		for k, ptr := range s.Ignore {
			at := key.key("ignore").index(k)
			if err := checkPlace(ptr); err != nil {
				p.bad(at, "%v", err)
				continue
			}
			tokens, _ := record.SplitPointer(ptr)
			for _, t := range tokens {
				if _, err := path.Match(t, ""); err != nil {
					p.bad(at, "%q is not a pattern (path.Match): %v", t, err)
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
func checkDocument(key keyPath, v any, p *problems) {
	if _, err := json.Marshal(v); err != nil {
		p.bad(key, "not a JSON value: %v", err)
	} else if err := record.CheckConstraints(v); err != nil {
		p.bad(key, "%v", err)
	}
}

func frameName(f string) string {
	if f == "" {
		return "the top document"
	}
	return fmt.Sprintf("frame %q", f)
}

func stringsOf[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

func joinWords[T ~string](vs []T) string {
	s := stringsOf(vs)
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

func (sc Scenario) validateKnown(p *problems) {
	if sc.Known == nil {
		return
	}
	if !sc.Known.Outcome.Valid() {
		p.bad(pathOf("known", "outcome"), "%q is not PASS, FAIL or INCONCLUSIVE", sc.Known.Outcome)
	}
	for i, c := range sc.Known.Codes {
		if !c.Known() {
			var codes []string
			for k := range vocab.Codes {
				codes = append(codes, string(k))
			}
			p.bad(pathOf("known", "codes", i), "%q is not a failure code (see scenarios/README.md)%s", c, suggestion(string(c), codes, ""))
		}
	}
	if d := sc.Known.Departs; d != "" {
		if d.Index() < 0 {
			p.bad(pathOf("known", "departs"), "%q is not a link of the chain (see scenarios/README.md)", d)
		} else if sc.Known.Outcome != vocab.Fail {
			p.bad(pathOf("known", "departs"), "only a FAIL departs somewhere; outcome is %s", sc.Known.Outcome)
		}
	}
}

func checkCall(key keyPath, c Call, p *problems) {
	if c.Tool == "" {
		p.bad(key.key("tool"), "missing")
	}
	if !c.Transport.Valid() {
		p.bad(key.key("transport"), "%q is not page or cdp", c.Transport)
	}
	if c.Frame != "" {
		if _, err := record.ParseFrame(c.Frame); err != nil {
			p.bad(key.key("frame"), "%v", err)
		}
	}
	if c.CancelAfter != nil && *c.CancelAfter < 0 {
		p.bad(key.key("cancel_after"), "%s is before the call started", time.Duration(*c.CancelAfter))
	}
	if c.Expect != nil && !c.Expect.Status.Valid() {
		p.bad(key.key("expect").key("status"), "%q is not completed, error, canceled or no_response", c.Expect.Status)
	}
	if c.Expect != nil {
		checkResult(key.key("expect"), c.Expect, p)
	}
}

// csrfSources counts the places a csrf says the token is in.
func csrfSources(c *CSRF) int {
	n := 0
	for _, set := range []bool{c.Meta != "", c.Cookie != "", c.From != nil} {
		if set {
			n++
		}
	}
	return n
}

func validPath(p string) bool {
	_, err := jsonpath.Parse(p)
	return err == nil
}

func validLine(l RequestLine) bool {
	m, p, ok := l.Split()
	return ok && m != "" && strings.HasPrefix(p, "/")
}

// checkResult refuses expectations of a call's result that cannot all hold
// or say nothing: two ways of saying what the result is, a match mode
// without an output, an output of a call that must not complete.
func checkResult(key keyPath, x *CallExpect, p *problems) {
	said := x.ResultKeys()
	if len(said) > 1 {
		p.bad(key, "%s each say what the result is: give one (output compares a JSON value, output_text the whole text, output_contains a part of it)", strings.Join(said, " and "))
	}
	if x.Output != nil && x.OutputJSON != nil {
		p.bad(key.key("output"), "set both as an object (Output) and as another value (OutputJSON)")
	}
	if want, ok := x.WantOutput(); ok {
		if _, err := json.Marshal(want); err != nil {
			p.bad(key.key("output"), "not a JSON value: %v", err)
		} else if err := record.CheckConstraints(want); err != nil {
			p.bad(key.key("output"), "%v", err)
		}
	}
	switch x.Match {
	case "", MatchExact, MatchSubset:
	case MatchConstraints:
		if want, ok := x.WantOutput(); ok {
			if err := match.Check(want); err != nil {
				p.bad(key.key("output"), "%v", err)
			}
		}
	default:
		p.bad(key.key("match"), "%q is not exact or subset (or constraints, to match as webmcp-evals does)", x.Match)
	}
	if _, ok := x.WantOutput(); x.Match != "" && !ok {
		p.bad(key.key("match"), "says how output is compared, and there is no output")
	}
	if x.OutputContains != nil && *x.OutputContains == "" {
		p.bad(key.key("output_contains"), "empty, so it says nothing (to expect an empty text, write output_text: \"\")")
	}
	if len(said) > 0 && x.Status != "" && x.Status != vocab.Completed {
		p.bad(key, "%s is about the result of a completed call, and status is %s", said[0], x.Status)
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
			p.bad(pathOf("expect", "catalog", "schemas", name), "not a JSON value: %v", err)
		}
	}
	m := c.SchemaMatch
	if m.IsZero() {
		return
	}
	if len(c.Schemas) == 0 {
		p.bad(pathOf("expect", "catalog", "schema_match"), "says how schemas are compared, and there are no schemas")
	}
	mode := func(key keyPath, v Match) {
		switch v {
		case MatchExact, MatchSubset:
		case MatchConstraints:
			p.bad(key, "%q compares a call's output as webmcp-evals does; a schema is exact or subset", v)
		default:
			p.bad(key, "%q is not exact or subset", v)
		}
	}
	switch {
	case m.ByTool == nil:
		mode(pathOf("expect", "catalog", "schema_match"), m.All)
	case len(m.ByTool) == 0:
		p.bad(pathOf("expect", "catalog", "schema_match"), "an empty mapping says nothing")
	}
	for _, tool := range keys(m.ByTool) {
		at := pathOf("expect", "catalog", "schema_match", tool)
		mode(at, m.ByTool[tool])
		if _, ok := c.Schemas[tool]; !ok {
			p.badKey(at, "%s has no schema in expect.catalog.schemas%s", tool, suggestion(tool, keys(c.Schemas), ""))
		}
	}
}

// keys answers a map's keys in order.
func keys[K ~string, V any](m map[K]V) []K { return slices.Sorted(maps.Keys(m)) }

func hasKey[K comparable, V any](m map[K]V, k K) bool {
	_, ok := m[k]
	return ok
}
