// Package scenarios is the scenario format: what a scenario file says (the
// agent's transcript, a person's steps, expectations per source), how it is
// loaded and validated, and the Evidence a run of it records. Playing a
// scenario in a browser is package runner's job; deciding a verdict from the
// evidence is package judge's, a pure function.
package scenarios

import (
	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios/vocab"
)

// The expectations of a scenario (its expect key), per source of evidence.

// Expect is what must be true, per source of evidence.
type Expect struct {
	// The tool the prompt is meant to be done with: the prompt must give
	// every parameter its schema requires, else the case is incomplete.
	Case *CaseExpect `yaml:"case,omitempty" json:"case,omitempty" examples:"[{tool: prepare_event_registration}]"`
	// The start page's tools, their schemas and annotations, or a contract.
	Catalog *CatalogExpect `yaml:"catalog,omitempty" json:"catalog,omitempty" examples:"[{exactly: [prepare_order, search_menu]}]"`
	// Which calls the agent made: as_transcript (the transcript's calls,
	// in order, with their input), none, exactly, or required.
	Calls *CallsExpect `yaml:"calls,omitempty" json:"calls,omitempty" examples:"[as_transcript, {none: true}]"`
	// Counts of requests by request line and phase, from the network log
	// and the app's journal.
	Requests []RequestExpect `yaml:"requests,omitempty" json:"requests,omitempty" examples:"[[{request: POST /api/orders, phase: agent, count: 0}, {request: POST /api/orders, phase: human, count: 1, status: 201}]]"`
	// Requests "METHOD /path" that may happen only after the agent, by the
	// person: one before is side_effect_before_confirmation.
	Guarded []RequestLine `yaml:"guarded,omitempty" json:"guarded,omitempty" examples:"[[POST /api/orders]]"`
	// Phase → the number of write requests the app received (its journal,
	// or the network log to its origin when it keeps none).
	Writes map[vocab.Phase]int `yaml:"writes,omitempty" json:"writes,omitempty" examples:"[{agent: 0, human: 1}]"`
	// Phase → what the app's state must be after it.
	State map[vocab.Phase]State `yaml:"state,omitempty" json:"state,omitempty" examples:"[{agent: {unchanged: true}, human: {equals: {'$.orders.orders[0].item': croissant}}}]"`
	// Phase → what elements of the page must look like after it.
	UI map[vocab.Phase][]UI `yaml:"ui,omitempty" json:"ui,omitempty" examples:"[{human: [{selector: '#status', text: Saved}]}]"`
	// Phase → where the page must be after it.
	Page map[vocab.Phase]PageExpect `yaml:"page,omitempty" json:"page,omitempty" examples:"[{agent: {path: /shop/cart}}]"`
	// What write requests carried, judged in full (seed 003): each
	// matching request's body, or the resource the requests make.
	Content []ContentExpect `yaml:"content,omitempty" json:"content,omitempty" examples:"[[{request: POST /api/x, body: {email: reader@example.com}}]]"`
	// That a request after the person's click carries only what the
	// person had before them: nothing changed, added or stale.
	Submitted []SubmittedExpect `yaml:"submitted,omitempty" json:"submitted,omitempty" examples:"[[{request: POST /api/config/save, click: '#save', ignore: [/csrf]}]]"`
	// Every write after a person's click is held, by default, against the
	// clicked element's form as the person saw it: a visible control's
	// value the body carries at its place must be what was shown.
	// {off: reason} turns that off for this scenario, saying why.
	ReviewedIsSent *ReviewedIsSent `yaml:"reviewed_is_sent,omitempty" json:"reviewed_is_sent,omitempty" examples:"[{off: the page sends the stored draft on purpose}]"`
	// How the suite replays writes as an attacker would (again, from
	// another session, with no session, without CSRF, with a stale
	// precondition, N at once, after the confirmation's lifetime) and what
	// must hold for each. Every guarded write gets the defaults unnamed.
	Replays []ReplayExpect `yaml:"replays,omitempty" json:"replays,omitempty" examples:"[[{request: POST /api/registrations, lifetime: 2m, again: {expect: refused, code: INTENT_USED}}]]"`
	// The JavaScript dialogs the page must open (require) and must not
	// (forbid), each by kind, message and phase; {} is any dialog.
	Dialogs *DialogsExpect `yaml:"dialogs,omitempty" json:"dialogs,omitempty" examples:"[{require: [{kind: confirm, message: {$pattern: (?i)delete}, phase: agent}]}, {forbid: [{}]}]"`
	// The windows the page must open (require) and must not (forbid),
	// each by URL and phase; {} is any popup.
	Popups *PopupsExpect `yaml:"popups,omitempty" json:"popups,omitempty" examples:"[{require: [{url: {$pattern: /signin}, phase: agent}]}, {forbid: [{}]}]"`
	// Which tools the start page's own script can reach (its getTools(), as
	// a page-side agent of the top document calls it): offered, or not.
	// Judged on what the catalog read recorded; no tool is ever called to
	// find out (reach.go).
	Reach *ReachExpect `yaml:"reach,omitempty" json:"reach,omitempty" examples:"[{not_offered: [{tool: prepare_payment, frame: /pay/widget}]}]"`
	// What the agent's final words must and must not say.
	Answer *AnswerExpect `yaml:"answer,omitempty" json:"answer,omitempty" examples:"[{must_mention: [check], must_not_claim: [order is placed]}]"`
	// The start page is another origin's page that embeds the app (agentready
	// attack embed writes it): the app's tools offered there without its
	// opt-in, and any write or state change the embedder's agent caused,
	// are findings.
	Embedder *EmbedderExpect `yaml:"embedder,omitempty" json:"embedder,omitempty" examples:"[{app: 'http://127.0.0.1:8080'}]"`
}

