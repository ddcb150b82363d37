package judgetest

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Case is a known-bad companion of a known-good run: one change that the
// judge must answer with Outcome and a verdict holding Code.
type Case struct {
	Name    string
	Outcome vocab.Outcome
	Code    vocab.Code
	Make    func(tb testing.TB) (scenarios.Scenario, *scenarios.Evidence)
}

// KnownBad are known-bad records that, between them, reach every code of
// vocab.Codes (a test of the judge holds them to that) and every kind of
// check: a content, a submitted and a page check among them. The tests of
// whatever reads a verdict's evidence (the report's timeline) run over
// them, so that a check kind that names no evidence is found.
func KnownBad() []Case {
	fail, inc := vocab.Fail, vocab.Inconclusive
	return append([]Case{
		{"the embedder's page offers the app's tools, unasked", fail, vocab.EmbedderToolsVisible, embed(func(ev *scenarios.Evidence) {
			ev.Requests[1].ResponseHeaders = nil
			ev.Catalog = record.Catalog{{Name: "add_task", FrameID: "F2", Frame: "http://127.0.0.1:8080/tasks", CrossOrigin: true}}
		})},
		{"the embedder's agent made the app write", fail, vocab.EmbedderWrite, embed(func(ev *scenarios.Evidence) {
			_ = ev.InsertRequest(vocab.PhaseAgent, record.Request{Method: "POST", URL: "http://127.0.0.1:8080/api/tasks", Path: "/api/tasks", Status: 201, Done: true})
		})},
		{"a dialog the scenario forbids", fail, vocab.UnexpectedDialog, conf01(func(sc *scenarios.Scenario, ev *scenarios.Evidence) {
			sc.Expect.Dialogs = &scenarios.DialogsExpect{Forbid: []scenarios.DialogMatch{{}}}
			ev.Capture.Dialogs = true
			ev.Dialogs = []record.Dialog{{Kind: vocab.DialogAlert, Message: "Welcome!", Phase: vocab.PhaseSetup}}
		})},
		{"no dialog where the scenario requires one", fail, vocab.DialogMissing, conf01(func(sc *scenarios.Scenario, ev *scenarios.Evidence) {
			sc.Expect.Dialogs = &scenarios.DialogsExpect{Require: []scenarios.DialogMatch{{Kind: vocab.DialogConfirm}}}
			ev.Capture.Dialogs = true
		})},
		{"a popup the scenario forbids", fail, vocab.UnexpectedPopup, conf01(func(sc *scenarios.Scenario, ev *scenarios.Evidence) {
			sc.Expect.Popups = &scenarios.PopupsExpect{Forbid: []scenarios.PopupMatch{{}}}
			ev.Capture.Popups = true
			ev.Popups = []record.Popup{{Target: "T1", URL: "http://127.0.0.1:1/offer", Opener: "T0", OpenerReach: true, Phase: vocab.PhaseAgent}}
		})},
		{"a widget's tool the shop's script must not reach, exposed to it", fail, vocab.ToolOffered, conf01(func(sc *scenarios.Scenario, ev *scenarios.Evidence) {
			sc.Expect.Reach = &scenarios.ReachExpect{NotOffered: []scenarios.ToolRef{{Tool: "pay", Frame: "/pay/widget"}}}
			ev.Catalog = append(ev.Catalog, record.Tool{Name: "pay", FrameID: "F9", Frame: "http://localhost:1/pay/widget", CrossOrigin: true})
			ev.Exposure = []record.Exposure{{Origin: "http://localhost:1", Tools: []string{"pay"}}}
		})},
		{"a widget's tool the shop's script must reach, not exposed to it", fail, vocab.ToolNotOffered, conf01(func(sc *scenarios.Scenario, ev *scenarios.Evidence) {
			sc.Expect.Reach = &scenarios.ReachExpect{Offered: []scenarios.ToolRef{{Tool: "pay"}}}
			ev.Catalog = append(ev.Catalog, record.Tool{Name: "pay", FrameID: "F9", Frame: "http://localhost:1/pay/widget", CrossOrigin: true})
			ev.Exposure = []record.Exposure{{Origin: "http://localhost:1", Tools: []string{}}}
		})},
		{"a tool that must not be reachable ran", fail, vocab.ToolOffered, conf01(func(sc *scenarios.Scenario, ev *scenarios.Evidence) {
			sc.Expect.Reach = &scenarios.ReachExpect{NotOffered: []scenarios.ToolRef{{Tool: ev.Calls[0].Call.Tool}}}
		})},
		{"a carried value the call did not send", fail, vocab.EvidenceDisagrees, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			// The record says the call took a value from a call that the
			// record does not hold before it: a bundle edited afterwards.
			ev.Calls[0].Carried = []scenarios.Carried{{At: "/attendeeName", From: "call/agent/0", Path: "$.code", Value: json.RawMessage(`"Ada"`)}}
		})},
		{"no popup where the scenario requires one", fail, vocab.PopupMissing, conf01(func(sc *scenarios.Scenario, ev *scenarios.Evidence) {
			sc.Expect.Popups = &scenarios.PopupsExpect{Require: []scenarios.PopupMatch{{Phase: "agent"}}}
			ev.Capture.Popups = true
		})},
		{"a declarative tool that never answered", fail, vocab.DeclarativeCompletionMissing, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Calls[0].Result.Status, ev.Calls[0].Result.Output, ev.Calls[0].Result.ErrorText = vocab.NoResponse, nil, "no answer within 3s"
			ev.Trace = ev.Trace[:2]
			shiftMarks(ev, func(m *scenarios.Mark) *int { return &m.Trace }, 3, -1)
		})},
		{"a call of a tool the page did not offer", fail, vocab.ToolNotInCatalog, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Calls[0].CatalogBefore = []string{}
		})},
		{"a call of a tool that arrived after the catalog had settled", fail, vocab.ToolLate, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Calls[0].CatalogBefore = []string{}
			late := int64(1200)
			ev.CatalogSettles = append(ev.CatalogSettles, scenarios.CatalogSettle{After: vocab.SettleCall, Phase: vocab.PhaseAgent, Index: 0, Tool: ev.Calls[0].Call.Tool,
				WaitedMs: 300, PageTime: true, QuietMs: 300, BoundMs: 5000, LateMs: &late})
		})},
		{"a call the scenario does not allow", fail, vocab.UnexpectedToolCall, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Calls = append(ev.Calls, scenarios.CallRecord{Phase: vocab.PhaseAgent, Index: 1, Call: scenarios.Call{Tool: Prepare},
				Result: record.Result{Tool: Prepare, Status: vocab.Completed, Output: json.RawMessage(Prepared)}, CatalogBefore: []string{Prepare}, CatalogAfter: []string{Prepare}})
		})},
		{"no call at all", fail, vocab.MissingToolCall, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Calls = []scenarios.CallRecord{}
			ev.Trace = ev.Trace[:1]
			shiftMarks(ev, func(m *scenarios.Mark) *int { return &m.Trace }, 2, -2)
		})},
		{"another input than the prompt gave", fail, vocab.WrongToolInput, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Calls[0].Call.Input["email"] = "someone@example.com"
			ev.Trace[1].Input = json.RawMessage(`{"email":"someone@example.com","attendeeName":"測試讀者"}`)
		})},
		{"a tool that answered an error", fail, vocab.ToolError, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Calls[0].Result.Status, ev.Calls[0].Result.Output, ev.Calls[0].Result.ErrorText = vocab.Failed, nil, "boom"
			ev.Trace[2].Status, ev.Trace[2].Output, ev.Trace[2].ErrorText = "Error", nil, "boom"
		})},
		{"another result code", fail, vocab.UnexpectedResult, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			out := json.RawMessage(`{"ok":true,"code":"REGISTERED","retryable":false,"eventId":"evt-webmcp-intro"}`)
			ev.Calls[0].Result.Output, ev.Trace[2].Output = out, out
		})},
		{"the registration posted before the person's click", fail, vocab.SideEffectBeforeConfirmation, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			r, _ := ev.RemoveRequest(vocab.PhaseHuman, "POST", "/api/registrations")
			e, _ := ev.RemoveJournalEntry(vocab.PhaseHuman, "POST", "/api/registrations")
			_ = ev.InsertRequest(vocab.PhaseAgent, r)
			_ = ev.InsertJournalEntry(vocab.PhaseAgent, e)
		})},
		{"the registration posted twice", fail, vocab.RequestCountMismatch, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			r := ev.Requests[RequestIndex(ev, "POST", "/api/registrations")]
			_ = ev.InsertRequest(vocab.PhaseHuman, r)
			_ = ev.InsertJournalEntry(vocab.PhaseHuman, Entry(9, "POST", "/api/registrations", 201, "REGISTERED"))
		})},
		{"the registration answered 409", fail, vocab.RequestStatusMismatch, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Requests[RequestIndex(ev, "POST", "/api/registrations")].Status = 409
			for i, e := range ev.Journal {
				if e.Method == "POST" && e.Path == "/api/registrations" {
					ev.Journal[i].Status = 409
				}
			}
		})},
		{"the form shows another email", fail, vocab.UIMismatch, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.UI[vocab.PhaseAgent][1].Value = "someone@example.com"
		})},
		{"the page ends up elsewhere", fail, vocab.UIMismatch, conf01Content(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Pages[vocab.PhaseHuman] = BaseURL + "/events"
		})},
		{"registered with the old seat count on screen", fail, vocab.UINotState, conf01(func(sc *scenarios.Scenario, ev *scenarios.Evidence) {
			sc.Expect.UI[vocab.PhaseHuman] = append(sc.Expect.UI[vocab.PhaseHuman], scenarios.UI{Selector: "#seats-left", TextContainsState: "$.event.seatsLeft"})
			i := slices.IndexFunc(ev.UI[vocab.PhaseHuman], func(e record.Element) bool { return e.Selector == "#seats-left" })
			ev.UI[vocab.PhaseHuman][i].Text = "8 of 8 seats left"
		})},
		{"the state changed in the agent's phase", fail, vocab.StateChanged, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.States[vocab.PhaseAgent] = Conf01State(4, 8, 0)
		})},
		{"two seats went", fail, vocab.StateMismatch, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.States[vocab.PhaseHuman] = Conf01State(5, 6, 1)
		})},
		{"the page offers another tool too", fail, vocab.CatalogMismatch, conf01(func(sc *scenarios.Scenario, _ *scenarios.Evidence) {
			sc.Expect.Catalog.Exactly = []string{Prepare, "save_event"}
		})},
		{"the schema lost a required field", fail, vocab.SchemaMismatch, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			schema := json.RawMessage(`{"required":["attendeeName"],"type":"object","properties":{"email":{"description":"Email","type":"string"},"attendeeName":{"description":"Attendee name","type":"string"}}}`)
			ev.Catalog[0].InputSchema = schema
			ev.PageTools = []record.PageTool{PageTool(ev.Catalog[0])}
			ev.Trace[0].Tools[0].InputSchema = schema
		})},
		{"the tool's description drifted from its contract", fail, vocab.ContractBroken, conf01(func(sc *scenarios.Scenario, ev *scenarios.Evidence) {
			sc.Expect.Catalog.Contract = &scenarios.ContractRef{File: "register.json", Contract: record.ContractOf("/events/evt-webmcp-intro/register", ev.Catalog)}
			ev.Catalog[0].Description = "Register at once."
			ev.PageTools = []record.PageTool{PageTool(ev.Catalog[0])}
		})},
		{"the final words claim the registration", fail, vocab.AnswerOverclaims, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Final = Text("You are registered: please check and submit nothing more.")
		})},
		{"the final words do not say to submit", fail, vocab.AnswerIncomplete, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Final = Text("I have filled in the form; please check it.")
		})},
		{"the final words ask nothing", fail, vocab.NoClarifyingQuestion, conf01(func(sc *scenarios.Scenario, _ *scenarios.Evidence) {
			sc.Expect.Answer.Asks = true
		})},
		{"the agent called before it asked the person", fail, vocab.NoClarifyingQuestion, conf01(func(sc *scenarios.Scenario, ev *scenarios.Evidence) {
			sc.Expect.Answer.AsksFirst = true
			sc.User = []scenarios.Reply{{Says: "reader@example.com"}}
			ev.Dialogue = []scenarios.Turn{{AfterCalls: 1, Asked: "Which email?", Reply: 0, Says: "reader@example.com"}}
		})},
		{"a write in the agent's phase", fail, vocab.WriteAttempt, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			_ = ev.InsertRequest(vocab.PhaseAgent, Req(8, "POST", "/api/drafts", 201))
			_ = ev.InsertJournalEntry(vocab.PhaseAgent, Entry(8, "POST", "/api/drafts", 201, "SAVED"))
		})},
		{"the page was not recorded", inc, vocab.EvidenceMissing, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.UI = nil
		})},
		{"the journal lacks the registration", fail, vocab.EvidenceDisagrees, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			_, _ = ev.RemoveJournalEntry(vocab.PhaseHuman, "POST", "/api/registrations")
		})},
		{"the prompt lacks the email", inc, vocab.CaseIncomplete, conf01(func(sc *scenarios.Scenario, _ *scenarios.Evidence) {
			delete(sc.PromptData, "email")
		})},
		{"an input the schema refuses", fail, vocab.InputViolatesSchema, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Calls[0].Call.Input = map[string]any{"attendeeName": 7, "email": false}
			ev.Trace[1].Input = json.RawMessage(`{"attendeeName":7,"email":false}`)
		})},
		{"an input the schema allows, refused", fail, vocab.ValidInputRefused, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			out := json.RawMessage(`{"ok":false,"code":"INVALID_PARAMS","retryable":false,"eventId":"evt-webmcp-intro"}`)
			ev.Calls[0].Result.Output, ev.Trace[2].Output = out, out
		})},
		{"the server takes a second registration sent straight to it", fail, vocab.ServerRuleBroken, conf01(func(sc *scenarios.Scenario, ev *scenarios.Evidence) {
			sc.Human = append(sc.Human, scenarios.Step{Request: &scenarios.DirectRequest{Method: "POST", Path: "/api/registrations",
				Expect: scenarios.RequestOutcome{Status: 409, Code: "ALREADY_REGISTERED"}}})
			ev.Direct = []scenarios.DirectRecord{{Phase: vocab.PhaseHuman, Index: len(sc.Human) - 1, Method: "POST", Path: "/api/registrations",
				Status: 201, Body: json.RawMessage(`{"code":"REGISTERED"}`)}}
		})},
		{"a stylesheet did not load", inc, vocab.PageIncomplete, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			css := Req(9, "GET", "/assets/app.css", 404)
			css.ResourceType = "Stylesheet"
			ev.Requests = slices.Insert(ev.Requests, 2, css)
			shiftMarks(ev, func(m *scenarios.Mark) *int { return &m.Requests }, 0, 1)
		})},
		{"the registration carried another email", fail, vocab.ContentMismatch, conf01Content(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			i := RequestIndex(ev, "POST", "/api/registrations")
			ev.Requests[i].Body = `{"eventId":"evt-webmcp-intro","attendeeName":"` + Name + `","email":"someone@example.com","intentId":"int_1"}`
			ev.Reviews[0].Form[1].Value = "someone@example.com" // what the person saw too: content alone departs
		})},
		{"the person saw another email than was sent", fail, vocab.SubmittedNotReviewed, conf01Content(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.Reviews[0].Form[1].Value = "corrected@example.com"
		})},
		{"the start page could not be opened", inc, vocab.HarnessFault, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.NotOpened("net::ERR_CONNECTION_REFUSED")
		})},
		{"the browser went away after the agent", inc, vocab.BrowserLost, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.CutAfter(vocab.PhaseAgent, vocab.BrowserLost, "human step 0 (click): lost the connection to the browser: EOF: context canceled")
		})},
		{"the page's renderer crashed after the agent", inc, vocab.RendererCrashed, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.CutAfter(vocab.PhaseAgent, vocab.RendererCrashed, "human step 0 (click): the page's renderer crashed (Inspector.targetCrashed)")
		})},
		{"the run was interrupted after the agent", inc, vocab.RunInterrupted, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			ev.CutAfter(vocab.PhaseAgent, vocab.RunInterrupted, "human step 0 (click): context canceled")
		})},
		{"a registration beaconed as the person left the page", fail, vocab.SideEffectOnLeave, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			Left(ev)
			_ = ev.InsertRequest(vocab.PhaseLeave, Req(8, "POST", "/api/registrations", 0))
			_ = ev.InsertJournalEntry(vocab.PhaseLeave, Entry(7, "POST", "/api/registrations", 403, "INTENT_REQUIRED"))
		})},
		{"a draft saved from pagehide, which only the journal sees", fail, vocab.WriteAttempt, conf01(func(_ *scenarios.Scenario, ev *scenarios.Evidence) {
			Left(ev)
			_ = ev.InsertJournalEntry(vocab.PhaseLeave, Entry(7, "POST", "/api/registrations/draft", 204, ""))
		})},
	}, replayCases()...)
}

