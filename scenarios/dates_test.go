package scenarios

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/scenarios/vocab"
)

// Dates relative to the page's clock are written out when a scenario loads,
// everywhere a value or a text is written: the scenario a bundle records
// holds them as dates, so judging it again later reaches the same verdict.
func TestRelativeDatesAreWrittenOutAgainstTheFixedClock(t *testing.T) {
	y := edit(t,
		"start: /events\n", "start: /events\nclock: 2027-06-01T09:00:00Z\n",
		"prompt: Register reader@example.com for me.", "prompt: Book for {$date: today+7d}, as reader@example.com.",
		"input: {email: reader@example.com}", "input: {email: reader@example.com, day: {$date: today+7d, $format: \"02/01/2006\"}}",
		"  - navigate: /events\n", "  - navigate: /events\n  - fill: {\"#day\": {$date: today+1d}}\n",
		"{selector: \"#result\", text_contains: ok}", "{selector: \"#result\", text_contains: {$date: today}}",
	)
	sc, err := Parse(badName, []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Today != "2027-06-01" || sc.Prompt != "Book for 2027-06-08, as reader@example.com." || sc.Agent.Calls[0].Input["day"] != "08/06/2027" ||
		sc.Setup[1].Fill["#day"] != "2027-06-02" || sc.Expect.UI[vocab.PhaseHuman][0].TextContains != "2027-06-01" {
		t.Fatalf("dates not written out: today %q, prompt %q, input %v, fill %v, text %q",
			sc.Today, sc.Prompt, sc.Agent.Calls[0].Input, sc.Setup[1].Fill, sc.Expect.UI[vocab.PhaseHuman][0].TextContains)
	}
	recorded, err := json.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(recorded), "$date") || !strings.Contains(string(recorded), `"today":"2027-06-01"`) {
		t.Fatalf("the recorded scenario: %s", recorded)
	}
}

func TestRelativeDatesWithoutAClockAreTheRunsDays(t *testing.T) {
	y := edit(t, "input: {email: reader@example.com}", "input: {email: reader@example.com, day: {$date: today+1d}}")
	before := time.Now().UTC()
	sc, err := Parse(badName, []byte(y))
	after := time.Now().UTC()
	if err != nil {
		t.Fatal(err)
	}
	var ok bool
	for _, now := range []time.Time{before, after} { // a run that starts at midnight
		ok = ok || sc.Today == now.Format(time.DateOnly) && sc.Agent.Calls[0].Input["day"] == now.AddDate(0, 0, 1).Format(time.DateOnly)
	}
	if !ok {
		t.Fatalf("today %q, day %v, run on %s", sc.Today, sc.Agent.Calls[0].Input["day"], before)
	}
	if plain, _ := Parse(badName, []byte(baseYAML)); plain.Today != "" {
		t.Fatalf("a scenario without dates says it was resolved on %q", plain.Today)
	}
}

func TestABadRelativeDateFailsLoadingWithItsLine(t *testing.T) {
	y := edit(t, "input: {email: reader@example.com}", "input: {email: reader@example.com, day: {$date: next-friday}}")
	_, err := Parse(badName, []byte(y))
	if err == nil || !strings.Contains(err.Error(), badName+lineOf(t, y, "next-friday")) || !strings.Contains(err.Error(), "next-friday") {
		t.Fatalf("error: %v", err)
	}
}

func TestUIAndPageChecksLoadOnlyWhenTheyMeanSomething(t *testing.T) {
	good := edit(t, "{selector: \"#result\", text_contains: ok}",
		"{selector: \"#result\", text: {$pattern: \"^ok\"}, count: {$gte: 1}, checked: false, attributes: {aria-busy: \"false\", hidden: null}}\n  page:\n    human: {path: /events/done, url: {$contains: /events/}}")
	sc, err := Parse(badName, []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if p := sc.Expect.Page[vocab.PhaseHuman]; p.Path != "/events/done" {
		t.Fatalf("page: %+v", p)
	}
	for _, c := range []struct{ name, from, to, want string }{
		{"an unknown operator in text", "text_contains: ok}", "text: {$regex: x}}", "expect.ui.human[0].text: the whole value: unknown operator $regex"},
		{"a count that is no bound", "text_contains: ok}", "count: {$gte: many}}", "expect.ui.human[0].count"},
		{"an attribute's bad pattern", "text_contains: ok}", "attributes: {href: {$pattern: \"(\"}}}", "expect.ui.human[0].attributes.href"},
		{"a page that says nothing", "text_contains: ok}", "text_contains: ok}\n  page:\n    human: {}", "expect.page.human: says nothing"},
	} {
		_, err := Parse(badName, []byte(edit(t, c.from, c.to)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}
