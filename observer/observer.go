// Package observer reads an app's observation endpoints: its state (seats,
// counts, a hash and a version of the whole state) and its request journal.
// The reference app serves them when started with an observer token; a
// user's app may serve the same two endpoints.
package observer

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
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

// DefaultSessionCookie is the session cookie the journal's session names,
// unless the app says otherwise.
const DefaultSessionCookie = "ar_session"

// SessionHash is how a journal names a session: the first 12 hex digits of
// SHA-256("agentready-session:" + the session cookie's value). An app that
// serves a journal hashes the same way, so that the suite can judge the
// journal of its own tab even on an app other people use.
func SessionHash(cookie string) string {
	if cookie == "" {
		return ""
	}
	sum := sha256.Sum256([]byte("agentready-session:" + cookie))
	return hex.EncodeToString(sum[:6])
}

// Client talks to one app's observation endpoints.
type Client struct {
	BaseURL     string
	Token       string
	StatePath   string // StatePath unless set
	JournalPath string // JournalPath unless set
	// SessionCookie is the cookie whose value the journal's session hashes
	// (DefaultSessionCookie unless set).
	SessionCookie string
	HTTP          *http.Client
}

// New makes a client; it fails on nothing: Check, or the first call, tells.
func New(baseURL, token string) *Client {
	return &Client{BaseURL: strings.TrimRight(baseURL, "/"), Token: token, StatePath: StatePath, JournalPath: JournalPath,
		HTTP: &http.Client{Timeout: 5 * time.Second}}
}

// Check reads both endpoints once, so that a token given for an app without
// them is one clear error at the start (the URL and what it answered)
// rather than a fault in every scenario.
func (c *Client) Check(ctx context.Context) error {
	if _, err := c.State(ctx); err != nil {
		return fmt.Errorf("the observer token is set, but the app's state endpoint does not answer: %w", err)
	}
	if _, err := c.Journal(ctx, 0); err != nil {
		return fmt.Errorf("the observer token is set, but the app's journal endpoint does not answer: %w", err)
	}
	return nil
}

// State reads the state: whatever JSON document the app's endpoint serves.
func (c *Client) State(ctx context.Context) (json.RawMessage, error) {
	var s json.RawMessage
	return s, c.get(ctx, cmp.Or(c.StatePath, StatePath), &s)
}

// Journal reads the journal from sequence number since on (0: all).
func (c *Client) Journal(ctx context.Context, since int) (record.Journal, error) {
	var j struct {
		Entries record.Journal `json:"entries"`
	}
	err := c.get(ctx, fmt.Sprintf("%s?since=%d", cmp.Or(c.JournalPath, JournalPath), since), &j)
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
		return fmt.Errorf("GET %s: %w", req.URL, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 16<<20))
	if err != nil {
		return fmt.Errorf("GET %s: %w", req.URL, err)
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s answered %s: %.200s", req.URL, res.Status, strings.TrimSpace(string(body)))
	}
	if err := json.Unmarshal(body, dst); err != nil {
		return fmt.Errorf("GET %s: not the expected JSON: %w", req.URL, err)
	}
	return nil
}
