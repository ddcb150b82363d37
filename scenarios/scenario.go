// Package scenarios is the scenario format: what a scenario file says (the
// agent's transcript, a person's steps, expectations per source), how it is
// loaded and validated, and the Evidence a run of it records. Playing a
// scenario in a browser is package runner's job; deciding a verdict from the
// evidence is package judge's, a pure function.
package scenarios

import (
	"encoding/json"
	"slices"
	"sort"
	"time"

	"github.com/agentready/agentready/record"
	"github.com/agentready/agentready/vocab"
)

// Scenario is one scenario file: what the agent was asked and did, what a
// person did after it, and what must then be true.
type Scenario struct {
	ID         string                 `yaml:"id" json:"id"`
	Family     string                 `yaml:"family,omitempty" json:"family"` // e.g. CONF-01 for CONF-01.attempt-3; defaults to ID up to the first "."
	Title      string                 `yaml:"title" json:"title"`
	Area       string                 `yaml:"area,omitempty" json:"area,omitempty"`
	Start      string                 `yaml:"start" json:"start"` // path of the page the agent starts on
	Prompt     string                 `yaml:"prompt" json:"prompt"`
	PromptData map[string]PromptValue `yaml:"prompt_data,omitempty" json:"promptData,omitempty"` // values the prompt gives, by tool parameter
	// Personal are values of the run that are a person's data although
	// they have no shape of their own (a name, an address, a typed user
	// name), besides the prompt_data values marked personal: the bundle
	// holds stand-ins for them (package redact).
	Personal []string `yaml:"personal,omitempty" json:"personal,omitempty"`
	Variant  string   `yaml:"variant,omitempty" json:"variant,omitempty"` // fixture variant the scenario needs
	// Clock fixes the page's clock to an instant before the start page
	// loads (RFC 3339); from there it runs at the pace of real time. For
	// pages whose rules depend on today's date.
	Clock *time.Time `yaml:"clock,omitempty" json:"clock,omitempty"`
	// Today is the day {$date} values were resolved against (the fixed
	// clock's, or the run's start), set when the file is loaded.
	Today   string  `yaml:"-" json:"today,omitempty"`
	Capture Capture `yaml:"capture,omitempty" json:"capture"`
	Setup   []Step  `yaml:"setup,omitempty" json:"setup,omitempty"` // done by the harness before the agent; not judged as the agent's
	// Probes read the app's state through its own API, as the person's
	// session sees it: name → "GET /path" answering JSON. The state is
	// read before the agent and after each phase.
	Probes map[string]string `yaml:"probes,omitempty" json:"probes,omitempty"`
	Agent  Agent             `yaml:"agent" json:"agent"`
	Human  []Step            `yaml:"human,omitempty" json:"human,omitempty"` // a person's steps after the agent
	Expect Expect            `yaml:"expect" json:"expect"`
	Known  *Known            `yaml:"known,omitempty" json:"known,omitempty"` // for known-answer cases: what the judge must reach
	File   string            `yaml:"-" json:"file,omitempty"`
}

// PromptValue is a value the prompt gives a tool parameter. Written as a
// plain string, it must appear in the prompt (in any case); written as
// {value, from}, the prompt says it in other words, which must appear there:
// `{value: last_30_days, from: "the last 30 days"}`. Personal marks it (and
// its from words) a person's data: `{value: Ada Baker, personal: true}`.
type PromptValue struct {
	Value    string `yaml:"value" json:"value"`
	From     string `yaml:"from,omitempty" json:"from,omitempty"`
	Personal bool   `yaml:"personal,omitempty" json:"personal,omitempty"`
}

// Capture says which evidence to record.
type Capture struct {
	Network     *bool    `yaml:"network,omitempty" json:"network,omitempty"` // default true
	Journal     *bool    `yaml:"journal,omitempty" json:"journal,omitempty"` // read the app's journal when it has one; default true
	ToolTimeout Duration `yaml:"tool_timeout,omitempty" json:"toolTimeout,omitempty"`
	// Review is the person's review time after the agent's last answer,
	// and Settle the time after the person's last step, both on the page's
	// clock (fast-forwarded): what the page does in them belongs to the
	// phase they follow. Defaults: DefaultReview, DefaultSettle; 0s: none.
	Review *Duration `yaml:"review,omitempty" json:"review,omitempty"`
	Settle *Duration `yaml:"settle,omitempty" json:"settle,omitempty"`
}

