package vocab

// Code names why a check did not pass.
type Code string

// CodeInfo documents a code: what it means, which sources raise it, and
// whether it fails the verdict or leaves it inconclusive.
type CodeInfo struct {
	Meaning string
	Sources []Source
	Fails   bool // false: the check is inconclusive
}

// The failure codes. scenarios/README.md has the same table; a test keeps
// the two equal.
const (
	DeclarativeCompletionMissing Code = "declarative_completion_missing"
	ToolNotInCatalog             Code = "tool_not_in_catalog"
	ToolLate                     Code = "tool_late"
	UnexpectedToolCall           Code = "unexpected_tool_call"
	MissingToolCall              Code = "missing_tool_call"
	WrongToolInput               Code = "wrong_tool_input"
	ToolError                    Code = "tool_error"
	UnexpectedResult             Code = "unexpected_result"
	SideEffectBeforeConfirmation Code = "side_effect_before_confirmation"
	SideEffectOnLeave            Code = "side_effect_on_leave"
	RequestCountMismatch         Code = "request_count_mismatch"
	RequestStatusMismatch        Code = "request_status_mismatch"
	UIMismatch                   Code = "ui_mismatch"
	UINotState                   Code = "ui_not_state"
	StateChanged                 Code = "state_changed"
	StateMismatch                Code = "state_mismatch"
	CatalogMismatch              Code = "catalog_mismatch"
	SchemaMismatch               Code = "schema_mismatch"
	AnswerOverclaims             Code = "answer_overclaims"
	AnswerIncomplete             Code = "answer_incomplete"
	NoClarifyingQuestion         Code = "no_clarifying_question"
	WriteAttempt                 Code = "write_attempt"
	EvidenceMissing              Code = "evidence_missing"
	EvidenceDisagrees            Code = "evidence_disagrees"
	CaseIncomplete               Code = "case_incomplete"
	InputViolatesSchema          Code = "input_violates_schema"
	ValidInputRefused            Code = "valid_input_refused"
	ServerRuleBroken             Code = "server_rule_broken"
	ContractBroken               Code = "contract_broken"
	PageIncomplete               Code = "page_incomplete"
	ContentMismatch              Code = "content_mismatch"
	SubmittedNotReviewed         Code = "submitted_not_reviewed"
	HarnessFault                 Code = "harness_fault"
	BrowserLost                  Code = "browser_lost"
	RunInterrupted               Code = "run_interrupted"
	UnexpectedDialog             Code = "unexpected_dialog"
	DialogMissing                Code = "dialog_missing"
	UnexpectedPopup              Code = "unexpected_popup"
	PopupMissing                 Code = "popup_missing"
	RendererCrashed              Code = "renderer_crashed"
	EmbedderWrite                Code = "embedder_write"
	EmbedderToolsVisible         Code = "embedder_tools_visible"
	ToolOffered                  Code = "tool_offered"
	ToolNotOffered               Code = "tool_not_offered"
	ReplayAccepted               Code = "replay_accepted"
	ExpiredReplayAccepted        Code = "expired_replay_accepted"
	ReplaySecondEffect           Code = "replay_second_effect"
	RaceLostUpdate               Code = "race_lost_update"
	OtherTokenAccepted           Code = "other_token_accepted"
	DroppedFieldAccepted         Code = "dropped_field_accepted"
	OtherObjectAccepted          Code = "other_object_accepted"
	OtherTargetAccepted          Code = "other_target_accepted"
)

