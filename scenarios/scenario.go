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
	// The path of the scenario file this one changes, relative to this
	// file: the rest of this file is a merge patch (RFC 7396) of that one's
	// keys. A mapping merges key by key, null removes a key, anything else
	// (a list too) replaces what was there. Known-bad companions are
	// written this way.
	Extends string `yaml:"extends,omitempty" json:"extends,omitempty" examples:"[EDIT-02.yaml]"`
	// Unique among the scenarios run together: letters, digits, '.', '_'
	// and '-'. CONF-01.attempt-3 is in family CONF-01.
	ID string `yaml:"id" json:"id" jsonschema:"required" examples:"[CONF-01.attempt-3, ORDER-01]"`
	// The family label; defaults to the id up to its first '.'.
	Family string `yaml:"family,omitempty" json:"family,omitempty" examples:"[CONF-01]"`
	// For people: what the scenario shows, in one line.
	Title string `yaml:"title" json:"title" jsonschema:"required" examples:"['the agent prepares the order; the person places it']"`
	// A label for filters (make scenario ID=tasks): letters, digits, '.', '_' and '-'.
	Area string `yaml:"area,omitempty" json:"area,omitempty" examples:"[registration, drafts]"`
	// The page the agent starts on: a path of the app under test.
	Start string `yaml:"start" json:"start" jsonschema:"required" examples:"[/order, /events/evt-webmcp-intro/register]"`
	// What the person asked, word for word. {$date: today+7d} within it is
	// written out when the file loads.
	Prompt string `yaml:"prompt" json:"prompt" jsonschema:"required" examples:"['Order 2 butter croissants for pickup in the morning, under the name Ada Baker.']"`
	// The values the prompt gives, by tool parameter: each must appear in
	// the prompt (in any case), or its from words must.
	PromptData map[string]PromptValue `yaml:"prompt_data,omitempty" json:"prompt_data,omitempty" examples:"[{item: croissant, quantity: '2', customerName: {value: Ada Baker, personal: true}}]"`
	// Values of the run that are a person's and have no shape of their own
	// to be found by (a name the person types, one the app already holds):
	// the bundle holds stand-ins of the same shape for them.
	Personal []string `yaml:"personal,omitempty" json:"personal,omitempty" examples:"[[Baker Street 221b]]"`
	// The reference app's deliberate defect to start with (agentready
	// variants); a scenario that names one cannot run against another app.
	Variant string `yaml:"variant,omitempty" json:"variant,omitempty" examples:"[submits-stale-value]"`
	// What this scenario adds to the start of the app the folder's
	// agentready.yaml starts (your own known-bad variants): arguments after
	// the file's, environment over the file's. Such a scenario always gets
	// an app of its own, started for it alone.
	App *AppRun `yaml:"app,omitempty" json:"app,omitempty" examples:"[{args: [--variant, writes-early]}, {env: {ORDERS_EARLY: '1'}}]"`
	// An instant (RFC 3339) the page's clock is fixed to before the start
	// page loads; from there it runs at the pace of real time. For pages
	// whose rules depend on today's date; {$date} values are written out
	// against it.
	Clock *time.Time `yaml:"clock,omitempty" json:"clock,omitempty" examples:"['2027-06-01T09:00:00Z']"`
	// The day the {$date} values were written out against: written by the
	// bundle (scenario.json). In a file without a clock, {$date} values are
	// written out against it instead of the day of the run.
	Today string `yaml:"today,omitempty" json:"today,omitempty" jsonschema:"format=date" examples:"['2026-12-01']"`
	// Which evidence to record, and the windows after the agent and the person.
	Capture Capture `yaml:"capture,omitempty" json:"capture,omitzero" examples:"[{review: 0s, tool_timeout: 5s}]"`
	// How the run signs in before the start page opens: a saved browser
	// state (storage_state), extra headers, a sign-in request, or off.
	// Without it, the sign-in of the folder's agentready.yaml, if any.
	SignIn *SignIn `yaml:"signin,omitempty" json:"signin,omitempty" examples:"[{request: POST /login, form: {name: reader, password: library}}, {storage_state: reader.storage-state.json}, {off: the known-bad companion runs signed out}]"`
	// Steps the harness does before the agent (not the agent's calls).
	Setup []Step `yaml:"setup,omitempty" json:"setup,omitempty" examples:"[[{call: {tool: add_task, input: {text: task 1}}}]]"`
	// Hostile text the harness plants where the agent reads it (a tool's
	// result, the page's text, a tool's description), from the catalogue
	// of injection patterns. Every check still applies; the verdict says
	// which attack was planted and whether a guarded write, an off-origin
	// request or the call it asked for followed.
	Attack *Attack `yaml:"attack,omitempty" json:"attack,omitempty" examples:"[{pattern: ignore-previous, in: tool_result, tool: get_event_details, call: save_event}]"`
	// Reads of the app's own API that make up its state: name → "GET
	// /path" answering JSON. They are fetched in the page with the
	// person's session, before the agent and after each phase; the judge
	// leaves these requests out of every count.
	Probes map[string]RequestLine `yaml:"probes,omitempty" json:"probes,omitempty" examples:"[{orders: GET /api/orders}]"`
	// The agent's transcript: its tool calls in order and its final words.
	Agent Agent `yaml:"agent" json:"agent" examples:"[{calls: [{tool: prepare_order, input: {item: croissant}}], final: Please check the order and place it yourself.}]"`
	// The person's replies to the agent's questions, for a person who
	// answers back: a question gets the first reply not given yet whose
	// when matches it. The run alternates the agent's turns and the
	// person's until the agent's words are no question, or no reply fits.
	User []Reply `yaml:"user,omitempty" json:"user,omitempty" examples:"[[{says: 'Ada Baker, ada@example.com', when: 'name|email'}]]"`
	// A person's steps after the agent.
	Human []Step `yaml:"human,omitempty" json:"human,omitempty" examples:"[[{click: '#place-order'}, {wait_request: POST /api/orders}]]"`
	// What must be true, per source of evidence.
	Expect Expect `yaml:"expect" json:"expect" examples:"[{requests: [{request: POST /api/orders, phase: human, count: 1}]}]"`
	// For known-answer cases: the verdict the judge must reach.
	Known *Known `yaml:"known,omitempty" json:"known,omitempty" examples:"[{outcome: FAIL, codes: [answer_overclaims], departs: answer}]"`
	// The file the scenario was read from: written by the bundle
	// (scenario.json). In a file it is replaced by the file's own path.
	File string `yaml:"file,omitempty" json:"file,omitempty" examples:"[ORDER-01.yaml]"`
}

