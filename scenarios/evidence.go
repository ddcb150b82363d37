package scenarios

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Evidence is everything one run recorded. The judge reads nothing else, so
// a recorded Evidence can be judged again, anywhere, to the same verdict.
type Evidence struct {
	ScenarioID string `json:"scenarioId"`
	Env        Env    `json:"env"`
	Capture    struct {
		Network  bool `json:"network"`
		Observer bool `json:"observer"`
		// Dialogs tells that the page's JavaScript dialogs were listened
		// for: without it, Dialogs says nothing either way.
		Dialogs bool `json:"dialogs,omitempty"`
		// Popups tells that the windows the page opened were followed:
		// without it, Popups says nothing either way.
		Popups bool `json:"popups,omitempty"`
	} `json:"capture"`

	// Catalog is the start page's catalog as the protocol reported it, and
	// PageTools what getTools() answered at the same moment.
	Catalog   record.Catalog    `json:"catalog"`
	PageTools []record.PageTool `json:"pageTools"`
	// Calls are the setup, agent and human-step calls in the order made.
	Calls []CallRecord `json:"calls"`
	// Trace is every WebMCP event of the tab, whoever caused it.
	Trace []record.Event `json:"trace"`
	// Requests is the tab's request log; nil when network capture was off.
	Requests record.Log `json:"requests"`
	// Journal is the app's request journal; nil without an observer.
	Journal record.Journal `json:"journal"`
	// States are the app's state before the agent and after each phase.
	States map[vocab.Phase]*record.Snapshot `json:"states"`
	// ProbeReads are the requests the harness itself made to read the
	// state, by the phase window they fell in: the judge does not count
	// them as the app's or the agent's.
	ProbeReads []ProbeRead `json:"probeReads,omitempty"`
	// PageToolsHung are the same-origin frames whose getTools() did not
	// settle when the harness asked, after the top document's getTools()
	// left their tools out (webmcp.Client.HungFrames): the browser's hang,
	// which the catalog agreement reads as unknown, not as a disagreement.
	PageToolsHung []string `json:"pageToolsHung,omitempty"`
	// Exposure is, for each origin of a cross-origin frame that offers
	// tools, which of them the top document's getTools({fromOrigins})
	// listed, read with the catalog; nil when no such frame offered any.
	Exposure []record.Exposure `json:"exposure,omitempty"`
	// UI holds the elements the expectations name, after each phase.
	UI map[vocab.Phase][]record.Element `json:"ui"`
	// Pages are the page's URL after each phase, read with its UI.
	Pages map[vocab.Phase]string `json:"pages,omitempty"`
	// Marks are where each phase starts in the trace, request log and journal.
	Marks   map[vocab.Phase]Mark  `json:"marks"`
	Console []record.ConsoleEntry `json:"console"`
	// BrowserIssues are what Chromium said of the page's WebMCP forms
	// through its Audits domain (lint reads them as findings), each located
	// while its document was there: read with the catalog, and before the
	// page is left.
	BrowserIssues []record.BrowserIssue `json:"browserIssues,omitempty"`
	// Dialogs are the JavaScript dialogs the page (or a frame of it)
	// opened, in order, and how each was answered.
	Dialogs []record.Dialog `json:"dialogs,omitempty"`
	// Popups are the windows the page (or a popup of it) opened, in order:
	// each attached, its requests in Requests (their target's window names
	// it), its dialogs in Dialogs, its tools its own.
	Popups []record.Popup `json:"popups,omitempty"`
	Final  *string        `json:"final"`
	// Dialogue is the agent's questions to the person before its final
	// words and the person's replies (the scenario's user:), in order.
	Dialogue []Turn  `json:"dialogue,omitempty"`
	Faults   []Fault `json:"faults,omitempty"` // harness problems met on the way (fault.go)
	// AppOutput is what the app the suite started (agentready.yaml) wrote
	// on stdout and stderr during the scenario, line by line: for people
	// reading a failure; the judge reads none of it.
	AppOutput []string `json:"appOutput,omitempty"`
	// Model is the record of a model that played the agent (package
	// agentmodel: every exchange with it), the bundle's model.json: for
	// people and replay; the judge reads none of it.
	Model json.RawMessage `json:"model,omitempty"`
	// Cut says the run was cut short, and how: vocab.RunInterrupted (its
	// context ended: Ctrl-C, a signal, a timeout) or vocab.BrowserLost (the
	// tab's connection to the browser went away). Empty: the run went to
	// its end. Whatever was recorded after the cut is not the app's doing.
	Cut vocab.Code `json:"cut,omitempty"`
	// Direct are the requests the scenario's steps sent straight to the
	// server as the person's session, and what the server answered.
	Direct []DirectRecord `json:"direct,omitempty"`
	// Windows are the spans of page time the run fast-forwarded (the
	// person's review, the settle after their last step, the hidden page's
	// time before it is left).
	Windows []Window `json:"windows,omitempty"`
	// ClockNotWaited are the requests the page's clock went on without
	// (an open EventSource, a long poll), which would have held the page's
	// time still for good; their traffic is in Requests as any.
	ClockNotWaited []record.NotWaited `json:"clockNotWaited,omitempty"`
	// Leave is how the run left the page after the person's last step;
	// nil when it stayed (capture.leave off).
	Leave *Leave `json:"leave,omitempty"`
	// Reviews are what the person had before them at each of their
	// clicks, read just before the click.
	Reviews []Review `json:"reviews,omitempty"`
	// CatalogSettles are the waits for the page's tools to stop changing
	// (webmcp.SettleRule): after the start load, after each navigation
	// and before each call.
	CatalogSettles []CatalogSettle `json:"catalogSettles,omitempty"`
	// Attack is the attack the harness planted (the scenario's attack, and
	// its text as planted); each planting is an attack_planted event of
	// the trace. Nil when the scenario plants none.
	Attack *PlantedAttack `json:"attack,omitempty"`
	// Replays are the suite's attack replays of recorded writes, performed
	// after the run's last state read, and what became of them.
	Replays *Replays `json:"replays,omitempty"`
	// SignIn is how the tab signed in before the start page, when it did.
	SignIn *SignInRecord `json:"signIn,omitempty"`
	// Unmet are waits of the scenario's steps that ran out: the page never
	// got there. That is news about the app, which the checks judge; it is
	// not a fault of the harness.
	Unmet []string `json:"unmet,omitempty"`
}

