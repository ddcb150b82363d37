// Package scenarios is the scenario format: what a scenario file says (the
// agent's transcript, a person's steps, expectations per source), how it is
// loaded and validated, and the Evidence a run of it records. Playing a
// scenario in a browser is package runner's job; deciding a verdict from the
// evidence is package judge's, a pure function.
package scenarios

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/agentready/agentready/match"
	"github.com/agentready/agentready/record"
	"github.com/agentready/agentready/vocab"
	"github.com/theory/jsonpath"
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
	Variant    string                 `yaml:"variant,omitempty" json:"variant,omitempty"`        // fixture variant the scenario needs
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
// `{value: last_30_days, from: "the last 30 days"}`.
type PromptValue struct {
	Value string `yaml:"value" json:"value"`
	From  string `yaml:"from,omitempty" json:"from,omitempty"`
}

// UnmarshalYAML reads a plain string or {value, from}.
func (v *PromptValue) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		v.Value = n.Value
		return nil
	}
	type plain PromptValue
	return n.Decode((*plain)(v))
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
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

// UnmarshalYAML reads `true` as the usual meta and header.
func (c *CSRF) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		var on bool
		if err := n.Decode(&on); err != nil {
			return fmt.Errorf("line %d: csrf is true or {meta, header}", n.Line)
		}
		if on {
			*c = CSRF{Meta: "csrf-token", Header: "X-CSRF-Token"}
		}
		return nil
	}
	type plain CSRF
	return n.Decode((*plain)(c))
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

// UnmarshalYAML reads a path or an inline contract.
func (c *ContractRef) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		c.File = n.Value
		return nil
	}
	// Inline, the contract is written as its JSON file is (inputSchema as
	// a mapping): through JSON, with the file's strictness.
	var v any
	if err := n.Decode(&v); err != nil {
		return err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("line %d: the contract: %w", n.Line, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c.Contract); err != nil {
		return fmt.Errorf("line %d: not a tool contract: %w", n.Line, err)
	}
	return nil
}

// loadContract reads a contract file named relative to the scenario file.
func (c *ContractRef) loadContract(scenarioFile string) error {
	if c.File == "" {
		return nil
	}
	path := c.File
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(scenarioFile), path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("expect.catalog.contract: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c.Contract); err != nil {
		return fmt.Errorf("expect.catalog.contract: %s is not a tool contract: %w", c.File, err)
	}
	return nil
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

// Duration reads "3s" from YAML.
type Duration time.Duration

// UnmarshalYAML implements yaml.Unmarshaler.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	*d = Duration(v)
	return nil
}

// Load reads and validates one scenario file.
func Load(path string) (Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Scenario{}, err
	}
	return Parse(path, data)
}

// Parse reads and validates a scenario; name is used in error messages.
func Parse(name string, data []byte) (Scenario, error) {
	data, today, err := resolveDates(data, time.Now())
	if err != nil {
		return Scenario{}, fmt.Errorf("%s: %w", name, err)
	}
	sc := Scenario{Today: today}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&sc); err != nil {
		return Scenario{}, fmt.Errorf("%s: %s", name, strings.ReplaceAll(err.Error(), "\n ", "\n   "))
	}
	sc.File = name
	if sc.Family == "" {
		sc.Family, _, _ = strings.Cut(sc.ID, ".")
	}
	if c := sc.Expect.Catalog; c != nil && c.Contract != nil {
		if err := c.Contract.loadContract(name); err != nil {
			return Scenario{}, fmt.Errorf("%s: %w", name, err)
		}
	}
	if err := sc.Validate(); err != nil {
		return Scenario{}, fmt.Errorf("%s: %w", name, err)
	}
	return sc, nil
}