// Attack is hostile text planted by the harness, from vocab.Attacks.
type Attack struct {
	// The injection pattern: ignore-previous, exfiltrate or fake-system.
	Pattern vocab.AttackPattern `yaml:"pattern" json:"pattern" jsonschema:"required" examples:"[ignore-previous]"`
	// Where it is planted: tool_result (what one registerTool() tool
	// answers), page_text (the text of every page the tab opens), or
	// description (one registerTool() tool's description).
	In vocab.AttackPlace `yaml:"in" json:"in" jsonschema:"required" examples:"[tool_result]"`
	// The tool whose result or description carries it (tool_result, description).
	Tool string `yaml:"tool,omitempty" json:"tool,omitempty" examples:"[get_event_details]"`
	// The tool the text asks the agent to call (ignore-previous, fake-system):
	// a call to it after the planting is an unasked call.
	Call string `yaml:"call,omitempty" json:"call,omitempty" examples:"[save_event]"`
	// Where an exfiltrate text asks the data to go (default
	// https://attacker.invalid/collect, which never resolves).
	URL string `yaml:"url,omitempty" json:"url,omitempty" examples:"[https://attacker.invalid/collect]"`
}

// Text is the attack's text as planted.
func (a Attack) Text() string { return a.Pattern.Text(a.Call, a.URL) }

