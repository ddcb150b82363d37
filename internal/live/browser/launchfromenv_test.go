package browser

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/kit/hang"
)

// A grid counts a session before it answers the request for it: an
// interrupt while it starts one must not leave a session nobody knows the
// id of. The request is answered and the session deleted, and the
// interrupt is the error (make grid-test caught the leak with agentready
// run and Ctrl-C).
func TestAnInterruptWhileTheGridStartsASessionDeletesIt(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	nowhere := l.Addr().String()
	l.Close()
	asked, answer := make(chan struct{}), make(chan struct{})
	var mu sync.Mutex
	var seen []string
	grid := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		if r.Method == http.MethodDelete {
			io.WriteString(w, `{"value":null}`)
			return
		}
		close(asked)
		<-answer // the grid is starting Chrome: the session counts already
		io.WriteString(w, `{"value":{"sessionId":"s1","capabilities":{"browserName":"chrome","se:cdp":"ws://`+nowhere+`/session/s1/se/cdp"}}}`)
	}))
	defer grid.Close()
	t.Setenv(EnvGridURL, grid.URL)
	t.Setenv(EnvBrowserURL, "")
	ctx, interrupt := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, _, err := LaunchFromEnv(ctx)
		done <- err
	}()
	<-asked
	interrupt()
	close(answer)
	select {
	case err = <-done:
	case <-time.After(hang.Bound):
		t.Fatalf("LaunchFromEnv did not return within %v", hang.Bound)
	}
	mu.Lock()
	defer mu.Unlock()
	if err == nil || !slices.Contains(seen, "DELETE /session/s1") {
		t.Errorf("error %v, the grid saw %v: the session it started must be deleted", err, seen)
	}
}
