package judge

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Seed 003: an agent prepares one field's change to a configuration and the
// person saves it. The server validates a candidate and answers 200
// {valid: true}; that says the candidate is a valid configuration, not that
// it is the one asked for. Content and submitted checks are judged here on
// hand-made evidence of such a run.

const configYAML = `id: CONF-PLAN-01
title: prepare the keynote's description, keep every other session
start: /config
prompt: Give the keynote session the description "New", keep everything else as it is, and let me review it before saving.
probes: {config: GET /api/config}
agent:
  calls:
    - tool: plan_config
      expect: {status: completed, output: {valid: true}}
  final: The change is prepared and the server says it is valid; please review and save it.
human:
  - click: "#save"
expect:
  content:
    - request: PATCH /api/config
      phase: agent
      resource:
        before: $.config
        merge: merge-patch
        equals:
          version: 3
          sessions:
            - {id: a, title: Opening}
            - {id: b, title: Keynote, description: New}
            - {id: c, title: Closing}
  submitted:
    - request: POST /api/config/save
      ignore: [/csrf]
`

// The configuration before the agent: three sessions.
const configBefore = `{"version":3,"sessions":[{"id":"a","title":"Opening"},{"id":"b","title":"Keynote","description":"Old"},{"id":"c","title":"Closing"}]}`

// The right merge patch: the whole list, the keynote's description changed.
const fullPatch = `{"sessions":[{"id":"a","title":"Opening"},{"id":"b","title":"Keynote","description":"New"},{"id":"c","title":"Closing"}]}`

// The trap: only the edited entry. A merge patch replaces a list whole, so
// this deletes sessions a and c, and the result is still a valid config.
const trapPatch = `{"sessions":[{"id":"b","title":"Keynote","description":"New"}]}`

func bodyRequest(seq int, method, path, contentType, body string) record.Request {
	r := req(seq, method, path, 200)
	r.RequestHeaders = map[string]string{"content-type": contentType}
	r.HasBody, r.Body = true, body
	return r
}

// configRun answers the scenario and the evidence of a correct run: the
// agent sends the full merge patch to plan it (200), the person sees the
// prepared form and saves it.
func configRun(t *testing.T) (scenarios.Scenario, *scenarios.Evidence) {
	t.Helper()
	sc, err := scenarios.Parse("CONF-PLAN-01.yaml", []byte(configYAML))
	if err != nil {
		t.Fatal(err)
	}
	state := func(doc string) *record.Snapshot { return snapshot(map[string]string{"config": doc}) }
	ev := &scenarios.Evidence{
		ScenarioID: sc.ID,
		Env:        scenarios.Env{BaseURL: "https://localhost:8443"},
		Calls: []scenarios.CallRecord{{
			Phase: vocab.PhaseAgent, Index: 0,
			Call:          scenarios.Call{Tool: "plan_config"},
			Result:        record.Result{Tool: "plan_config", Transport: vocab.PageAPI, Status: vocab.Completed, Output: json.RawMessage(`{"valid":true}`)},
			CatalogBefore: []string{"plan_config"},
			CatalogAfter:  []string{"plan_config"},
		}},
		Requests: record.Log{
			req(1, "GET", "/config", 200),
			// agent: the plan request
			bodyRequest(2, "PATCH", "/api/config", "application/merge-patch+json", fullPatch),
			// human: the click on #save posts the form
			bodyRequest(3, "POST", "/api/config/save", "application/x-www-form-urlencoded", "title=Keynote&description=New&csrf=tok-1"),
		},
		Marks: map[vocab.Phase]scenarios.Mark{
			vocab.PhaseAgent: {Requests: 1},
			vocab.PhaseHuman: {Requests: 2},
			vocab.PhaseEnd:   {Requests: 3},
		},
		States: map[vocab.Phase]*record.Snapshot{
			vocab.StateBefore: state(configBefore),
			vocab.PhaseAgent:  state(configBefore),
			vocab.PhaseHuman:  state(configBefore),
		},
		Reviews: []scenarios.Review{{
			Phase: vocab.PhaseHuman, Index: 0, Click: "#save", Requests: 2,
			Form: []scenarios.FormField{{Name: "title", Value: "Keynote"}, {Name: "description", Value: "New"}, {Name: "csrf", Value: "tok-1", Hidden: true}},
		}},
		Final: ptr(*sc.Agent.Final),
	}
	ev.Capture.Network = true
	return sc, ev
}

// check answers the verdict's check of an ID; the test stops without one.
func check(t *testing.T, v Verdict, id string) Check {
	t.Helper()
	i := slices.IndexFunc(v.Checks, func(c Check) bool { return c.ID == id })
	if i < 0 {
		var ids []string
		for _, c := range v.Checks {
			ids = append(ids, c.ID)
		}
		t.Fatalf("no check %q among %q\n%s", id, ids, Explain(v))
	}
	return v.Checks[i]
}

// wantCheck wants the check of an ID to have this status and code, and its
// message to say each of says.
func wantCheck(t *testing.T, v Verdict, id string, status vocab.CheckStatus, code vocab.Code, says ...string) Check {
	t.Helper()
	c := check(t, v, id)
	if c.Status != status || c.Code != code {
		t.Errorf("%s: %s %q, want %s %q: %s", id, c.Status, c.Code, status, code, c.Message)
	}
	for _, s := range says {
		if !strings.Contains(c.Message, s) {
			t.Errorf("%s: the message lacks %q: %s", id, s, c.Message)
		}
	}
	return c
}

func pointers(ds []record.Difference) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Pointer)
	}
	return out
}

const (
	contentID   = "content[0] PATCH /api/config (agent)"
	submittedID = "submitted[0] POST /api/config/save"
)

