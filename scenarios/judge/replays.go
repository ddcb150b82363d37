package judge

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Skip is a check the judge did not make, and why: a replay that does not
// apply to the write, or that the app gives no means to perform (no clock).
// It is never a pass and never a failure; the verdict lists it.
type Skip struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

// judgeReplays holds each recorded attack replay to its rule: a refused
// kind must not be accepted (replay_accepted, expired_replay_accepted; a
// refusal with another status or code than written is server_rule_broken),
// and no replay may leave a second effect in the app's state
// (replay_second_effect), but race, whose copies may take effect once when
// they carried a fresh confirmation, and not at all otherwise
// (race_lost_update). Each is held against the state read just before it.
func (j *judge) judgeReplays() {
	plan := j.sc.Expect.ReplayPlan()
	active := slices.ContainsFunc(plan, func(r scenarios.ReplayExpect) bool { return r.Off == "" })
	rp := j.ev.Replays
	if !active {
		return
	}
	if rp == nil {
		j.skip("replays", "the record holds no replays (it was recorded before the suite replayed writes, or the run was cut short)")
		return
	}
	if rp.Off != "" {
		j.skip("replays", rp.Off)
		return
	}
	prev := rp.Base
	for i, run := range rp.Runs {
		if run.Entry < 0 || run.Entry >= len(plan) {
			j.inconclusive(replayID(run), vocab.SrcNetwork, vocab.EvidenceMissing, nil, nil, "the replay names no entry of the scenario's replay plan").at(scenarios.ReplayRef(i))
			continue
		}
		before := prev
		if run.Before != nil {
			before = run.Before
		}
		switch {
		case run.After != nil:
			prev = run.After
		case slices.ContainsFunc(run.Sent, func(s scenarios.ReplaySend) bool { return !s.Prerequisite }):
			// What a send whose after was not read did (a copy the
			// client gave up on may still land) is unknown: the next
			// replay has no state to be held against. A prerequisite
			// (and a control) was sent before the base read: the base
			// holds what it did.
			prev = nil
		}
		if entry := plan[run.Entry]; entry.Off == "" && entry.Rule(run.Kind).Off == "" {
			j.judgeReplay(i, entry, run, before)
		}
	}
}

func replayID(run scenarios.ReplayRun) string {
	kind := string(run.Kind)
	if run.Part != "" {
		kind += "(" + run.Part + ")"
	}
	id := fmt.Sprintf("replays[%d] %s %s", run.Entry, kind, run.Request)
	if run.Phase == vocab.PhaseAgent {
		id += " (agent)"
	}
	return id
}

func (j *judge) skip(id, reason string) { j.skipped = append(j.skipped, Skip{ID: id, Reason: reason}) }