// SignInRecord is how the tab signed in before the start page: where the
// sign-in was written, what of it was applied, and what the app answered
// its request. Names only, never a value (a cookie, a header's, a field's).
type SignInRecord struct {
	// From is where the sign-in applied was written: "command line",
	// "scenario" or "folder file".
	From string `json:"from"`
	// Overridden are the scenario's (or folder file's) keys the command
	// line's sign-in replaced.
	Overridden []string `json:"overridden,omitempty"`
	// StorageState is the saved state's file name; Cookies and Origins
	// how many cookies and origins' localStorage it put in the tab.
	StorageState string `json:"storageState,omitempty"`
	Cookies      int    `json:"cookies,omitempty"`
	Origins      int    `json:"origins,omitempty"`
	// Headers are the names of the extra headers sent.
	Headers []string `json:"headers,omitempty"`
	// Request is the sign-in request ("POST /login"), Status the app's
	// answer after redirects, and Landed the path it ended on.
	Request string `json:"request,omitempty"`
	Status  int    `json:"status,omitempty"`
	Landed  string `json:"landed,omitempty"`
	// Error is why the request got no answer (the harness's fault).
	Error string `json:"error,omitempty"`
}

// PlantedAttack is a scenario's attack with the text the harness planted.
type PlantedAttack struct {
	Attack
	Text string `json:"text"`
	// CallMarks are where the trace and the request log stood as each call
	// of Calls started (same order): a planting inside a call is placed in
	// the request log by them, since requests are timed on the page's clock.
	CallMarks []Mark `json:"callMarks"`
}