func TestTheFullCandidatePasses(t *testing.T) {
	sc, ev := configRun(t)
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Pass)
	wantCheck(t, v, contentID, vocab.CheckPass, "", "the resource $.config as 1 request makes it (merge-patch) is as expected")
	wantCheck(t, v, submittedID, vocab.CheckPass, "", "every value POST /api/config/save (request seq 3) carried (2, 1 ignored) was before the person at the click on #save")
	assertDeterministic(t, sc, ev)
}

// The seed's trap: the edited entry alone, sent as a merge patch, deletes
// the other sessions. The server answers 200 {valid: true}, and the judge
// still fails the content, at the places the list lost.
func TestSendingOnlyTheEditedEntryFailsThoughTheServerSaysValid(t *testing.T) {
	sc, ev := configRun(t)
	ev.Requests[1].Body = trapPatch
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Fail, vocab.ContentMismatch)
	if ev.Requests[1].Status != 200 {
		t.Fatalf("the plan request is not answered 200 in this evidence")
	}
	wantCheck(t, v, "call.agent[0].plan_config.output", vocab.CheckPass, "") // the server's valid: true, believed and not enough
	c := wantCheck(t, v, contentID, vocab.CheckFail, vocab.ContentMismatch, "differs in 5 places", `/sessions/0/id: expected "a", actual "b"`, `/sessions/1: expected {"description":"New","id":"b","title":"Keynote"}, actual nothing`)
	if got := pointers(c.Differences); !slices.Equal(got, []string{"/sessions/0/description", "/sessions/0/id", "/sessions/0/title", "/sessions/1", "/sessions/2"}) {
		t.Errorf("differences at %q", got)
	}
	if got := c.Differences[3]; string(got.Expected) != `{"description":"New","id":"b","title":"Keynote"}` || got.Actual != nil {
		t.Errorf("/sessions/1: %s", got)
	}
	assertDeterministic(t, sc, ev)
}

func TestMergePatchRules(t *testing.T) {
	// A merge patch that changes only what it names: a key of the config,
	// and nothing of the list.
	sc, ev := configRun(t)
	sc.Expect.Content[0].Resource.Equals = map[string]any{"version": 4, "sessions": record.Normalize(json.RawMessage(configBefore)).(map[string]any)["sessions"]}
	ev.Requests[1].Body = `{"version":4}`
	wantCheck(t, Judge(sc, ev), contentID, vocab.CheckPass, "")

	// null removes a key.
	sc, ev = configRun(t)
	ev.Requests[1].Body = `{"version":null,"sessions":[{"id":"a","title":"Opening"},{"id":"b","title":"Keynote","description":"New"},{"id":"c","title":"Closing"}]}`
	c := wantCheck(t, Judge(sc, ev), contentID, vocab.CheckFail, vocab.ContentMismatch, "/version: expected 3, actual nothing")
	if len(c.Differences) != 1 {
		t.Errorf("differences %v", c.Differences)
	}

	// A null inside a list is data, kept whole (RFC 7396 replaces a list
	// as it is; the library alone would drop it).
	sc, ev = configRun(t)
	ev.Requests[1].Body = `{"sessions":[{"id":"a","title":"Opening","note":null},{"id":"b","title":"Keynote","description":"New"},{"id":"c","title":"Closing"}]}`
	sc.Expect.Content[0].Resource.Equals = map[string]any{"version": 3, "sessions": []any{
		map[string]any{"id": "a", "title": "Opening", "note": nil},
		map[string]any{"id": "b", "title": "Keynote", "description": "New"},
		map[string]any{"id": "c", "title": "Closing"}}}
	wantCheck(t, Judge(sc, ev), contentID, vocab.CheckPass, "")

	// A patch that is not an object is the new value; a target that is not
	// an object starts empty.
	sc, ev = configRun(t)
	sc.Expect.Content[0].Resource.Before = "$.config.sessions"
	sc.Expect.Content[0].Resource.Equals = []any{map[string]any{"id": "b", "note": nil}}
	ev.Requests[1].Body = `[{"id":"b","note":null}]`
	wantCheck(t, Judge(sc, ev), contentID, vocab.CheckPass, "")
	sc.Expect.Content[0].Resource.Equals = map[string]any{"id": "b"}
	ev.Requests[1].Body = `{"id":"b","note":null}`
	wantCheck(t, Judge(sc, ev), contentID, vocab.CheckPass, "")

	sc.Expect.Content[0].Resource.Before = "$.config.note" // null: no object, so it starts empty
	ev.States[vocab.StateBefore] = snapshot(map[string]string{"config": `{"note":null}`})
	wantCheck(t, Judge(sc, ev), contentID, vocab.CheckPass, "")

	// Two requests apply in order, each on what the one before made.
	sc, ev = configRun(t)
	addNet(t, ev, vocab.PhaseAgent, bodyRequest(9, "PATCH", "/api/config", "application/merge-patch+json", `{"version":4}`))
	sc.Expect.Content[0].Resource.Equals.(map[string]any)["version"] = 4
	wantCheck(t, Judge(sc, ev), contentID, vocab.CheckPass, "", "as 2 requests make it")

	// A merge patch that is not JSON cannot be applied.
	sc, ev = configRun(t)
	ev.Requests[1].Body = `{"sessions":[`
	wantCheck(t, Judge(sc, ev), contentID, vocab.CheckFail, vocab.ContentMismatch,
		"the body of PATCH /api/config (request seq 2) cannot be applied to $.config by merge-patch", "not JSON")
}