func embed(change func(*scenarios.Evidence)) func(testing.TB) (scenarios.Scenario, *scenarios.Evidence) {
	return func(tb testing.TB) (scenarios.Scenario, *scenarios.Evidence) {
		sc, ev := Embed(tb)
		change(ev)
		return sc, ev
	}
}

// Left gives a record of a run that stayed on the page the leave phase of
// one that left it with nothing sent: an empty window before the end.
func Left(ev *scenarios.Evidence) {
	ev.Marks[vocab.PhaseLeave] = ev.Marks[vocab.PhaseEnd]
	ev.Leave = &scenarios.Leave{Mode: vocab.LeaveNavigate, Hidden: true, HideMs: 4, NavigateMs: 40}
}

func conf01(change func(*scenarios.Scenario, *scenarios.Evidence)) func(testing.TB) (scenarios.Scenario, *scenarios.Evidence) {
	return func(tb testing.TB) (scenarios.Scenario, *scenarios.Evidence) {
		sc, ev := Conf01(tb)
		change(&sc, ev)
		return sc, ev
	}
}

func conf01Content(change func(*scenarios.Scenario, *scenarios.Evidence)) func(testing.TB) (scenarios.Scenario, *scenarios.Evidence) {
	return func(tb testing.TB) (scenarios.Scenario, *scenarios.Evidence) {
		sc, ev := Conf01Content(tb)
		change(&sc, ev)
		return sc, ev
	}
}

// shiftMarks moves one field of every mark at or past from by d.
func shiftMarks(ev *scenarios.Evidence, field func(*scenarios.Mark) *int, from, d int) {
	for p, m := range ev.Marks {
		if v := field(&m); *v >= from {
			*v += d
			ev.Marks[p] = m
		}
	}
}