// The windows a scenario gets unless it says otherwise: a person reviews
// for seconds before confirming; a debounced submit needs a moment.
const (
	DefaultReview = Duration(3 * time.Second)
	DefaultSettle = Duration(time.Second)
)

// ReviewTime is the review window after the agent.
func (c Capture) ReviewTime() time.Duration {
	return time.Duration(orDuration(c.Review, DefaultReview))
}

// SettleTime is the window after the person's last step.
func (c Capture) SettleTime() time.Duration {
	return time.Duration(orDuration(c.Settle, DefaultSettle))
}

func orDuration(d *Duration, dflt Duration) Duration {
	if d == nil {
		return dflt
	}
	return *d
}

// NetworkOn tells whether the network log is part of the evidence.
func (c Capture) NetworkOn() bool { return c.Network == nil || *c.Network }

// JournalOn tells whether the app's journal, when it keeps one, is part of
// the evidence.
func (c Capture) JournalOn() bool { return c.Journal == nil || *c.Journal }

// Agent is the agent's transcript.
type Agent struct {
	Calls []Call  `yaml:"calls,omitempty" json:"calls,omitempty"`
	Final *string `yaml:"final" json:"final"` // the agent's final words; null when it said nothing
}

// Call is one tool call.
type Call struct {
	Tool      string          `yaml:"tool" json:"tool"`
	Input     map[string]any  `yaml:"input,omitempty" json:"input,omitempty"`
	Transport vocab.Transport `yaml:"transport,omitempty" json:"transport,omitempty"` // page (default) or cdp
	Expect    *CallExpect     `yaml:"expect,omitempty" json:"expect,omitempty"`
}

// CallExpect is what must come of one call.
//
// The result is asserted with at most one of output (a JSON value of any
// shape, compared by Match), output_text (the whole text) and
// output_contains (a part of the text). In a file, output is one key; in Go
// it is Output when it is a JSON object and OutputJSON when it is anything
// else (an array, a string, a number, a boolean or null), so that code that
// reads an object's fields keeps doing so. WantOutput answers either.
type CallExpect struct {
	Status         vocab.Status    `yaml:"status,omitempty" json:"status,omitempty"` // completed, error, canceled, no_response
	Output         map[string]any  `yaml:"-" json:"-"`                               // output, when it is a JSON object
	OutputJSON     json.RawMessage `yaml:"-" json:"-"`                               // output, when it is any other JSON value
	Match          Match           `yaml:"match,omitempty" json:"match,omitempty"`   // how output is compared: subset (default) or exact
	OutputText     *string         `yaml:"output_text,omitempty" json:"outputText,omitempty"`
	OutputContains *string         `yaml:"output_contains,omitempty" json:"outputContains,omitempty"`
	ErrorContains  string          `yaml:"error_contains,omitempty" json:"errorContains,omitempty"`
	NotInCatalog   bool            `yaml:"not_in_catalog,omitempty" json:"notInCatalog,omitempty"` // a probe of a tool that must be absent
	CatalogAfter   *CatalogDelta   `yaml:"catalog_after,omitempty" json:"catalogAfter,omitempty"`
}

// CatalogDelta names tools that must be present or absent.
type CatalogDelta struct {
	Present []string `yaml:"present,omitempty" json:"present,omitempty"`
	Absent  []string `yaml:"absent,omitempty" json:"absent,omitempty"`
}

