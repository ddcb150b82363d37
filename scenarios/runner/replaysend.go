package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strings"
	"sync"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
)

// Sending replays (replays.go), at once or one by one, and the state read
// after them.

// sendAtOnce sends reqs together: each waits for the others to be ready,
// so that they reach the app as nearly at once as one client can.
func (p *replayer) sendAtOnce(ctx context.Context, reqs []*outgoing) []scenarios.ReplaySend {
	out := make([]scenarios.ReplaySend, len(reqs))
	if len(reqs) == 1 {
		out[0] = p.send(ctx, reqs[0], false)
		return out
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, req := range reqs {
		wg.Go(func() {
			<-start
			out[i] = p.send(ctx, req, false)
		})
	}
	close(start)
	wg.Wait()
	return out
}

// send sends one request and records it and its answer (never its cookies).
func (p *replayer) send(ctx context.Context, q *outgoing, prerequisite bool) scenarios.ReplaySend {
	return p.sendKeeping(ctx, q, prerequisite, answerKept)
}

// answerKept is the longest replay answer the record keeps; a probe's
// document may be longer (probeKept).
const (
	answerKept = 16 << 10
	probeKept  = 8 << 20
)

func (p *replayer) sendKeeping(ctx context.Context, q *outgoing, prerequisite bool, keep int) scenarios.ReplaySend {
	s := scenarios.ReplaySend{Prerequisite: prerequisite, Method: q.method, Path: pathOf(q.url), Headers: maps.Clone(q.headers), Body: q.body}
	var body io.Reader
	if q.body != "" {
		body = strings.NewReader(q.body)
	}
	req, err := http.NewRequestWithContext(ctx, q.method, q.url, body)
	if err != nil {
		s.Error = err.Error()
		return s
	}
	for k, v := range q.headers {
		req.Header.Set(k, v)
	}
	cookies := q.cookies
	if q.asPerson {
		cookies = p.personNow()
	}
	for _, c := range cookies {
		req.AddCookie(c)
	}
	res, err := p.client.Do(req)
	if err != nil {
		s.Error = err.Error()
		return s
	}
	defer res.Body.Close()
	if q.asPerson {
		p.keepCookies(res.Cookies())
	}
	s.Status = res.StatusCode
	b, _ := io.ReadAll(io.LimitReader(res.Body, int64(keep)+1))
	if len(b) <= keep && json.Valid(b) {
		var compact bytes.Buffer
		if json.Compact(&compact, b) == nil {
			s.Answer = compact.Bytes()
		}
	}
	return s
}

// state reads the app's state as the person's session sees it: each probe
// (with the person's cookies and the probe header) and the observer, all
// at once. Nil without any source, as for a phase.
func (p *replayer) state(ctx context.Context) *record.Snapshot {
	r := p.r
	if r.t.Observer == nil && len(r.sc.Probes) == 0 {
		return nil
	}
	s := &record.Snapshot{Docs: map[string]json.RawMessage{}}
	var mu sync.Mutex
	put := func(source string, doc json.RawMessage, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			if s.Errors == nil {
				s.Errors = map[string]string{}
			}
			s.Errors[source] = err.Error()
			return
		}
		s.Docs[source] = doc
	}
	var wg sync.WaitGroup
	if r.t.Observer != nil {
		wg.Go(func() {
			doc, err := r.t.Observer.State(ctx)
			put(record.ObserverSource, doc, err)
		})
	}
	for name, line := range r.sc.Probes {
		_, path, _ := line.Split()
		wg.Go(func() {
			q := &outgoing{method: http.MethodGet, url: r.t.BaseURL + path, asPerson: true,
				headers: map[string]string{"Accept": "application/json", record.ProbeHeader: name}}
			sent := p.sendKeeping(ctx, q, false, probeKept)
			switch {
			case sent.Error != "":
				put(name, nil, errors.New(sent.Error))
			case sent.Status != http.StatusOK:
				put(name, nil, fmt.Errorf("GET %s answered %d", path, sent.Status))
			case sent.Answer == nil:
				put(name, nil, fmt.Errorf("GET %s did not answer JSON", path))
			default:
				put(name, sent.Answer, nil)
			}
		})
	}
	wg.Wait()
	return s
}
