package record

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // zones by name (Europe/Berlin) on a machine without a zone database
)

// A date relative to the page's clock, written where any value or text is
// expected: {$date: today+7d} (or today-1w, today+2mo, today+1y, today),
// formatted as $format says in Go's reference layout ({$date: today+7d,
// $format: "02/01/2006"}); the default is 2006-01-02, what <input
// type=date> takes. A time of day in a time zone makes it an instant:
// {$date: today+7d, $time: "18:30", $zone: Europe/Berlin} is 18:30 on that
// day where the zone's clocks say so (summer time included), written in the
// zone unless $in names another ({…, $in: UTC} for what a server stores);
// the default layout is then RFC 3339. "today" is the day in $zone (UTC
// when none). A
// scenario's dates are written out when it is loaded, against its fixed
// clock or the run's start, and the scenario is recorded with the
// written-out values: a bundle judged again later reaches the same verdict.

var dateExpr = regexp.MustCompile(`^today(?:([+-])(\d+)(d|w|mo|y))?$`)

// DefaultDateFormat is the layout a date is written in unless $format says.
const DefaultDateFormat = "2006-01-02"

// ResolveDate answers the date expr names relative to base, formatted.
func ResolveDate(expr, format string, base time.Time) (string, error) {
	return DateSpec{Date: expr, Format: format}.Resolve(base)
}

// DateSpec is one {$date} value: the day, and optionally a time of day in a
// zone, written in a zone and a layout.
type DateSpec struct {
	Date   string // today, today±N(d|w|mo|y)
	Format string // Go's layout; 2006-01-02, or RFC 3339 with Time
	Time   string // HH:MM or HH:MM:SS, in Zone
	Zone   string // IANA name (Europe/Berlin); UTC when empty
	In     string // the zone the value is written in; Zone when empty
}

var timeOfDay = regexp.MustCompile(`^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$`)

// Resolve answers the value d names relative to base.
func (d DateSpec) Resolve(base time.Time) (string, error) {
	zone, err := loadZone("$zone", d.Zone)
	if err != nil {
		return "", err
	}
	in := zone
	if d.In != "" {
		if in, err = loadZone("$in", d.In); err != nil {
			return "", err
		}
	}
	m := dateExpr.FindStringSubmatch(d.Date)
	if m == nil {
		return "", fmt.Errorf("$date %q is not today, or today±N followed by d, w, mo or y", d.Date)
	}
	local := base.In(zone)
	day := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, time.UTC)
	if m[1] != "" {
		n, _ := strconv.Atoi(m[2])
		if m[1] == "-" {
			n = -n
		}
		switch m[3] {
		case "d":
			day = day.AddDate(0, 0, n)
		case "w":
			day = day.AddDate(0, 0, 7*n)
		case "mo":
			day = day.AddDate(0, n, 0)
		case "y":
			day = day.AddDate(n, 0, 0)
		}
	}
	if d.Time == "" {
		if d.In != "" {
			return "", fmt.Errorf("$in goes with a $time: a day is written as it is, in any zone")
		}
		return day.Format(cmp.Or(d.Format, DefaultDateFormat)), nil
	}
	t := timeOfDay.FindStringSubmatch(d.Time)
	if t == nil {
		return "", fmt.Errorf("$time %q is not a time of day as HH:MM or HH:MM:SS", d.Time)
	}
	h, _ := strconv.Atoi(t[1])
	mi, _ := strconv.Atoi(t[2])
	sec, _ := strconv.Atoi(cmp.Or(t[3], "0"))
	at := time.Date(day.Year(), day.Month(), day.Day(), h, mi, sec, 0, zone) // Go moves a time a spring-forward gap skips past it
	return at.In(in).Format(cmp.Or(d.Format, time.RFC3339)), nil
}