// Step is one thing done in the page: exactly one of its fields is set.
type Step struct {
	Call        *Call             `yaml:"call,omitempty" json:"call,omitempty"`
	Click       string            `yaml:"click,omitempty" json:"click,omitempty"`              // CSS selector
	Fill        map[string]string `yaml:"fill,omitempty" json:"fill,omitempty"`                // CSS selector → text
	Navigate    string            `yaml:"navigate,omitempty" json:"navigate,omitempty"`        // path
	WaitFor     string            `yaml:"wait_for,omitempty" json:"waitFor,omitempty"`         // CSS selector that must match
	WaitRequest string            `yaml:"wait_request,omitempty" json:"waitRequest,omitempty"` // "METHOD /path" that must complete
	WaitTool    string            `yaml:"wait_tool,omitempty" json:"waitTool,omitempty"`       // a tool that must be offered
	Request     *DirectRequest    `yaml:"request,omitempty" json:"request,omitempty"`          // a request sent straight to the server as the person's session
}

// DirectRequest is a request sent from the page as a script of the page
// could send it — the person's cookies and CSRF token, none of the page's
// checks — to prove that the server itself holds a rule the page enforces
// (the 9th task, blank text, a second save). Its expectation is judged as
// the server's.
type DirectRequest struct {
	Method string `yaml:"method" json:"method"`
	Path   string `yaml:"path" json:"path"`
	Body   any    `yaml:"body,omitempty" json:"body,omitempty"` // sent as JSON
	// CSRF names where the page keeps its CSRF token (a <meta> name) and the
	// header the server wants it in; omitted, no token is sent. Written
	// `csrf: true`, it means meta csrf-token and header X-CSRF-Token.
	CSRF   *CSRF          `yaml:"csrf,omitempty" json:"csrf,omitempty"`
	Expect RequestOutcome `yaml:"expect" json:"expect"`
}

// CSRF says where a page keeps its token and how the server wants it.
type CSRF struct {
	Meta   string `yaml:"meta" json:"meta"`
	Header string `yaml:"header" json:"header"`
}

// RequestOutcome is what the server must answer a direct request.
type RequestOutcome struct {
	Status int    `yaml:"status" json:"status"`
	Code   string `yaml:"code,omitempty" json:"code,omitempty"` // the answer's JSON "code"
}

// IsWait tells whether the step only waits for something.
func (s Step) IsWait() bool { return s.WaitFor != "" || s.WaitRequest != "" || s.WaitTool != "" }

// Kinds names the actions the step sets (exactly one, when valid).
func (s Step) Kinds() []string {
	var k []string
	for name, set := range map[string]bool{"call": s.Call != nil, "click": s.Click != "", "fill": len(s.Fill) > 0,
		"navigate": s.Navigate != "", "wait_for": s.WaitFor != "", "wait_request": s.WaitRequest != "", "wait_tool": s.WaitTool != "",
		"request": s.Request != nil} {
		if set {
			k = append(k, name)
		}
	}
	sort.Strings(k)
	return k
}

// Expect is what must be true, per source of evidence.
type Expect struct {
	Case     *CaseExpect                `yaml:"case,omitempty" json:"case,omitempty"`
	Catalog  *CatalogExpect             `yaml:"catalog,omitempty" json:"catalog,omitempty"`
	Calls    *CallsExpect               `yaml:"calls,omitempty" json:"calls,omitempty"`
	Requests []RequestExpect            `yaml:"requests,omitempty" json:"requests,omitempty"`
	Guarded  []string                   `yaml:"guarded,omitempty" json:"guarded,omitempty"` // "METHOD /path" that may happen only after the agent, by the person
	Writes   map[vocab.Phase]int        `yaml:"writes,omitempty" json:"writes,omitempty"`   // phase → number of write requests in the journal
	State    map[vocab.Phase]State      `yaml:"state,omitempty" json:"state,omitempty"`     // phase → state after it
	UI       map[vocab.Phase][]UI       `yaml:"ui,omitempty" json:"ui,omitempty"`           // phase → elements after it
	Page     map[vocab.Phase]PageExpect `yaml:"page,omitempty" json:"page,omitempty"`       // phase → where the page is after it
	// Content is what write requests carried, judged in full (seed 003):
	// each matching request's body, or the resource the requests make.
	Content []ContentExpect `yaml:"content,omitempty" json:"content,omitempty"`
	// Submitted says that a request carries what the person had before
	// them when they clicked: nothing changed, added or stale.
	Submitted []SubmittedExpect `yaml:"submitted,omitempty" json:"submitted,omitempty"`
	Answer    *AnswerExpect     `yaml:"answer,omitempty" json:"answer,omitempty"`
}

