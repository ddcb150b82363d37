// Package pages holds one page object per page of the reference app: a type
// that knows its URL, its selectors, the names of its tools and the steps a
// spec takes there. Specs name things through these types, never through
// raw selectors; the package's own test finds every selector a page object
// names on that page of a fresh app, so a page object cannot drift from the
// page it stands for.
package pages

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/live/browser"
)

// Tool names of the reference app.
const (
	SearchEvents             = "search_events"
	GetEventDetails          = "get_event_details"
	SaveEvent                = "save_event"
	PrepareEventRegistration = "prepare_event_registration"
	AddTask                  = "add_task"
	ToggleTask               = "toggle_task"
	RemoveTask               = "remove_task"
	ListTasks                = "list_tasks"
	PrepareDraftEdit         = "prepare_draft_edit"
	SaveDraft                = "save_draft"
)

// DraftWebMCPDay is the reference app's seeded draft programme.
const DraftWebMCPDay = "d-webmcp-day"

// Seed events of the reference app.
const (
	EventIntro       = "evt-webmcp-intro" // 8 seats
	EventSoldOut     = "evt-forms-deep-dive"
	EventClosed      = "evt-a11y-agents"
	EventOfficeHours = "evt-office-hours" // 1 seat
)

// Page is what every page object answers: where the page is, the tools it
// offers (sorted, as a catalog lists them), and the selectors its object
// names that a fresh app's page has from the start.
type Page interface {
	Path() string
	Tools() []string
	Selectors() []string
}

// EventList is the event list with search.
type EventList struct{}

func (EventList) Path() string        { return "/events" }
func (EventList) Tools() []string     { return []string{SearchEvents} }
func (EventList) Selectors() []string { return []string{"#event-list", "#search-query"} }

// EventDetails is one event's details.
type EventDetails struct{ ID string }

func (p EventDetails) Path() string { return "/events/" + url.PathEscape(p.ID) }
func (EventDetails) Tools() []string {
	return []string{GetEventDetails, SaveEvent}
}
func (p EventDetails) Selectors() []string { return []string{p.SaveButton(), p.SaveStatus()} }

// SaveButton saves the event for later.
func (EventDetails) SaveButton() string { return "#save-event" }

// SaveStatus says whether the event is saved.
func (EventDetails) SaveStatus() string { return "#save-status" }

// Registration is one event's registration form: the agent prepares it
// (prepare_event_registration), a person submits it.
type Registration struct{ EventID string }

func (p Registration) Path() string {
	return "/events/" + url.PathEscape(p.EventID) + "/register"
}
func (Registration) Tools() []string { return []string{PrepareEventRegistration} }
func (p Registration) Selectors() []string {
	return []string{p.Form(), p.NameInput(), p.EmailInput(), p.SubmitButton(), p.PreparedNote(), p.Result(), p.SeatsLeft()}
}

func (Registration) Form() string         { return "#registration-form" }
func (Registration) NameInput() string    { return "#attendeeName" }
func (Registration) EmailInput() string   { return "#email" }
func (Registration) SubmitButton() string { return "#submit-registration" }

// PreparedNote is what the page shows once the agent has prepared the form.
func (Registration) PreparedNote() string { return "#prepared-note" }

// Result carries the server's answer to a submit in data-code.
func (Registration) Result() string    { return "#registration-result" }
func (Registration) SeatsLeft() string { return "#seats-left" }

// Fill types a name and an email as a person would.
func (p Registration) Fill(name, email string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(Fill(p.NameInput(), name), Fill(p.EmailInput(), email))
}

// Submit clicks the submit button as a person would.
func (p Registration) Submit() chromedp.Action[chromedp.Void] { return Click(p.SubmitButton()) }

// WaitForResult waits, at most d, until the page shows the server's answer
// with this code ("REGISTERED", "SOLD_OUT", …); with "" for any answer.
func (p Registration) WaitForResult(ctx context.Context, code string, d time.Duration) error {
	el := `document.querySelector(` + quote(p.Result()) + `)`
	if code == "" {
		return WaitUntil(ctx, `!!`+el+`.dataset.code`, d)
	}
	return WaitUntil(ctx, el+`.dataset.code === `+quote(code), d)
}