func TestJSONPatchRule(t *testing.T) {
	jsonPatchRun := func(t *testing.T, body string) Verdict {
		sc, ev := configRun(t)
		sc.Expect.Content[0].Resource.Merge = scenarios.JSONPatch
		ev.Requests[1].RequestHeaders["content-type"] = "application/json-patch+json"
		ev.Requests[1].Body = body
		return Judge(sc, ev)
	}
	wantCheck(t, jsonPatchRun(t, `[{"op":"test","path":"/sessions/1/id","value":"b"},{"op":"replace","path":"/sessions/1/description","value":"New"}]`),
		contentID, vocab.CheckPass, "", "(json-patch) is as expected")
	// Replacing the list by the edited entry is the same trap, by another rule.
	c := wantCheck(t, jsonPatchRun(t, `[{"op":"replace","path":"/sessions","value":[{"id":"b","title":"Keynote","description":"New"}]}]`),
		contentID, vocab.CheckFail, vocab.ContentMismatch, "differs in 5 places")
	if got := pointers(c.Differences); !slices.Contains(got, "/sessions/2") {
		t.Errorf("differences at %q", got)
	}
	wantCheck(t, jsonPatchRun(t, `[{"op":"test","path":"/sessions/1/title","value":"Closing"},{"op":"replace","path":"/sessions/1/description","value":"New"}]`),
		contentID, vocab.CheckFail, vocab.ContentMismatch, "by json-patch: an operation fails")
	// RFC 6902 has no negative indices (the library's default allows them).
	wantCheck(t, jsonPatchRun(t, `[{"op":"replace","path":"/sessions/-2/description","value":"New"}]`),
		contentID, vocab.CheckFail, vocab.ContentMismatch, "an operation fails")
	wantCheck(t, jsonPatchRun(t, `{"op":"replace","path":"/sessions/1/description","value":"New"}`),
		contentID, vocab.CheckFail, vocab.ContentMismatch, "not a JSON Patch")
	// A path RFC 6901 refuses (the library would add a key "~2").
	wantCheck(t, jsonPatchRun(t, `[{"op":"add","path":"/~2","value":1}]`),
		contentID, vocab.CheckFail, vocab.ContentMismatch, "operation 0: path", "~ must be followed by 0 or 1")
	wantCheck(t, jsonPatchRun(t, `[{"op":"move","from":"/sessions/~3","path":"/x"}]`),
		contentID, vocab.CheckFail, vocab.ContentMismatch, "operation 0: from")
}

func TestReplaceRule(t *testing.T) {
	replaceRun := func(t *testing.T, body string) Verdict {
		sc, ev := configRun(t)
		sc.Expect.Content[0].Resource.Merge = scenarios.Replace
		ev.Requests[1].Method, ev.Requests[1].Body = "PATCH", body
		return Judge(sc, ev)
	}
	whole := `{"version":3,"sessions":[{"id":"a","title":"Opening"},{"id":"b","title":"Keynote","description":"New"},{"id":"c","title":"Closing"}]}`
	wantCheck(t, replaceRun(t, whole), contentID, vocab.CheckPass, "", "(replace) is as expected")
	// The merge patch that passed above is no whole resource: version is gone.
	c := wantCheck(t, replaceRun(t, fullPatch), contentID, vocab.CheckFail, vocab.ContentMismatch, "/version: expected 3, actual nothing")
	if len(c.Differences) != 1 {
		t.Errorf("differences %v", c.Differences)
	}
}

// The resource of the person's phase starts from the state after the
// agent's.
func TestAHumanPhaseResourceStartsAfterTheAgent(t *testing.T) {
	sc, ev := configRun(t)
	sc.Expect.Content[0].Phase = vocab.PhaseHuman
	sc.Expect.Content[0].Request = "POST /api/config/save"
	sc.Expect.Content[0].Resource = &scenarios.ResourceExpect{Before: "$.config.sessions[1]", Merge: scenarios.MergePatch,
		Equals: map[string]any{"id": "b", "title": "Keynote", "description": "New", "csrf": "tok-1"}}
	ev.States[vocab.PhaseAgent] = snapshot(map[string]string{"config": `{"sessions":[{"id":"a"},{"id":"b","title":"Draft","description":"Old"}]}`})
	const id = "content[0] POST /api/config/save (human)"
	wantCheck(t, Judge(sc, ev), id, vocab.CheckPass, "")
	delete(ev.States, vocab.PhaseAgent)
	wantCheck(t, Judge(sc, ev), id, vocab.CheckInconclusive, vocab.EvidenceMissing, "state before the person's phase was not read")
}