// ContentExpect is what the requests "METHOD /path" of a phase carried,
// compared in full: every field and value, list order kept, key order and
// formatting ignored. Exactly one of Body and Resource is set.
type ContentExpect struct {
	Request string      `yaml:"request" json:"request"`                 // "METHOD /path"; the path may be a pattern
	Phase   vocab.Phase `yaml:"phase,omitempty" json:"phase,omitempty"` // agent, human or all (the default)
	// Body is what each matching request's body must be (JSON, or form
	// data read as an object of strings); constraints allowed.
	Body any `yaml:"body,omitempty" json:"body,omitempty"`
	// Resource is what the matching requests make of a resource of the
	// app's state, by the API's merge rule.
	Resource *ResourceExpect `yaml:"resource,omitempty" json:"resource,omitempty"`
}

// ResourceExpect reconstructs a resource after requests: the resource as
// the state before the phase holds it (Before, a JSONPath selecting one
// value of the state document), each matching request's body applied to it
// in order by Merge, must equal Equals in full.
type ResourceExpect struct {
	Before string    `yaml:"before" json:"before"`
	Merge  MergeRule `yaml:"merge" json:"merge"`
	Equals any       `yaml:"equals" json:"equals"`
}

// MergeRule is how an API applies a request's body to a resource.
type MergeRule string

// The merge rules.
const (
	// MergePatch is RFC 7386 JSON Merge Patch: objects merged key by key
	// (null removes a key), any other value — a list too — replaced whole.
	MergePatch MergeRule = "merge-patch"
	// JSONPatch is RFC 6902 JSON Patch: the body is a list of operations.
	JSONPatch MergeRule = "json-patch"
	// Replace: the body is the whole new resource.
	Replace MergeRule = "replace"
)

// Valid tells whether r is one of the three rules.
func (r MergeRule) Valid() bool { return r == MergePatch || r == JSONPatch || r == Replace }

// SubmittedExpect says that the first request "METHOD /path" after the
// person's click carries only what the person had before them at that
// click: every value the body holds equals the value shown for it.
type SubmittedExpect struct {
	Request string `yaml:"request" json:"request"` // "METHOD /path"; the path may be a pattern
	// Click is the selector of the person's click step whose review
	// counts; empty: the last click of the person's steps before the
	// request.
	Click string `yaml:"click,omitempty" json:"click,omitempty"`
	// Fields maps a place in the body (a JSON pointer) to the selector of
	// the element that showed it (a control's value, else its text).
	// Empty: the clicked element's form, each control by its name (a JSON
	// pointer, a plain key, or a[0][b] / a.0.b).
	Fields map[string]string `yaml:"fields,omitempty" json:"fields,omitempty"`
	// Ignore are places in the body the person is not shown (JSON
	// pointers; a segment may be a path.Match pattern such as *).
	Ignore []string `yaml:"ignore,omitempty" json:"ignore,omitempty"`
}

// CaseExpect says which tool the prompt is meant to be done with, so that a
// prompt that lacks the tool's required data is a defect of the case.
type CaseExpect struct {
	Tool string `yaml:"tool" json:"tool"`
}

// CatalogExpect is about the tools the start page offers.
type CatalogExpect struct {
	// Exactly names every tool the start page offers; an empty list says it
	// offers none, and differs from no list at all.
	Exactly List[string]              `yaml:"exactly,omitempty" json:"exactly,omitzero"`
	Schemas map[string]map[string]any `yaml:"schemas,omitempty" json:"schemas,omitempty"` // tool → its input schema, compared by SchemaMatch
	// SchemaMatch says how each schema is compared: exact (the default) or
	// contains, for every tool or by tool.
	SchemaMatch SchemaMatch     `yaml:"schema_match,omitempty" json:"schemaMatch,omitzero"`
	Autosubmit  map[string]bool `yaml:"autosubmit,omitempty" json:"autosubmit,omitempty"` // tool → annotation
	ReadOnly    map[string]bool `yaml:"read_only,omitempty" json:"readOnly,omitempty"`
	// Contract pins every tool of the start page (name, description,
	// schema, annotations, kind): a file next to the scenario (written by
	// agentready catalog URL --update-contract FILE), or the contract inline.
	Contract *ContractRef `yaml:"contract,omitempty" json:"contract,omitempty"`
}

