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

	"github.com/agentready/agentready/record"
)

// Paths of the observation endpoints.
const (
	StatePath   = "/__agentready/state"
	JournalPath = "/__agentready/journal"
)

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
func (c *Client) State(ctx context.Context) (record.State, error) {
	var s record.State
	return s, c.get(ctx, StatePath, &s)
}

// Journal reads the journal from sequence number since on (0: all).
func (c *Client) Journal(ctx context.Context, since int) (record.Journal, error) {
	var j struct {
		Entries record.Journal `json:"entries"`
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
