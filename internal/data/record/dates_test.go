package record

import (
	"strings"
	"testing"
	"time"
)

func TestResolveDate(t *testing.T) {
	base := time.Date(2027, 1, 31, 23, 30, 0, 0, time.UTC)
	for _, c := range []struct{ expr, format, want string }{
		{"today", "", "2027-01-31"},
		{"today+7d", "", "2027-02-07"},
		{"today-1d", "", "2027-01-30"},
		{"today-2w", "", "2027-01-17"},
		{"today+1mo", "", "2027-03-03"}, // 31 February is 3 March, as Go's AddDate (and JavaScript's Date) count
		{"today+1y", "02/01/2006", "31/01/2028"},
		{"today", "2 Jan 2006", "31 Jan 2027"},
	} {
		got, err := ResolveDate(c.expr, c.format, base)
		if err != nil || got != c.want {
			t.Errorf("ResolveDate(%q, %q) = %q, %v; want %q", c.expr, c.format, got, err, c.want)
		}
	}
	for _, bad := range []string{"tomorrow", "today+7", "today+d", "today+1h", "today + 1d", "now+1d", ""} {
		if got, err := ResolveDate(bad, "", base); err == nil {
			t.Errorf("ResolveDate(%q) = %q, want an error", bad, got)
		}
	}
}

func TestResolveDatesInTextKeepsLinesAndQuotesValues(t *testing.T) {
	base := time.Date(2027, 6, 1, 9, 0, 0, 0, time.UTC)
	in := `id: X
# a comment naming {$date: someday} is left alone
prompt: Book a table on {$date: today+7d} for two.

input: {day: {$date: today+1d}, note: {$date: "today", $format: "2 Jan"}}
list:
  - {$date: today-1w}
`
	out, n, err := ResolveDatesInText([]byte(in), base)
	if err != nil {
		t.Fatal(err)
	}
	want := `id: X
# a comment naming {$date: someday} is left alone
prompt: Book a table on 2027-06-08 for two.

input: {day: "2027-06-02", note: "1 Jun"}
list:
  - "2027-05-25"
`
	if string(out) != want || n != 4 {
		t.Fatalf("got %d dates:\n%s\nwant 4:\n%s", n, out, want)
	}
}

func TestResolveDatesInTextNamesTheLineOfABadDate(t *testing.T) {
	base := time.Date(2027, 6, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct{ name, text, want string }{
		{"an unknown expression", "a: 1\nb: {$date: tomorrow}\n", `line 2: $date "tomorrow"`},
		{"a date in block form", "a: 1\nb: 2\nc:\n  $date: today+1d\n", "line 4: $date is written on one line"},
		{"an unknown key beside it", "a: {$date: today, $fmt: x}\n", "line 1: $date is written on one line"},
	} {
		out, n, err := ResolveDatesInText([]byte(c.text), base)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
		if string(out) != c.text || n != 0 {
			t.Errorf("%s: the text changed on an error: %q (%d)", c.name, out, n)
		}
	}
}

// A time of day in a zone is an instant, summer time included: 18:30 in
// Berlin is 17:30 UTC the day before the clocks change (28 March 2027) and
// 16:30 UTC two days later; "today" is the zone's day.
func TestATimeOfDayInAZone(t *testing.T) {
	base := time.Date(2027, 3, 20, 23, 30, 0, 0, time.UTC) // already the 21st in Berlin
	for _, c := range []struct {
		d    DateSpec
		want string
	}{
		{DateSpec{Date: "today+6d", Time: "18:30", Zone: "Europe/Berlin"}, "2027-03-27T18:30:00+01:00"},
		{DateSpec{Date: "today+6d", Time: "18:30", Zone: "Europe/Berlin", In: "UTC"}, "2027-03-27T17:30:00Z"},
		{DateSpec{Date: "today+8d", Time: "18:30", Zone: "Europe/Berlin", In: "UTC"}, "2027-03-29T16:30:00Z"},
		{DateSpec{Date: "today+8d", Time: "18:30:15", Zone: "Europe/Berlin", Format: "15:04 MST"}, "18:30 CEST"},
		{DateSpec{Date: "today", Zone: "Europe/Berlin"}, "2027-03-21"},
		{DateSpec{Date: "today"}, "2027-03-20"},
		{DateSpec{Date: "today", Time: "09:00"}, "2027-03-20T09:00:00Z"},
	} {
		if got, err := c.d.Resolve(base); err != nil || got != c.want {
			t.Errorf("%+v = %q, %v; want %q", c.d, got, err, c.want)
		}
	}
	for _, bad := range []DateSpec{
		{Date: "today", Time: "18:30", Zone: "Europe/Berlln"},
		{Date: "today", Time: "25:00"},
		{Date: "today", Time: "6pm"},
		{Date: "today", In: "UTC"},
		{Date: "today", Time: "18:30", Zone: "Local"},
	} {
		if got, err := bad.Resolve(base); err == nil {
			t.Errorf("%+v = %q, want an error", bad, got)
		}
	}
	in := "body: {at: {$date: today+8d, $time: \"18:30\", $zone: Europe/Berlin, $in: UTC}}\nsaid: Dinner at {$date: today+8d, $format: \"2 Jan\", $zone: Europe/Berlin}\n"
	out, n, err := ResolveDatesInText([]byte(in), base)
	want := "body: {at: \"2027-03-29T16:30:00Z\"}\nsaid: Dinner at 29 Mar\n"
	if err != nil || n != 2 || string(out) != want {
		t.Errorf("in text: %q (%d, %v), want %q", out, n, err, want)
	}
	if _, _, err := ResolveDatesInText([]byte("a: {$date: today, $time: \"18:30\", $zone: Mars/Olympus}\n"), base); err == nil || !strings.Contains(err.Error(), "line 1: $zone") {
		t.Errorf("a zone that does not exist: %v", err)
	}
}