func TestABodyIsComparedInFull(t *testing.T) {
	bodyRun := func(t *testing.T, body string) Verdict {
		sc, ev := configRun(t)
		sc.Expect.Content[0].Resource = nil
		sc.Expect.Content[0].Body = map[string]any{"sessions": []any{
			map[string]any{"id": "a", "title": "Opening"},
			map[string]any{"id": "b", "title": "Keynote", "description": map[string]any{"$pattern": "^New$"}},
			map[string]any{"id": "c", "title": "Closing"}}}
		ev.Requests[1].Body = body
		return Judge(sc, ev)
	}
	const id = contentID + ".body[0]"
	wantCheck(t, bodyRun(t, fullPatch), id, vocab.CheckPass, "", "the body of PATCH /api/config (request seq 2) is as expected")
	// Keys in another order and other spacing: the same document.
	wantCheck(t, bodyRun(t, `{ "sessions": [ {"title":"Opening","id":"a"}, {"description":"New","title":"Keynote","id":"b"}, {"title":"Closing","id":"c"} ] }`), id, vocab.CheckPass, "")
	// A field more is a difference (no subset here).
	c := wantCheck(t, bodyRun(t, `{"sessions":[{"id":"a","title":"Opening"},{"id":"b","title":"Keynote","description":"New","published":true},{"id":"c","title":"Closing"}]}`),
		id, vocab.CheckFail, vocab.ContentMismatch, "/sessions/1/published: expected nothing, actual true")
	if got := pointers(c.Differences); !slices.Equal(got, []string{"/sessions/1/published"}) {
		t.Errorf("differences at %q", got)
	}
	// The list's order is part of the document.
	c = wantCheck(t, bodyRun(t, `{"sessions":[{"id":"c","title":"Closing"},{"id":"b","title":"Keynote","description":"New"},{"id":"a","title":"Opening"}]}`),
		id, vocab.CheckFail, vocab.ContentMismatch, "differs in 4 places")
	if got := pointers(c.Differences); !slices.Equal(got, []string{"/sessions/0/id", "/sessions/0/title", "/sessions/2/id", "/sessions/2/title"}) {
		t.Errorf("differences at %q", got)
	}
	// Each matching request is judged.
	sc, ev := configRun(t)
	sc.Expect.Content[0] = scenarios.ContentExpect{Request: "PATCH /api/*", Phase: vocab.PhaseAgent, Body: record.Normalize(json.RawMessage(fullPatch))}
	addNet(t, ev, vocab.PhaseAgent, bodyRequest(9, "PATCH", "/api/config", "application/json", trapPatch))
	v := Judge(sc, ev)
	wantCheck(t, v, "content[0] PATCH /api/* (agent).body[0]", vocab.CheckPass, "")
	wantCheck(t, v, "content[0] PATCH /api/* (agent).body[1]", vocab.CheckFail, vocab.ContentMismatch, "request seq 9")
}

func TestFormBodiesAreDocumentsToo(t *testing.T) {
	formRun := func(t *testing.T, contentType, body string) Verdict {
		sc, ev := configRun(t)
		sc.Expect.Content = []scenarios.ContentExpect{{Request: "POST /api/config/save", Phase: vocab.PhaseHuman,
			Body: map[string]any{"title": "Keynote", "description": "New", "csrf": map[string]any{"$pattern": "^tok-"}, "tag": []any{"go", "web"}}}}
		ev.Requests[2].RequestHeaders["content-type"] = contentType
		ev.Requests[2].Body = body
		return Judge(sc, ev)
	}
	const id = "content[0] POST /api/config/save (human).body[0]"
	const form = "application/x-www-form-urlencoded"
	wantCheck(t, formRun(t, form, "title=Keynote&description=New&csrf=tok-1&tag=go&tag=web"), id, vocab.CheckPass, "")
	wantCheck(t, formRun(t, form, "title=Keynote&description=New&csrf=tok-1&tag=web&tag=go"), id, vocab.CheckFail, vocab.ContentMismatch, "/tag/0", "/tag/1")
	wantCheck(t, formRun(t, form, "title=Keynote&description=Old&csrf=tok-1&tag=go&tag=web"), id, vocab.CheckFail, vocab.ContentMismatch, `/description: expected "New", actual "Old"`)

	multipart := func(description string) string {
		part := func(name, value string) string {
			return "--b0undary\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value + "\r\n"
		}
		return part("title", "Keynote") + part("description", description) + part("csrf", "tok-1") + part("tag", "go") + part("tag", "web") + "--b0undary--\r\n"
	}
	const mp = "multipart/form-data; boundary=b0undary"
	wantCheck(t, formRun(t, mp, multipart("New")), id, vocab.CheckPass, "")
	wantCheck(t, formRun(t, mp, multipart("Old")), id, vocab.CheckFail, vocab.ContentMismatch, `/description: expected "New", actual "Old"`)
	// A body of no document type is a failing check that says so.
	wantCheck(t, formRun(t, "text/plain;charset=UTF-8", "title=Keynote"), id, vocab.CheckFail, vocab.ContentMismatch, "cannot be judged: the body is text/plain")
}

func TestContentWithoutItsEvidence(t *testing.T) {
	// No matching request: nothing to judge is a failure, not a pass.
	sc, ev := configRun(t)
	dropNet(t, ev, vocab.PhaseAgent, "PATCH", "/api/config")
	wantCheck(t, Judge(sc, ev), contentID, vocab.CheckFail, vocab.ContentMismatch, "no request PATCH /api/config in the agent's phase carried anything to judge")
	// The request in another phase is not this phase's.
	sc, ev = configRun(t)
	sc.Expect.Content[0].Request = "POST /api/config/save"
	wantCheck(t, Judge(sc, ev), "content[0] POST /api/config/save (agent)", vocab.CheckFail, vocab.ContentMismatch, "carried anything to judge")
	// Network capture off: unknown.
	sc, ev = configRun(t)
	ev.Capture.Network = false
	wantCheck(t, Judge(sc, ev), contentID, vocab.CheckInconclusive, vocab.EvidenceMissing, "not recorded")
	// A body the browser no longer held: unknown, not empty.
	sc, ev = configRun(t)
	ev.Requests[1].Body = ""
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Inconclusive, vocab.EvidenceMissing)
	wantCheck(t, v, contentID, vocab.CheckInconclusive, vocab.EvidenceMissing, "no longer held the body of PATCH /api/config (request seq 2)")
	// The same in body mode: a lost body is not the app's fault.
	sc.Expect.Content[0].Resource, sc.Expect.Content[0].Body = nil, map[string]any{"title": "Keynote"}
	wantCheck(t, Judge(sc, ev), contentID, vocab.CheckInconclusive, vocab.EvidenceMissing, "no longer held the body of PATCH /api/config (request seq 2)")
	// A body sent to another origin was never kept: said so.
	ev.Requests[1].URL = "https://api.elsewhere.example/api/config"
	wantCheck(t, Judge(sc, ev), contentID, vocab.CheckInconclusive, vocab.EvidenceMissing, "went to another origin than the app's")
	// Declared the app's (origins), its body is kept: one lost is the
	// browser's.
	sc.Origins = []string{"https://api.elsewhere.example"}
	wantCheck(t, Judge(sc, ev), contentID, vocab.CheckInconclusive, vocab.EvidenceMissing, "no longer held the body of PATCH /api/config")
	// The resource not in the state before: unknown.
	sc, ev = configRun(t)
	sc.Expect.Content[0].Resource.Before = "$.settings"
	wantCheck(t, Judge(sc, ev), contentID, vocab.CheckInconclusive, vocab.EvidenceMissing, "the state does not hold $.settings")
}

