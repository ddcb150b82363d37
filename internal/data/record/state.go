package record

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// ObserverSource names the app's observation endpoint among a snapshot's
// sources; every other source is a probe of the app's own API, by the name
// the scenario gave it.
const ObserverSource = "observer"

// ProbeHeader marks, in the network log, the requests the harness made
// itself to read the app's state: they are not the app's nor the agent's.
const ProbeHeader = "X-Agentready-Probe"

// IsProbe tells whether r claims to be a read the harness sent to learn
// the app's state: a GET carrying the probe header. The harness only
// reads, so a write with the header is the page's, whatever it claims; the
// judge also holds the header's value to the tokens the harness drew
// (ProbeToken).
func (r Request) IsProbe() bool {
	_, ok := r.ProbeToken()
	return ok && (strings.EqualFold(r.Method, "GET") || strings.EqualFold(r.Method, "HEAD"))
}

// ProbeToken is the value of r's probe header, when it has one.
func (r Request) ProbeToken() (string, bool) {
	for k, v := range r.RequestHeaders {
		if strings.EqualFold(k, ProbeHeader) {
			return v, true
		}
	}
	return "", false
}

// Snapshot is the app's state at one moment, as JSON documents by source.
// Expectations address it as one document whose top-level keys are the
// sources: $.observer.…, $.<probe>.…
type Snapshot struct {
	Docs   map[string]json.RawMessage `json:"docs"`
	Errors map[string]string          `json:"errors,omitempty"` // source → why it could not be read
	// Answered is, of the sources in Errors, those the app itself answered
	// with a server error (5xx): source → status. The read reached the
	// app; what the app said is its state's answer, not a read that failed.
	Answered map[string]int `json:"answered,omitempty"`
}

// Document is the snapshot as one JSON value (sources as keys).
func (s *Snapshot) Document() map[string]any {
	doc := make(map[string]any, len(s.Docs))
	for name, raw := range s.Docs {
		doc[name] = Normalize(raw)
	}
	return doc
}

// Hash is a SHA-256 of the documents, independent of key order and
// formatting: two snapshots with the same documents have the same hash.
func (s *Snapshot) Hash() string {
	b, _ := json.Marshal(s.Document()) // encoding/json sorts map keys
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Changed lists the sources whose documents differ between before and s,
// in order, counting a source present on one side only.
func (s *Snapshot) Changed(before *Snapshot) []string {
	names := map[string]bool{}
	for n := range s.Docs {
		names[n] = true
	}
	for n := range before.Docs {
		names[n] = true
	}
	var out []string
	for _, n := range slices.Sorted(maps.Keys(names)) {
		a, okA := before.Docs[n]
		b, okB := s.Docs[n]
		if okA != okB || !JSONEqual(a, b) {
			out = append(out, n)
		}
	}
	return out
}
