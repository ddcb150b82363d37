package record

import "time"

// Entry is one request as the app recorded it on arrival.
type Entry struct {
	Seq     int       `json:"seq"`
	Time    time.Time `json:"time"`
	Method  string    `json:"method"`
	Path    string    `json:"path"`
	Status  int       `json:"status"`
	Code    string    `json:"code,omitempty"`
	Session string    `json:"session,omitempty"`
	Done    bool      `json:"done"`
}

// Journal is the app's request journal.
type Journal []Entry

// Count is how many entries match method and pattern (see MatchRequest).
func (j Journal) Count(method, pattern string) int { return len(j.Filter(method, pattern)) }

// Filter keeps the entries that match method and pattern.
func (j Journal) Filter(method, pattern string) Journal {
	var out Journal
	for _, e := range j {
		if MatchRequest(e.Method, e.Path, method, pattern) {
			out = append(out, e)
		}
	}
	return out
}

// Writes are the entries whose method can change state (see IsWrite).
func (j Journal) Writes() Journal {
	var out Journal
	for _, e := range j {
		if IsWrite(e.Method) {
			out = append(out, e)
		}
	}
	return out
}