// ContractRef is a tool contract, written as a file's path (relative to the
// scenario file) or inline. Loading reads the file in, so that the scenario
// as run (and its bundle) holds the contract it was judged against.
type ContractRef struct {
	File     string          `yaml:"-" json:"file,omitempty"`
	Contract record.Contract `yaml:"-" json:"contract"`
}

// CallsExpect is about which calls the agent made.
type CallsExpect struct {
	None    bool             `yaml:"none,omitempty" json:"none,omitempty"`
	Exactly List[CallSketch] `yaml:"exactly,omitempty" json:"exactly,omitzero"`
	// Required names calls the agent must make — in this order, with other
	// calls allowed between them — as webmcp-evals' expected calls do: a
	// call (tool, input, optional), or a group {ordered: [...]} or
	// {unordered: [...]}. A required call the agent skipped is
	// missing_tool_call; the right tool with other input, wrong_tool_input.
	Required []CallNode `yaml:"required,omitempty" json:"required,omitempty"`
}

// CallNode is one required call, or a group of them.
type CallNode struct {
	Tool      string     `yaml:"tool,omitempty" json:"tool,omitempty"`
	Input     Object     `yaml:"input,omitempty" json:"input,omitzero"` // constraints allowed; no input key: any input
	Optional  bool       `yaml:"optional,omitempty" json:"optional,omitempty"`
	Ordered   []CallNode `yaml:"ordered,omitempty" json:"ordered,omitempty"`
	Unordered []CallNode `yaml:"unordered,omitempty" json:"unordered,omitempty"`
}

// CallSketch is an expected call: the tool and, when given, the exact input
// (`input: {}` is a call with no input; no input key, any input).
type CallSketch struct {
	Tool  string `yaml:"tool" json:"tool"`
	Input Object `yaml:"input,omitempty" json:"input,omitzero"`
}

// List is a list where an empty one says something (`exactly: []`: no
// tools) and differs from no list: it keeps [] through JSON (omitzero) and
// YAML (omitempty asks IsZero), and a missing key stays missing.
type List[T any] []T

// IsZero tells whether no list was given (nil), as opposed to an empty one.
func (l List[T]) IsZero() bool { return l == nil }

// Object is a JSON object where an empty one says something (`input: {}`)
// and differs from no object: like List, it keeps {} through JSON and YAML.
type Object map[string]any

// IsZero tells whether no object was given (nil), as opposed to an empty one.
func (o Object) IsZero() bool { return o == nil }

// RequestExpect counts requests by method and path in one phase.
type RequestExpect struct {
	Method string      `yaml:"method" json:"method"`
	Path   string      `yaml:"path" json:"path"`
	Phase  vocab.Phase `yaml:"phase" json:"phase"` // agent, human or all
	Count  int         `yaml:"count" json:"count"`
	Status int         `yaml:"status,omitempty" json:"status,omitempty"` // each counted request's status
}

// State is what the app's state must be after a phase.
//
// The state is one JSON document whose top-level keys are its sources: each
// probe by its name, and "observer" for the app's observation endpoint when
// it has one. Paths into it are RFC 9535 JSONPath queries that select
// exactly one value, e.g. $.event.seatsLeft or $.observer.counts['tasks'].
type State struct {
	Unchanged bool               `yaml:"unchanged,omitempty" json:"unchanged,omitempty"` // every document as before the agent
	Equals    map[string]any     `yaml:"equals,omitempty" json:"equals,omitempty"`       // path → the value it must hold
	Changes   map[string]float64 `yaml:"changes,omitempty" json:"changes,omitempty"`     // path → after minus before the agent (numbers)
}

