package record

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// A date relative to the page's clock, written where any value or text is
// expected: {$date: today+7d} (or today-1w, today+2mo, today+1y, today),
// formatted as $format says in Go's reference layout ({$date: today+7d,
// $format: "02/01/2006"}); the default is 2006-01-02, what <input
// type=date> takes. A scenario's dates are written out when it is loaded,
// against its fixed clock or the run's start, and the scenario is recorded
// with the written-out values: a bundle judged again later reaches the same
// verdict.

var dateExpr = regexp.MustCompile(`^today(?:([+-])(\d+)(d|w|mo|y))?$`)

// DefaultDateFormat is the layout a date is written in unless $format says.
const DefaultDateFormat = "2006-01-02"

// ResolveDate answers the date expr names relative to base, formatted.
func ResolveDate(expr, format string, base time.Time) (string, error) {
	m := dateExpr.FindStringSubmatch(expr)
	if m == nil {
		return "", fmt.Errorf("$date %q is not today, or today±N followed by d, w, mo or y", expr)
	}
	day := time.Date(base.Year(), base.Month(), base.Day(), 0, 0, 0, 0, time.UTC)
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
	if format == "" {
		format = DefaultDateFormat
	}
	return day.Format(format), nil
}

// dateInText finds a date written in flow form on one line, with an
// optional format: {$date: today+7d} or {$date: "today", $format: "2 Jan"}.
var dateInText = regexp.MustCompile(`\{\s*\$date\s*:\s*"?([^",}\s]+)"?\s*(?:,\s*\$format\s*:\s*"([^"]*)"\s*)?\}`)

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
		for _, at := range dateInText.FindAllStringSubmatchIndex(line, -1) {
			date, e := ResolveDate(line[at[2]:at[3]], submatch(line, at, 2), base)
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
			err = errors.New(`$date is written on one line, as {$date: today+7d} or {$date: today+7d, $format: "02/01/2006"}`)
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

// submatch answers the i'th group of a match by its indexes, "" when unset.
func submatch(s string, at []int, i int) string {
	if at[2*i] < 0 {
		return ""
	}
	return s[at[2*i]:at[2*i+1]]
}