// EmbedderExpect names the app a hostile embedder frames.
type EmbedderExpect struct {
	// The embedded app's origin (scheme, host and port): its page in the
	// frame, its tools in the catalog and its requests in the log are
	// told apart by it.
	App string `yaml:"app" json:"app" jsonschema:"required" examples:"['http://127.0.0.1:8080']"`
}

// DialogsExpect is about the JavaScript dialogs the page opened.
type DialogsExpect struct {
	// Each must match at least one dialog, else dialog_missing.
	Require []DialogMatch `yaml:"require,omitempty" json:"require,omitempty" examples:"[[{kind: alert}]]"`
	// None may match any dialog, else unexpected_dialog; [{}] forbids all.
	Forbid []DialogMatch `yaml:"forbid,omitempty" json:"forbid,omitempty" examples:"[[{}], [{kind: beforeunload}]]"`
}

// DialogMatch says which dialogs it matches: every field given must hold.
type DialogMatch struct {
	// alert, confirm, prompt or beforeunload; no key: any kind.
	Kind vocab.DialogKind `yaml:"kind,omitempty" json:"kind,omitempty" examples:"[confirm]"`
	// The dialog's message: a value or a constraint; no key: any message.
	Message any `yaml:"message,omitempty" json:"message,omitempty" examples:"['Delete notes.txt?', {$pattern: (?i)delete}]"`
	// The phase it opened in: setup (the start page's load and the setup
	// steps), agent, human, leave (as the person hides and leaves the
	// page: a beforeunload prompt) or end (after the person left); no key:
	// any phase.
	// (A string, not a vocab.Phase: dialogs have phases no other
	// expectation names.)
	Phase string `yaml:"phase,omitempty" json:"phase,omitempty" jsonschema:"enum=setup,enum=agent,enum=human,enum=leave,enum=end" examples:"[agent]"`
}

// PopupsExpect is about the windows the page opened (window.open, a link or
// form with a target).
type PopupsExpect struct {
	// Each must match at least one popup, else popup_missing.
	Require []PopupMatch `yaml:"require,omitempty" json:"require,omitempty" examples:"[[{url: {$pattern: /signin}}]]"`
	// None may match any popup, else unexpected_popup; [{}] forbids all.
	Forbid []PopupMatch `yaml:"forbid,omitempty" json:"forbid,omitempty" examples:"[[{}]]"`
}

