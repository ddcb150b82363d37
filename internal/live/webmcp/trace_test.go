package webmcp

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/webmcp"
)

// testWait bounds every wait of these tests: long enough never to fire on a
// slow machine when the awaited event does come, short enough not to stall.
const testWait = 5 * time.Second

// newTestRecorder makes a recorder whose clock answers a fixed time.
func newTestRecorder(now time.Time) *Recorder {
	r := NewRecorder()
	r.now = func() time.Time { return now }
	return r
}

// stripSeq drops what add fills in, so that cases compare what Observe made.
func stripSeq(e record.Event) record.Event {
	e.Seq, e.Time = 0, time.Time{}
	return e
}

func binding(name, payload string) *runtime.EventBindingCalled {
	return &runtime.EventBindingCalled{Name: name, Payload: payload, ExecutionContextID: 1}
}

func TestObserveRecordsWebMCPEvents(t *testing.T) {
	tests := []struct {
		name string
		ev   any
		want *record.Event // nil: ignored
	}{
		{
			name: "toolsAdded imperative",
			ev: &webmcp.EventToolsAdded{Tools: []*webmcp.Tool{{
				Name: "add_task", Description: "Add a task", FrameID: "F1",
				InputSchema: jsonv2.Value(`{ "type": "object", "required": ["text"] }`),
				Annotations: &webmcp.Annotation{ReadOnly: true, Consequential: true},
				StackTrace:  &runtime.StackTrace{},
			}}},
			want: &record.Event{Kind: record.ToolsAdded, Tools: []record.Tool{{
				Name: "add_task", Description: "Add a task", FrameID: "F1",
				InputSchema: json.RawMessage(`{"type":"object","required":["text"]}`),
				Annotations: record.Annotations{ReadOnly: true, Consequential: true},
			}}},
		},
		{
			name: "toolsAdded declarative with autosubmit",
			ev: &webmcp.EventToolsAdded{Tools: []*webmcp.Tool{{
				Name: "register", FrameID: "F1", BackendNodeID: 42,
				InputSchema: jsonv2.Value(`"{\"type\":\"object\"}"`),
				Annotations: &webmcp.Annotation{Autosubmit: true},
			}}},
			want: &record.Event{Kind: record.ToolsAdded, Tools: []record.Tool{{
				Name: "register", FrameID: "F1", Declarative: true,
				InputSchema: json.RawMessage(`{"type":"object"}`),
				Annotations: record.Annotations{Autosubmit: true},
			}}},
		},
		{
			name: "toolsRemoved",
			ev:   &webmcp.EventToolsRemoved{Tools: []*webmcp.RemovedTool{{Name: "add_task", FrameID: "F1"}}},
			want: &record.Event{Kind: record.ToolsRemoved, Tools: []record.Tool{{Name: "add_task", FrameID: "F1"}}},
		},
		{
			name: "toolInvoked with JSON input",
			ev:   &webmcp.EventToolInvoked{ToolName: "add_task", FrameID: "F1", InvocationID: "inv-1", Input: `{"text":"hi"}`},
			want: &record.Event{Kind: record.ToolInvoked, ToolName: "add_task", FrameID: "F1", InvocationID: "inv-1", Input: json.RawMessage(`{"text":"hi"}`)},
		},
		{
			name: "toolInvoked with input that is not JSON keeps it as a JSON string",
			ev:   &webmcp.EventToolInvoked{ToolName: "add_task", FrameID: "F1", InvocationID: "inv-2", Input: `text=hi`},
			want: &record.Event{Kind: record.ToolInvoked, ToolName: "add_task", FrameID: "F1", InvocationID: "inv-2", Input: json.RawMessage(`"text=hi"`)},
		},
		{
			name: "toolInvoked with empty input",
			ev:   &webmcp.EventToolInvoked{ToolName: "add_task", InvocationID: "inv-3"},
			want: &record.Event{Kind: record.ToolInvoked, ToolName: "add_task", InvocationID: "inv-3", Input: json.RawMessage(`""`)},
		},
		{
			name: "toolResponded completed",
			ev:   &webmcp.EventToolResponded{InvocationID: "inv-1", Status: webmcp.InvocationStatusCompleted, Output: jsonv2.Value(`"{\"ok\":true}"`)},
			want: &record.Event{Kind: record.ToolResponded, InvocationID: "inv-1", Status: "Completed", Output: json.RawMessage(`"{\"ok\":true}"`)},
		},
		{
			name: "toolResponded error keeps errorText",
			ev:   &webmcp.EventToolResponded{InvocationID: "inv-2", Status: webmcp.InvocationStatusError, ErrorText: `Invalid value "9" for parameter seats`},
			want: &record.Event{Kind: record.ToolResponded, InvocationID: "inv-2", Status: "Error", ErrorText: `Invalid value "9" for parameter seats`},
		},
		{
			name: "toolResponded error without errorText takes the exception",
			ev: &webmcp.EventToolResponded{InvocationID: "inv-3", Status: webmcp.InvocationStatusError,
				Exception: &runtime.RemoteObject{Description: "Error: boom"}},
			want: &record.Event{Kind: record.ToolResponded, InvocationID: "inv-3", Status: "Error", ErrorText: "Error: boom"},
		},
		{
			name: "binding tool_activated",
			ev:   binding(BindingName, `{"kind":"tool_activated","toolName":"x"}`),
			want: &record.Event{Kind: record.ToolActivated, ToolName: "x"},
		},
		{
			name: "binding tool_canceled with null toolName",
			ev:   binding(BindingName, `{"kind":"tool_canceled","toolName":null}`),
			want: &record.Event{Kind: record.ToolCanceled},
		},
		{name: "binding with another name", ev: binding("somethingElse", `{"kind":"tool_activated","toolName":"x"}`)},
		{name: "binding with junk payload", ev: binding(BindingName, `not json`)},
		{name: "binding with another kind", ev: binding(BindingName, `{"kind":"tool_invoked","toolName":"x"}`)},
		{name: "binding with empty payload", ev: binding(BindingName, ``)},
		{name: "other vocab.CDP event", ev: &runtime.EventExecutionContextsCleared{}},
		{name: "not an event", ev: "toolsAdded"},
		{name: "nil", ev: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
			r := newTestRecorder(now)
			r.Observe(tt.ev)
			got := r.Events()
			if tt.want == nil {
				if len(got) != 0 {
					t.Fatalf("want the event ignored, got %+v", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("want 1 event, got %d: %+v", len(got), got)
			}
			if got[0].Seq != 1 || !got[0].Time.Equal(now) {
				t.Errorf("Seq, Time = %d, %v; want 1, %v", got[0].Seq, got[0].Time, now)
			}
			if g := stripSeq(got[0]); !reflect.DeepEqual(g, *tt.want) {
				t.Errorf("event\n got %+v\nwant %+v", g, *tt.want)
			}
		})
	}
}

func TestObserveSeqIncreasesAndEventsIsACopy(t *testing.T) {
	r := NewRecorder()
	r.Observe(&webmcp.EventToolsAdded{Tools: []*webmcp.Tool{{Name: "a", FrameID: "F1"}}})
	r.Observe(binding("other", `{}`)) // ignored: takes no seq
	r.Observe(&webmcp.EventToolInvoked{ToolName: "a", InvocationID: "1", Input: "{}"})
	r.Observe(binding(BindingName, `{"kind":"tool_activated","toolName":"a"}`))
	r.Observe(&webmcp.EventToolResponded{InvocationID: "1", Status: webmcp.InvocationStatusCompleted})

	events := r.Events()
	wantKinds := []record.Kind{record.ToolsAdded, record.ToolInvoked, record.ToolActivated, record.ToolResponded}
	if len(events) != len(wantKinds) || r.Len() != len(wantKinds) {
		t.Fatalf("got %d events (Len %d), want %d", len(events), r.Len(), len(wantKinds))
	}
	for i, e := range events {
		if e.Seq != i+1 || e.Kind != wantKinds[i] {
			t.Errorf("event %d: Seq %d Kind %s, want Seq %d Kind %s", i, e.Seq, e.Kind, i+1, wantKinds[i])
		}
		if i > 0 && e.Time.Before(events[i-1].Time) {
			t.Errorf("event %d: time goes back", i)
		}
	}
	events[0].Kind = "mutated"
	if r.Events()[0].Kind != record.ToolsAdded {
		t.Error("Events() shares its backing array with the recorder")
	}
}

func TestWaitForReturnsAnEventAddedLater(t *testing.T) {
	r := NewRecorder()
	r.Observe(&webmcp.EventToolsAdded{Tools: []*webmcp.Tool{{Name: "a", FrameID: "F1"}}})
	looked := make(chan struct{}) // closed once the waiter has looked and not found
	go func() {
		<-looked
		r.Observe(&webmcp.EventToolInvoked{ToolName: "a", InvocationID: "other", Input: "{}"})
		r.Observe(&webmcp.EventToolResponded{InvocationID: "inv-9", Status: webmcp.InvocationStatusCompleted})
	}()

	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	first := true
	ev, err := r.WaitFor(ctx, 0, "toolResponded of inv-9", func(e record.Event) bool {
		if first {
			first = false
			close(looked)
		}
		return e.Kind == record.ToolResponded && e.InvocationID == "inv-9"
	})
	if err != nil {
		t.Fatal(err)
	}
	if ev.Seq != 3 || ev.InvocationID != "inv-9" {
		t.Errorf("got %+v, want the toolResponded of inv-9 at seq 3", ev)
	}
}

func TestWaitUntilReturnsWhenTheConditionHoldsLater(t *testing.T) {
	r := NewRecorder()
	looked := make(chan struct{})
	go func() {
		<-looked
		for _, name := range []string{"a", "b"} {
			r.Observe(&webmcp.EventToolsAdded{Tools: []*webmcp.Tool{{Name: name, FrameID: "F1"}}})
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	calls := 0
	err := r.WaitUntil(ctx, "two tools", func(events []record.Event) bool {
		if calls++; calls == 1 {
			close(looked)
		}
		return len(record.CatalogAt(events, len(events))) == 2
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Catalog().Names(); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("catalog %v", got)
	}
}

func TestWaitEndsWithTheContext(t *testing.T) {
	never := func(record.Event) bool { return false }
	tests := []struct {
		name    string
		ctx     func() (context.Context, context.CancelFunc)
		wantErr error
	}{
		{"deadline", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 20*time.Millisecond)
		}, context.DeadlineExceeded},
		{"canceled", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, cancel
		}, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewRecorder()
			r.Observe(&webmcp.EventToolsAdded{Tools: []*webmcp.Tool{{Name: "a"}}})

			ctx, cancel := tt.ctx()
			defer cancel()
			_, err := r.WaitFor(ctx, 0, "toolResponded of inv-404", never)
			checkWaitErr(t, err, tt.wantErr, "toolResponded of inv-404")

			ctx, cancel = tt.ctx()
			defer cancel()
			err = r.WaitUntil(ctx, "tool zzz to enter the catalog", func([]record.Event) bool { return false })
			checkWaitErr(t, err, tt.wantErr, "tool zzz to enter the catalog")
		})
	}
}