// ResultData reads one data- attribute of the server's answer to a submit
// ("code", "registrationId").
func (p Registration) ResultData(ctx context.Context, key string) (string, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(`+quote(p.Result())+`).dataset[`+quote(key)+`]`))
}

// Registrations is the session's registrations, each with its cancel button.
type Registrations struct{}

func (Registrations) Path() string          { return "/registrations" }
func (Registrations) Tools() []string       { return nil }
func (p Registrations) Selectors() []string { return []string{"#registration-list"} }

// Row selects the row of one registration.
func (Registrations) Row(regID string) string {
	return fmt.Sprintf(`#registration-list li[data-registration-id=%q]`, regID)
}

// CancelButton selects the cancel button of one registration.
func (Registrations) CancelButton(regID string) string {
	return fmt.Sprintf(`button.cancel-registration[data-registration-id=%q]`, regID)
}

// Cancel clicks one registration's cancel button as a person would.
func (p Registrations) Cancel(regID string) chromedp.Action[chromedp.Void] {
	return Click(p.CancelButton(regID))
}

// WaitCancelled waits, at most d, until the page shows the registration
// cancelled.
func (Registrations) WaitCancelled(ctx context.Context, regID string, d time.Duration) error {
	return WaitUntil(ctx, `document.querySelector('[data-registration-id=`+quote(regID)+`]').dataset.status === "cancelled"`, d)
}

// TaskList is the task list; add_task is offered only while it has room.
type TaskList struct{}

func (TaskList) Path() string { return "/tasks" }
func (TaskList) Tools() []string {
	return []string{AddTask, ListTasks, RemoveTask, ToggleTask}
}
func (p TaskList) Selectors() []string {
	return []string{p.Input(), p.AddButton(), p.AddStatus(), p.List()}
}

func (TaskList) Input() string     { return "#task-text" }
func (TaskList) AddButton() string { return "#add-task-button" }

// AddStatus says why a task cannot be added, when it cannot.
func (TaskList) AddStatus() string { return "#add-task-status" }
func (TaskList) List() string      { return "#task-list" }

// Row selects the row of one task.
func (TaskList) Row(id string) string { return fmt.Sprintf(`#task-list li[data-task-id=%q]`, id) }

// DraftEdit is an organiser's draft, edited through a review.
type DraftEdit struct{ ID string }

func (p DraftEdit) Path() string { return "/drafts/" + url.PathEscape(p.ID) + "/edit" }
func (DraftEdit) Tools() []string {
	return []string{PrepareDraftEdit, SaveDraft}
}
func (DraftEdit) Selectors() []string {
	return []string{"#draft-form", "#draft-title", "#draft-description", "#review-panel"}
}

// All is one of each page of the reference app, on its seeded records.
func All() []Page {
	return []Page{
		EventList{}, EventDetails{EventIntro}, Registration{EventIntro},
		Registrations{}, TaskList{}, DraftEdit{DraftWebMCPDay},
	}
}

// Click clicks an element as a person would (real mouse events); the
// selector pierces open shadow roots (browser.Deep).
func Click(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Click(sel, browser.Deep(sel), chromedp.NodeVisible)
}

// Fill clears a field and types value into it as a person would; sel
// pierces open shadow roots as Click's does.
func Fill(sel, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		chromedp.Clear(sel, browser.Deep(sel)),
		chromedp.SendKeys(sel, value, browser.Deep(sel)),
	)
}

// WaitUntil waits, at most d, until the JavaScript condition is true.
func WaitUntil(ctx context.Context, cond string, d time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingMutation(), chromedp.WithPollingTimeout(d)))
	if err != nil {
		return fmt.Errorf("waiting %s for %s: %w", d, cond, err)
	}
	return nil
}

// Snapshot reads the state of each selector.
func Snapshot(ctx context.Context, selectors ...string) ([]record.Element, error) {
	return browser.Snapshot(ctx, selectors...)
}

// SnapshotOne reads the state of one selector.
func SnapshotOne(ctx context.Context, sel string) (record.Element, error) {
	els, err := browser.Snapshot(ctx, sel)
	if err != nil || len(els) == 0 {
		return record.Element{Selector: sel}, err
	}
	return els[0], nil
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
