package scenarios

import (
	"bytes"
	"regexp"
	"time"

	"go.yaml.in/yaml/v4"

	"github.com/agentready/agentready/internal/data/record"
)

var (
	clockLine = regexp.MustCompile(`(?m)^clock:.*$`)
	todayLine = regexp.MustCompile(`(?m)^today:.*$`)
)

// dayOf answers the day a file's {$date} values resolve against: its fixed
// clock's, else its today (the day a bundle's scenario was written out
// on), else now. Only those lines are read: before its dates are written
// out, a file may not be YAML yet (a date within a prompt's words).
func dayOf(data []byte, now time.Time) time.Time {
	var head struct {
		Clock *time.Time `yaml:"clock"`
		Today string     `yaml:"today"`
	}
	if line := clockLine.Find(data); line != nil {
		_ = yaml.Unmarshal(line, &head) // a bad clock is reported by the schema and the decode that follow
	}
	if line := todayLine.Find(data); line != nil {
		_ = yaml.Unmarshal(line, &head)
	}
	switch {
	case head.Clock != nil:
		return head.Clock.UTC()
	case head.Today != "":
		if d, err := time.Parse(time.DateOnly, head.Today); err == nil {
			return d
		}
	}
	return now.UTC()
}

// resolveDates writes out the file's {$date} values against base (dayOf)
// and answers the day they were resolved against, or "" when the file has
// none.
func resolveDates(data []byte, base time.Time) ([]byte, string, error) {
	if !bytes.Contains(data, []byte("$date")) {
		return data, "", nil
	}
	out, n, err := record.ResolveDatesInText(data, base)
	if err != nil || n == 0 {
		return data, "", err
	}
	return out, base.Format(record.DefaultDateFormat), nil
}