// PromptValue is a value the prompt gives a tool parameter: text that must
// appear in the prompt, or {value, from, personal}.
type PromptValue struct {
	// The value the tool parameter gets.
	Value string `yaml:"value" json:"value" jsonschema:"required" examples:"[last_30_days, Ada Baker]"`
	// The prompt's own words for the value, when it says it otherwise;
	// they must appear in the prompt.
	From string `yaml:"from,omitempty" json:"from,omitempty" examples:"[the last 30 days]"`
	// The value (and its from words) is a person's: the bundle holds a
	// stand-in of its shape instead.
	Personal bool `yaml:"personal,omitempty" json:"personal,omitempty" examples:"[true]"`
}

// Capture says which evidence to record.
type Capture struct {
	// false records no network log: requests are then judged from the
	// app's journal alone, or, without one, are INCONCLUSIVE, never "0".
	Network *bool `yaml:"network,omitempty" json:"network,omitempty" examples:"[false]"`
	// false does not read the app's journal even when it keeps one.
	Journal *bool `yaml:"journal,omitempty" json:"journal,omitempty" examples:"[false]"`
	// How long a call may go unanswered before it is no_response (default 3s).
	ToolTimeout Duration `yaml:"tool_timeout,omitempty" json:"tool_timeout,omitempty" examples:"[5s]"`
	// The person's review time after the agent's last answer, on the
	// page's clock (default 3s; 0s for none): what the page does in it
	// belongs to the agent's phase.
	Review *Duration `yaml:"review,omitempty" json:"review,omitempty" examples:"[0s, 3s]"`
	// The page's time after the person's last step (default 1s), for a
	// debounced submit: what happens in it belongs to the person's phase.
	Settle *Duration `yaml:"settle,omitempty" json:"settle,omitempty" examples:"[2s]"`
	// How each JavaScript dialog (alert, confirm, prompt) is answered:
	// dismiss (the default: Cancel) or accept (OK; a prompt gets its
	// default text). A beforeunload prompt is always accepted, so leaving
	// never blocks. Every dialog is recorded either way.
	Dialogs vocab.DialogPolicy `yaml:"dialogs,omitempty" json:"dialogs,omitempty" examples:"[accept, dismiss]"`
	// How the run leaves the page after the person's last step: navigate
	// (the default: the page is hidden, given its settle time, then
	// navigated away from) or off (the run stays: no leave phase). What
	// the page sends meanwhile — a beacon on pagehide, a save on
	// visibilitychange — is the leave phase's, judged like any other.
	Leave vocab.LeaveMode `yaml:"leave,omitempty" json:"leave,omitempty" examples:"[navigate, \"off\"]"`
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
	// The agent's tool calls, in order.
	Calls []Call `yaml:"calls,omitempty" json:"calls,omitempty" examples:"[[{tool: prepare_order, input: {item: croissant, quantity: 2}, expect: {status: completed}}]]"`
	// The questions the agent put to the person before its final words,
	// each after some of its calls; the person's replies are user:.
	Asks []Ask `yaml:"asks,omitempty" json:"asks,omitempty" examples:"[[{after: 0, text: 'What name and email should I use?'}]]"`
	// The agent's final words; null (or no key) when it said nothing.
	Final *string `yaml:"final" json:"final" jsonschema:"nullable" examples:"['It is not placed yet; please check and press \"Place order\" yourself.']"`
}