func checkWaitErr(t *testing.T, err, want error, what string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("err = %v, want one that wraps %v", err, want)
	}
	if !strings.Contains(err.Error(), "waiting for "+what) {
		t.Errorf("err %q does not say what was awaited (%q)", err, what)
	}
}

func TestWaitForSkipsEventsBeforeTheMark(t *testing.T) {
	r := NewRecorder()
	responded := func(id string) *webmcp.EventToolResponded {
		return &webmcp.EventToolResponded{InvocationID: id, Status: webmcp.InvocationStatusCompleted}
	}
	isResponse := func(e record.Event) bool { return e.Kind == record.ToolResponded }
	r.Observe(responded("old"))
	mark := r.Len()

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if ev, err := r.WaitFor(ctx, mark, "a new response", isResponse); err == nil {
		t.Fatalf("found %+v from before the mark", ev)
	}

	r.Observe(responded("new"))
	ctx, cancel = context.WithTimeout(context.Background(), testWait)
	defer cancel()
	ev, err := r.WaitFor(ctx, mark, "a new response", isResponse)
	if err != nil || ev.InvocationID != "new" || ev.Seq != 2 {
		t.Fatalf("got %+v, %v; want the response of new at seq 2", ev, err)
	}

	// A mark past the end is not an error: it waits for what comes.
	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := r.WaitFor(ctx, 99, "anything", isResponse); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("mark past the end: err = %v", err)
	}
}

