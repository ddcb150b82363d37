package record

// NotWaited is a request the page's clock went on without: one that would
// have held the page's time still for good (an EventSource, a long poll).
// Its requests are recorded as any; only the clock did not wait for it.
type NotWaited struct {
	Request string `json:"request"` // METHOD /path
	Why     string `json:"why"`
}
