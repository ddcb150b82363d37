package webmcp

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios/vocab"
	"github.com/chromedp/cdproto/webmcp"
)

func TestSetOutputAndCode(t *testing.T) {
	tests := []struct {
		name       string
		out        string
		wantOutput string // "" means nil
		wantText   string
		wantCode   string
	}{
		{"page API: a JSON string holding JSON", `"{\"code\":\"OK\",\"id\":3}"`, `{"code":"OK","id":3}`, "", "OK"},
		{"plain JSON object is kept, compacted", `{ "code": "INVALID_PARAMS", "message": "text is required" }`, `{"code":"INVALID_PARAMS","message":"text is required"}`, "", "INVALID_PARAMS"},
		{"JSON string holding plain text stays a JSON string", `"done"`, `"done"`, "", ""},
		{"JSON array", `[1, 2]`, `[1,2]`, "", ""},
		{"JSON string holding an array", `"[1,2]"`, `[1,2]`, "", ""},
		{"non-JSON goes to OutputText", `Task added.`, "", "Task added.", ""},
		{"code that is not a string", `{"code":5}`, `{"code":5}`, "", ""},
		{"no output", ``, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var res record.Result
			setOutput(&res, []byte(tt.out))
			if tt.wantOutput == "" {
				if res.Output != nil {
					t.Errorf("Output = %s, want nil", res.Output)
				}
			} else if string(res.Output) != tt.wantOutput {
				t.Errorf("Output = %s, want %s", res.Output, tt.wantOutput)
			}
			if res.OutputText != tt.wantText {
				t.Errorf("OutputText = %q, want %q", res.OutputText, tt.wantText)
			}
			if got := res.Code(); got != tt.wantCode {
				t.Errorf("Code() = %q, want %q", got, tt.wantCode)
			}
		})
	}
}

func TestFromResponded(t *testing.T) {
	base := record.Result{Tool: "add_task", Transport: vocab.CDP, InvocationID: "inv-1"}
	tests := []struct {
		name string
		ev   record.Event
		want record.Result
	}{
		{
			name: "Completed",
			ev:   record.Event{Kind: record.ToolResponded, InvocationID: "inv-1", Status: string(webmcp.InvocationStatusCompleted), Output: json.RawMessage(`"{\"ok\":true}"`)},
			want: record.Result{Tool: "add_task", Transport: vocab.CDP, InvocationID: "inv-1", Status: vocab.Completed, Output: json.RawMessage(`{"ok":true}`)},
		},
		{
			name: "Canceled",
			ev:   record.Event{Kind: record.ToolResponded, InvocationID: "inv-1", Status: string(webmcp.InvocationStatusCanceled)},
			want: record.Result{Tool: "add_task", Transport: vocab.CDP, InvocationID: "inv-1", Status: vocab.Canceled},
		},
		{
			name: "Error",
			ev:   record.Event{Kind: record.ToolResponded, InvocationID: "inv-1", Status: string(webmcp.InvocationStatusError), ErrorText: `Input contains a parameter "bogus" but there is no such parameter for the tool`},
			want: record.Result{Tool: "add_task", Transport: vocab.CDP, InvocationID: "inv-1", Status: vocab.Failed, ErrorText: `Input contains a parameter "bogus" but there is no such parameter for the tool`},
		},
		{
			name: "an unknown status counts as a failure",
			ev:   record.Event{Kind: record.ToolResponded, InvocationID: "inv-1", Status: "Exploded"},
			want: record.Result{Tool: "add_task", Transport: vocab.CDP, InvocationID: "inv-1", Status: vocab.Failed},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fromResponded(base, tt.ev); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestInvocationAfter(t *testing.T) {
	r := NewRecorder()
	c := NewClient(noTab, r)
	r.Observe(&webmcp.EventToolInvoked{ToolName: "add_task", InvocationID: "old", Input: "{}"})
	mark := r.Len()
	r.Observe(&webmcp.EventToolInvoked{ToolName: "list_tasks", InvocationID: "other", Input: "{}"})
	r.Observe(&webmcp.EventToolInvoked{ToolName: "add_task", InvocationID: "new", Input: "{}"})
	r.Observe(&webmcp.EventToolInvoked{ToolName: "add_task", InvocationID: "newer", Input: "{}"})
	tests := []struct {
		mark int
		name string
		want string
	}{
		{0, "add_task", "old"},
		{mark, "add_task", "new"},
		{mark, "list_tasks", "other"},
		{mark, "nope", ""},
		{r.Len(), "add_task", ""},
	}
	for _, tt := range tests {
		if got := c.invocationAfter(tt.mark, tt.name); got != tt.want {
			t.Errorf("invocationAfter(%d, %s) = %q, want %q", tt.mark, tt.name, got, tt.want)
		}
	}
}

func TestClientTimeout(t *testing.T) {
	c := NewClient(noTab, NewRecorder())
	if c.timeout() != DefaultTimeout {
		t.Errorf("default timeout %v", c.timeout())
	}
	c.Timeout = -1
	if c.timeout() != DefaultTimeout {
		t.Errorf("negative timeout gives %v, want the default", c.timeout())
	}
	c.Timeout = 250e6
	if c.timeout() != 250e6 {
		t.Errorf("timeout %v", c.timeout())
	}
}

// noTab binds nothing: these tests make no call to a browser.
func noTab(ctx context.Context) (context.Context, context.CancelFunc) { return context.WithCancel(ctx) }

// The caller's context reaches every wait: a WaitTool for a tool that never
// comes ends when the caller gives up, not after the client's own bound.
func TestWaitToolEndsWithTheCallersContext(t *testing.T) {
	c := NewClient(noTab, NewRecorder())
	c.Bound = time.Hour
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err := c.WaitTool(ctx, "never", true)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("WaitTool with a canceled context = %v, want context.Canceled", err)
	}
}

// And the client's bound still cuts a caller's long deadline short.
func TestWaitToolKeepsItsOwnBound(t *testing.T) {
	c := NewClient(noTab, NewRecorder())
	c.Bound = time.Millisecond
	err := c.WaitTool(t.Context(), "never", true)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitTool past its bound = %v, want context.DeadlineExceeded", err)
	}
}