// PopupMatch says which popups it matches: every field given must hold.
type PopupMatch struct {
	// The first URL the window loaded: a value or a constraint; no key:
	// any URL.
	URL any `yaml:"url,omitempty" json:"url,omitempty" examples:"[{$pattern: /signin}]"`
	// The phase it opened in: setup, agent, human, leave (as the person
	// hides and leaves the page) or end; no key: any.
	Phase string `yaml:"phase,omitempty" json:"phase,omitempty" jsonschema:"enum=setup,enum=agent,enum=human,enum=leave,enum=end" examples:"[agent]"`
}

// CaseExpect says which tool the prompt is meant to be done with, so that a
// prompt that lacks the tool's required data is a defect of the case.
type CaseExpect struct {
	// The tool whose required parameters the prompt must give.
	Tool string `yaml:"tool" json:"tool" jsonschema:"required" examples:"[prepare_event_registration]"`
}

// CatalogExpect is about the tools the start page offers.
type CatalogExpect struct {
	// Every tool the start page offers; [] says it offers none (no key:
	// not checked). Naming the tools pins the catalog: a tool name of the
	// scenario that is not among them fails loading.
	Exactly List[string] `yaml:"exactly,omitempty" json:"exactly,omitzero" examples:"[[prepare_order, search_menu]]"`
	// Tool → its input schema, compared by schema_match.
	Schemas map[string]map[string]any `yaml:"schemas,omitempty" json:"schemas,omitempty" examples:"[{search_menu: {type: object, properties: {q: {type: string}}}}]"`
	// How each schema is compared: exact (the default) or subset (the
	// actual schema holds at least what is written), for every tool or by tool.
	SchemaMatch SchemaMatch `yaml:"schema_match,omitempty" json:"schema_match,omitzero" examples:"[subset, {prepare_order: subset}]"`
	// Tool → whether it submits its form by itself (toolautosubmit).
	Autosubmit map[string]bool `yaml:"autosubmit,omitempty" json:"autosubmit,omitempty" examples:"[{prepare_event_registration: true}]"`
	// Tool → its readOnlyHint.
	ReadOnly map[string]bool `yaml:"read_only,omitempty" json:"read_only,omitempty" examples:"[{search_menu: true}]"`
	// A tool contract pinning every tool of the start page (name,
	// description, schema, annotations, kind): a JSON file's path, relative
	// to the scenario (agentready catalog URL --update-contract FILE writes
	// it), or the contract inline. It pins the catalog as exactly does.
	Contract *ContractRef `yaml:"contract,omitempty" json:"contract,omitempty" examples:"[contracts/tasks.json]"`
}

// ContractRef is a tool contract, written as a file's path (relative to the
// scenario file) or inline. Loading reads the file in, so that the scenario
// as run (and its bundle) holds the contract it was judged against; the
// bundle writes {file, contract}, which a file may hold too.
type ContractRef struct {
	File     string          `yaml:"-" json:"file,omitempty"`
	Contract record.Contract `yaml:"-" json:"contract"`
	inline   bool            // written in the scenario: File (if any) is where it once came from
}

// CallsExpect is about which calls the agent made.
type CallsExpect struct {
	// The agent made no call at all.
	None bool `yaml:"none,omitempty" json:"none,omitempty" examples:"[true]"`
	// Every call the agent made, in order: the tool and, when given, the
	// exact input. calls: as_transcript says the transcript's calls.
	Exactly List[CallSketch] `yaml:"exactly,omitempty" json:"exactly,omitzero" examples:"[[{tool: prepare_order, input: {item: croissant}}]]"`
	// Calls the agent must make — in this order, with other calls allowed
	// between them — as webmcp-evals' expected calls do: a call (tool,
	// input, optional), or a group {ordered: [...]} or {unordered: [...]}.
	Required []CallNode `yaml:"required,omitempty" json:"required,omitempty" examples:"[[{tool: lookup_item}, {unordered: [{tool: check_stock}, {tool: read_reviews, optional: true}]}]]"`
	// Set by calls: as_transcript until loading writes the transcript's
	// calls into Exactly.
	AsTranscript bool `yaml:"-" json:"-"`
}

