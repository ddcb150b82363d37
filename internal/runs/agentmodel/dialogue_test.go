package agentmodel

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/runs/agentmodel/modeltest"
	"github.com/agentready/agentready/scenarios"
)

var person = scenarios.Scenario{User: []scenarios.Reply{
	{Says: "Ada Baker, ada@example.com", When: "NAME"},
	{Says: "In the morning."},
}}

// The model asks, the person's reply keyed by the question goes back to
// it as the person's message, and the model then calls the tool.
func TestThePersonAnswersAndTheModelGoesOn(t *testing.T) {
	srv := modeltest.New(
		modeltest.Step{Text: "What name and email should I use?"},
		modeltest.Step{Calls: []modeltest.Call{{Tool: "prepare", Args: map[string]any{"q": "Ada Baker"}}}},
		modeltest.Step{Text: "Prepared: please check it and press the button yourself."},
	)
	defer srv.Close()
	a, _ := New(Config{BaseURL: srv.URL, Model: "m"})
	p := &page{}
	final, rec := a.Play(context.Background(), "Order for me", Page{Tools: func() record.Catalog { return catalog("prepare") }, Act: p.act}, person.ReplyTo)
	if final == nil || *final != "Prepared: please check it and press the button yourself." || rec.Stop != "final" || len(p.calls) != 1 {
		t.Fatalf("final %v, record %+v, calls %+v", final, rec, p.calls)
	}
	if len(rec.Dialogue) != 1 || rec.Dialogue[0].Reply != 0 || rec.Dialogue[0].AfterCalls != 0 || rec.Dialogue[0].Asked != "What name and email should I use?" {
		t.Fatalf("dialogue %+v", rec.Dialogue)
	}
	msgs := srv.Requests()[1].Messages()
	if len(msgs) != 4 || msgs[2]["role"] != "assistant" || msgs[3]["role"] != "user" || msgs[3]["content"] != "Ada Baker, ada@example.com" {
		t.Fatalf("the second request's messages: %v", msgs)
	}
}

// Replies are given once each; a question no reply left fits ends the
// dialogue: it is the final words, and the record says why it stopped.
func TestRunningOutOfRepliesEndsTheDialogue(t *testing.T) {
	srv := modeltest.New(
		modeltest.Step{Text: "When should I pick it up?"},
		modeltest.Step{Text: "And when exactly?"},
		modeltest.Step{Text: "never asked for"},
	)
	defer srv.Close()
	a, _ := New(Config{BaseURL: srv.URL, Model: "m"})
	final, rec := a.Play(context.Background(), "x", Page{Tools: func() record.Catalog { return nil }, Act: (&page{}).act}, person.ReplyTo)
	if final == nil || *final != "And when exactly?" || rec.Stop != "no_reply" || len(srv.Requests()) != 2 {
		t.Fatalf("final %v, record %+v, %d requests", final, rec, len(srv.Requests()))
	}
	// The first question does not ask for a name: the reply keyed by
	// "name" is skipped, the next one given.
	if len(rec.Dialogue) != 1 || rec.Dialogue[0].Reply != 1 || rec.Dialogue[0].Says != "In the morning." {
		t.Fatalf("dialogue %+v", rec.Dialogue)
	}
	// Words that ask nothing are final words, even with replies left.
	srv2 := modeltest.New(modeltest.Step{Text: "Done."})
	defer srv2.Close()
	a2, _ := New(Config{BaseURL: srv2.URL, Model: "m"})
	final, rec = a2.Play(context.Background(), "x", Page{Tools: func() record.Catalog { return nil }, Act: (&page{}).act}, person.ReplyTo)
	if final == nil || *final != "Done." || rec.Stop != "final" || len(rec.Dialogue) != 0 {
		t.Fatalf("final %v, record %+v", final, rec)
	}
}

// page_click is offered and run only with PageActions; without it, a
// call of page_click is a call of a tool the page does not offer.
func TestPageClickIsOfferedOnlyWithPageActions(t *testing.T) {
	step := modeltest.Step{Calls: []modeltest.Call{{Tool: PageClick, Args: map[string]any{"selector": "#submit"}}}}
	srv := modeltest.New(step, modeltest.Step{Text: "I submitted it."})
	defer srv.Close()
	a, _ := New(Config{BaseURL: srv.URL, Model: "m", PageActions: true})
	var clicked []string
	click := func(_ context.Context, sel string) error {
		clicked = append(clicked, sel)
		return errors.New("not visible")
	}
	p := &page{}
	_, rec := a.Play(context.Background(), "x", Page{Tools: func() record.Catalog { return catalog("prepare") }, Act: p.act, Click: click}, nil)
	if !slices.Equal(clicked, []string{"#submit"}) || len(p.calls) != 0 || len(rec.Clicks) != 1 || rec.Clicks[0].Error != "not visible" {
		t.Fatalf("clicked %v, calls %+v, record %+v", clicked, p.calls, rec)
	}
	if tools := srv.Requests()[0].Tools(); !slices.Equal(tools, []string{"prepare", PageClick}) {
		t.Errorf("offered %v", tools)
	}
	if m := srv.Requests()[1].Messages()[3]["content"]; m != "no click on #submit: not visible" {
		t.Errorf("the model was told %q", m)
	}

	srv2 := modeltest.New(step, modeltest.Step{Text: "x"})
	defer srv2.Close()
	a2, _ := New(Config{BaseURL: srv2.URL, Model: "m"})
	p2 := &page{}
	_, rec = a2.Play(context.Background(), "x", Page{Tools: func() record.Catalog { return catalog("prepare") }, Act: p2.act, Click: click}, nil)
	if len(p2.calls) != 1 || p2.calls[0].Tool != PageClick || len(rec.Clicks) != 0 || len(clicked) != 1 {
		t.Fatalf("without PageActions: calls %+v, record %+v", p2.calls, rec)
	}
	if tools := srv2.Requests()[0].Tools(); !slices.Equal(tools, []string{"prepare"}) {
		t.Errorf("offered %v", tools)
	}
}
