// Package observer reads an app's observation endpoints: its state (seats,
// counts, a hash and a version of the whole state) and its request journal.
// The reference app serves them when started with an observer token; a
// user's app may serve the same two endpoints.
package observer

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Paths of the observation endpoints.
const (
	StatePath   = "/__agentready/state"
	JournalPath = "/__agentready/journal"
)

// State is the app's state as the observer sees it.
type State struct {
	Version   int64          `json:"version"`
	Hash      string         `json:"hash"`
	SeatsLeft map[string]int `json:"seatsLeft"`
	Counts    map[string]int `json:"counts"`
}

// Entry is one request as the app recorded it on arrival.
type Entry struct {
	Seq     int       `json:"seq"`
	Time    time.Time `json:"time"`
	Method  string    `json:"method"`
	Path    string    `json:"path"`
	Status  int       `json:"status"`
	Code    string    `json:"code,omitempty"`
	Session string    `json:"session,omitempty"`
	Done    bool      `json:"done"`
}

// Journal is the app's request journal.
type Journal []Entry

// Count is how many entries have method and exactly path.
func (j Journal) Count(method, path string) int {
	n := 0
	for _, e := range j {
		if strings.EqualFold(e.Method, method) && e.Path == path {
			n++
		}
	}
	return n
}

// Writes are the entries whose method can change state.
func (j Journal) Writes() Journal {
	var out Journal
	for _, e := range j {
		switch strings.ToUpper(e.Method) {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
		default:
			out = append(out, e)
		}
	}
	return out
}

// Client talks to one app's observation endpoints.
type Client struct {
	BaseURL string
	Token   string
	HTTP    *http.Client
}

// New makes a client; it fails on nothing, the first call tells.
func New(baseURL, token string) *Client {
	return &Client{BaseURL: strings.TrimRight(baseURL, "/"), Token: token, HTTP: &http.Client{Timeout: 5 * time.Second}}
}

// State reads the state.
func (c *Client) State(ctx context.Context) (State, error) {
	var s State
	return s, c.get(ctx, StatePath, &s)
}

// Journal reads the journal from sequence number since on (0: all).
func (c *Client) Journal(ctx context.Context, since int) (Journal, error) {
	var j struct {
		Entries Journal `json:"entries"`
	}
	err := c.get(ctx, fmt.Sprintf("%s?since=%d", JournalPath, since), &j)
	return j.Entries, err
}

func (c *Client) get(ctx context.Context, path string, dst any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.BaseURL+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	res, err := c.HTTP.Do(req)
	if err != nil {
		return fmt.Errorf("observer %s: %w", path, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 16<<20))
	if err != nil {
		return fmt.Errorf("observer %s: %w", path, err)
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("observer %s: HTTP %d: %s", path, res.StatusCode, strings.TrimSpace(string(body)))
	}
	if err := json.Unmarshal(body, dst); err != nil {
		return fmt.Errorf("observer %s: %w", path, err)
	}
	return nil
}