func (j *judge) judgeReplay(i int, entry scenarios.ReplayExpect, run scenarios.ReplayRun, before *record.Snapshot) {
	id := replayID(run)
	ref := scenarios.ReplayRef(i)
	switch {
	case run.Fault != "":
		code := vocab.HarnessFault
		if run.Missing {
			code = vocab.EvidenceMissing
		}
		j.inconclusive(id, vocab.SrcNetwork, code, nil, nil, "the replay could not be performed: "+run.Fault).at(ref)
		return
	case run.Skipped != "":
		j.skip(id, run.Skipped)
		return
	}
	if run.Fresh {
		if why, fault := j.controlFails(run.Entry); fault != "" {
			j.inconclusive(id, vocab.SrcNetwork, fault, nil, nil, why).at(ref)
			return
		} else if why != "" {
			j.skip(id, why)
			return
		}
	}
	if (run.Kind == vocab.ReplayOtherObject || run.Kind == vocab.ReplayOtherTarget) &&
		!slices.ContainsFunc(run.Sent, func(s scenarios.ReplaySend) bool { return s.Control && s.PlainlyAccepted() }) {
		j.inconclusive(id, vocab.SrcNetwork, vocab.EvidenceMissing, nil, nil,
			"the record holds no accepted control for the other object (the same write with a confirmation fetched for it): a refusal would show only that the app refuses that object").at(ref)
		return
	}
	var copies []scenarios.ReplaySend
	for _, s := range run.Sent {
		if !s.Prerequisite {
			copies = append(copies, s)
		}
	}
	if len(copies) == 0 {
		j.inconclusive(id, vocab.SrcNetwork, vocab.HarnessFault, nil, nil, "the record holds no request this replay sent").at(ref)
		return
	}
	how := ""
	if len(run.Changes) > 0 {
		how = " (" + strings.Join(run.Changes, "; ") + ")"
	}
	if run.Kind == vocab.ReplayRace {
		j.judgeRace(id, ref, run, copies, before, how)
		return
	}
	sent := copies[0]
	rule := entry.Rule(run.Kind)
	answer := sent.Answered()
	if sent.Status == 0 {
		j.inconclusive(id, vocab.SrcNetwork, vocab.HarnessFault, nil, nil, fmt.Sprintf("%s%s got %s: whether the app took it is unknown", kindWords[run.Kind], how, answer)).at(ref)
		return
	}
	if rule.Expect == vocab.ReplayRefused && sent.PlainlyAccepted() {
		code := vocab.ReplayAccepted
		if c, ok := acceptedCodes[run.Kind]; ok {
			code = c
		}
		j.fail(id, vocab.SrcNetwork, code, "refused", answer, fmt.Sprintf("%s%s was accepted: %s%s", kindWords[run.Kind], how, answer, clockWords(run))).at(ref)
		return
	}
	if rule.Expect == vocab.ReplayRefused && (rule.Status != 0 && sent.Status != rule.Status || rule.Code != "" && sent.AnswerCode() != rule.Code) {
		want := strings.TrimSpace(fmt.Sprintf("%s %s", statusWords(rule.Status), rule.Code))
		j.fail(id, vocab.SrcNetwork, vocab.ServerRuleBroken, want, answer, fmt.Sprintf("%s%s was refused with %s, not %s", kindWords[run.Kind], how, answer, want)).at(ref)
		return
	}
	effect, ok := j.secondEffect(before, run.After)
	switch {
	case !ok && rule.Expect == vocab.ReplayIdempotent:
		j.skip(id, "no state was read (no probes, no observer): a second effect cannot be seen, and the answer alone ("+answer+") does not say the replay was idempotent")
	case !ok && sent.Accepted():
		j.skip(id, "no state was read (no probes, no observer), and the answer alone ("+answer+", a redirect or an error in a 2xx body) does not say whether the app took it")
	case !ok:
		j.pass(id, vocab.SrcNetwork, "refused", answer, fmt.Sprintf("%s%s was refused: %s (no state was read to show its effect)", kindWords[run.Kind], how, answer)).at(ref)
	case effect != "":
		j.fail(id, vocab.SrcState, vocab.ReplaySecondEffect, "no change of the app's state", effect, fmt.Sprintf("%s%s answered %s and changed the app's state: %s", kindWords[run.Kind], how, answer, effect)).at(ref)
	default:
		j.pass(id, vocab.SrcState, rule.Expect, answer, fmt.Sprintf("%s%s answered %s and left the app's state as it was", kindWords[run.Kind], how, answer)).at(ref)
	}
}

// controlFails says why the control of entry shows that a replay sent
// with a fresh confirmation can show nothing: it was not recorded, or the
// app refused the same new write from the person too. "" when it was
// accepted.
// A control the harness could not perform or whose answer it did not get
// answers the code of its INCONCLUSIVE as fault.
func (j *judge) controlFails(entry int) (why string, fault vocab.Code) {
	i := slices.IndexFunc(j.ev.Replays.Controls, func(c scenarios.ReplayRun) bool { return c.Entry == entry })
	if i < 0 {
		return "no control was recorded: whether the app would take a new write of the person's at all is unknown", vocab.EvidenceMissing
	}
	c := j.ev.Replays.Controls[i]
	if c.Fault != "" {
		code := vocab.HarnessFault
		if c.Missing {
			code = vocab.EvidenceMissing
		}
		return "the control (the same new write, sent as the person) could not be performed: " + c.Fault, code
	}
	k := slices.IndexFunc(c.Sent, func(s scenarios.ReplaySend) bool { return !s.Prerequisite })
	switch {
	case k < 0:
		return "the control was not sent: whether the app would take a new write of the person's at all is unknown", vocab.HarnessFault
	case c.Sent[k].Status == 0:
		return "the control (the same new write, sent as the person) got " + c.Sent[k].Answered() + ": whether the app would take it at all is unknown", vocab.HarnessFault
	case !c.Sent[k].Accepted() || c.Sent[k].ErrorInBody():
		return "the same new write sent as the person (a fresh confirmation, new values) was refused too, " + c.Sent[k].Answered() +
			": the app refuses it for a reason this replay does not change, so its refusal shows nothing of the rule it attacks", ""
	}
	return "", ""
}

