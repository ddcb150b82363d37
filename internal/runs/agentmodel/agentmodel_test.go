package agentmodel

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/runs/agentmodel/modeltest"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

func catalog(names ...string) record.Catalog {
	var c record.Catalog
	for _, n := range names {
		c = append(c, record.Tool{Name: n, Description: "the tool " + n, InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)})
	}
	return c
}

// page is a fake page: it records the calls and answers each completed.
type page struct {
	mu    sync.Mutex
	calls []scenarios.Call
}

func (p *page) act(_ context.Context, c scenarios.Call) record.Result {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls = append(p.calls, c)
	return record.Result{Tool: c.Tool, Status: vocab.Completed, Output: json.RawMessage(`{"code":"OK_` + c.Tool + `"}`)}
}

func noRetry() *int { n := 0; return &n }

func TestToolCallsParallelAndFinalWords(t *testing.T) {
	srv := modeltest.New(
		modeltest.Step{Calls: []modeltest.Call{{Tool: "search", Args: map[string]any{"q": "croissant"}}, {Tool: "prepare", Args: map[string]any{"q": "2"}}}},
		modeltest.Step{Text: "Your order is ready for you to confirm."},
	)
	defer srv.Close()
	a, err := New(Config{BaseURL: srv.URL, Model: "scripted", Key: "sk-test"})
	if err != nil {
		t.Fatal(err)
	}
	p := &page{}
	final, rec := a.Play(context.Background(), "Order 2 croissants", Page{Tools: func() record.Catalog { return catalog("search", "prepare") }, Act: p.act}, nil)
	if final == nil || *final != "Your order is ready for you to confirm." {
		t.Fatalf("final = %v", final)
	}
	if got := []string{p.calls[0].Tool, p.calls[1].Tool}; len(p.calls) != 2 || !slices.Equal(got, []string{"search", "prepare"}) || p.calls[0].Input["q"] != "croissant" {
		t.Fatalf("calls = %+v", p.calls)
	}
	if p.calls[0].Transport != vocab.PageAPI {
		t.Errorf("transport = %q", p.calls[0].Transport)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !slices.Equal(reqs[0].Tools(), []string{"search", "prepare"}) || reqs[0].Authorization != "Bearer sk-test" {
		t.Fatalf("requests = %+v", reqs)
	}
	msgs := reqs[1].Messages()
	if len(msgs) != 5 || msgs[3]["role"] != "tool" || msgs[3]["content"] != `{"code":"OK_search"}` || msgs[4]["tool_call_id"] != "call_1_2" {
		t.Fatalf("second request's messages = %v", msgs)
	}
	if rec.Stop != "final" || rec.Fault != "" || len(rec.Exchanges) != 2 || rec.Exchanges[1].Turn != 2 || rec.Exchanges[0].Status != 200 {
		t.Fatalf("record = %+v", rec)
	}
	if rec.Usage.Total != 110+210 || rec.Usage.Prompt != 300 {
		t.Errorf("usage = %+v", rec.Usage)
	}
	if b, _ := json.Marshal(rec); strings.Contains(string(b), "sk-test") {
		t.Error("the key is in the record")
	}
}

func TestARateLimitIsRetriedAndRecorded(t *testing.T) {
	srv := modeltest.New(modeltest.Step{Status: http.StatusTooManyRequests, Error: "slow down"}, modeltest.Step{Text: "done"})
	defer srv.Close()
	a, err := New(Config{BaseURL: srv.URL, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	final, rec := a.Play(context.Background(), "x", Page{Tools: func() record.Catalog { return nil }, Act: (&page{}).act}, nil)
	if final == nil || *final != "done" || len(rec.Exchanges) != 2 || rec.Exchanges[0].Status != 429 || rec.Exchanges[0].Turn != 1 || rec.Exchanges[1].Turn != 1 {
		t.Fatalf("final %v, record %+v", final, rec)
	}
	if srv.Requests()[0].Authorization != "" {
		t.Errorf("no key, yet Authorization %q", srv.Requests()[0].Authorization)
	}
}

func TestAnErrorIsAFaultNamingTheModel(t *testing.T) {
	srv := modeltest.New(modeltest.Step{Status: http.StatusNotFound, Error: "no such model"})
	defer srv.Close()
	a, _ := New(Config{BaseURL: srv.URL, Model: "ghost", Retries: noRetry()})
	final, rec := a.Play(context.Background(), "x", Page{Tools: func() record.Catalog { return nil }, Act: (&page{}).act}, nil)
	if final != nil || rec.Stop != "fault" || !strings.Contains(rec.Fault, "ghost") || !strings.Contains(rec.Fault, "404") || len(rec.Exchanges) != 1 {
		t.Fatalf("final %v, record %+v", final, rec)
	}
}

func TestTurnsAreBoundedAndTheCatalogIsReadEachTurn(t *testing.T) {
	step := modeltest.Step{Calls: []modeltest.Call{{Tool: "search"}}}
	srv := modeltest.New(step, step, step)
	defer srv.Close()
	a, _ := New(Config{BaseURL: srv.URL, Model: "m", Turns: 2})
	n := 0
	tools := func() record.Catalog {
		n++
		if n == 1 {
			return catalog("search")
		}
		return catalog("search", "checkout")
	}
	p := &page{}
	final, rec := a.Play(context.Background(), "x", Page{Tools: tools, Act: p.act}, nil)
	if final != nil || rec.Stop != "turns" || len(p.calls) != 2 || len(srv.Requests()) != 2 {
		t.Fatalf("final %v, record %+v, calls %d", final, rec, len(p.calls))
	}
	if got := srv.Requests()[1].Tools(); !slices.Equal(got, []string{"search", "checkout"}) {
		t.Errorf("second turn's tools = %v", got)
	}
}

func TestArgumentsThatAreNotJSONAreTheModelsError(t *testing.T) {
	srv := modeltest.New(modeltest.Step{Calls: []modeltest.Call{{Tool: "search", Args: "{not json"}}}, modeltest.Step{Text: "sorry"})
	defer srv.Close()
	a, _ := New(Config{BaseURL: srv.URL, Model: "m"})
	p := &page{}
	final, _ := a.Play(context.Background(), "x", Page{Tools: func() record.Catalog { return catalog("search") }, Act: p.act}, nil)
	if final == nil || len(p.calls) != 0 {
		t.Fatalf("final %v, calls %+v", final, p.calls)
	}
	if m := srv.Requests()[1].Messages()[3]["content"].(string); !strings.Contains(m, "not a JSON object") {
		t.Errorf("the model was told %q", m)
	}
}

func TestBadConfigIsAnErrorNamingTheFlag(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		flag string
	}{
		{Config{}, "--model"},
		{Config{Model: "m", BaseURL: "ftp://x"}, "--model-url"},
		{Config{Model: "m", Turns: -1}, "--model-turns"},
		{Config{Model: "m", Timeout: -1}, "--model-timeout"},
	} {
		if _, err := New(c.cfg); err == nil || !strings.Contains(err.Error(), c.flag) {
			t.Errorf("%+v: %v", c.cfg, err)
		}
	}
}