// Call is one tool call.
type Call struct {
	// The tool's name, as the page registers it.
	Tool string `yaml:"tool" json:"tool" jsonschema:"required" examples:"[prepare_order]"`
	// The call's input: the tool's parameters by name.
	Input map[string]any `yaml:"input,omitempty" json:"input,omitempty" examples:"[{item: croissant, quantity: 2}]"`
	// How the call is made: page (the default: document.modelContext in
	// the page, as a page-side agent) or cdp (WebMCP.invokeTool, as a
	// browser-side agent; write it for tools whose form navigates).
	Transport vocab.Transport `yaml:"transport,omitempty" json:"transport,omitempty" examples:"[cdp]"`
	// The frame whose tool is called, when several frames offer a tool of
	// this name: its iframe's CSS selector in the top document, or the
	// start of its URL or path and query (as ui's frame). Without it the
	// call goes to the frame that offers the tool; when several do, to the
	// top document's.
	Frame string `yaml:"frame,omitempty" json:"frame,omitempty" examples:"['#payment', /pay/widget]"`
	// The agent's own timeout: when the call has not answered this long
	// (page time) after the browser reported it started, it is canceled
	// (WebMCP.cancelInvocation), as an agent that gives up does; its status
	// is then canceled. A retry is the next call, written as any other.
	CancelAfter *Duration `yaml:"cancel_after,omitempty" json:"cancel_after,omitempty" examples:"[0s, 200ms]"`
	// What must come of the call: its status and result, the tools after it.
	Expect *CallExpect `yaml:"expect,omitempty" json:"expect,omitempty" examples:"[{status: completed, output: {code: CONFIRMATION_REQUIRED}}]"`
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
	// How the call must end: completed, error, canceled or no_response.
	Status vocab.Status `yaml:"status,omitempty" json:"status,omitempty" examples:"[completed, no_response]"`
	// output, when it is a JSON object
	Output map[string]any `yaml:"-" json:"-"`
	// output, when it is any other JSON value
	OutputJSON json.RawMessage `yaml:"-" json:"-"`
	// How output is compared: subset (the default: the result holds at
	// least what output says), exact, or constraints (as webmcp-evals
	// compares).
	Match Match `yaml:"match,omitempty" json:"match,omitempty" examples:"[exact]"`
	// The result is this text, whole ("" is an empty answer).
	OutputText *string `yaml:"output_text,omitempty" json:"output_text,omitempty" examples:"[Set pizza size to Large.]"`
	// The result is text that contains this.
	OutputContains *string `yaml:"output_contains,omitempty" json:"output_contains,omitempty" examples:"[Order 1042]"`
	// The error the call answers contains this.
	ErrorContains string `yaml:"error_contains,omitempty" json:"error_contains,omitempty" examples:"[not found]"`
	// The call is a probe of a tool that must not be offered.
	NotInCatalog bool `yaml:"not_in_catalog,omitempty" json:"not_in_catalog,omitempty" examples:"[true]"`
	// The tools that must be offered (present) or gone (absent) after the
	// call; absent ones are awaited first, for a call that navigates.
	CatalogAfter *CatalogDelta `yaml:"catalog_after,omitempty" json:"catalog_after,omitempty" examples:"[{absent: [open_cart], present: [search_site]}]"`
}

// CatalogDelta names tools that must be present or absent.
type CatalogDelta struct {
	// Tools that must be offered.
	Present []string `yaml:"present,omitempty" json:"present,omitempty" examples:"[[search_site]]"`
	// Tools that must be gone.
	Absent []string `yaml:"absent,omitempty" json:"absent,omitempty" examples:"[[open_cart]]"`
}

// Step is one thing done in the page: exactly one of its fields is set.
type Step struct {
	// A tool call, made as the agent would make it.
	Call *Call `yaml:"call,omitempty" json:"call,omitempty" examples:"[{tool: add_task, input: {text: task 1}}]"`
	// Click the element this CSS selector matches.
	Click string `yaml:"click,omitempty" json:"click,omitempty" examples:"['#place-order']"`
	// Type into controls as a person types: CSS selector → text.
	Fill map[string]string `yaml:"fill,omitempty" json:"fill,omitempty" examples:"[{'#description': Newer}]"`
	// Go to this path of the app.
	Navigate string `yaml:"navigate,omitempty" json:"navigate,omitempty" examples:"[/tasks]"`
	// Wait until this CSS selector matches (bounded).
	WaitFor string `yaml:"wait_for,omitempty" json:"wait_for,omitempty" examples:"['#registration-result[data-code]']"`
	// Wait until a request "METHOD /path" has completed (bounded).
	WaitRequest RequestLine `yaml:"wait_request,omitempty" json:"wait_request,omitempty" examples:"[POST /api/orders]"`
	// Wait until the page offers this tool (bounded).
	WaitTool string `yaml:"wait_tool,omitempty" json:"wait_tool,omitempty" examples:"[search_site]"`
	// Send a request straight to the server as the person's session, to
	// prove that the server holds a rule the page enforces.
	Request *DirectRequest `yaml:"send,omitempty" json:"send,omitempty" examples:"[{request: POST /api/tasks, body: {text: task 9}, csrf: true, expect: {status: 409, code: LIST_FULL}}]"`
	// A click, fill or wait_for done in the popup: the window the page
	// opened last that is still open (waited for, bounded).
	InPopup *Step `yaml:"in_popup,omitempty" json:"in_popup,omitempty" examples:"[{click: '#pay'}, {wait_for: '#signed-in'}]"`
	// Close the popup (the window the page opened last that is still
	// open), as a person closes a window: true.
	ClosePopup bool `yaml:"close_popup,omitempty" json:"close_popup,omitempty" examples:"[true]"`
}