// A scenario that expects only content passes on its content check; it
// does not pass with nothing checked, nor read as expecting nothing.
func TestContentAloneIsAnExpectation(t *testing.T) {
	sc, ev := configRun(t)
	sc.Agent.Calls[0].Expect = nil
	sc.Expect.Submitted = nil
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Pass)
	wantCheck(t, v, contentID, vocab.CheckPass, "")
	if slices.ContainsFunc(v.Checks, func(c Check) bool { return c.ID == "expectations" }) {
		t.Errorf("content read as expecting nothing:\n%s", Explain(v))
	}
	// Submitted alone likewise.
	sc, ev = configRun(t)
	sc.Agent.Calls[0].Expect = nil
	sc.Expect.Content = nil
	v = Judge(sc, ev)
	wantVerdict(t, v, vocab.Pass)
	wantCheck(t, v, submittedID, vocab.CheckPass, "")
}

func TestWhatWasSubmittedIsWhatThePersonSaw(t *testing.T) {
	submit := func(t *testing.T, change func(sc *scenarios.Scenario, ev *scenarios.Evidence)) Verdict {
		sc, ev := configRun(t)
		change(&sc, ev)
		return Judge(sc, ev)
	}
	setBody := func(ev *scenarios.Evidence, contentType, body string) {
		ev.Requests[2].RequestHeaders["content-type"] = contentType
		ev.Requests[2].Body = body
	}
	const form = "application/x-www-form-urlencoded"

	// The person corrected the prepared description before saving; the
	// page still sent the prepared one.
	v := submit(t, func(_ *scenarios.Scenario, ev *scenarios.Evidence) { ev.Reviews[0].Form[1].Value = "Newer" })
	wantVerdict(t, v, vocab.Fail, vocab.SubmittedNotReviewed)
	c := wantCheck(t, v, submittedID, vocab.CheckFail, vocab.SubmittedNotReviewed,
		"POST /api/config/save (request seq 3) carried what the person did not have before them at the click on #save, in 1 place",
		`stale or changed: /description carried "New", the person saw "Newer"`)
	if len(c.Differences) != 1 || c.Differences[0].Pointer != "/description" || string(c.Differences[0].Expected) != `"Newer"` || string(c.Differences[0].Actual) != `"New"` {
		t.Errorf("differences %v", c.Differences)
	}
	sc, ev := configRun(t)
	ev.Reviews[0].Form[1].Value = "Newer"
	ev.Requests[2].Body = "title=Keynote&description=New&csrf=tok-1&published=true"
	assertDeterministic(t, sc, ev)

	// A field the person never saw.
	v = submit(t, func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
		setBody(ev, "application/json", `{"title":"Keynote","description":"New","published":true,"csrf":"tok-1"}`)
	})
	c = wantCheck(t, v, submittedID, vocab.CheckFail, vocab.SubmittedNotReviewed, "not shown to the person: /published")
	if got := pointers(c.Differences); !slices.Equal(got, []string{"/published"}) {
		t.Errorf("differences at %q", got)
	}
	// A number is compared by its JSON text.
	v = submit(t, func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
		ev.Reviews[0].Form = append(ev.Reviews[0].Form, scenarios.FormField{Name: "seats", Value: "12"})
		setBody(ev, "application/json", `{"title":"Keynote","description":"New","seats":12,"csrf":"tok-1"}`)
	})
	wantCheck(t, v, submittedID, vocab.CheckPass, "", "(3, 1 ignored)")
	v = submit(t, func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
		ev.Reviews[0].Form = append(ev.Reviews[0].Form, scenarios.FormField{Name: "seats", Value: "12"})
		setBody(ev, "application/json", `{"title":"Keynote","description":"New","seats":21,"csrf":"tok-1"}`)
	})
	wantCheck(t, v, submittedID, vocab.CheckFail, vocab.SubmittedNotReviewed, `stale or changed: /seats carried 21, the person saw "12"`)

	// A hidden control is not shown: without ignore, what it held departs.
	v = submit(t, func(sc *scenarios.Scenario, _ *scenarios.Evidence) { sc.Expect.Submitted[0].Ignore = nil })
	wantCheck(t, v, submittedID, vocab.CheckFail, vocab.SubmittedNotReviewed, "not shown to the person: /csrf (a hidden element, csrf, held it)")
	// A pattern covers everything under it.
	v = submit(t, func(sc *scenarios.Scenario, ev *scenarios.Evidence) {
		sc.Expect.Submitted[0].Ignore = []string{"/meta/*"}
		setBody(ev, "application/json", `{"title":"Keynote","description":"New","meta":{"csrf":"tok-1","trace":{"id":7}}}`)
	})
	wantCheck(t, v, submittedID, vocab.CheckPass, "", "(2, 2 ignored)")

	// Places shown and not carried are no departure: a merge patch leaves
	// out what it does not change.
	v = submit(t, func(_ *scenarios.Scenario, ev *scenarios.Evidence) { setBody(ev, form, "description=New&csrf=tok-1") })
	wantCheck(t, v, submittedID, vocab.CheckPass, "", "(1, 1 ignored)")
}

