package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/scenarios/vocab"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *lockedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *lockedBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// agentready mcp as an MCP client starts it: a command whose standard
// input and output are the protocol. Without --url each run is on the
// reference app started afresh. The scripted agent does CONF-01 attempt 3
// right; when it leaves, the command writes the bundle, verifies it, and
// exits 0 with pass^1 = 1, having written nothing but the protocol on
// standard output.
func TestMCPCommandOverStdio(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "agentready")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	evidence := t.TempDir()
	cmd := exec.Command(bin, "mcp", "--scenario", "../../scenarios/cases/CONF-01.attempt-3.yaml", "--evidence", evidence, "--run-id", "r1")
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "scripted-agent", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Minute}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	call := func(name string, args map[string]any) string {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v\n%s", name, err, res, stderr.String())
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	if out := call("prepare_event_registration", map[string]any{"attendeeName": "測試讀者", "email": "reader@example.com"}); !strings.Contains(out, "CONFIRMATION_REQUIRED") {
		t.Errorf("prepare answered %q", out)
	}
	call("final_answer", map[string]any{"text": "I have filled in the form for 測試讀者 (reader@example.com). It is not submitted yet: please check the details and press \"Submit registration\" yourself."})
	if err := cs.Close(); err != nil {
		t.Errorf("the server did not exit cleanly: %v\n%s", err, stderr.String())
	}
	t.Logf("stderr:\n%s", stderr.String())
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
	for _, want := range []string{"verify: 1 passed, 0 failed", "mcp: pass^1 = 1, pass@1 = 1", "evidence: " + filepath.Join(evidence, "r1", "index.html")} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q", want)
		}
	}
	if rep := bundle.Verify(filepath.Join(evidence, "r1", "CONF-01.attempt-3")); !rep.OK || rep.Outcome != vocab.Pass {
		t.Errorf("the bundle: %+v", rep)
	}
	if _, err := os.Stat(filepath.Join(evidence, "r1", "index.html")); err != nil {
		t.Error(err)
	}
}

func TestMCPCommandRefusesBadUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{}, "usage"},
		{[]string{"--url", "http://127.0.0.1:1/", "--runs", "0"}, "usage"},
		{[]string{"--scenario", "missing.yaml"}, "no such file"},
	} {
		var out, errs bytes.Buffer
		if code := mcpCmd(tc.args, strings.NewReader(""), &out, &errs); code != 2 || !strings.Contains(errs.String(), tc.want) || out.Len() != 0 {
			t.Errorf("%v: exit %d, stderr %q, stdout %q", tc.args, code, errs.String(), out.String())
		}
	}
}
