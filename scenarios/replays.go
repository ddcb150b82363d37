package scenarios

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios/vocab"
)

// ReplayExpect says how the suite replays a recorded write as an attacker
// would, and what must hold for each kind of replay (the replay catalogue
// of scenarios/README.md). Every guarded write gets one with the defaults
// without being named; an entry for the same request changes its kinds.
type ReplayExpect struct {
	// The write "METHOD /path" to replay (the path may be a pattern): the
	// first such request of the phase, as the network log recorded it.
	Request RequestLine `yaml:"request" json:"request" jsonschema:"required" examples:"[POST /api/registrations]"`
	// Whose write: human (the default) or agent.
	Phase vocab.Phase `yaml:"phase,omitempty" json:"phase,omitempty" jsonschema:"enum=agent,enum=human" examples:"[agent]"`
	// No replays of this write, and why (a reason is required).
	Off string `yaml:"off,omitempty" json:"off,omitempty" examples:"[the app accepts this write from anyone on purpose]"`
	// How long the app's confirmation for this write may live (default
	// 15m): the expired replay moves the app's clock past it.
	Lifetime *Duration `yaml:"lifetime,omitempty" json:"lifetime,omitempty" examples:"[2m]"`
	// How many copies the race replay sends at once (default 5, at most 20).
	Copies int `yaml:"copies,omitempty" json:"copies,omitempty" examples:"[5]"`
	// The same request again, as the person's session: idempotent by
	// default (refused, or no second effect). A kind not named keeps its
	// default.
	Again *ReplayRule `yaml:"again,omitempty" json:"again,omitempty" examples:"[{expect: refused, status: 403, code: INTENT_USED}]"`
	// From a fresh session (the start page's new cookies and its CSRF
	// token), with a fresh confirmation of the person's: refused by default.
	OtherSession *ReplayRule `yaml:"other_session,omitempty" json:"other_session,omitempty" examples:"[{expect: refused}]"`
	// With no cookies and no Authorization header: refused by default.
	NoSession *ReplayRule `yaml:"no_session,omitempty" json:"no_session,omitempty" examples:"[{expect: refused, status: 401}]"`
	// The person's session without the CSRF headers and fields: refused by default.
	NoCSRF *ReplayRule `yaml:"no_csrf,omitempty" json:"no_csrf,omitempty" examples:"[{expect: refused, status: 403}]"`
	// With each precondition (If-Match, an intent, a nonce, a version)
	// replaced by one the app never issued: refused by default.
	Stale *ReplayRule `yaml:"stale,omitempty" json:"stale,omitempty" examples:"[{off: the API takes no precondition}]"`
	// Copies sent at once: at most one may take effect (none, unless a
	// fresh confirmation was sent with them).
	Race *ReplayRule `yaml:"race,omitempty" json:"race,omitempty" examples:"[{off: each copy is a new order on purpose}]"`
	// With a fresh confirmation, after the app's clock moved past the
	// lifetime: refused by default; skipped without a clock endpoint.
	Expired *ReplayRule `yaml:"expired,omitempty" json:"expired,omitempty" examples:"[{expect: refused, code: INTENT_EXPIRED}]"`
	// The person's cookies with another session's CSRF token (a new
	// visit's <meta name="csrf-token">), with a fresh confirmation:
	// refused by default.
	OtherToken *ReplayRule `yaml:"other_token,omitempty" json:"other_token,omitempty" examples:"[{expect: refused, status: 403}]"`
	// Each guarded field left out in turn (its confirmation, CSRF token,
	// preconditions, ids, the fields the person's form requires), each
	// with a fresh confirmation: refused by default.
	DropField *ReplayRule `yaml:"drop_field,omitempty" json:"drop_field,omitempty" examples:"[{expect: refused, status: 422}]"`
	// Each id of the body swapped for another existing object's (from the
	// state reads), with the person's fresh confirmation: refused by default.
	OtherObject *ReplayRule `yaml:"other_object,omitempty" json:"other_object,omitempty" examples:"[{expect: refused, code: INTENT_WRONG_EVENT}]"`
	// Sent to another target of the same path (an id of the path swapped
	// for another existing object's), with the person's fresh
	// confirmation: refused by default.
	OtherTarget *ReplayRule `yaml:"other_target,omitempty" json:"other_target,omitempty" examples:"[{off: any event takes a tip}]"`
	// The headers and body fields that carry the app's CSRF protection
	// (default: those whose name holds csrf or xsrf, and
	// authenticity_token).
	CSRF *ReplayNames `yaml:"csrf,omitempty" json:"csrf,omitempty" examples:"[{headers: [X-My-Token], fields: [/guard]}]"`
	// The headers and body fields that carry the write's preconditions
	// (default: If-Match, If-Unmodified-Since, and fields whose name holds
	// intent, nonce, version, etag or revision).
	Preconditions *ReplayNames `yaml:"preconditions,omitempty" json:"preconditions,omitempty" examples:"[{fields: [/confirmationId]}]"`
}

