package webmcp

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/webmcp"
	"github.com/chromedp/chromedp"
)

// toolsAdded156 is a WebMCP.toolsAdded payload as Chromium 156 sends it: no
// toolId, inputSchema an object, a stackTrace for an imperative tool and a
// backendNodeId for a declarative one.
const toolsAdded156 = `{"tools":[
 {"name":"add_task","description":"Add a task to the list.",
  "inputSchema":{"type":"object","properties":{"text":{"type":"string","minLength":1}},"required":["text"]},
  "frameId":"F1","stackTrace":{"callFrames":[]}},
 {"name":"register","description":"Register for an event.",
  "inputSchema":{"type":"object","properties":{"n":{"type":"string"}}},
  "annotations":{"readOnly":false,"untrustedContent":false,"consequential":false,"debugging":false,"autosubmit":true},
  "frameId":"F1","backendNodeId":17}
]}`

// toolsAdded159 is the same shape as Chromium 159 sends it: each tool has a
// toolId, and here inputSchema comes as a JSON string.
const toolsAdded159 = `{"tools":[
 {"name":"add_task","toolId":"7","description":"Add a task to the list.",
  "inputSchema":"{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\",\"minLength\":1}},\"required\":[\"text\"]}",
  "frameId":"F1","stackTrace":{"callFrames":[]}}
]}`

const addTaskSchema = `{"type":"object","properties":{"text":{"type":"string","minLength":1}},"required":["text"]}`

