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

	"github.com/agentready/agentready/scenarios/vocab"
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
	// AppFolder is the folder whose agentready.yaml names the app this
	// scenario runs against (the nearest one up from the file's folder to
	// the folder loaded), set by Load and LoadDir; "" when none does.
	AppFolder string `yaml:"-" json:"-"`
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
	// Other origins that serve the app's own API ("scheme://host[:port]"):
	// requests there are the app's, as the base URL's origin's always are
	// (writes counts them, the witnesses hold them, their bodies are
	// kept). A write to any other origin is a third party's; guarded and
	// requests name their lines and count them on any origin.
	Origins []string `yaml:"origins,omitempty" json:"origins,omitempty" examples:"[[https://api.shop.example]]"`
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
	// Replay the person's steps with each typed value (fill) varied the
	// ways servers normalise them: a scenario <id>.vary-<way> for each,
	// judged on what the person's click sent against what they had before
	// them (expect.submitted) and on the agent's calls, nothing else.
	Vary []vocab.Variation `yaml:"vary,omitempty" json:"vary,omitempty" jsonschema:"enum=case,enum=space,enum=unicode" examples:"[[case, space, unicode]]"`
	// For known-answer cases: the verdict the judge must reach.
	Known *Known `yaml:"known,omitempty" json:"known,omitempty" examples:"[{outcome: FAIL, codes: [answer_overclaims], departs: answer}]"`
	// The file the scenario was read from: written by the bundle
	// (scenario.json). In a file it is replaced by the file's own path.
	File string `yaml:"file,omitempty" json:"file,omitempty" examples:"[ORDER-01.yaml]"`
	// Deprecated are the spellings of its files read as their current
	// ones: a warning each, at its file and line (migrate.go). They are no
	// part of the scenario: a file and its --fix'ed form load the same.
	Deprecated Problems `yaml:"-" json:"-"`
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
	// The phase whose steps answer the call: human, for a declarative form
	// without toolautosubmit whose call the person's submit answers. The
	// call is left pending past the agent's window (never canceled there),
	// and its answer is awaited after the person's steps; status and output
	// are judged on that answer.
	AnsweredIn vocab.Phase `yaml:"answered_in,omitempty" json:"answered_in,omitempty" examples:"[human]"`
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

// CSRF says where a page keeps its token and how the server wants it: one
// of meta, cookie or from.
type CSRF struct {
	// The name of the <meta> element that holds the token.
	Meta string `yaml:"meta,omitempty" json:"meta,omitempty" examples:"[csrf-token]"`
	// The name of the cookie that holds the token (a double-submit cookie,
	// readable by the page's script).
	Cookie string `yaml:"cookie,omitempty" json:"cookie,omitempty" examples:"[XSRF-TOKEN]"`
	// A read of the app that answers the token, as the page's own script
	// gets it: the request (sent from the page, the person's session) and
	// the RFC 9535 JSONPath of the token in its JSON answer.
	From *CSRFFrom `yaml:"from,omitempty" json:"from,omitempty" examples:"[{request: GET /api/session, path: $.csrfToken}]"`
	// The header the token is sent in.
	Header string `yaml:"header" json:"header" jsonschema:"required" examples:"[X-CSRF-Token]"`
}

// CSRFFrom is a read of the app whose JSON answer holds the CSRF token.
type CSRFFrom struct {
	// The read, "METHOD /path", sent from the page as the person's session.
	Request RequestLine `yaml:"request" json:"request" jsonschema:"required" examples:"[GET /api/session]"`
	// The RFC 9535 JSONPath of the token in the read's JSON answer.
	Path string `yaml:"path" json:"path" jsonschema:"required" examples:"[$.csrfToken]"`
}

// RequestOutcome is what the server must answer a direct request.
type RequestOutcome struct {
	// The HTTP status of the answer.
	Status int `yaml:"status" json:"status" jsonschema:"required,minimum=100,maximum=599" examples:"[409]"`
	// The answer's code: its JSON field code, or the value code_at picks.
	Code string `yaml:"code,omitempty" json:"code,omitempty" examples:"[LIST_FULL]"`
	// Where the answer carries its code, as an RFC 9535 JSONPath into its
	// JSON body ($.code when omitted): $.error for {"error": "CSRF"}.
	CodeAt string `yaml:"code_at,omitempty" json:"code_at,omitempty" examples:"['$.error', '$.errors[0].code']"`
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