// ReplayRule is what must hold for one kind of replay.
type ReplayRule struct {
	// refused (a status of 400 or more) or idempotent (any answer, and no
	// second effect in the app's state).
	Expect vocab.ReplayOutcome `yaml:"expect,omitempty" json:"expect,omitempty" jsonschema:"enum=refused,enum=idempotent" examples:"[refused]"`
	// With refused: the status it must be refused with.
	Status int `yaml:"status,omitempty" json:"status,omitempty" examples:"[403]"`
	// With refused: the code its JSON answer must carry at "code".
	Code string `yaml:"code,omitempty" json:"code,omitempty" examples:"[INTENT_USED]"`
	// Not this kind, and why (a reason is required).
	Off string `yaml:"off,omitempty" json:"off,omitempty" examples:"[each copy is a new order on purpose]"`
}

// ReplayNames name headers (by name, in any case) and body fields (by JSON
// pointer, or a form field's name as /name).
type ReplayNames struct {
	// Header names, in any case.
	Headers []string `yaml:"headers,omitempty" json:"headers,omitempty" examples:"[[X-CSRF-Token]]"`
	// Body fields by JSON pointer (a form field as /name).
	Fields []string `yaml:"fields,omitempty" json:"fields,omitempty" examples:"[[/csrf]]"`
}

// The defaults of a replay entry.
const (
	DefaultReplayLifetime = Duration(15 * time.Minute)
	DefaultReplayCopies   = 5
	maxReplayCopies       = 20
)

// defaultReplayRules are what each kind must hold unless the scenario says
// otherwise; why each exists is in the README's replay catalogue.
var defaultReplayRules = map[vocab.ReplayKind]ReplayRule{
	vocab.ReplayAgain:        {Expect: vocab.ReplayIdempotent},
	vocab.ReplayOtherSession: {Expect: vocab.ReplayRefused},
	vocab.ReplayNoSession:    {Expect: vocab.ReplayRefused},
	vocab.ReplayNoCSRF:       {Expect: vocab.ReplayRefused},
	vocab.ReplayStale:        {Expect: vocab.ReplayRefused},
	vocab.ReplayRace:         {},
	vocab.ReplayExpired:      {Expect: vocab.ReplayRefused},
	vocab.ReplayOtherToken:   {Expect: vocab.ReplayRefused},
	vocab.ReplayDropField:    {Expect: vocab.ReplayRefused},
	vocab.ReplayOtherObject:  {Expect: vocab.ReplayRefused},
	vocab.ReplayOtherTarget:  {Expect: vocab.ReplayRefused},
}

// ReplayPlan is every write the run replays: the scenario's entries, then
// one with the defaults for each guarded write no entry names (a guarded
// read changes nothing to replay).
func (e Expect) ReplayPlan() []ReplayExpect {
	plan := slices.Clone(e.Replays)
	for _, g := range e.Guarded {
		if m, _, _ := g.Split(); !record.IsWrite(m) {
			continue
		}
		if !slices.ContainsFunc(e.Replays, func(r ReplayExpect) bool { return sameLine(r.Request, g) && r.PhaseOrDefault() == vocab.PhaseHuman }) {
			plan = append(plan, ReplayExpect{Request: g})
		}
	}
	return plan
}

func sameLine(a, b RequestLine) bool {
	ma, pa, _ := a.Split()
	mb, pb, _ := b.Split()
	return ma == mb && pa == pb
}

// PhaseOrDefault is the phase whose write is replayed: human unless said.
func (r ReplayExpect) PhaseOrDefault() vocab.Phase {
	if r.Phase == "" {
		return vocab.PhaseHuman
	}
	return r.Phase
}

// LifetimeOrDefault is the confirmation's declared lifetime.
func (r ReplayExpect) LifetimeOrDefault() time.Duration {
	return time.Duration(orDuration(r.Lifetime, DefaultReplayLifetime))
}

// CopiesOrDefault is how many copies race sends at once.
func (r ReplayExpect) CopiesOrDefault() int {
	if r.Copies <= 0 {
		return DefaultReplayCopies
	}
	return r.Copies
}

// Rule is what kind must hold for this write: the scenario's, else the default.
func (r ReplayExpect) Rule(kind vocab.ReplayKind) ReplayRule {
	if p := r.rules()[kind]; p != nil {
		return *p
	}
	return defaultReplayRules[kind]
}