// Codes is the table of every code.
var Codes = map[Code]CodeInfo{
	DeclarativeCompletionMissing: {"a declarative tool was invoked and never answered: the form may look right, but the tool lifecycle is half done", []Source{SrcTrace}, true},
	ToolNotInCatalog:             {"the agent called a tool the page did not offer at that moment", []Source{SrcTrace, SrcCatalog}, true},
	ToolLate:                     {"a tool the agent called arrived in the catalog only after the catalog had settled (300 ms quiet, 5 s at most): the page registers it too late for an agent to see it", []Source{SrcTrace, SrcCatalog}, true},
	UnexpectedToolCall:           {"the agent made a call the scenario does not allow", []Source{SrcTrace}, true},
	MissingToolCall:              {"the agent did not make a call the scenario requires", []Source{SrcTrace}, true},
	WrongToolInput:               {"the agent called the right tool with other input than the prompt gave", []Source{SrcTrace}, true},
	ToolError:                    {"a tool answered with an error where the scenario expects a result", []Source{SrcTrace}, true},
	UnexpectedResult:             {"a tool's result, or the catalog after it, differs from what the scenario expects", []Source{SrcTrace, SrcCatalog}, true},
	SideEffectBeforeConfirmation: {"a guarded request (a write the person must confirm) happened before the person's step", []Source{SrcNetwork, SrcJournal}, true},
	SideEffectOnLeave:            {"a guarded request (a write the person must confirm) happened while the person hid and left the page after their last step: no step of theirs asked for it", []Source{SrcNetwork, SrcJournal}, true},
	RequestCountMismatch:         {"the number of requests of a method and path in a phase differs from the expected count", []Source{SrcNetwork, SrcJournal}, true},
	RequestStatusMismatch:        {"a counted request of a method and path ended with another HTTP status than expected", []Source{SrcNetwork, SrcJournal}, true},
	PageIncomplete:               {"a stylesheet of the page did not load (a 404, another host unreachable): whether an element is visible cannot be judged", []Source{SrcUI, SrcNetwork}, false},
	UIMismatch:                   {"an element's value, visibility, enabled state, text or WebMCP pseudo-class differs", []Source{SrcUI}, true},
	UINotState:                   {"an element's text lacks the value the app's state holds after the phase (text_contains_state): the page shows old or other data", []Source{SrcUI, SrcState}, true},
	StateChanged:                 {"a document of the app's state changed where it must not", []Source{SrcState}, true},
	StateMismatch:                {"a value at a path of the app's state, or its change since before the agent, differs from the expected one; or the app answered a read of its state with a server error after the agent acted", []Source{SrcState}, true},
	CatalogMismatch:              {"the start page offers other tools than expected, or annotations differ", []Source{SrcCatalog}, true},
	SchemaMismatch:               {"a tool's input schema differs from the expected one (with schema_match subset: lacks part of it)", []Source{SrcCatalog}, true},
	AnswerOverclaims:             {"the agent's final words claim something the evidence does not show (e.g. 'registered' when only prepared)", []Source{SrcAnswer}, true},
	AnswerIncomplete:             {"the agent's final words leave out something the person must be told", []Source{SrcAnswer}, true},
	NoClarifyingQuestion:         {"the agent did not ask the person for what the prompt left open", []Source{SrcAnswer}, true},
	WriteAttempt:                 {"write requests reached the app (its journal, or the network log to its origin) in a phase where none may happen", []Source{SrcNetwork, SrcJournal}, true},
	EvidenceMissing:              {"a source the scenario names was not recorded (capture off; for requests, neither a network log nor a journal): the check cannot be made", []Source{SrcNetwork, SrcJournal, SrcState, SrcUI, SrcCatalog, SrcTrace, SrcAnswer}, false},
	EvidenceDisagrees:            {"two sources disagree (network log vs journal, transcript vs trace, protocol catalog vs getTools())", []Source{SrcNetwork, SrcJournal, SrcTrace, SrcCatalog}, true},
	CaseIncomplete:               {"the prompt lacks data that the tool's schema requires: the case itself cannot be done right", []Source{SrcCase}, false},
	InputViolatesSchema:          {"the agent called a tool with input its declared schema refuses (the agent's fault: the browser checks none)", []Source{SrcTrace}, true},
	ContractBroken:               {"a tool of the page differs from its contract (name, description, input schema, annotations or kind), or a tool was added or is gone", []Source{SrcCatalog}, true},
	ServerRuleBroken:             {"a request sent straight to the server as the person's session was not answered as the scenario expects: the server does not hold a rule the page enforces", []Source{SrcNetwork}, true},
	ContentMismatch:              {"what a request carried, or the resource its body makes by the API's merge rule, differs in full from the expected document (a field changed, added or dropped; another list entry deleted)", []Source{SrcNetwork}, true},
	SubmittedNotReviewed:         {"a request carried something other than what the person had before them when they clicked: a value changed or stale, or a field they were not shown", []Source{SrcNetwork, SrcUI}, true},
	ValidInputRefused:            {"the page refused, as invalid, an input its own declared schema allows (the app's fault: schema and page disagree)", []Source{SrcTrace}, true},
	UnexpectedDialog:             {"the page opened a JavaScript dialog (alert, confirm, prompt, beforeunload) that expect.dialogs forbids", []Source{SrcUI}, true},
	DialogMissing:                {"the page did not open a JavaScript dialog that expect.dialogs requires (of its kind, message and phase)", []Source{SrcUI}, true},
	UnexpectedPopup:              {"the page opened a window (window.open, a link or form with a target) that expect.popups forbids", []Source{SrcUI}, true},
	PopupMissing:                 {"the page did not open a window that expect.popups requires (of its URL and phase)", []Source{SrcUI}, true},
	HarnessFault:                 {"the harness could not record part of the run (a page it could not open or read, a read that failed): a check that would fail on evidence the fault may have cut is inconclusive (a fault placed in a phase covers that phase and after; one without a place, the whole run)", harnessSources, false},
	BrowserLost:                  {"the browser (or the tab's connection to it) went away before the run was over: nothing after that was recorded, and no check may fail", harnessSources, false},
	EmbedderWrite:                {"a page of another origin that embeds the app (agentready attack embed) made it write: a write request to the app answered 2xx, or the app's state changed, while an agent on that page called the app's tools", []Source{SrcNetwork, SrcState}, true},
	ToolOffered:                  {"a tool expect.reach.not_offered names is offered to the top document's script (its getTools() lists it: the top document's or a same-origin frame's tool, or a cross-origin frame's registered with exposedTo naming the top origin), or it ran", []Source{SrcCatalog, SrcTrace}, true},
	ToolNotOffered:               {"a tool expect.reach.offered names is not offered to the top document's script: no frame registered it, or a cross-origin frame registered it without exposedTo naming the top origin", []Source{SrcCatalog}, true},
	EmbedderToolsVisible:         {"the app's tools were offered to an agent on a page of another origin that embeds it, and the app never said it may be framed there (no Content-Security-Policy frame-ancestors, no X-Frame-Options, no check of window.top before registering)", []Source{SrcCatalog}, true},
	RendererCrashed:              {"the page's renderer process crashed during the run (Inspector.targetCrashed: out of memory, killed, a browser bug): the page was gone, nothing after that was recorded, and no check may fail; the verdict says when", harnessSources, false},
	ReplayAccepted:               {"the suite replayed a person's write as an attacker would (again, from another session, with no session, without its CSRF token, with a stale precondition) and the server accepted what it must refuse", []Source{SrcNetwork}, true},
	ExpiredReplayAccepted:        {"a person's write, replayed with a fresh confirmation after the app's clock moved past the lifetime the scenario declares, was accepted: the confirmation lives too long", []Source{SrcNetwork}, true},
	ReplaySecondEffect:           {"after a replay of a person's write the app's state changed: one confirmation had a second effect, whatever the server answered", []Source{SrcState}, true},
	RaceLostUpdate:               {"of N copies of a person's write sent at once, more than one took effect: the server's check and its write are not one step", []Source{SrcNetwork, SrcState}, true},
	OtherTokenAccepted:           {"the person's write, sent with their cookies and another session's CSRF token, was accepted: the token is checked as one the app issued, not as this session's", []Source{SrcNetwork}, true},
	DroppedFieldAccepted:         {"the person's write with one of its guarded fields left out (its confirmation, its CSRF token, a precondition, an id, a field the form requires) was accepted: a check that runs only when its field is present checks nothing", []Source{SrcNetwork}, true},
	OtherObjectAccepted:          {"the person's write with an id of its body swapped for another existing object's (read from the app's state) was accepted with the person's confirmation: the confirmation is not bound to the object", []Source{SrcNetwork}, true},
	OtherTargetAccepted:          {"the person's write sent to another target of the same path (another existing object's id in place of the path's) was accepted with the person's confirmation: the confirmation is not bound to its target", []Source{SrcNetwork}, true},
	RunInterrupted:               {"the run was interrupted (Ctrl-C, a signal, a spec's timeout) before it was over: the record stops there, and no check may fail", harnessSources, false},
}

// harnessSources are the sources a harness fault can leave unrecorded: all
// of them. A check that would have failed keeps its source and takes the
// fault's code (see FaultCodes).
var harnessSources = []Source{SrcCase, SrcCatalog, SrcTrace, SrcNetwork, SrcJournal, SrcState, SrcUI, SrcAnswer}

// FaultCodes are the codes of the harness's own failures, strongest first:
// a run cut short explains every other fault it caused. A verdict with one
// of them has no failed check: a FAIL needs evidence that was recorded.
var FaultCodes = []Code{RunInterrupted, BrowserLost, RendererCrashed, HarnessFault}

// Fault tells whether c is the code of a harness fault.
func (c Code) Fault() bool {
	for _, f := range FaultCodes {
		if f == c {
			return true
		}
	}
	return false
}

// Known tells whether c is in the table.
func (c Code) Known() bool { _, ok := Codes[c]; return ok }
