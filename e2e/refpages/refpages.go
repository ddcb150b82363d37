// Package refpages holds one page object per page of the reference app: its
// path, its selectors, the names of its tools and what a person does there.
// Specs and scenarios name things through these types, never through raw
// selectors.
package refpages

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/agentready/agentready/browser"
	"github.com/agentready/agentready/record"
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

// Page is a page of the app: where it is and which tools it offers.
type Page struct {
	Path  string
	Tools []string
}

// Events is the event list with search.
func Events() Page { return Page{Path: "/events", Tools: []string{SearchEvents}} }

// Event is one event's details.
func Event(id string) Page {
	return Page{Path: "/events/" + url.PathEscape(id), Tools: []string{GetEventDetails, SaveEvent}}
}

// Register is one event's registration form.
func Register(id string) Page {
	return Page{Path: "/events/" + url.PathEscape(id) + "/register", Tools: []string{PrepareEventRegistration}}
}

// DraftEdit is an organiser's draft, edited through a review.
func DraftEdit(id string) Page {
	return Page{Path: "/drafts/" + url.PathEscape(id) + "/edit", Tools: []string{PrepareDraftEdit, SaveDraft}}
}

// Registrations is the session's registrations.
func Registrations() Page { return Page{Path: "/registrations"} }

// Tasks is the task list; add_task is offered only while it has room.
func Tasks() Page {
	return Page{Path: "/tasks", Tools: []string{AddTask, ListTasks, RemoveTask, ToggleTask}}
}

// Selectors of the registration form.
const (
	RegistrationForm   = "#registration-form"
	AttendeeNameInput  = "#attendeeName"
	EmailInput         = "#email"
	SubmitRegistration = "#submit-registration"
	PreparedNote       = "#prepared-note"
	RegistrationResult = "#registration-result"
	SeatsLeft          = "#seats-left"
)

// Selectors of the other pages.
const (
	SaveEventButton  = "#save-event"
	SaveStatus       = "#save-status"
	TaskInput        = "#task-text"
	AddTaskButton    = "#add-task-button"
	AddTaskStatus    = "#add-task-status"
	TaskList         = "#task-list"
	TaskRows         = "#task-list li"
	RegistrationRows = "#registration-list li"
)

// TaskRow selects the row of one task.
func TaskRow(id string) string { return fmt.Sprintf(`#task-list li[data-task-id=%q]`, id) }

// CancelButton selects the cancel button of one registration.
func CancelButton(regID string) string {
	return fmt.Sprintf(`button.cancel-registration[data-registration-id=%q]`, regID)
}

// FillRegistration types a name and an email as a person would.
func FillRegistration(name, email string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		chromedp.Clear(chromedp.CSS(AttendeeNameInput)),
		chromedp.SendKeys(chromedp.CSS(AttendeeNameInput), name),
		chromedp.Clear(chromedp.CSS(EmailInput)),
		chromedp.SendKeys(chromedp.CSS(EmailInput), email),
	)
}

// Click clicks an element as a person would (real mouse events).
func Click(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)
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
