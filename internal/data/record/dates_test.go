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