// Chromium 156 sends no toolsRemoved when a document goes away: a frame's
// navigation or detachment takes its tools out, with an inferred event.
func TestTheCatalogFollowsDocuments(t *testing.T) {
	r := NewRecorder()
	nav := func(frame, loader string) *page.EventFrameNavigated {
		return &page.EventFrameNavigated{Frame: &cdp.Frame{ID: cdp.FrameID(frame), LoaderID: cdp.LoaderID(loader)}}
	}
	added := func(frame string, names ...string) *webmcp.EventToolsAdded {
		ev := &webmcp.EventToolsAdded{}
		for _, n := range names {
			ev.Tools = append(ev.Tools, &webmcp.Tool{Name: n, FrameID: cdp.FrameID(frame), Description: n})
		}
		return ev
	}
	r.Observe(nav("MAIN", "L1"))
	r.Observe(added("MAIN", "search"))
	r.Observe(nav("CHILD", "C1"))
	r.Observe(added("CHILD", "widget"))
	if got := r.Catalog().Names(); strings.Join(got, ",") != "search,widget" {
		t.Fatalf("catalog %v", got)
	}
	n := r.Len()
	r.Observe(nav("MAIN", "L2")) // the form navigated to its result page
	if got := r.Catalog().Names(); strings.Join(got, ",") != "widget" {
		t.Errorf("after the main frame navigated: %v, want only the child frame's tool", got)
	}
	ev := r.Events()[n]
	if ev.Kind != record.ToolsRemoved || ev.Inferred == "" || len(ev.Tools) != 1 || ev.Tools[0].Name != "search" {
		t.Errorf("the removal event %+v", ev)
	}
	r.Observe(added("MAIN", "refine"))
	r.Observe(nav("MAIN", "L2")) // the same document again (a same-document navigation): nothing leaves
	r.Observe(&page.EventFrameDetached{FrameID: "CHILD", Reason: page.FrameDetachedReasonRemove})
	if got := r.Catalog().Names(); strings.Join(got, ",") != "refine" {
		t.Errorf("after the child frame left: %v, want [refine]", got)
	}
	// A frame with no tools that navigates adds no event.
	before := r.Len()
	r.Observe(nav("OTHER", "O1"))
	r.Observe(nav("OTHER", "O2"))
	if r.Len() != before {
		t.Errorf("a navigation of a frame without tools added %d events", r.Len()-before)
	}
}
