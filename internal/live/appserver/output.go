package appserver

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
)

// outputCap is how much of the app's output is kept: the last 1 MiB. An
// app that logs every request writes a few hundred bytes per scenario; a
// chatty one must not fill the suite's memory over a long run.
const outputCap = 1 << 20

// Output keeps the last bytes the app wrote, with their offsets since its
// start, so that a run sharing one app gives each scenario the part
// written during it (Since).
type Output struct {
	mu    sync.Mutex
	cap   int
	buf   []byte
	base  int64 // the offset of buf[0] in all that was written
	total int64
}

// NewOutput keeps the last limit bytes.
func NewOutput(limit int) *Output { return &Output{cap: limit} }

// Write keeps p (for exec.Cmd's Stdout and Stderr, which share one).
func (o *Output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.buf = append(o.buf, p...)
	o.total += int64(len(p))
	if over := len(o.buf) - o.cap; over > 0 {
		o.buf = append(o.buf[:0], o.buf[over:]...)
		o.base += int64(over)
	}
	return len(p), nil
}

// Mark is the offset of what is written next.
func (o *Output) Mark() int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.total
}

// Since is what was written from mark on; when part of it is no longer
// kept, a first line says how much.
func (o *Output) Since(mark int64) []byte {
	o.mu.Lock()
	defer o.mu.Unlock()
	if mark >= o.base {
		return bytes.Clone(o.buf[mark-o.base:])
	}
	head := fmt.Sprintf("[agentready: %d bytes of the app's output before this were not kept]\n", o.base-mark)
	return append([]byte(head), o.buf...)
}

// LastLines are the last n lines kept (the last one even without its
// newline), for an error that says why the app did not start.
func (o *Output) LastLines(n int) []string {
	o.mu.Lock()
	text := strings.TrimRight(string(o.buf), "\n")
	o.mu.Unlock()
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	return lines[max(0, len(lines)-n):]
}