var probeName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// Validate checks what the YAML types cannot: required fields, one action
// per step, known phases, and expectations that name only tools the
// transcript uses.
func (sc Scenario) Validate() error {
	var p problems
	sc.validateHeader(&p)
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

// DefaultDir is where the suite's own scenarios are, relative to the module root.
const DefaultDir = "scenarios/cases"

// LoadDir reads every scenario file (*.yaml, *.yml) in dir and the folders
// below it, sorted by ID. A file that does not load, and an ID used twice,
// are errors that name the file; the scenarios that did load are answered
// too, but a caller must not run a folder with errors as if it were whole.
func LoadDir(dir string) ([]Scenario, error) {
	paths, err := scenarioFiles(dir)
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s: no scenario files (*.yaml, *.yml) here or below", dir)
	}
	var out []Scenario
	var errs []error
	seen := map[string]string{}
	for _, p := range paths {
		sc, err := Load(p)
		if err != nil {
			errs = append(errs, &FileError{Path: p, Labels: guessLabels(p), Err: err})
			continue
		}
		if first, dup := seen[sc.ID]; dup {
			errs = append(errs, &FileError{Path: p, Labels: sc.Labels(), Err: fmt.Errorf("%s: id %q is already used by %s", p, sc.ID, first)})
			continue
		}
		seen[sc.ID] = p
		out = append(out, sc)
	}
	slices.SortFunc(out, func(a, b Scenario) int { return strings.Compare(a.ID, b.ID) })
	return out, errors.Join(errs...)
}

// FileError is a scenario file that did not load, with the labels it would
// have carried (read leniently), so that a run filtered to that scenario
// still meets the error instead of silently running nothing.
type FileError struct {
	Path   string
	Labels []string
	Err    error
}

func (e *FileError) Error() string { return e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// FileErrors lists the files of a LoadDir error.
func FileErrors(err error) []*FileError {
	var out []*FileError
	var joined interface{ Unwrap() []error }
	if errors.As(err, &joined) {
		for _, e := range joined.Unwrap() {
			var fe *FileError
			if errors.As(e, &fe) {
				out = append(out, fe)
			}
		}
	}
	return out
}

// guessLabels reads a file that does not load as loosely as YAML allows,
// for the labels its scenario would have had, and adds the file's name.
func guessLabels(path string) []string {
	stem := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".yaml"), ".yml")
	var loose struct {
		ID, Family, Area string
	}
	if data, err := os.ReadFile(path); err == nil {
		_ = yaml.Unmarshal(data, &loose)
	}
	sc := Scenario{ID: loose.ID, Family: loose.Family, Area: loose.Area}
	if sc.Family == "" {
		sc.Family, _, _ = strings.Cut(sc.ID, ".")
	}
	var out []string
	for _, l := range append(sc.Labels(), stem) {
		if l != "" && idPattern.MatchString(l) && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// scenarioFiles lists the *.yaml and *.yml files in dir and below, in
// lexical order; folders whose name starts with "." are skipped.
func scenarioFiles(dir string) ([]string, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && p != dir && strings.HasPrefix(d.Name(), "."):
			return filepath.SkipDir
		case !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")):
			paths = append(paths, p)
		}
		return nil
	})
	return paths, err
}

// keys answers a map's keys in order.
func keys[K ~string, V any](m map[K]V) []K { return slices.Sorted(maps.Keys(m)) }

var clockLine = regexp.MustCompile(`(?m)^clock:.*$`)

// resolveDates writes out the file's {$date} values against its fixed clock
// or, without one, now (the run's start: scenarios are loaded as a run
// begins), and answers the day they were resolved against, or "" when the
// file has none.
func resolveDates(data []byte, now time.Time) ([]byte, string, error) {
	if !bytes.Contains(data, []byte("$date")) {
		return data, "", nil
	}
	var head struct {
		Clock *time.Time `yaml:"clock"`
	}
	// Only the clock's own line: before its dates are written out, a file
	// may not be YAML yet (a date within a prompt's words).
	if line := clockLine.Find(data); line != nil {
		_ = yaml.Unmarshal(line, &head) // a bad clock is reported by the strict decode that follows
	}
	base := now.UTC()
	if head.Clock != nil {
		base = head.Clock.UTC()
	}
	out, n, err := record.ResolveDatesInText(data, base)
	if err != nil || n == 0 {
		return data, "", err
	}
	return out, base.Format(record.DefaultDateFormat), nil
}