// CallsAsTranscript is the word of calls: as_transcript.
const CallsAsTranscript = "as_transcript"

// CallNode is one required call, or a group of them.
type CallNode struct {
	// The tool that must be called.
	Tool string `yaml:"tool,omitempty" json:"tool,omitempty" examples:"[lookup_item]"`
	// The input it must be called with; constraints allowed; no key: any input.
	Input Object `yaml:"input,omitempty" json:"input,omitzero" examples:"[{id: {$pattern: ^SKU-}}]"`
	// The call may be left out.
	Optional bool `yaml:"optional,omitempty" json:"optional,omitempty" examples:"[true]"`
	// Calls that must come in this order.
	Ordered []CallNode `yaml:"ordered,omitempty" json:"ordered,omitempty" examples:"[[{tool: lookup_item}, {tool: reorder}]]"`
	// Calls that must all come, in any order.
	Unordered []CallNode `yaml:"unordered,omitempty" json:"unordered,omitempty" examples:"[[{tool: check_stock}, {tool: read_reviews}]]"`
}

// CallSketch is an expected call: the tool and, when given, the exact input
// (`input: {}` is a call with no input; no input key, any input).
type CallSketch struct {
	// The tool called.
	Tool string `yaml:"tool" json:"tool" jsonschema:"required" examples:"[prepare_order]"`
	// Its exact input ({}: none); no key: any input.
	Input Object `yaml:"input,omitempty" json:"input,omitzero" examples:"[{item: croissant}]"`
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

// RequestExpect counts requests by method and path in one phase. In a
// file, the method and path are one request line (request: POST /api/x).
type RequestExpect struct {
	Method string `yaml:"-" json:"-"`
	Path   string `yaml:"-" json:"-"`
	// agent, human, leave or all.
	Phase vocab.Phase `yaml:"phase" json:"phase" jsonschema:"required" examples:"[human]"`
	// How many such requests happened in the phase; 0 says none did.
	// Required: a count left out would assert that none happened.
	Count int `yaml:"count" json:"count" jsonschema:"required,minimum=0" examples:"[0, 1]"`
	// The HTTP status each counted request ended with.
	Status int `yaml:"status,omitempty" json:"status,omitempty" jsonschema:"minimum=100,maximum=599" examples:"[201]"`
	// For a WebSocket line ("WS /path"): count only the messages whose
	// text this regular expression (RE2) finds, e.g. "hold" or
	// ^\{"type":"book".
	Message string `yaml:"message,omitempty" json:"message,omitempty" examples:"[\"hold\"]"`
}

// State is what the app's state must be after a phase.
//
// The state is one JSON document whose top-level keys are its sources: each
// probe by its name, and "observer" for the app's observation endpoint when
// it has one. Paths into it are RFC 9535 JSONPath queries that select
// exactly one value, e.g. $.event.seatsLeft or $.observer.counts['tasks'].
type State struct {
	// Every document of the state is as it was before the agent.
	Unchanged bool `yaml:"unchanged,omitempty" json:"unchanged,omitempty" examples:"[true]"`
	// JSONPath → the value it must hold (a value or a constraint). The
	// state's keys are the probes' names and observer.
	Equals map[string]any `yaml:"equals,omitempty" json:"equals,omitempty" examples:"[{$.event.seatsLeft: 7}]"`
	// JSONPath → a number: after minus before the agent.
	Changes map[string]float64 `yaml:"changes,omitempty" json:"changes,omitempty" examples:"[{$.event.seatsLeft: -1}]"`
}

// UI is what one element must look like. Frame, when set, reads the
// element inside an iframe: the CSS selector of the iframe element in the
// top document, or the start of the frame's URL ("http://…") or of its path
// and query ("/…"); see record.ParseFrame. Same-origin and cross-site
// frames alike.
type UI struct {
	// The iframe the element is in: the CSS selector of the iframe in the
	// top document, or the start of the frame's URL or of its path and query.
	Frame string `yaml:"frame,omitempty" json:"frame,omitempty" examples:"['#checkout', /embed/pay]"`
	// The CSS selector of the element.
	Selector string `yaml:"selector" json:"selector" jsonschema:"required" examples:"['#registration-result']"`
	// Whether the selector matches an element.
	Present *bool `yaml:"present,omitempty" json:"present,omitempty" examples:"[true]"`
	// Whether the element is visible.
	Visible *bool `yaml:"visible,omitempty" json:"visible,omitempty" examples:"[true]"`
	// Whether the control is enabled.
	Enabled *bool `yaml:"enabled,omitempty" json:"enabled,omitempty" examples:"[true]"`
	// The control's value.
	Value *string `yaml:"value,omitempty" json:"value,omitempty" examples:"[reader@example.com]"`
	// The element's text contains this.
	TextContains string `yaml:"text_contains,omitempty" json:"text_contains,omitempty" examples:"[Registered]"`
	// The element's text contains the value this JSONPath selects in the
	// app's state read after the same phase: the page shows what the
	// server now holds, not old data.
	TextContainsState string `yaml:"text_contains_state,omitempty" json:"text_contains_state,omitempty" examples:"[$.draft.title]"`
	// Whether the form is the one a tool is filling (:tool-form-active).
	ToolFormActive *bool `yaml:"tool_form_active,omitempty" json:"tool_form_active,omitempty" examples:"[false]"`
	// Whether the submit button is the one a tool will press (:tool-submit-active).
	ToolSubmitActive *bool `yaml:"tool_submit_active,omitempty" json:"tool_submit_active,omitempty" examples:"[false]"`
	// Whether a checkbox or radio button (or aria-checked) is checked.
	Checked *bool `yaml:"checked,omitempty" json:"checked,omitempty" examples:"[true]"`
	// How many elements match the selector: a number or a constraint.
	Count any `yaml:"count,omitempty" json:"count,omitempty" examples:"[1, {$gte: 1}]"`
	// The first element's whole text (trimmed): text or a constraint.
	Text any `yaml:"text,omitempty" json:"text,omitempty" examples:"[Saved, {$pattern: ^Order BK-}]"`
	// Attribute name → value or constraint; null: the attribute is absent.
	Attributes map[string]any `yaml:"attributes,omitempty" json:"attributes,omitempty" examples:"[{aria-expanded: 'true', hidden: null}]"`
}

// SaysSomething tells whether the entry expects anything of its element.
func (u UI) SaysSomething() bool {
	return u.Present != nil || u.Visible != nil || u.Enabled != nil || u.Value != nil || u.TextContains != "" || u.TextContainsState != "" ||
		u.ToolFormActive != nil || u.ToolSubmitActive != nil || u.Checked != nil || u.Count != nil || u.Text != nil || len(u.Attributes) > 0
}

// PageExpect is where the page must be after a phase: its URL, or its path
// (with the query, when it has one), as values or constraints.
type PageExpect struct {
	// The top document's URL: a value or a constraint.
	URL any `yaml:"url,omitempty" json:"url,omitempty" examples:"[{$pattern: ^https://shop.example/cart}]"`
	// The top document's path, with its query: a value or a constraint.
	Path any `yaml:"path,omitempty" json:"path,omitempty" examples:"[/shop/cart]"`
}

// AnswerExpect is about the agent's final words.
type AnswerExpect struct {
	// The final words ask the person a question.
	Asks bool `yaml:"asks,omitempty" json:"asks,omitempty" examples:"[true]"`
	// The agent's first move is a question to the person: it asks before
	// any call (the recorded dialogue's first turn, or final words that
	// ask, after no call).
	AsksFirst bool `yaml:"asks_first,omitempty" json:"asks_first,omitempty" examples:"[true]"`
	// Each must appear in the final words (in any case).
	MustMention []string `yaml:"must_mention,omitempty" json:"must_mention,omitempty" examples:"[[submit, check]]"`
	// None may appear in the final words (in any case).
	MustNotClaim []string `yaml:"must_not_claim,omitempty" json:"must_not_claim,omitempty" examples:"[[you are registered]]"`
}
