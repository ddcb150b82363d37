// Package modeltest is a scripted model server speaking the Chat
// Completions protocol (POST /v1/chat/completions, streaming off), written
// from the protocol's public reference: answers with tool calls (several
// in one message: parallel calls), a final message, an error of any
// status in the protocol's error shape, and a rate limit (429 with
// Retry-After). Tests use it so that no test needs a key or a network.
package modeltest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"time"
)

// Call is a tool call the model makes.
type Call struct {
	Tool string
	Args any // marshalled to the call's arguments string
}

// Step is the server's answer to one request, in order.
type Step struct {
	Calls []Call // tool calls (more than one: parallel calls)
	Text  string // the message's content; with no calls, the final words
	// Status, when not 0 or 200, answers an error of that status with
	// Error as its message (429 adds Retry-After: 0).
	Status int
	Error  string
	// Then, when set, computes the answer from the request, as a model
	// answers what it read (a script that obeys what a tool's result
	// says); the other fields are then ignored.
	Then func(Request) Step
}

// Server is a scripted model at URL (…/v1).
type Server struct {
	URL string
	srv *httptest.Server

	mu       sync.Mutex
	steps    []Step
	requests []Request
}

// Request is what the server was sent: the body, decoded, and the
// Authorization header.
type Request struct {
	Body          map[string]any
	Authorization string
}

// Tools answers the names of the tools the request offered, in order.
func (r Request) Tools() []string {
	var out []string
	tools, _ := r.Body["tools"].([]any)
	for _, t := range tools {
		fn, _ := t.(map[string]any)["function"].(map[string]any)
		name, _ := fn["name"].(string)
		out = append(out, name)
	}
	return out
}

// Messages answers the request's messages.
func (r Request) Messages() []map[string]any {
	var out []map[string]any
	msgs, _ := r.Body["messages"].([]any)
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		out = append(out, mm)
	}
	return out
}

// New starts a server answering steps in order; a request past the script
// gets a 500 saying so. Close ends it.
func New(steps ...Step) *Server {
	s := &Server{steps: steps}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.completions)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL + "/v1"
	return s
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Requests answers what the server was sent, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) completions(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		writeError(w, http.StatusBadRequest, "the body is not JSON: "+err.Error(), "invalid_request_error")
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, Request{Body: body, Authorization: r.Header.Get("Authorization")})
	n := len(s.requests)
	var step Step
	ok := n <= len(s.steps)
	if ok {
		step = s.steps[n-1]
	}
	s.mu.Unlock()
	if ok && step.Then != nil {
		step = step.Then(Request{Body: body})
	}
	if stream, _ := body["stream"].(bool); stream {
		writeError(w, http.StatusBadRequest, "this server does not stream", "invalid_request_error")
		return
	}
	if !ok {
		writeError(w, http.StatusInternalServerError, fmt.Sprintf("the script has %d steps; this is request %d", len(s.steps), n), "server_error")
		return
	}
	if step.Status != 0 && step.Status != http.StatusOK {
		if step.Status == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "0")
			w.Header().Set("Retry-After-Ms", "1")
		}
		writeError(w, step.Status, step.Error, "scripted_error")
		return
	}
	msg := map[string]any{"role": "assistant", "content": nil}
	if step.Text != "" || len(step.Calls) == 0 {
		msg["content"] = step.Text
	}
	finish := "stop"
	if len(step.Calls) > 0 {
		finish = "tool_calls"
		var calls []any
		for i, c := range step.Calls {
			args, _ := json.Marshal(c.Args)
			if c.Args == nil {
				args = []byte("{}")
			}
			if raw, isRaw := c.Args.(string); isRaw {
				args = []byte(raw) // a script may send arguments that are not JSON
			}
			calls = append(calls, map[string]any{"id": "call_" + strconv.Itoa(n) + "_" + strconv.Itoa(i+1), "type": "function",
				"function": map[string]any{"name": c.Tool, "arguments": string(args)}})
		}
		msg["tool_calls"] = calls
	}
	model, _ := body["model"].(string)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-" + strconv.Itoa(n), "object": "chat.completion", "created": time.Now().Unix(), "model": model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 100 * n, "completion_tokens": 10, "total_tokens": 100*n + 10},
	})
}

func writeError(w http.ResponseWriter, status int, message, typ string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": message, "type": typ, "param": nil, "code": nil}})
}
