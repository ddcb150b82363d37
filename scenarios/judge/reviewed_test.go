package judge

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge/judgetest"
	"github.com/agentready/agentready/scenarios/vocab"
)

const reviewedID = "reviewed_is_sent[0] POST /api/registrations"

// reviewedRun is CONF-01 attempt 3 with a body and a review at the click,
// and no submitted expectation: the default alone holds the write.
func reviewedRun(t *testing.T) (scenarios.Scenario, *scenarios.Evidence) {
	t.Helper()
	sc, ev := judgetest.Conf01Content(t)
	sc.Expect.Content, sc.Expect.Submitted, sc.Expect.Page = nil, nil, nil
	return sc, ev
}

func setRegistration(ev *scenarios.Evidence, body string) {
	ev.Requests[judgetest.RequestIndex(ev, "POST", "/api/registrations")].Body = body
}

// Without any submitted expectation, a write after the click is held
// against the form the person saw: places the form does not show (the
// event, the intent) are the page's own.
func TestReviewedIsSentByDefault(t *testing.T) {
	sc, ev := reviewedRun(t)
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Pass)
	wantCheck(t, v, reviewedID, vocab.CheckPass, "", "each of the 2 value(s) of the form", "at the click on #submit-registration")

	// The page sends an email the form no longer shows.
	sc, ev = reviewedRun(t)
	setRegistration(ev, `{"eventId":"evt-webmcp-intro","attendeeName":"`+judgetest.Name+`","email":"last.visit@example.com","intentId":"int_1"}`)
	v = Judge(sc, ev)
	wantVerdict(t, v, vocab.Fail, vocab.SubmittedNotReviewed)
	c := wantCheck(t, v, reviewedID, vocab.CheckFail, vocab.SubmittedNotReviewed,
		`/email carried "last.visit@example.com", the person saw "`+judgetest.Email+`" in email`, "reviewed_is_sent: {off: reason}")
	if got := pointers(c.Differences); !slices.Equal(got, []string{"/email"}) {
		t.Errorf("differences at %q", got)
	}
	assertDeterministic(t, sc, ev)

	// Opted out, with a reason: not judged.
	sc.Expect.ReviewedIsSent = &scenarios.ReviewedIsSent{Off: "the page sends the account's email on purpose"}
	v = Judge(sc, ev)
	wantVerdict(t, v, vocab.Pass)
	if slices.ContainsFunc(v.Checks, func(c Check) bool { return strings.HasPrefix(c.ID, "reviewed_is_sent") }) {
		t.Errorf("opted out, still judged:\n%s", Explain(v))
	}

	// A hidden control's value is the page's, not the person's: not held.
	sc, ev = reviewedRun(t)
	ev.Reviews[0].Form[1].Hidden = true
	setRegistration(ev, `{"eventId":"evt-webmcp-intro","attendeeName":"`+judgetest.Name+`","email":"last.visit@example.com","intentId":"int_1"}`)
	wantCheck(t, Judge(sc, ev), reviewedID, vocab.CheckPass, "", "each of the 1 value(s)")

	// A click in no form shows nothing to hold the write against.
	sc, ev = reviewedRun(t)
	ev.Reviews[0].Form = nil
	setRegistration(ev, `{"email":"last.visit@example.com"}`)
	v = Judge(sc, ev)
	wantVerdict(t, v, vocab.Pass)
	if slices.ContainsFunc(v.Checks, func(c Check) bool { return strings.HasPrefix(c.ID, "reviewed_is_sent") }) {
		t.Errorf("a click in no form judged:\n%s", Explain(v))
	}

	// A body the browser no longer held is unknown, not a pass.
	sc, ev = reviewedRun(t)
	setRegistration(ev, "")
	wantCheck(t, Judge(sc, ev), reviewedID, vocab.CheckInconclusive, vocab.EvidenceMissing, "whether it carried what the person saw is unknown")

	// A submitted expectation that names the write judges it instead.
	sc, ev = judgetest.Conf01Content(t)
	setRegistration(ev, `{"eventId":"evt-webmcp-intro","attendeeName":"`+judgetest.Name+`","email":"last.visit@example.com","intentId":"int_1"}`)
	v = Judge(sc, ev)
	if slices.ContainsFunc(v.Checks, func(c Check) bool { return strings.HasPrefix(c.ID, "reviewed_is_sent") }) {
		t.Errorf("a write a submitted expectation names is judged twice:\n%s", Explain(v))
	}
}

// Issue 43 item 5: one reader of the review record. A review placed
// outside the log was INCONCLUSIVE for submitted and silently dropped by
// reviewed is sent, which then passed on nothing; both now say the record
// does not hold together.
func TestAReviewOutsideTheLogIsUnknownToBothReaders(t *testing.T) {
	sc, ev := reviewedRun(t)
	for k := range ev.Reviews {
		ev.Reviews[k].Requests = len(ev.Requests) + 5
	}
	v := Judge(sc, ev)
	wantVerdict(t, v, vocab.Inconclusive, vocab.EvidenceMissing)
	wantCheck(t, v, "reviewed_is_sent", vocab.CheckInconclusive, vocab.EvidenceMissing, "the record does not hold together")
}