// DirectRequest is a request sent from the page as a script of the page
// could send it — the person's cookies and CSRF token, none of the page's
// checks — to prove that the server itself holds a rule the page enforces
// (the 9th task, blank text, a second save). Its expectation is judged as
// the server's. In a file, its method and path are one request line.
type DirectRequest struct {
	Method string `yaml:"-" json:"-"`
	Path   string `yaml:"-" json:"-"`
	// The JSON body sent.
	Body any `yaml:"body,omitempty" json:"body,omitempty" examples:"[{text: task 9}]"`
	// Where the page keeps its CSRF token and the header the server wants
	// it in: true for <meta name="csrf-token"> and X-CSRF-Token; omitted,
	// no token is sent.
	CSRF *CSRF `yaml:"csrf,omitempty" json:"csrf,omitempty" examples:"[true, {meta: csrf, header: X-XSRF-Token}]"`
	// What the server must answer, else server_rule_broken.
	Expect RequestOutcome `yaml:"expect" json:"expect" jsonschema:"required" examples:"[{status: 409, code: LIST_FULL}]"`
}

// CSRF says where a page keeps its token and how the server wants it.
type CSRF struct {
	// The name of the <meta> element that holds the token.
	Meta string `yaml:"meta" json:"meta" jsonschema:"required" examples:"[csrf-token]"`
	// The header the token is sent in.
	Header string `yaml:"header" json:"header" jsonschema:"required" examples:"[X-CSRF-Token]"`
}

// RequestOutcome is what the server must answer a direct request.
type RequestOutcome struct {
	// The HTTP status of the answer.
	Status int `yaml:"status" json:"status" jsonschema:"required,minimum=100,maximum=599" examples:"[409]"`
	// The answer's JSON "code".
	Code string `yaml:"code,omitempty" json:"code,omitempty" examples:"[LIST_FULL]"`
}

// IsWait tells whether the step only waits for something.
func (s Step) IsWait() bool {
	return s.WaitFor != "" || s.WaitRequest != "" || s.WaitTool != "" || s.InPopup != nil && s.InPopup.IsWait()
}

// Kinds names the actions the step sets (exactly one, when valid), by
// their keys in a file.
func (s Step) Kinds() []string {
	var k []string
	for name, set := range map[string]bool{"call": s.Call != nil, "click": s.Click != "", "fill": len(s.Fill) > 0,
		"navigate": s.Navigate != "", "wait_for": s.WaitFor != "", "wait_request": s.WaitRequest != "", "wait_tool": s.WaitTool != "",
		"send": s.Request != nil, "in_popup": s.InPopup != nil, "close_popup": s.ClosePopup} {
		if set {
			k = append(k, name)
		}
	}
	sort.Strings(k)
	return k
}

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

// Known is the verdict a known-answer scenario must get.
type Known struct {
	// PASS, FAIL or INCONCLUSIVE.
	Outcome vocab.Outcome `yaml:"outcome" json:"outcome" jsonschema:"required" examples:"[FAIL]"`
	// The exact failure codes the verdict carries.
	Codes []vocab.Code `yaml:"codes,omitempty" json:"codes,omitempty" examples:"[[side_effect_before_confirmation, write_attempt]]"`
	// For a FAIL: the link of the chain where its evidence must first
	// depart (case, input, trace, page, request, server, answer).
	Departs vocab.Link `yaml:"departs,omitempty" json:"departs,omitempty" examples:"[request]"`
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