// Env describes where the run happened.
type Env struct {
	BaseURL  string `json:"baseUrl"`
	Variant  string `json:"variant,omitempty"`
	Browser  string `json:"browser,omitempty"`
	Protocol string `json:"protocol,omitempty"`
	// Clock is the instant the page's clock was fixed to, when it was.
	Clock *time.Time `json:"clock,omitempty"`
	// Session is the tab's session as the app's journal names it (a hash
	// of the session cookie, see observer.SessionHash): the journal is
	// judged for this session only; an entry without a session is then
	// another client's (a tab's first request, before its cookie was set,
	// lies before every judged window). Empty: the tab had no session
	// cookie, and every entry is the tab's.
	Session string `json:"session,omitempty"`
	// ProbeTokens: the runner draws a token for each of its state probes
	// (ProbeRead.Token), so a probe header without a drawn token is the
	// page's. False in bundles made before the tokens.
	ProbeTokens bool `json:"probeTokens,omitempty"`
	// SessionUnread is why the tab's session cookie could not be read:
	// which journal entries are the tab's is then unknown, and the journal
	// is no witness of the tab's requests.
	SessionUnread string `json:"sessionUnread,omitempty"`
}

// CallRecord is one call and its result.
type CallRecord struct {
	Phase         vocab.Phase   `json:"phase"` // setup, agent or human
	Index         int           `json:"index"` // position in its phase
	Call          Call          `json:"call"`
	Result        record.Result `json:"result"`
	CatalogBefore []string      `json:"catalogBefore"`
	CatalogAfter  []string      `json:"catalogAfter"`
	// Probe is what the runner saw of a tool that must be absent
	// (not_in_catalog) before it called: offered or not, in the call's
	// frame when it names one. An offered tool is never called by a probe.
	Probe *Probe `json:"probe,omitempty"`
	// Carried are the values of Call.Input taken from earlier calls'
	// results (carry.go), as taken: Call.Input holds them in place.
	Carried []Carried `json:"carried,omitempty"`
}

// Probe is a look, without a call, at whether the page offers a tool.
type Probe struct {
	Offered bool   `json:"offered"`
	Frame   string `json:"frame,omitempty"` // where it is offered: the frame's document, "" for the top one
}

// DirectRecord is one direct request and the server's answer.
type DirectRecord struct {
	Phase  vocab.Phase     `json:"phase"`
	Index  int             `json:"index"` // the step's position in its phase
	Method string          `json:"method"`
	Path   string          `json:"path"`
	Status int             `json:"status"`          // 0: no answer
	Body   json.RawMessage `json:"body,omitempty"`  // the answer, when it is JSON
	Error  string          `json:"error,omitempty"` // why there was no answer
}

// Review is what the person had before them when they clicked: the
// controls of the clicked element's form, as the form would submit them,
// and the elements the scenario's submitted expectations name.
type Review struct {
	Phase    vocab.Phase `json:"phase"`
	Index    int         `json:"index"`    // the click step's position in its phase
	Click    string      `json:"click"`    // the step's selector
	Requests int         `json:"requests"` // the request log's length at the click: later requests came after it
	// Form is the clicked element's form as FormData reads it, in document
	// order; nil when the element is in no form.
	Form []FormField `json:"form,omitempty"`
	// Seen maps each selector the expectations name to the value (of a
	// control) or text (of any other element) shown; a selector that
	// matched nothing is absent.
	Seen map[string]string `json:"seen,omitempty"`
	// SeenHidden are the selectors of Seen whose element the person could
	// not see (type=hidden, not rendered, visibility: hidden).
	SeenHidden []string `json:"seenHidden,omitempty"`
}

// FormField is one control's entry of a form.
type FormField struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Hidden bool   `json:"hidden,omitempty"` // type=hidden, or not rendered: the person did not see it
	File   bool   `json:"file,omitempty"`   // a file chosen in the control: Value is its name
	// Required: the control must be filled for the form to be sent, so a
	// server that takes the write without it trusts the page (the
	// drop_field replay leaves it out).
	Required bool `json:"required,omitempty"`
}

