package scenarios

import (
	"encoding/json"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios/vocab"
)

// RequestLine is a request as a scenario writes it everywhere: "METHOD
// /path" (a probe, a guarded request, a wait, a count, a body judged, a
// request sent). A mapping {method, path} is read as the same line, as
// sugar; it is written back as the line.
type RequestLine string

// Split answers the line's method (upper case) and path, and whether it is
// "METHOD /path" at all.
func (l RequestLine) Split() (method, path string, ok bool) { return record.SplitRequest(string(l)) }

// requestSugar is the mapping form of a request line.
type requestSugar struct {
	Method string `yaml:"method"`
	Path   string `yaml:"path"`
}

// UnmarshalYAML reads "METHOD /path", or {method, path} as sugar for it.
func (l *RequestLine) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		*l = RequestLine(n.Value)
		return nil
	case yaml.MappingNode:
		var s requestSugar
		if err := n.Decode(&s); err != nil {
			return err
		}
		*l = RequestLine(strings.TrimSpace(s.Method + " " + s.Path))
		return nil
	}
	return fmt.Errorf(`line %d: a request is "METHOD /path" (or {method, path})`, n.Line)
}

// requestExpectFile is RequestExpect as a file writes it.
type requestExpectFile struct {
	Request RequestLine `yaml:"request" json:"request"`
	Phase   string      `yaml:"phase" json:"phase"`
	Count   int         `yaml:"count" json:"count"`
	Status  int         `yaml:"status,omitempty" json:"status,omitempty"`
	Message string      `yaml:"message,omitempty" json:"message,omitempty"`
}

func (r RequestExpect) file() requestExpectFile {
	return requestExpectFile{Request: joinLine(r.Method, r.Path), Phase: string(r.Phase), Count: r.Count, Status: r.Status, Message: r.Message}
}

func (r *RequestExpect) fromFile(f requestExpectFile) {
	r.Method, r.Path = splitLoosely(f.Request)
	r.Phase, r.Count, r.Status, r.Message = vocab.Phase(f.Phase), f.Count, f.Status, f.Message
}

func joinLine(method, path string) RequestLine {
	return RequestLine(strings.TrimSpace(method + " " + path))
}

// splitLoosely answers a line's method and path even when it is not
// "METHOD /path", so that validation can name what is wrong with it.
func splitLoosely(l RequestLine) (string, string) {
	if m, p, ok := l.Split(); ok {
		return m, p
	}
	m, p, _ := strings.Cut(strings.TrimSpace(string(l)), " ")
	if strings.HasPrefix(m, "/") && p == "" {
		return "", m
	}
	return strings.ToUpper(m), strings.TrimSpace(p)
}

// UnmarshalYAML reads the file's form.
func (r *RequestExpect) UnmarshalYAML(n *yaml.Node) error {
	var f requestExpectFile
	if err := n.Decode(&f); err != nil {
		return err
	}
	r.fromFile(f)
	return nil
}

// MarshalYAML writes the file's form.
func (r RequestExpect) MarshalYAML() (any, error) { return r.file(), nil }

// MarshalJSON writes the file's form: scenario.json is the file.
func (r RequestExpect) MarshalJSON() ([]byte, error) { return json.Marshal(r.file()) }

// UnmarshalJSON reads what MarshalJSON writes.
func (r *RequestExpect) UnmarshalJSON(b []byte) error {
	var f requestExpectFile
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	r.fromFile(f)
	return nil
}

// directRequestFile is DirectRequest as a file writes it.
type directRequestFile struct {
	Request RequestLine    `yaml:"request" json:"request"`
	Body    any            `yaml:"body,omitempty" json:"body,omitempty"`
	CSRF    *CSRF          `yaml:"csrf,omitempty" json:"csrf,omitempty"`
	Expect  RequestOutcome `yaml:"expect" json:"expect"`
}

func (d DirectRequest) file() directRequestFile {
	return directRequestFile{Request: joinLine(d.Method, d.Path), Body: d.Body, CSRF: d.CSRF, Expect: d.Expect}
}

func (d *DirectRequest) fromFile(f directRequestFile) {
	d.Method, d.Path = splitLoosely(f.Request)
	d.Body, d.CSRF, d.Expect = f.Body, f.CSRF, f.Expect
}

// UnmarshalYAML reads the file's form.
func (d *DirectRequest) UnmarshalYAML(n *yaml.Node) error {
	var f directRequestFile
	if err := n.Decode(&f); err != nil {
		return err
	}
	d.fromFile(f)
	return nil
}

// MarshalYAML writes the file's form.
func (d DirectRequest) MarshalYAML() (any, error) { return d.file(), nil }

// MarshalJSON writes the file's form.
func (d DirectRequest) MarshalJSON() ([]byte, error) { return json.Marshal(d.file()) }

// UnmarshalJSON reads what MarshalJSON writes.
func (d *DirectRequest) UnmarshalJSON(b []byte) error {
	var f directRequestFile
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	d.fromFile(f)
	return nil
}

// callsExpectFile is CallsExpect's mapping form.
type callsExpectFile CallsExpect

// UnmarshalYAML reads calls: as_transcript, or the mapping.
func (c *CallsExpect) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		if n.Value != CallsAsTranscript {
			return fmt.Errorf("line %d: calls is %s or a mapping (none, exactly, required), not %q", n.Line, CallsAsTranscript, n.Value)
		}
		*c = CallsExpect{AsTranscript: true}
		return nil
	}
	return n.Decode((*callsExpectFile)(c))
}

// asTranscript writes the transcript's calls, tool and input as written,
// as the calls the agent must have made, exactly.
func (sc *Scenario) asTranscript() {
	c := sc.Expect.Calls
	if c == nil || !c.AsTranscript {
		return
	}
	exactly := List[CallSketch]{}
	for _, call := range sc.Agent.Calls {
		s := CallSketch{Tool: call.Tool}
		if call.Input != nil { // a call written without input takes any, as a sketch without one does
			s.Input = Object{}
			for k, v := range call.Input {
				s.Input[k] = anyForCarried(v)
			}
		}
		exactly = append(exactly, s)
	}
	sc.Expect.Calls = &CallsExpect{Exactly: exactly}
}