func TestDecodeToolsAdded(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want []record.Tool
	}{
		{"Chromium 156", toolsAdded156, []record.Tool{
			{Name: "add_task", Description: "Add a task to the list.", InputSchema: json.RawMessage(addTaskSchema), FrameID: "F1"},
			{Name: "register", Description: "Register for an event.", InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"string"}}}`),
				FrameID: "F1", Declarative: true, Annotations: record.Annotations{Autosubmit: true}},
		}},
		{"Chromium 159", toolsAdded159, []record.Tool{
			{Name: "add_task", ToolID: "7", Description: "Add a task to the list.", InputSchema: json.RawMessage(addTaskSchema), FrameID: "F1"},
		}},
		{"no tools", `{"tools":[]}`, []record.Tool{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeToolsAdded([]byte(tt.raw))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
	if _, err := DecodeToolsAdded([]byte(`{"tools":`)); err == nil || !strings.Contains(err.Error(), "WebMCP.toolsAdded") {
		t.Errorf("truncated payload: err = %v, want one naming WebMCP.toolsAdded", err)
	}
	if err := NewRecorder().RecordRawToolsAdded([]byte(`junk`)); err == nil {
		t.Error("RecordRawToolsAdded(junk) = nil, want an error")
	}
}

// wireParams marshals invokeTool's params as chromedp puts them on the wire,
// and also with encoding/json, and answers the decoded object (both must agree).
func wireParams(t *testing.T, p invokeToolParams) map[string]any {
	t.Helper()
	v2, err := jsonv2.Marshal(p, chromedp.DefaultMarshalOptions)
	if err != nil {
		t.Fatal(err)
	}
	v1, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var m2, m1 map[string]any
	if err := json.Unmarshal(v2, &m2); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(v1, &m1); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m1, m2) {
		t.Fatalf("jsonv2 and encoding/json disagree:\n%s\n%s", v2, v1)
	}
	return m2
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestInvokeToolParamsFollowTheBrowsersShape(t *testing.T) {
	tests := []struct {
		name     string
		raw      string
		wantKeys []string
		wantID   string
	}{
		{"Chromium 156: by name, no toolId", toolsAdded156, []string{"frameId", "input", "toolName"}, ""},
		{"Chromium 159: toolId and name", toolsAdded159, []string{"frameId", "input", "toolId", "toolName"}, "7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tools, err := DecodeToolsAdded([]byte(tt.raw))
			if err != nil {
				t.Fatal(err)
			}
			m := wireParams(t, newInvokeToolParams(tools[0], []byte(`{"text":"hi"}`)))
			if got := sortedKeys(m); !reflect.DeepEqual(got, tt.wantKeys) {
				t.Errorf("keys %v, want %v (params %v)", got, tt.wantKeys, m)
			}
			if m["frameId"] != "F1" || m["toolName"] != "add_task" {
				t.Errorf("frameId, toolName = %v, %v", m["frameId"], m["toolName"])
			}
			if id, _ := m["toolId"].(string); id != tt.wantID {
				t.Errorf("toolId = %v, want %q", m["toolId"], tt.wantID)
			}
			if in := m["input"]; !reflect.DeepEqual(in, map[string]any{"text": "hi"}) {
				t.Errorf("input = %#v, want the object itself (not a string, not base64)", in)
			}
		})
	}
}

// observeTyped feeds a raw toolsAdded through the generated cdproto type, as
// chromedp's listener does: the generated type of this cdproto has no toolId.
func observeTyped(t *testing.T, r *Recorder, raw string) {
	t.Helper()
	var ev webmcp.EventToolsAdded
	if err := jsonv2.Unmarshal([]byte(raw), &ev); err != nil {
		t.Fatal(err)
	}
	r.Observe(&ev)
}

func TestRecordRawToolsAddedCarriesToolIDIntoTheCatalog(t *testing.T) {
	tests := []struct {
		name     string
		raw      string
		rawFirst bool // the raw subscription may be read before or after the listener
		wantID   string
	}{
		{"159, raw after typed", toolsAdded159, false, "7"},
		{"159, raw before typed", toolsAdded159, true, "7"},
		{"156 has no ids", toolsAdded156, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewRecorder()
			if tt.rawFirst {
				if err := r.RecordRawToolsAdded([]byte(tt.raw)); err != nil {
					t.Fatal(err)
				}
			}
			observeTyped(t, r, tt.raw)
			if !tt.rawFirst {
				if err := r.RecordRawToolsAdded([]byte(tt.raw)); err != nil {
					t.Fatal(err)
				}
			}
			got, ok := r.Catalog().Get("add_task")
			if !ok {
				t.Fatalf("add_task not in the catalog %v", r.Catalog().Names())
			}
			if got.ToolID != tt.wantID || got.FrameID != "F1" || string(got.InputSchema) != addTaskSchema {
				t.Errorf("catalog entry %+v; want toolId %q, frame F1 and the schema as an object", got, tt.wantID)
			}
			m := wireParams(t, newInvokeToolParams(got, []byte(`{}`)))
			if _, has := m["toolId"]; has != (tt.wantID != "") {
				t.Errorf("invokeTool params %v: toolId present = %v, want %v", m, has, tt.wantID != "")
			}
			// The trace itself is what the browser said, without ids added.
			if ev := r.Events()[0]; ev.Tools[0].ToolID != "" {
				t.Errorf("the trace event was changed: %+v", ev.Tools[0])
			}
		})
	}
}

func TestToolIDIsPerFrame(t *testing.T) {
	r := NewRecorder()
	r.Observe(&webmcp.EventToolsAdded{Tools: []*webmcp.Tool{{Name: "add_task", FrameID: "F1"}, {Name: "add_task", FrameID: "F2"}}})
	if err := r.RecordRawToolsAdded([]byte(`{"tools":[{"name":"add_task","toolId":"9","frameId":"F2"}]}`)); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tl := range r.Catalog() {
		got[tl.FrameID] = tl.ToolID
	}
	if want := map[string]string{"F1": "", "F2": "9"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ids by frame %v, want %v", got, want)
	}
}

func TestDecodeToolsAddedTakesANumericToolID(t *testing.T) {
	tools, err := DecodeToolsAdded([]byte(`{"tools":[{"name":"add_task","toolId":42,"frameId":"F1","description":"d"}]}`))
	if err != nil || len(tools) != 1 || tools[0].ToolID != "42" {
		t.Fatalf("got %+v, %v", tools, err)
	}
}