// Window is a span of page time granted at once after a phase.
type Window struct {
	After    vocab.Phase   `json:"after"`
	PageTime time.Duration `json:"pageTimeNs"`
	RealTime time.Duration `json:"realTimeNs"`
	Paced    bool          `json:"paced,omitempty"` // the page had workers, whose timers run on real time: the window was waited for in real time
}

// Leave is how the page was left: hidden (its window minimized, so that
// the page sees visibilitychange and document.visibilityState "hidden"),
// given its time hidden, then navigated away from (beforeunload, pagehide,
// unload). Requests a page sends from pagehide or unload handlers reach the
// server but never the page's network log (measured on Chromium 156,
// docs/decisions/2026-12-04-leave-phase.md): the app's journal is their
// witness, and the state read after leaving shows what they did.
type Leave struct {
	Mode   vocab.LeaveMode `json:"mode"`
	Hidden bool            `json:"hidden"` // the page reported visibilityState "hidden" before it was left
	// HideError says why the page could not be hidden (a browser that has
	// no windows to minimize): it was then left visible, which fires
	// visibilitychange, pagehide and unload all the same.
	HideError string `json:"hideError,omitempty"`
	// To is where the page was navigated to: about:blank, or the first
	// probe's URL (whose own request is the harness's, not the app's).
	To string `json:"to,omitempty"`
	// HideMs, NavigateMs: the real time hiding and navigating away took.
	HideMs     int64 `json:"hideMs"`
	NavigateMs int64 `json:"navigateMs"`
}

// CatalogSettle is one wait for the catalog to settle.
type CatalogSettle struct {
	After vocab.SettleAfter `json:"after"`
	Phase vocab.Phase       `json:"phase,omitempty"` // the step's or call's phase (none for the start load)
	Index int               `json:"index"`           // the step's or call's index in its phase
	Tool  string            `json:"tool,omitempty"`  // before a call: the tool about to be called
	// WaitedMs is how long the wait took: page time on the page's virtual
	// clock (PageTime), or real time.
	WaitedMs int64    `json:"waitedMs"`
	PageTime bool     `json:"pageTime,omitempty"`
	Arrived  []string `json:"arrived,omitempty"` // tools added during the wait
	Left     []string `json:"left,omitempty"`    // tools removed during the wait
	Bounded  bool     `json:"bounded,omitempty"` // the bound ran out with the catalog still changing
	BoundMs  int64    `json:"boundMs"`           // the rule's bound
	QuietMs  int64    `json:"quietMs"`           // the rule's quiet time
	// LateMs: the tool about to be called was not in the settled catalog
	// and arrived this long after the wait ended (same clock); nil when it
	// was there, or did not come within another bound.
	LateMs *int64 `json:"lateMs,omitempty"`
}

// ProbeRead is one request the harness made to read the app's state.
type ProbeRead struct {
	Window vocab.Phase `json:"window"` // the phase whose window the request fell in
	Method string      `json:"method"`
	Path   string      `json:"path"`
	// Token is the value of the probe header this read carried, drawn for
	// it alone: the network log's request with it is the harness's. Empty
	// in bundles before issue 43 (and for the leave's navigation, which
	// the judge knows by Leave.To).
	Token string `json:"token,omitempty"`
}

// Mark is a position in each ordered record where a phase starts.
type Mark struct {
	Trace    int `json:"trace"`
	Requests int `json:"requests"`
	Journal  int `json:"journal"`
	// InFlight are the positions in the network log of the app's requests
	// the browser had sent when the mark was taken and the app's journal
	// had not yet seen arrive, within the bound the mark waits (a request
	// queued behind others in the browser): they lie before the mark in
	// the network log and after it in the journal, and the judge holds
	// neither witness to the other for them (issue 43 item 7).
	InFlight []int `json:"inFlight,omitempty"`
}

// markOrder are the phases whose marks bound the windows, in order.
var markOrder = []vocab.Phase{vocab.PhaseAgent, vocab.PhaseHuman, vocab.PhaseLeave, vocab.PhaseEnd}

