package matchers

import (
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/netlog"
	"github.com/chromedp/cdproto/network"
	"github.com/onsi/gomega"
)

// registrationLog is a page load, one registration POST and a failed beacon.
func registrationLog() record.Log {
	return record.Log{
		{Seq: 1, Method: "GET", Path: "/events", Status: 200, Done: true},
		{Seq: 2, Method: "POST", Path: "/api/registrations", Status: 201, Done: true},
		{Seq: 3, Method: "POST", Path: "/beacon", Failure: "net::ERR_CONNECTION_REFUSED", Done: true},
	}
}

func TestHaveRequestedMatch(t *testing.T) {
	rec := observed(
		sent("1", "POST", "http://app.test/api/registrations/7/cancel"),
		sent("2", "POST", "http://app.test/api/registrations/8/cancel"),
	)
	tests := []struct {
		name    string
		matcher *RequestMatcher
		actual  any
		want    bool
	}{
		{"Times(0) on no requests", HaveRequested("POST", "/api/registrations").Times(0), record.Log{}, true},
		{"Times(0) on a nil log", HaveRequested("POST", "/api/registrations").Times(0), record.Log(nil), true},
		{"Times(0) on other requests", HaveRequested("POST", "/api/registrations").Times(0), registrationLog()[:1], true},
		{"Times(0) with one", HaveRequested("POST", "/api/registrations").Times(0), registrationLog(), false},
		{"Times(1) with one", HaveRequested("POST", "/api/registrations").Times(1), registrationLog(), true},
		{"Times(2) with one", HaveRequested("POST", "/api/registrations").Times(2), registrationLog(), false},
		{"at least one, none", HaveRequested("POST", "/api/registrations"), record.Log{}, false},
		{"at least one, one", HaveRequested("POST", "/api/registrations"), registrationLog(), true},
		{"method case and any method", HaveRequested("", "/events"), registrationLog(), true},
		{"a failed request counts", HaveRequested("post", "/beacon").Times(1), registrationLog(), true},
		{"*netlog.Recorder with a pattern", HaveRequested("POST", "/api/registrations/*/cancel").Times(2), rec, true},
		{"*netlog.Recorder, none", HaveRequested("DELETE", "/api/registrations/*").Times(0), rec, true},
		{"empty *netlog.Recorder", HaveRequested("POST", "/x"), netlog.NewRecorder(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.matcher.Match(tt.actual)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Match = %v, want %v\n%s", got, tt.want, tt.matcher.FailureMessage(tt.actual))
			}
		})
	}
}

func TestHaveRequestedFailureMessages(t *testing.T) {
	t.Run("Times(0) lists the requests and marks the matching ones", func(t *testing.T) {
		m := HaveRequested("POST", "/api/registrations").Times(0)
		if ok, err := m.Match(registrationLog()); ok || err != nil {
			t.Fatalf("Match = %v, %v; want false", ok, err)
		}
		msg := m.FailureMessage(nil)
		for _, want := range []string{
			"expected exactly 0 POST /api/registrations request(s), got 1",
			"requests seen (3):",
			"\n     GET /events → 200",
			"\n  => POST /api/registrations → 201",
			"\n     POST /beacon → failed: net::ERR_CONNECTION_REFUSED",
		} {
			if !strings.Contains(msg, want) {
				t.Errorf("message lacks %q:\n%s", want, msg)
			}
		}
		if n := strings.Count(msg, "=>"); n != 1 {
			t.Errorf("%d requests marked, want 1:\n%s", n, msg)
		}
	})
	t.Run("without Times it wants at least one", func(t *testing.T) {
		m := HaveRequested("DELETE", "/api/tasks/*")
		if ok, _ := m.Match(registrationLog()); ok {
			t.Fatal("matched")
		}
		msg := m.FailureMessage(nil)
		if !strings.Contains(msg, "expected at least one DELETE /api/tasks/* request(s), got 0") || strings.Contains(msg, "=>") {
			t.Errorf("message:\n%s", msg)
		}
	})
	t.Run("negated", func(t *testing.T) {
		m := HaveRequested("GET", "/events")
		if ok, _ := m.Match(registrationLog()); !ok {
			t.Fatal("did not match")
		}
		msg := m.NegatedFailureMessage(nil)
		if !strings.Contains(msg, "expected not at least one GET /events request(s), got 1") || !strings.Contains(msg, "=> GET /events → 200") {
			t.Errorf("message:\n%s", msg)
		}
	})
	t.Run("empty log", func(t *testing.T) {
		m := HaveRequested("POST", "/x")
		_, _ = m.Match(record.Log{})
		if msg := m.FailureMessage(nil); !strings.Contains(msg, "requests seen (0):") {
			t.Errorf("message:\n%s", msg)
		}
	})
}

func TestHaveRequestedWrongActual(t *testing.T) {
	for _, actual := range []any{nil, "POST /x", []record.Request{{Method: "POST", Path: "/x"}}, netlog.Recorder{}} {
		ok, err := HaveRequested("POST", "/x").Match(actual)
		if ok || err == nil || !strings.Contains(err.Error(), "expects a record.Log or *netlog.Recorder") {
			t.Errorf("Match(%T) = %v, %v; want an error that names what it expects", actual, ok, err)
		}
	}
}

func TestTimesDoesNotChangeItsBase(t *testing.T) {
	base := HaveRequested("POST", "/api/registrations")
	_ = base.Times(0)
	if ok, _ := base.Match(registrationLog()); !ok {
		t.Error("Times changed the matcher it was called on")
	}
}

func TestHaveRequestedWithGomega(t *testing.T) {
	g := gomega.NewWithT(t)
	rec := observed(sent("1", "GET", "http://app.test/events"))
	g.Expect(rec).To(HaveRequested("GET", "/events").Times(1))
	g.Expect(rec).NotTo(HaveRequested("POST", "/api/registrations"))
	g.Expect(rec.Requests()).To(HaveRequested("POST", "/api/registrations").Times(0))
}

// observed is a network recorder fed with events, as a tab's listener feeds it.
func observed(events ...any) *netlog.Recorder {
	r := netlog.NewRecorder()
	for _, ev := range events {
		r.Observe(ev)
	}
	return r
}

func sent(id, method, url string) *network.EventRequestWillBeSent {
	return &network.EventRequestWillBeSent{RequestID: network.RequestID(id), Request: &network.Request{URL: url, Method: method}}
}