func loadZone(key, name string) (*time.Location, error) {
	if name == "" {
		return time.UTC, nil
	}
	z, err := time.LoadLocation(name)
	if err != nil || name == "Local" {
		return nil, fmt.Errorf("%s %q is not a time zone name such as Europe/Berlin or UTC", key, name)
	}
	return z, nil
}

// dateInText finds a date written in flow form on one line: {$date:
// today+7d}, {$date: "today", $format: "2 Jan"}, {$date: today+7d, $time:
// "18:30", $zone: Europe/Berlin, $in: UTC}; its keys are read by dateKeys.
var dateInText = regexp.MustCompile(`\{\s*\$date\s*:(?:[^{}"]|"[^"]*")*\}`)

// dateItem is one key: value of a flow {$date}, the value plain or quoted.
var dateItem = regexp.MustCompile(`^\s*(\$[a-z]+)\s*:\s*(?:"([^"]*)"|([^",\s][^",]*?))\s*$`)

// dateKeys reads a flow {$date} mapping; ok false when it is not one.
func dateKeys(flow string) (DateSpec, bool) {
	var d DateSpec
	inner := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(flow), "{"), "}")
	seen := map[string]bool{}
	for _, item := range splitOutsideQuotes(inner) {
		m := dateItem.FindStringSubmatch(item)
		if m == nil || seen[m[1]] {
			return d, false
		}
		seen[m[1]] = true
		v := m[2] + m[3]
		switch m[1] {
		case "$date":
			d.Date = v
		case "$format":
			d.Format = v
		case "$time":
			d.Time = v
		case "$zone":
			d.Zone = v
		case "$in":
			d.In = v
		default:
			return d, false
		}
	}
	return d, seen["$date"]
}

// splitOutsideQuotes splits s at the commas outside double quotes.
func splitOutsideQuotes(s string) []string {
	var out []string
	quoted, last := false, 0
	for i, r := range s {
		switch {
		case r == '"':
			quoted = !quoted
		case r == ',' && !quoted:
			out = append(out, s[last:i])
			last = i + 1
		}
	}
	return append(out, s[last:])
}

// ResolveDatesInText writes out every {$date} of a YAML or JSON text as a
// quoted date against base, leaving every line where it was (so errors
// still name the right line), and answers how many it wrote. A $date
// written any other way is an error naming its line.
func ResolveDatesInText(text []byte, base time.Time) ([]byte, int, error) {
	lines := strings.SplitAfter(string(text), "\n")
	n := 0
	for i, line := range lines {
		if !strings.Contains(line, "$date") || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		var err error
		var b strings.Builder
		last := 0
		for _, at := range dateInText.FindAllStringIndex(line, -1) {
			spec, ok := dateKeys(line[at[0]:at[1]])
			if !ok {
				continue // left in the line: the error below names it
			}
			date, e := spec.Resolve(base)
			if e != nil {
				err = cmp.Or(err, e)
				continue
			}
			n++
			b.WriteString(line[last:at[0]])
			if standsAlone(line[:at[0]]) {
				date = strconv.Quote(date) // a value of its own: a YAML string
			} // else part of a text, as in a prompt: written into it
			b.WriteString(date)
			last = at[1]
		}
		b.WriteString(line[last:])
		line = b.String()
		if err == nil && strings.Contains(line, "$date") {
			err = errors.New(`$date is written on one line, as {$date: today+7d}, with $format: "02/01/2006", or a $time: "18:30" in a $zone: Europe/Berlin (and $in: UTC) — no other keys`)
		}
		if err != nil {
			return text, 0, fmt.Errorf("line %d: %w", i+1, err)
		}
		lines[i] = line
	}
	return []byte(strings.Join(lines, "")), n, nil
}

// standsAlone tells whether what precedes a date on its line makes the date
// a value of its own (after a key, a list dash, or in a flow collection)
// rather than words within a text.
func standsAlone(before string) bool {
	before = strings.TrimRight(before, " \t")
	return before == "" || strings.ContainsAny(before[len(before)-1:], ":-[,{")
}