// Window answers the marks where a phase (agent, human, leave, or all:
// every one of them) starts and ends in the ordered records; ok is false
// when one is missing. A run that did not leave the page (capture.leave
// off, or a record made before there was a leave phase) has no leave mark:
// the person's window then ends at the end, and there is no leave window.
func (ev *Evidence) Window(phase vocab.Phase) (from, to Mark, ok bool) {
	start, ok1 := ev.Marks[vocab.PhaseAgent]
	human, ok2 := ev.Marks[vocab.PhaseHuman]
	end, ok3 := ev.Marks[vocab.PhaseEnd]
	leave, left := ev.Marks[vocab.PhaseLeave]
	switch phase {
	case vocab.PhaseAgent:
		return start, human, ok1 && ok2
	case vocab.PhaseHuman:
		if left {
			return human, leave, ok2
		}
		return human, end, ok2 && ok3
	case vocab.PhaseLeave:
		return leave, end, left && ok3
	default:
		return start, end, ok1 && ok3
	}
}

// Segment is the part of an ordered record a phase holds: [Lo, Hi).
type Segment struct {
	Phase  vocab.Phase
	Lo, Hi int
}

// Segments cuts an ordered record of n entries (the trace, the network log
// or the journal; at is the record's mark) at its marks: setup, then each
// phase whose mark there is, from its mark to the next one there is (the
// last to n). The one reading of marks, for the judge (Span), the fault
// rule (RefPhase) and the timeline (issue 43 item 5). sound is false when
// a mark lies before the one before it (a read that failed at a mark) or
// past the record's end (entries the record should hold and lacks): such a
// mark starts no segment, its entries stay in the one before, which the
// timeline can show; the judge reads no window of that record.
func (ev *Evidence) Segments(n int, at func(Mark) int) (segs []Segment, sound bool) {
	segs, sound = []Segment{{Phase: vocab.PhaseSetup}}, true
	for _, p := range markOrder {
		m, ok := ev.Marks[p]
		if !ok {
			continue
		}
		v := at(m)
		if v < segs[len(segs)-1].Lo || v > n {
			sound = false
			continue
		}
		segs = append(segs, Segment{Phase: p, Lo: v})
	}
	for i := range segs {
		segs[i].Hi = n
		if i+1 < len(segs) {
			segs[i].Hi = segs[i+1].Lo
		}
	}
	return segs, sound
}

// Span is a phase's window of an ordered record of n entries: its segment,
// when the marks are sound and the phase has the marks that open and close
// its window (Window); all runs from the agent's mark to the end mark.
// What cannot be bounded is unknown, never an empty window.
func (ev *Evidence) Span(phase vocab.Phase, n int, at func(Mark) int) (lo, hi int, ok bool) {
	segs, sound := ev.Segments(n, at)
	if !sound {
		return 0, 0, false
	}
	if phase != vocab.PhaseSetup && phase != vocab.PhaseEnd {
		if _, _, ok := ev.Window(phase); !ok {
			return 0, 0, false
		}
	}
	find := func(p vocab.Phase) (Segment, bool) {
		i := slices.IndexFunc(segs, func(s Segment) bool { return s.Phase == p })
		if i < 0 {
			return Segment{}, false
		}
		return segs[i], true
	}
	if phase == vocab.PhaseAll {
		a, ok1 := find(vocab.PhaseAgent)
		e, ok2 := find(vocab.PhaseEnd)
		return a.Lo, e.Lo, ok1 && ok2
	}
	s, ok := find(phase)
	return s.Lo, s.Hi, ok
}

// The marks of each ordered record.
func TraceMark(m Mark) int    { return m.Trace }
func RequestsMark(m Mark) int { return m.Requests }
func JournalMark(m Mark) int  { return m.Journal }

// Left tells whether the run left the page (it has a leave window).
func (ev *Evidence) Left() bool {
	_, ok := ev.Marks[vocab.PhaseLeave]
	return ok
}