func (r ReplayExpect) rules() map[vocab.ReplayKind]*ReplayRule {
	return map[vocab.ReplayKind]*ReplayRule{
		vocab.ReplayAgain: r.Again, vocab.ReplayOtherSession: r.OtherSession, vocab.ReplayNoSession: r.NoSession,
		vocab.ReplayNoCSRF: r.NoCSRF, vocab.ReplayStale: r.Stale, vocab.ReplayRace: r.Race, vocab.ReplayExpired: r.Expired,
		vocab.ReplayOtherToken: r.OtherToken, vocab.ReplayDropField: r.DropField, vocab.ReplayOtherObject: r.OtherObject, vocab.ReplayOtherTarget: r.OtherTarget,
	}
}

func (sc Scenario) validateReplays(p *problems) {
	for i, r := range sc.Expect.Replays {
		at := pathOf("expect", "replays", i)
		if m, _, ok := r.Request.Split(); !ok || !record.IsWrite(m) {
			p.bad(at.key("request"), "%q is not the \"METHOD /path\" of a write (a method other than GET, HEAD, OPTIONS)", r.Request)
		}
		if r.Phase != "" && !r.Phase.Judged() {
			p.bad(at.key("phase"), "%q is not agent or human", r.Phase)
		}
		if r.Lifetime != nil && *r.Lifetime <= 0 {
			p.bad(at.key("lifetime"), "must be a positive duration such as 2m")
		}
		if r.Copies < 0 || r.Copies > maxReplayCopies {
			p.bad(at.key("copies"), "must be between 2 and %d", maxReplayCopies)
		} else if r.Copies == 1 {
			p.bad(at.key("copies"), "one copy is no race: at least 2")
		}
		for _, kind := range vocab.ReplayKinds {
			rule := r.rules()[kind]
			if rule == nil {
				continue
			}
			key := at.key(string(kind))
			switch {
			case rule.Off != "" && (rule.Expect != "" || rule.Status != 0 || rule.Code != ""):
				p.bad(key.key("off"), "a kind that is off expects nothing: drop expect, status and code")
			case rule.Off == "" && kind == vocab.ReplayRace && (rule.Expect != "" || rule.Status != 0 || rule.Code != ""):
				p.bad(key, "race expects at most one effect of its copies and takes only off")
			case rule.Off == "" && kind != vocab.ReplayRace && rule.Expect != vocab.ReplayRefused && rule.Expect != vocab.ReplayIdempotent:
				p.bad(key.key("expect"), "%q is not refused or idempotent", rule.Expect)
			case rule.Expect == vocab.ReplayIdempotent && (rule.Status != 0 || rule.Code != ""):
				p.bad(key, "status and code say how a refused replay is refused; idempotent takes neither")
			case rule.Status != 0 && (rule.Status < 400 || rule.Status > 599):
				p.bad(key.key("status"), "a refusal's status is 400 to 599, not %d", rule.Status)
			}
		}
		if strings.TrimSpace(r.Off) == "" && r.Off != "" {
			p.bad(at.key("off"), "a reason is required")
		}
		for _, names := range []struct {
			key string
			n   *ReplayNames
		}{{"csrf", r.CSRF}, {"preconditions", r.Preconditions}} {
			if names.n == nil {
				continue
			}
			for k, f := range names.n.Fields {
				if !strings.HasPrefix(f, "/") {
					p.bad(at.key(names.key).key("fields").index(k), "%q is not a JSON pointer (/name)", f)
				}
			}
		}
	}
}

// Replays is what the suite's attack replays sent and what became of
// them: the evidence the judge reads for expect.replays and the defaults.
type Replays struct {
	// Off says why this run sent no replays at all (agentready run
	// --replays off): the judge skips them, saying so.
	Off string `json:"off,omitempty"`
	// Base is the app's state once every prerequisite was sent again,
	// before the first replay: what the first replay is held against.
	Base *record.Snapshot `json:"base,omitempty"`
	// Runs are the replays in the order performed; each is held against
	// the state after the one before it (or Base).
	Runs []ReplayRun `json:"runs"`
	// Controls are, for each write replayed with fresh confirmations, the
	// same new write sent as the person before any replay (kind control):
	// accepted, it shows that only the rule a replay attacks can refuse it.
	Controls []ReplayRun `json:"controls,omitempty"`
}