// acceptedCodes are the kinds whose acceptance has a code of its own: what
// each shows is another defect than a replay taken.
var acceptedCodes = map[vocab.ReplayKind]vocab.Code{
	vocab.ReplayExpired:     vocab.ExpiredReplayAccepted,
	vocab.ReplayOtherToken:  vocab.OtherTokenAccepted,
	vocab.ReplayDropField:   vocab.DroppedFieldAccepted,
	vocab.ReplayOtherObject: vocab.OtherObjectAccepted,
	vocab.ReplayOtherTarget: vocab.OtherTargetAccepted,
}

var kindWords = map[vocab.ReplayKind]string{
	vocab.ReplayOtherToken:   "the request with another session's CSRF token",
	vocab.ReplayDropField:    "the request with a guarded field left out",
	vocab.ReplayOtherObject:  "the request with another object's id",
	vocab.ReplayOtherTarget:  "the request sent to another target",
	vocab.ReplayAgain:        "the same request again",
	vocab.ReplayOtherSession: "the request from another session",
	vocab.ReplayNoSession:    "the request with no session",
	vocab.ReplayNoCSRF:       "the request without its CSRF protection",
	vocab.ReplayStale:        "the request with a precondition the app never issued",
	vocab.ReplayRace:         "copies sent at once",
	vocab.ReplayExpired:      "the request after its confirmation's lifetime",
}

func clockWords(run scenarios.ReplayRun) string {
	if run.Clock == "" {
		return ""
	}
	return " after the app's clock moved on " + run.Clock
}

func statusWords(status int) string {
	if status == 0 {
		return ""
	}
	return fmt.Sprint(status)
}

// secondEffect says how after differs from before ("" when it does not);
// ok is false when either was not read whole.
func (j *judge) secondEffect(before, after *record.Snapshot) (string, bool) {
	if before == nil || after == nil || len(before.Errors) > 0 || len(after.Errors) > 0 {
		return "", false
	}
	changed := after.Changed(before)
	if len(changed) == 0 {
		return "", true
	}
	var where []string
	for _, src := range changed {
		diffs := record.Diff(record.Normalize(before.Docs[src]), record.Normalize(after.Docs[src]), false)
		for _, d := range diffs[:min(len(diffs), 3)] {
			where = append(where, "$."+src+pointerPath(d.Pointer))
		}
		if len(diffs) == 0 {
			where = append(where, "$."+src)
		}
	}
	return strings.Join(where, ", "), true
}

// pointerPath writes a JSON pointer's tokens after a source as a JSONPath
// tail (.name, [0]).
func pointerPath(p string) string {
	var b strings.Builder
	for _, tok := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
		if tok == "" {
			continue
		}
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		if strings.Trim(tok, "0123456789") == "" {
			b.WriteString("[" + tok + "]")
		} else {
			b.WriteString("." + tok)
		}
	}
	return b.String()
}