// The edits below change the record the way a different run would have
// recorded it, keeping every later phase's mark where it belongs. They are
// the one place the judge's tests and the gate's evidence mutations change a
// record, so that both mean the same by "one more request in the agent
// phase".

// InsertRequest puts r at the end of a phase's window of the network log.
func (ev *Evidence) InsertRequest(phase vocab.Phase, r record.Request) error {
	_, to, ok := ev.Window(phase)
	if !ok {
		return fmt.Errorf("no %s window in the marks", phase)
	}
	pos := min(to.Requests, len(ev.Requests))
	ev.Requests = slices.Insert(ev.Requests, pos, r)
	ev.shiftAfterInsert(phase, pos, requestsOf)
	return nil
}

// RemoveRequest removes the first request of a phase's window that matches
// method and pattern, and answers it.
func (ev *Evidence) RemoveRequest(phase vocab.Phase, method, pattern string) (record.Request, error) {
	from, to, ok := ev.Window(phase)
	if !ok {
		return record.Request{}, fmt.Errorf("no %s window in the marks", phase)
	}
	for i := from.Requests; i < min(to.Requests, len(ev.Requests)); i++ {
		if r := ev.Requests[i]; record.MatchRequest(r.Method, r.Path, method, pattern) {
			ev.Requests = slices.Delete(ev.Requests, i, i+1)
			ev.shiftAfterRemove(i, requestsOf)
			return r, nil
		}
	}
	return record.Request{}, fmt.Errorf("no %s %s in the %s window of the network log", method, pattern, phase)
}

// InsertJournalEntry puts e at the end of a phase's window of the journal.
func (ev *Evidence) InsertJournalEntry(phase vocab.Phase, e record.Entry) error {
	_, to, ok := ev.Window(phase)
	if !ok {
		return fmt.Errorf("no %s window in the marks", phase)
	}
	pos := min(to.Journal, len(ev.Journal))
	ev.Journal = slices.Insert(ev.Journal, pos, e)
	ev.shiftAfterInsert(phase, pos, journalOf)
	return nil
}

// RemoveJournalEntry removes the first entry of a phase's window of the
// journal that matches method and pattern, and answers it.
func (ev *Evidence) RemoveJournalEntry(phase vocab.Phase, method, pattern string) (record.Entry, error) {
	from, to, ok := ev.Window(phase)
	if !ok {
		return record.Entry{}, fmt.Errorf("no %s window in the marks", phase)
	}
	for i := from.Journal; i < min(to.Journal, len(ev.Journal)); i++ {
		if e := ev.Journal[i]; record.MatchRequest(e.Method, e.Path, method, pattern) {
			ev.Journal = slices.Delete(ev.Journal, i, i+1)
			ev.shiftAfterRemove(i, journalOf)
			return e, nil
		}
	}
	return record.Entry{}, fmt.Errorf("no %s %s in the %s window of the journal", method, pattern, phase)
}

func requestsOf(m *Mark) *int { return &m.Requests }
func journalOf(m *Mark) *int  { return &m.Journal }

// shiftAfterRemove moves every mark past the removed entry i back by one.
func (ev *Evidence) shiftAfterRemove(i int, field func(*Mark) *int) {
	for p, m := range ev.Marks {
		if *field(&m) > i {
			*field(&m)--
			ev.Marks[p] = m
		}
	}
}

// shiftAfterInsert moves every mark past the inserted entry at pos forward
// by one. A mark at pos moves too, unless it starts the phase's window: the
// entry then falls inside that window, which may have been empty.
func (ev *Evidence) shiftAfterInsert(phase vocab.Phase, pos int, field func(*Mark) *int) {
	start := phase
	if phase == vocab.PhaseAll {
		start = vocab.PhaseAgent
	}
	startAt := slices.Index(markOrder, start)
	for p, m := range ev.Marks {
		v := field(&m)
		if *v > pos || (*v == pos && slices.Index(markOrder, p) > startAt) {
			*v++
			ev.Marks[p] = m
		}
	}
}