// ReplayRun is one kind of replay of one recorded write.
type ReplayRun struct {
	Entry   int              `json:"entry"`   // the entry of Expect.ReplayPlan
	Request RequestLine      `json:"request"` // the entry's request line
	Phase   vocab.Phase      `json:"phase"`
	Kind    vocab.ReplayKind `json:"kind"`
	// Of is the replayed write's position in the network log; -1 when
	// there was none to replay.
	Of int `json:"of"`
	// Part is what a tampering kind changed, one run per part: the field
	// left out or swapped (a JSON pointer, a form field as /name, a
	// header as its name), or the path segment swapped (/path/2: the
	// third segment).
	Part string `json:"part,omitempty"`
	// Fresh says the write was sent with a fresh confirmation: the
	// prerequisites (the writes between the person's click and it) were
	// sent again and their new answers' values put in its place.
	Fresh bool `json:"fresh,omitempty"`
	// Changes say how what was sent departs from the recorded request.
	Changes []string `json:"changes,omitempty"`
	// Sent are the requests sent, prerequisites first, and their answers.
	Sent []ReplaySend `json:"sent,omitempty"`
	// Clock is how far the app's clock was moved before the write was sent.
	Clock string `json:"clock,omitempty"`
	// Skipped says why this kind does not apply (never a pass).
	Skipped string `json:"skipped,omitempty"`
	// Inapplicable says the write has nothing this kind changes (no
	// session, no precondition, no id, a method no other origin's page
	// can send): a skip that leaves nothing unexercised, which the
	// coverage does not count. Other skips are gaps.
	Inapplicable bool `json:"inapplicable,omitempty"`
	// Fault says why the harness could not perform it (INCONCLUSIVE).
	Fault string `json:"fault,omitempty"`
	// Missing says the fault is a gap in the record (no network log, a
	// body the log did not keep): evidence_missing, not harness_fault.
	Missing bool `json:"missing,omitempty"`
	// Before is the app's state read just before it when something the
	// run did first could change it by itself (expired: the app's clock
	// moved); nil: the state after the run before it.
	Before *record.Snapshot `json:"before,omitempty"`
	// After is the app's state read after it; nil when it has none (no
	// probes, no observer) or the run was skipped.
	After *record.Snapshot `json:"after,omitempty"`
}

// ReplaySend is one request a replay sent. Cookies are never recorded.
type ReplaySend struct {
	Prerequisite bool `json:"prerequisite,omitempty"`
	// Control marks, among the prerequisites of other_object and
	// other_target, the same write to the other object with a
	// confirmation fetched for it: accepted, it shows that only the
	// binding of the person's confirmation can refuse the replay.
	Control bool              `json:"control,omitempty"`
	Method  string            `json:"method"`
	Path    string            `json:"path"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    string            `json:"body,omitempty"`
	Status  int               `json:"status,omitempty"` // 0: no answer
	Answer  json.RawMessage   `json:"answer,omitempty"` // a JSON answer, when it is one
	Error   string            `json:"error,omitempty"`
}

// Accepted tells whether the server may have taken the request: a 2xx or
// 3xx answer.
func (s ReplaySend) Accepted() bool { return s.Status >= 200 && s.Status < 400 }

// PlainlyAccepted tells whether the answer alone says the server took the
// request: a 2xx without an error in its body. A redirect (a form's post
// sent on to a login page, or to its result) says it only with the state.
func (s ReplaySend) PlainlyAccepted() bool {
	return s.Status >= 200 && s.Status < 300 && !s.ErrorInBody()
}

// ErrorInBody tells whether a 2xx answer is a refusal in its body, as many
// apps answer one: a JSON object with "ok" or "success" false, or a
// non-empty "error" or "errors".
func (s ReplaySend) ErrorInBody() bool {
	var a map[string]json.RawMessage
	if s.Status < 200 || s.Status >= 300 || json.Unmarshal(s.Answer, &a) != nil {
		return false
	}
	for _, k := range []string{"ok", "success"} {
		if string(a[k]) == "false" {
			return true
		}
	}
	for _, k := range []string{"error", "errors"} {
		switch string(a[k]) {
		case "", "null", "false", `""`, "[]", "{}":
		default:
			return true
		}
	}
	return false
}

// Answered says how the app answered, as the verdict and the replays'
// own notes write it: "403 INTENT_USED", "201", "no answer (…)".
func (s ReplaySend) Answered() string {
	if s.Status == 0 {
		return "no answer (" + s.Error + ")"
	}
	if c := s.AnswerCode(); c != "" {
		return fmt.Sprintf("%d %s", s.Status, c)
	}
	return fmt.Sprint(s.Status)
}

// AnswerCode is the JSON answer's "code", or "".
func (s ReplaySend) AnswerCode() string {
	var a struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(s.Answer, &a)
	return a.Code
}
