// Package matchers are the Gomega matchers the specs use: requests in a
// network log, and a verdict with exactly its codes. They live apart from
// the code they match, so that no package the suite ships imports Gomega.
package matchers

import (
	"fmt"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/netlog"
	"github.com/onsi/gomega/types"
)

// HaveRequested matches a record.Log (or a *Recorder) that holds requests with method
// and a path matching pattern; Times narrows it to an exact count, so that
// HaveRequested("POST", "/api/registrations").Times(0) is a negative assertion.
func HaveRequested(method, pattern string) *RequestMatcher {
	return &RequestMatcher{method: method, pattern: pattern, times: -1}
}

// RequestMatcher is the matcher HaveRequested makes.
type RequestMatcher struct {
	method, pattern string
	times           int
	got             int
	log             record.Log
}

var _ types.GomegaMatcher = (*RequestMatcher)(nil)

// Times asks for exactly n matching requests.
func (m *RequestMatcher) Times(n int) *RequestMatcher {
	c := *m
	c.times = n
	return &c
}

// Match implements types.GomegaMatcher.
func (m *RequestMatcher) Match(actual any) (bool, error) {
	switch a := actual.(type) {
	case record.Log:
		m.log = a
	case *netlog.Recorder:
		m.log = a.Requests()
	default:
		return false, fmt.Errorf("HaveRequested expects a record.Log or *netlog.Recorder, got %T", actual)
	}
	m.got = m.log.Count(m.method, m.pattern)
	if m.times < 0 {
		return m.got > 0, nil
	}
	return m.got == m.times, nil
}

func (m *RequestMatcher) want() string {
	if m.times < 0 {
		return "at least one"
	}
	return fmt.Sprintf("exactly %d", m.times)
}

// FailureMessage implements types.GomegaMatcher.
func (m *RequestMatcher) FailureMessage(any) string {
	return fmt.Sprintf("expected %s %s %s request(s), got %d\n%s", m.want(), m.method, m.pattern, m.got, m.summary())
}

// NegatedFailureMessage implements types.GomegaMatcher.
func (m *RequestMatcher) NegatedFailureMessage(any) string {
	return fmt.Sprintf("expected not %s %s %s request(s), got %d\n%s", m.want(), m.method, m.pattern, m.got, m.summary())
}

func (m *RequestMatcher) summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "requests seen (%d):", len(m.log))
	for _, r := range m.log {
		mark := "  "
		if record.MatchRequest(r.Method, r.Path, m.method, m.pattern) {
			mark = "=>"
		}
		outcome := fmt.Sprint(r.Status)
		if r.Failure != "" {
			outcome = "failed: " + r.Failure
		}
		fmt.Fprintf(&b, "\n  %s %s %s → %s", mark, r.Method, r.Path, outcome)
	}
	return b.String()
}