// UI is what one element must look like. Frame, when set, reads the
// element inside an iframe: the CSS selector of the iframe element in the
// top document, or the start of the frame's URL ("http://…") or of its path
// and query ("/…"); see record.ParseFrame. Same-origin and cross-site
// frames alike.
type UI struct {
	Frame            string  `yaml:"frame,omitempty" json:"frame,omitempty"`
	Selector         string  `yaml:"selector" json:"selector"`
	Present          *bool   `yaml:"present,omitempty" json:"present,omitempty"`
	Visible          *bool   `yaml:"visible,omitempty" json:"visible,omitempty"`
	Enabled          *bool   `yaml:"enabled,omitempty" json:"enabled,omitempty"`
	Value            *string `yaml:"value,omitempty" json:"value,omitempty"`
	TextContains     string  `yaml:"text_contains,omitempty" json:"textContains,omitempty"`
	ToolFormActive   *bool   `yaml:"tool_form_active,omitempty" json:"toolFormActive,omitempty"`
	ToolSubmitActive *bool   `yaml:"tool_submit_active,omitempty" json:"toolSubmitActive,omitempty"`
	Checked          *bool   `yaml:"checked,omitempty" json:"checked,omitempty"` // a checkbox or radio button (or aria-checked)
	// Count, Text and Attributes are values or constraints ({$gte: 1},
	// {$pattern: "^Order BK-"}), judged by the one matcher: how many
	// elements match the selector, the first one's whole text (trimmed),
	// and attributes by name ({aria-expanded: "true"}; null: absent).
	Count      any            `yaml:"count,omitempty" json:"count,omitempty"`
	Text       any            `yaml:"text,omitempty" json:"text,omitempty"`
	Attributes map[string]any `yaml:"attributes,omitempty" json:"attributes,omitempty"`
}

// SaysSomething tells whether the entry expects anything of its element.
func (u UI) SaysSomething() bool {
	return u.Present != nil || u.Visible != nil || u.Enabled != nil || u.Value != nil || u.TextContains != "" ||
		u.ToolFormActive != nil || u.ToolSubmitActive != nil || u.Checked != nil || u.Count != nil || u.Text != nil || len(u.Attributes) > 0
}

// PageExpect is where the page must be after a phase: its URL, or its path
// (with the query, when it has one), as values or constraints.
type PageExpect struct {
	URL  any `yaml:"url,omitempty" json:"url,omitempty"`
	Path any `yaml:"path,omitempty" json:"path,omitempty"`
}

// AnswerExpect is about the agent's final words.
type AnswerExpect struct {
	Asks         bool     `yaml:"asks,omitempty" json:"asks,omitempty"`                   // must ask the person something
	MustMention  []string `yaml:"must_mention,omitempty" json:"mustMention,omitempty"`    // each must appear (case-insensitive)
	MustNotClaim []string `yaml:"must_not_claim,omitempty" json:"mustNotClaim,omitempty"` // none may appear
}

// Known is the verdict a known-answer scenario must get.
type Known struct {
	Outcome vocab.Outcome `yaml:"outcome" json:"outcome"`
	Codes   []vocab.Code  `yaml:"codes,omitempty" json:"codes,omitempty"`
	// Departs is the link of the chain where a FAIL's evidence must first
	// depart (the verdict's diagnosis); empty: not asserted.
	Departs vocab.Link `yaml:"departs,omitempty" json:"departs,omitempty"`
}

// Meant is the verdict the scenario means to reach (docs/glossary.md): its
// known answer, or PASS.
func (sc Scenario) Meant() Known {
	if sc.Known != nil {
		return *sc.Known
	}
	return Known{Outcome: vocab.Pass}
}

// String words a meant verdict as the reports show it: its outcome and
// codes, "PASS" or "FAIL answer_incomplete".
func (k Known) String() string {
	out := string(k.Outcome)
	for _, c := range k.Codes {
		out += " " + string(c)
	}
	return out
}

// Duration reads "3s" from YAML.
type Duration time.Duration

// Labels are the scenario's Ginkgo labels: its ID, its family and its area.
func (sc Scenario) Labels() []string {
	var out []string
	for _, l := range []string{sc.ID, sc.Family, sc.Area} {
		if l != "" && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}
