package scenarios

import (
	"bytes"
	"regexp"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/agentready/agentready/record"
)

var clockLine = regexp.MustCompile(`(?m)^clock:.*$`)

// resolveDates writes out the file's {$date} values against its fixed clock
// or, without one, now (the run's start: scenarios are loaded as a run
// begins), and answers the day they were resolved against, or "" when the
// file has none.
func resolveDates(data []byte, now time.Time) ([]byte, string, error) {
	if !bytes.Contains(data, []byte("$date")) {
		return data, "", nil
	}
	var head struct {
		Clock *time.Time `yaml:"clock"`
	}
	// Only the clock's own line: before its dates are written out, a file
	// may not be YAML yet (a date within a prompt's words).
	if line := clockLine.Find(data); line != nil {
		_ = yaml.Unmarshal(line, &head) // a bad clock is reported by the strict decode that follows
	}
	base := now.UTC()
	if head.Clock != nil {
		base = head.Clock.UTC()
	}
	out, n, err := record.ResolveDatesInText(data, base)
	if err != nil || n == 0 {
		return data, "", err
	}
	return out, base.Format(record.DefaultDateFormat), nil
}