func TestFormNamesArePlacesOfTheBody(t *testing.T) {
	run := func(t *testing.T, body string) Verdict {
		sc, ev := configRun(t)
		sc.Expect.Submitted[0].Ignore = []string{"/sessions/*/id"}
		ev.Reviews[0].Form = []scenarios.FormField{
			{Name: "sessions[1][title]", Value: "Keynote"},
			{Name: "sessions.1.description", Value: "New"},
			{Name: "/sessions/1/room", Value: "Hall A/B"},
			{Name: "tags[]", Value: "go"},
			{Name: "tags[]", Value: "web"},
			{Name: "lang", Value: "en"},
			{Name: "lang", Value: "zh"},
		}
		ev.Requests[2].RequestHeaders["content-type"] = "application/json"
		ev.Requests[2].Body = body
		return Judge(sc, ev)
	}
	wantCheck(t, run(t, `{"sessions":[{"id":"a"},{"id":"b","title":"Keynote","description":"New","room":"Hall A/B"}],"tags":["go","web"],"lang":["en","zh"]}`),
		submittedID, vocab.CheckPass, "", "(7, 2 ignored)")
	c := wantCheck(t, run(t, `{"sessions":[{"id":"a"},{"id":"b","title":"Keynote","description":"Old","room":"Hall A/B"}],"tags":["web","go"],"lang":["en","zh"]}`),
		submittedID, vocab.CheckFail, vocab.SubmittedNotReviewed, "in 3 places", `/sessions/1/description carried "Old", the person saw "New"`)
	if got := pointers(c.Differences); !slices.Equal(got, []string{"/sessions/1/description", "/tags/0", "/tags/1"}) {
		t.Errorf("differences at %q", got)
	}
}

// A form's own post carries each control's name as one key (user[email]
// is a key, not a place /user/email), and a textarea's line breaks as CRLF
// where the control holds LF.
func TestAFormPostIsReadByItsControlsNames(t *testing.T) {
	run := func(t *testing.T, body string) Verdict {
		sc, ev := configRun(t)
		ev.Reviews[0].Form = []scenarios.FormField{
			{Name: "user[email]", Value: "ann@example.org"},
			{Name: "tags[]", Value: "go"},
			{Name: "tags[]", Value: "web"},
			{Name: "note", Value: "line one\nline two"},
			{Name: "csrf", Value: "tok-1", Hidden: true},
		}
		ev.Requests[2].Body = body
		return Judge(sc, ev)
	}
	wantCheck(t, run(t, "user%5Bemail%5D=ann%40example.org&tags%5B%5D=go&tags%5B%5D=web&note=line+one%0D%0Aline+two&csrf=tok-1"),
		submittedID, vocab.CheckPass, "", "(4, 1 ignored)")
	wantCheck(t, run(t, "user%5Bemail%5D=ann%40exmaple.org&tags%5B%5D=go&tags%5B%5D=web&note=line+one%0D%0Aline+two&csrf=tok-1"),
		submittedID, vocab.CheckFail, vocab.SubmittedNotReviewed, `/user[email] carried "ann@exmaple.org"`)
}

// A page that sends what the person reviewed and then something else is
// judged on both requests: the second is no less the person's submission.
func TestEveryRequestAfterTheClickCarriesWhatWasReviewed(t *testing.T) {
	run := func(t *testing.T, second string) Verdict {
		sc, ev := configRun(t)
		addNet(t, ev, vocab.PhaseHuman, bodyRequest(9, "POST", "/api/config/save", "application/x-www-form-urlencoded", second))
		return Judge(sc, ev)
	}
	v := run(t, "title=Keynote&description=New&csrf=tok-1") // a retry of the same
	wantCheck(t, v, submittedID, vocab.CheckPass, "")
	wantCheck(t, v, submittedID+".then[1]", vocab.CheckPass, "")
	v = run(t, "title=Evil&description=New&csrf=tok-1&published=true")
	wantCheck(t, v, submittedID, vocab.CheckPass, "")
	wantCheck(t, v, submittedID+".then[1]", vocab.CheckFail, vocab.SubmittedNotReviewed,
		`/title carried "Evil", the person saw "Keynote"`, "not shown to the person: /published")
}

// A list emptied by the request departs when the person had entries of it
// before them; an empty list where they saw nothing does not.
func TestAnEmptiedListDepartsWhenThePersonSawItsEntries(t *testing.T) {
	run := func(t *testing.T, body string) Verdict {
		sc, ev := configRun(t)
		sc.Expect.Submitted[0].Ignore = nil
		ev.Reviews[0].Form = []scenarios.FormField{{Name: "title", Value: "Keynote"}, {Name: "sessions[0][title]", Value: "Opening"}}
		ev.Requests[2].RequestHeaders["content-type"] = "application/json"
		ev.Requests[2].Body = body
		return Judge(sc, ev)
	}
	wantCheck(t, run(t, `{"title":"Keynote","sessions":[]}`), submittedID, vocab.CheckFail, vocab.SubmittedNotReviewed,
		`emptied: /sessions carried [], the person saw /sessions/0/title = "Opening" under it`)
	wantCheck(t, run(t, `{"title":"Keynote","tags":[],"extra":{}}`), submittedID, vocab.CheckPass, "")
}

