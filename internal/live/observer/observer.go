// Package observer reads an app's observation endpoints: its state (seats,
// counts, a hash and a version of the whole state) and its request journal.
// The reference app serves them when started with an observer token; a
// user's app may serve the same two endpoints.
package observer

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/agentready/agentready/internal/data/record"
)

// Paths of the observation endpoints.
const (
	StatePath   = "/__agentready/state"
	JournalPath = "/__agentready/journal"
	// ClockPath is the optional clock endpoint: GET answers the app's time,
	// POST {"advance": "90s"} moves it on; both answer {"now": RFC 3339}.
	// An app without one answers 404, and checks that need the app's time
	// to pass say so instead of passing.
	ClockPath = "/__agentready/clock"
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
	ClockPath   string // ClockPath unless set
	// SessionCookie is the cookie whose value the journal's session hashes
	// (DefaultSessionCookie unless set).
	SessionCookie string
	HTTP          *http.Client
}

// New makes a client; it fails on nothing: Check, or the first call, tells.
func New(baseURL, token string) *Client {
	return &Client{BaseURL: strings.TrimRight(baseURL, "/"), Token: token, StatePath: StatePath, JournalPath: JournalPath, ClockPath: ClockPath,
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

// ErrNoClock is what Now and Advance answer for an app that serves no
// clock endpoint (it answered 404).
var ErrNoClock = errors.New("the app serves no clock endpoint")

// Now reads the app's time from its clock endpoint.
func (c *Client) Now(ctx context.Context) (time.Time, error) {
	var a struct {
		Now time.Time `json:"now"`
	}
	err := c.do(ctx, http.MethodGet, cmp.Or(c.ClockPath, ClockPath), nil, &a)
	return a.Now, err
}

// Advance moves the app's time on by d (positive) and answers its new time.
func (c *Client) Advance(ctx context.Context, d time.Duration) (time.Time, error) {
	if d <= 0 {
		return time.Time{}, fmt.Errorf("advance the app's clock by %v: only forward", d)
	}
	body, _ := json.Marshal(map[string]string{"advance": d.String()})
	var a struct {
		Now time.Time `json:"now"`
	}
	err := c.do(ctx, http.MethodPost, cmp.Or(c.ClockPath, ClockPath), body, &a)
	return a.Now, err
}

// AnswerError is the app's own answer with a status other than 200: the
// app answered, and the read did not fail on the way.
type AnswerError struct {
	Status int
	msg    string
}

func (e *AnswerError) Error() string { return e.msg }

func (c *Client) get(ctx context.Context, path string, dst any) error {
	return c.do(ctx, http.MethodGet, path, nil, dst)
}

func (c *Client) do(ctx context.Context, method, path string, send []byte, dst any) error {
	var rd io.Reader
	if send != nil {
		rd = bytes.NewReader(send)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.BaseURL+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	if send != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, req.URL, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 16<<20))
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, req.URL, err)
	}
	if res.StatusCode == http.StatusNotFound && path == cmp.Or(c.ClockPath, ClockPath) {
		return fmt.Errorf("%s %s answered 404: %w", method, req.URL, ErrNoClock)
	}
	if res.StatusCode != http.StatusOK {
		return &AnswerError{Status: res.StatusCode, msg: fmt.Sprintf("%s %s answered %s: %.200s", method, req.URL, res.Status, strings.TrimSpace(string(body)))}
	}
	if err := json.Unmarshal(body, dst); err != nil {
		return fmt.Errorf("%s %s: not the expected JSON: %w", method, req.URL, err)
	}
	return nil
}