// judgeRace: of the copies, at most one may take effect when they carried
// a fresh confirmation (the one the person would have used), and none when
// they repeat the person's own. An effect is counted on every number and
// list length of the state: the copies may move each at most as far as
// the person's own write moved it, once per effect allowed. Without a
// state, only answers count: more accepted copies than effects allowed is
// a FAIL only when nothing says they were idempotent, so it is skipped.
func (j *judge) judgeRace(id string, ref scenarios.Ref, run scenarios.ReplayRun, copies []scenarios.ReplaySend, before *record.Snapshot, how string) {
	allowed := 0
	if run.Fresh {
		allowed = 1
	}
	accepted, plainly, unanswered := 0, 0, 0
	var answers []string
	for _, c := range copies {
		if c.Accepted() {
			accepted++
		}
		if c.PlainlyAccepted() {
			plainly++
		}
		if c.Status == 0 {
			unanswered++
		}
		answers = append(answers, c.Answered())
	}
	summary := fmt.Sprintf("%d copies sent at once%s answered %s", len(copies), how, strings.Join(answers, ", "))
	if _, ok := j.secondEffect(before, run.After); !ok {
		if unanswered > 0 {
			j.inconclusive(id, vocab.SrcNetwork, vocab.HarnessFault, nil, nil, fmt.Sprintf("%s: %d got no answer and no state was read, so whether they took effect is unknown", summary, unanswered)).at(ref)
			return
		}
		if accepted <= allowed {
			j.pass(id, vocab.SrcNetwork, fmt.Sprintf("at most %d accepted", allowed), accepted, summary+" (no state was read to count effects by)").at(ref)
		} else {
			j.skip(id, summary+": no state was read (no probes, no observer), so the accepted copies cannot be told from idempotent answers")
		}
		return
	}
	var over []string
	person := j.personDelta(run.Phase)
	if allowed == 0 {
		if effect, _ := j.secondEffect(before, run.After); effect != "" {
			over = append(over, "changed "+effect)
		}
	} else {
		race := deltas(before, run.After)
		for _, k := range slices.Sorted(maps.Keys(race)) {
			if one := person[k]; one != 0 && math.Abs(race[k]) > math.Abs(one)*float64(allowed)+1e-9 {
				over = append(over, fmt.Sprintf("%s moved by %g, one write moves it by %g", k, race[k], one))
			}
		}
	}
	if allowed > 0 && plainly > allowed && person == nil {
		over = append(over, fmt.Sprintf("%d copies accepted", plainly))
	}
	if len(over) > 0 {
		j.fail(id, vocab.SrcState, vocab.RaceLostUpdate, fmt.Sprintf("at most %d effect", allowed), strings.Join(over, "; "),
			fmt.Sprintf("%s: more than %d took effect: %s", summary, allowed, strings.Join(over, "; "))).at(ref)
		return
	}
	j.pass(id, vocab.SrcState, fmt.Sprintf("at most %d effect", allowed), accepted, summary+fmt.Sprintf(": at most %d took effect", allowed)).at(ref)
}

// personDelta is how the phase's own writes moved the state: the numbers
// and list lengths from before to after the phase; nil when a read is
// missing.
func (j *judge) personDelta(phase vocab.Phase) map[string]float64 {
	from, to := vocab.StateBefore, vocab.PhaseAgent
	if phase == vocab.PhaseHuman {
		from, to = vocab.PhaseAgent, vocab.PhaseHuman
	}
	a, b := j.ev.States[from], j.ev.States[to]
	if a == nil || b == nil || len(a.Errors) > 0 || len(b.Errors) > 0 {
		return nil
	}
	return deltas(a, b)
}

// deltas are the changes of every number and list length between two
// snapshots, by JSONPath-like place.
func deltas(a, b *record.Snapshot) map[string]float64 {
	out := map[string]float64{}
	na, nb := map[string]float64{}, map[string]float64{}
	measure(a.Document(), "$", na)
	measure(b.Document(), "$", nb)
	for k, v := range nb {
		if d := v - na[k]; d != 0 {
			out[k] = d
		}
	}
	for k, v := range na {
		if _, ok := nb[k]; !ok && v != 0 {
			out[k] = -v
		}
	}
	return out
}

func measure(v any, at string, out map[string]float64) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			measure(e, at+"."+k, out)
		}
	case []any:
		out[at+".length"] = float64(len(v))
		for i, e := range v {
			measure(e, fmt.Sprintf("%s[%d]", at, i), out)
		}
	case json.Number:
		if f, err := v.Float64(); err == nil {
			out[at] = f
		}
	case float64:
		out[at] = v
	}
}