// A file control shows the file's name; its part in a multipart body is
// {filename: …} (record.ParseBody), so the name is compared there.
func TestAChosenFileIsComparedByItsName(t *testing.T) {
	boundary := "--Bnd"
	multipart := func(file string) string {
		return strings.Join([]string{boundary, `Content-Disposition: form-data; name="title"`, "", "Keynote",
			boundary, `Content-Disposition: form-data; name="slides"; filename="` + file + `"`, "Content-Type: application/pdf", "", "%PDF",
			boundary + "--", ""}, "\r\n")
	}
	run := func(t *testing.T, body string) Verdict {
		sc, ev := configRun(t)
		ev.Reviews[0].Form = []scenarios.FormField{{Name: "title", Value: "Keynote"}, {Name: "slides", Value: "deck.pdf", File: true}}
		ev.Requests[2].RequestHeaders["content-type"] = "multipart/form-data; boundary=Bnd"
		ev.Requests[2].Body = body
		return Judge(sc, ev)
	}
	wantCheck(t, run(t, multipart("deck.pdf")), submittedID, vocab.CheckPass, "", "(2,")
	wantCheck(t, run(t, multipart("other.pdf")), submittedID, vocab.CheckFail, vocab.SubmittedNotReviewed,
		`/slides/filename carried "other.pdf", the person saw "deck.pdf"`)
}

func TestExplicitFieldsNameWhatShowedEachPlace(t *testing.T) {
	run := func(t *testing.T, seen map[string]string) Verdict {
		sc, ev := configRun(t)
		sc.Human = append(sc.Human, scenarios.Step{Click: "#confirm"})
		sc.Expect.Submitted[0] = scenarios.SubmittedExpect{Request: "POST /api/config/save", Click: "#confirm",
			Fields: map[string]string{"/description": "#preview .description", "/title": "#preview h2"}, Ignore: []string{"/csrf"}}
		// The confirm button is in no form; the preview shows the values.
		ev.Reviews = append(ev.Reviews, scenarios.Review{Phase: vocab.PhaseHuman, Index: 1, Click: "#confirm", Requests: 2, Seen: seen})
		return Judge(sc, ev)
	}
	wantCheck(t, run(t, map[string]string{"#preview .description": "New", "#preview h2": "Keynote"}), submittedID, vocab.CheckPass, "", "at the click on #confirm")
	wantCheck(t, run(t, map[string]string{"#preview .description": "Newer", "#preview h2": "Keynote"}), submittedID, vocab.CheckFail, vocab.SubmittedNotReviewed,
		`at the click on #confirm`, `/description carried "New", the person saw "Newer"`)
	wantCheck(t, run(t, map[string]string{"#preview .description": "New"}), submittedID, vocab.CheckFail, vocab.SubmittedNotReviewed,
		`not shown to the person: /title (no element matched "#preview h2")`)
	// A named element the person could not see (a hidden input, an element
	// not rendered) showed nothing, whatever it held.
	sc, ev := configRun(t)
	sc.Human = append(sc.Human, scenarios.Step{Click: "#confirm"})
	sc.Expect.Submitted[0] = scenarios.SubmittedExpect{Request: "POST /api/config/save", Click: "#confirm",
		Fields: map[string]string{"/description": "#preview .description", "/title": "#preview h2", "/csrf": "input[name=csrf]"}}
	ev.Reviews = append(ev.Reviews, scenarios.Review{Phase: vocab.PhaseHuman, Index: 1, Click: "#confirm", Requests: 2,
		Seen:       map[string]string{"#preview .description": "New", "#preview h2": "Keynote", "input[name=csrf]": "tok-1"},
		SeenHidden: []string{"input[name=csrf]"}})
	wantCheck(t, Judge(sc, ev), submittedID, vocab.CheckFail, vocab.SubmittedNotReviewed, "not shown to the person: /csrf (a hidden element, input[name=csrf], held it)")
	// The form of the other click does not count: with fields, only they show.
	sc, ev = configRun(t)
	sc.Expect.Submitted[0].Fields = map[string]string{"/description": "#description"}
	ev.Reviews[0].Seen = map[string]string{"#description": "New"}
	wantCheck(t, Judge(sc, ev), submittedID, vocab.CheckFail, vocab.SubmittedNotReviewed, "not shown to the person: /title")
	// A click in no form, and no fields: nothing was shown, and the message says how to name it.
	sc, ev = configRun(t)
	ev.Reviews[0].Form = nil
	wantCheck(t, Judge(sc, ev), submittedID, vocab.CheckFail, vocab.SubmittedNotReviewed, "in 2 places", "not shown to the person: /title", "the clicked element is in no form: name what showed each value with fields")
	// A named element that showed nothing, for a place not carried.
	sc, ev = configRun(t)
	sc.Expect.Submitted[0].Fields = map[string]string{"/description": "#description", "/title": "#title", "/notes": "#notes"}
	ev.Reviews[0].Seen = map[string]string{"#description": "New", "#title": "Keynote"}
	wantCheck(t, Judge(sc, ev), submittedID, vocab.CheckFail, vocab.SubmittedNotReviewed, `nothing showed /notes: no element matched "#notes"`)
}

