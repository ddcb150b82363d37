package runner_test

import (
	"slices"
	"testing"

	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// signupScenario is testdata/SIGNUP-REVIEW.yaml, started at start: the
// assistant fills in the sign-up form with a typo in the email, the person
// corrects it, presses Dark mode (outside the form), then Join.
func signupScenario(t *testing.T, start string) scenarios.Scenario {
	sc := loadScenario(t, "testdata/SIGNUP-REVIEW.yaml")
	sc.Start = start
	return sc
}

// TestTheReviewIsWhatThePersonHadBeforeThem: at each of the person's
// clicks, the review holds the clicked form as it would submit — the
// person's correction, not the assistant's typo; the hidden field and the
// trap for robots marked hidden; the unchecked box absent; the pressed
// button's own entry — the texts the expectations name (a selector that
// matches nothing is absent), and where the request log stood: the form's
// POST is the very next request. A click outside any form has no form.
func TestTheReviewIsWhatThePersonHadBeforeThem(t *testing.T) {
	sc := signupScenario(t, "/signup")
	// Two named elements the person cannot see: a hidden input and the
	// robots' trap in a paragraph that is not rendered.
	sc.Expect.Submitted[0].Fields["/form_id"] = "input[name=form_id]"
	sc.Expect.Submitted[0].Fields["/website"] = "#website"
	ev, _ := play(t, sc, nil)
	if len(ev.Faults) > 0 || len(ev.Unmet) > 0 {
		for _, r := range ev.Requests {
			t.Logf("%s %s %d %q", r.Method, r.URL, r.Status, r.Body)
		}
		t.Logf("reviews %+v calls %+v", ev.Reviews, ev.Calls)
		t.Fatalf("faults %q, unmet %q", ev.Faults, ev.Unmet)
	}
	if len(ev.Reviews) != 2 {
		t.Fatalf("%d reviews, want one per click (2): %+v", len(ev.Reviews), ev.Reviews)
	}
	theme, join := ev.Reviews[0], ev.Reviews[1]
	if theme.Phase != vocab.PhaseHuman || theme.Index != 1 || theme.Click != "#theme" || theme.Form != nil {
		t.Errorf("the click outside the form: %+v, want human step 1 on #theme with no form", theme)
	}
	if join.Phase != vocab.PhaseHuman || join.Index != 2 || join.Click != "#join" {
		t.Errorf("the click on Join: phase %s, index %d, click %q", join.Phase, join.Index, join.Click)
	}
	want := []scenarios.FormField{
		{Name: "form_id", Value: "signup-v2", Hidden: true},
		{Name: "name", Value: "Ann Example", Required: true},
		{Name: "email", Value: "ann@example.org", Required: true},
		{Name: "plan", Value: "patron"},
		{Name: "website", Value: "", Hidden: true},
		{Name: "action", Value: "join"},
	}
	if !slices.Equal(join.Form, want) {
		t.Errorf("the form at Join:\n got %+v\nwant %+v", join.Form, want)
	}
	seen := map[string]string{"#plan": "patron", "#price": "€5 / month", "#summary": "Ann Example joins as Patron.",
		"input[name=form_id]": "signup-v2", "#website": ""}
	for _, rv := range ev.Reviews {
		if want := []string{"input[name=form_id]", "#website"}; !slices.Equal(slices.Sorted(slices.Values(rv.SeenHidden)), slices.Sorted(slices.Values(want))) {
			t.Errorf("%s: named elements not seen %q, want %q", rv.Click, rv.SeenHidden, want)
		}
		if len(rv.Seen) != len(seen) {
			t.Errorf("%s: seen %q, want %q", rv.Click, rv.Seen, seen)
		}
		for sel, v := range seen {
			if rv.Seen[sel] != v {
				t.Errorf("%s: seen[%s] = %q, want %q", rv.Click, sel, rv.Seen[sel], v)
			}
		}
	}
	at, posts := requestsOf(ev, "POST", "/signup")
	if len(posts) != 1 {
		t.Fatalf("%d POST /signup in the log", len(posts))
	}
	if join.Requests != at[0] {
		t.Errorf("the review at Join says the log stood at %d; the POST is entry %d: it must be the first request after the click", join.Requests, at[0])
	}
	if theme.Requests > join.Requests || theme.Requests < ev.Marks[vocab.PhaseHuman].Requests {
		t.Errorf("the review at Dark mode stood at %d, outside [%d, %d]", theme.Requests, ev.Marks[vocab.PhaseHuman].Requests, join.Requests)
	}
	// What was sent is what was reviewed, byte for byte.
	if got, want := posts[0].Body, "form_id=signup-v2&name=Ann+Example&email=ann%40example.org&plan=patron&website=&action=join"; got != want {
		t.Errorf("the POST's body:\n got %q\nwant %q", got, want)
	}
}

// TestAClickRightAfterANavigationIsReviewedOnTheNewPage: the person presses
// Join and, with no wait between, clicks on the welcome page the form
// navigated to. The second review is read on the new page (no fault, no
// form), after the sign-up's requests.
func TestAClickRightAfterANavigationIsReviewedOnTheNewPage(t *testing.T) {
	sc := signupScenario(t, "/signup")
	sc.Human = []scenarios.Step{{Fill: map[string]string{"#email": "ann@example.org"}}, {Click: "#join"}, {Click: "#welcome"}}
	ev, _ := play(t, sc, nil)
	if len(ev.Faults) > 0 || len(ev.Unmet) > 0 {
		t.Fatalf("faults %q, unmet %q", ev.Faults, ev.Unmet)
	}
	if len(ev.Reviews) != 2 {
		t.Fatalf("reviews %+v, want 2", ev.Reviews)
	}
	welcome := ev.Reviews[1]
	at, _ := requestsOf(ev, "GET", "/signup/welcome")
	if welcome.Click != "#welcome" || welcome.Index != 2 || welcome.Form != nil || len(at) != 1 || welcome.Requests <= at[0] {
		t.Errorf("the review on the welcome page: %+v; the welcome page is entry %v", welcome, at)
	}
}