func TestWhichReviewAndWhichRequestCount(t *testing.T) {
	// No review recorded: what the person saw is unknown.
	sc, ev := configRun(t)
	ev.Reviews = nil
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Inconclusive, vocab.EvidenceMissing)
	c := wantCheck(t, v, submittedID, vocab.CheckInconclusive, vocab.EvidenceMissing, "no review was recorded")
	if c.Source != vocab.SrcUI {
		t.Errorf("source %s", c.Source)
	}
	// A named click without its review: unknown too.
	sc, ev = configRun(t)
	sc.Expect.Submitted[0].Click = "#other"
	wantCheck(t, Judge(sc, ev), submittedID, vocab.CheckInconclusive, vocab.EvidenceMissing, "no review was recorded at the person's click on #other")

	// The request came before the click: nothing was sent after it.
	sc, ev = configRun(t)
	ev.Reviews[0].Requests = 3
	wantCheck(t, Judge(sc, ev), submittedID, vocab.CheckFail, vocab.SubmittedNotReviewed, "nothing was sent after the click")
	sc, ev = configRun(t)
	ev.Reviews[0].Requests = 3
	sc.Expect.Submitted[0].Click = "#save"
	wantCheck(t, Judge(sc, ev), submittedID, vocab.CheckFail, vocab.SubmittedNotReviewed, "nothing was sent after the click on #save")
	// A request after the person's phase is not theirs.
	sc, ev = configRun(t)
	m := ev.Marks[vocab.PhaseEnd]
	m.Requests = 2
	ev.Marks[vocab.PhaseEnd] = m
	wantCheck(t, Judge(sc, ev), submittedID, vocab.CheckFail, vocab.SubmittedNotReviewed, "nothing was sent after the click")
	sc.Expect.Submitted[0].Click = "#save"
	wantCheck(t, Judge(sc, ev), submittedID, vocab.CheckFail, vocab.SubmittedNotReviewed, "nothing was sent after the click on #save")
	// A named click made twice before its request (the page stopped the
	// first, the person corrected a field): the last look counts.
	twice := func(first, second string) (scenarios.Scenario, *scenarios.Evidence) {
		sc, ev := configRun(t)
		sc.Human = append(sc.Human, scenarios.Step{Click: "#save"})
		sc.Expect.Submitted[0].Click = "#save"
		look := func(i int, desc string) scenarios.Review {
			return scenarios.Review{Phase: vocab.PhaseHuman, Index: i, Click: "#save", Requests: 2,
				Form: []scenarios.FormField{{Name: "title", Value: "Keynote"}, {Name: "description", Value: desc}, {Name: "csrf", Value: "tok-1", Hidden: true}}}
		}
		ev.Reviews = []scenarios.Review{look(0, first), look(1, second)}
		return sc, ev
	}
	sc, ev = twice("Old", "New")
	wantCheck(t, Judge(sc, ev), submittedID, vocab.CheckPass, "")
	sc, ev = twice("New", "Old")
	wantCheck(t, Judge(sc, ev), submittedID, vocab.CheckFail, vocab.SubmittedNotReviewed, `the person saw "Old"`)
	// An agent's request of the same kind is not the person's, named or not.
	for _, click := range []string{"", "#save"} {
		sc, ev = configRun(t)
		sc.Expect.Submitted[0].Click = click
		dropNet(t, ev, vocab.PhaseHuman, "POST", "/api/config/save")
		addNet(t, ev, vocab.PhaseAgent, bodyRequest(9, "POST", "/api/config/save", "application/x-www-form-urlencoded", "title=Keynote&description=New"))
		ev.Reviews[0].Requests = 0 // even a review placed before it
		wantCheck(t, Judge(sc, ev), submittedID, vocab.CheckFail, vocab.SubmittedNotReviewed, "nothing was sent after the click")
	}
	// A review of another phase is not the person's.
	sc, ev = configRun(t)
	ev.Reviews[0].Phase = vocab.PhaseAgent
	wantCheck(t, Judge(sc, ev), submittedID, vocab.CheckInconclusive, vocab.EvidenceMissing, "no review was recorded")
	// A review placed outside the log does not hold together.
	for _, at := range []int{-1, 99} {
		sc, ev = configRun(t)
		ev.Reviews[0].Requests = at
		wantCheck(t, Judge(sc, ev), submittedID, vocab.CheckInconclusive, vocab.EvidenceMissing, "does not hold together")
	}

	// Unnamed, the last review before the request counts: a look at the
	// prepared form (#edit) and then at the corrected one (#save).
	sc, ev = configRun(t)
	sc.Human = append([]scenarios.Step{{Click: "#edit"}}, sc.Human...)
	stale := scenarios.Review{Phase: vocab.PhaseHuman, Index: 0, Click: "#edit", Requests: 2,
		Form: []scenarios.FormField{{Name: "title", Value: "Keynote"}, {Name: "description", Value: "Old"}}}
	ev.Reviews[0].Index = 1
	ev.Reviews = append([]scenarios.Review{stale}, ev.Reviews...)
	wantCheck(t, Judge(sc, ev), submittedID, vocab.CheckPass, "", "at the click on #save")
	// Named, the named one counts.
	sc.Expect.Submitted[0].Click = "#edit"
	wantCheck(t, Judge(sc, ev), submittedID, vocab.CheckFail, vocab.SubmittedNotReviewed, `at the click on #edit`, `/description carried "New", the person saw "Old"`)

	// A body the browser no longer held: unknown; a body no document: a failure that says so.
	sc, ev = configRun(t)
	ev.Requests[2].Body = ""
	wantCheck(t, Judge(sc, ev), submittedID, vocab.CheckInconclusive, vocab.EvidenceMissing, "no longer held the body")
	sc, ev = configRun(t)
	ev.Requests[2].RequestHeaders["content-type"] = "application/json"
	wantCheck(t, Judge(sc, ev), submittedID, vocab.CheckFail, vocab.SubmittedNotReviewed, "cannot be held against what the person saw", "not JSON")
	// Network capture off: unknown.
	sc, ev = configRun(t)
	ev.Capture.Network = false
	wantCheck(t, Judge(sc, ev), submittedID, vocab.CheckInconclusive, vocab.EvidenceMissing, "network log was not recorded")
}
