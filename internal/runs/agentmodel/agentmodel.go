// Package agentmodel lets a model play a scenario's agent: the person's
// prompt is given to a model through the OpenAI-compatible Chat Completions
// protocol with tool calling (OpenAI, the OpenAI-compatible endpoints of
// Gemini and Anthropic, OpenRouter, Ollama, llama.cpp, vLLM), on the
// maintained SDK github.com/openai/openai-go/v3. The tools offered are the
// page's current catalog, read afresh before every turn (so they follow
// navigation and list changes); each tool call the model makes is executed
// through the page API like any recorded call; the model's last message,
// one without tool calls, is the final words. Turns and time are bounded.
// Every HTTP exchange with the model (request and response bodies, status,
// latency, tokens; never the key, which travels in a header) is kept in a
// Record, written into the bundle as model.json and redacted with the rest.
// A recorded Record can be replayed without a key or a network (Replay).
//
// A model that cannot be reached or answers an error is the harness's
// fault (the verdict is INCONCLUSIVE), never the app's.
package agentmodel

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Format names the layout of model.json.
const Format = "agentready-model/1"

// File is the bundle's file of the exchanges with the model.
const File = "model.json"

// Defaults of a Config.
const (
	DefaultTurns   = 12
	DefaultTimeout = 2 * time.Minute
	DefaultBaseURL = "https://api.openai.com/v1"
)

// System is the instruction the model gets before the person's prompt.
const System = "You act for a person on a web page, only through the page's tools. " +
	"Do what the person asks, using the tools the page offers now (they can change after a call). " +
	"When a step needs the person's own confirmation, prepare it and leave the confirming to the person. " +
	"When you are done, answer the person in your own words, without calling a tool."

// Config says which model plays and how far.
type Config struct {
	BaseURL string        // the endpoint's base URL (…/v1); DefaultBaseURL when empty
	Model   string        // the model's name at that endpoint; required
	Key     string        // the API key; may be empty (a local server)
	Turns   int           // model requests at most (DefaultTurns when 0)
	Timeout time.Duration // the agent's whole phase at most (DefaultTimeout when 0)
	// HTTP, when set, sends the requests (a test's, or Replay's).
	HTTP *http.Client
	// Retries is how many times a failed request (429, 5xx, a connection
	// error) is tried again, honouring Retry-After; 2 when nil.
	Retries *int
	// PageActions offers the model page_click besides the page's tools:
	// a click in the page, as a browser agent can make (what it causes is
	// the agent's). Off by default: the page's tools are what is tested.
	PageActions bool
}

// PageClick is the tool of a click in the page (Config.PageActions).
const PageClick = "page_click"

// Validate says what in c cannot work, naming the flag.
func (c Config) Validate() error {
	if strings.TrimSpace(c.Model) == "" {
		return errors.New("--model is required with --agent openai: the model's name at the endpoint")
	}
	if c.BaseURL != "" {
		u, err := url.Parse(c.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("--model-url %q is not an http(s) URL", c.BaseURL)
		}
	}
	if c.Turns < 0 {
		return fmt.Errorf("--model-turns %d: give a positive number", c.Turns)
	}
	if c.Timeout < 0 {
		return fmt.Errorf("--model-timeout %s: give a positive duration", c.Timeout)
	}
	return nil
}

// Record is every exchange of one play with the model: model.json.
type Record struct {
	Format    string     `json:"format"`
	Agent     string     `json:"agent"` // "openai", or "replay" of a recording
	BaseURL   string     `json:"baseUrl"`
	Model     string     `json:"model"`
	MaxTurns  int        `json:"maxTurns"`
	Exchanges []Exchange `json:"exchanges"`
	Usage     Usage      `json:"usage"` // the sum of the exchanges'
	// Stop says how the agent's phase ended: final (the model answered
	// without a tool call), turns (it was still calling tools at the
	// bound), no_reply (it asked the person a question no reply of the
	// scenario's user: fitted: the question is its final words), fault (a
	// harness fault: Fault says which).
	Stop  string `json:"stop"`
	Fault string `json:"fault,omitempty"`
	// Dialogue is the model's questions to the person and the person's
	// replies (the scenario's user:), in order; the evidence's too.
	Dialogue []scenarios.Turn `json:"dialogue,omitempty"`
	// Clicks are the model's page_click calls (Config.PageActions), which
	// no transcript can hold.
	Clicks []Click `json:"clicks,omitempty"`
}

// Click is one page_click of the model.
type Click struct {
	Turn     int    `json:"turn"`
	Selector string `json:"selector"`
	Error    string `json:"error,omitempty"`
}

// Exchange is one HTTP request to the model and its answer (a retried
// request is an exchange of its own, with the same turn).
type Exchange struct {
	Turn     int             `json:"turn"`
	Status   int             `json:"status,omitempty"` // 0: no answer (Error says why)
	Latency  time.Duration   `json:"latencyNs"`
	Request  json.RawMessage `json:"request,omitempty"`
	Response json.RawMessage `json:"response,omitempty"`     // when JSON
	Text     string          `json:"responseText,omitempty"` // when not
	Error    string          `json:"error,omitempty"`
	Usage    *Usage          `json:"usage,omitempty"`
}

// Usage is the tokens an answer reports.
type Usage struct {
	Prompt     int64 `json:"promptTokens"`
	Completion int64 `json:"completionTokens"`
	Total      int64 `json:"totalTokens"`
}

// Agent is a model ready to play.
type Agent struct {
	cfg    Config
	name   string // Record.Agent
	client openai.Client
	rec    *recorder
	replay *cassette // set by Replay
}

// New checks c and makes the agent.
func New(c Config) (*Agent, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return newAgent(c, "openai"), nil
}

func newAgent(c Config, name string) *Agent {
	c.BaseURL = cmp.Or(c.BaseURL, DefaultBaseURL)
	c.Turns = cmp.Or(c.Turns, DefaultTurns)
	c.Timeout = cmp.Or(c.Timeout, DefaultTimeout)
	retries := 2
	if c.Retries != nil {
		retries = *c.Retries
	}
	a := &Agent{cfg: c, name: name, rec: &recorder{}}
	opts := []option.RequestOption{
		option.WithBaseURL(c.BaseURL),
		option.WithAPIKey(c.Key),
		option.WithMaxRetries(retries),
		option.WithMaxRetryDelay(5 * time.Second),
		option.WithMiddleware(a.rec.middleware),
	}
	if c.HTTP != nil {
		opts = append(opts, option.WithHTTPClient(c.HTTP))
	}
	if c.Key == "" {
		opts = append(opts, option.WithHeaderDel("Authorization"))
	}
	a.client = openai.NewClient(opts...)
	return a
}

// recorder keeps every exchange the SDK makes, retries included.
type recorder struct {
	mu   sync.Mutex
	turn int
	ex   []Exchange
}

func (r *recorder) middleware(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	start := time.Now()
	resp, err := next(req)
	x := Exchange{Latency: time.Since(start)}
	if json.Valid(body) {
		x.Request = body
	}
	if err != nil {
		x.Error = err.Error()
	} else {
		x.Status = resp.StatusCode
		data, readErr := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(data))
		if readErr != nil {
			x.Error = readErr.Error()
		}
		if json.Valid(data) {
			x.Response = data
			var u struct {
				Usage *struct {
					Prompt     int64 `json:"prompt_tokens"`
					Completion int64 `json:"completion_tokens"`
					Total      int64 `json:"total_tokens"`
				} `json:"usage"`
			}
			if json.Unmarshal(data, &u) == nil && u.Usage != nil {
				x.Usage = &Usage{u.Usage.Prompt, u.Usage.Completion, u.Usage.Total}
			}
		} else {
			x.Text = string(data)
		}
	}
	r.mu.Lock()
	x.Turn = r.turn
	r.ex = append(r.ex, x)
	r.mu.Unlock()
	return resp, err
}

// Act is a call of a page's tool, recorded as the agent's.
type Act = func(context.Context, scenarios.Call) record.Result

// Page is what the model acts on: the page's tools as they are before
// each turn, a call of one, and (with Config.PageActions) a click.
type Page struct {
	Tools func() record.Catalog
	Act   Act
	Click func(ctx context.Context, selector string) error
}

// Person answers the model's questions: the turn of words the model said
// after calls of its calls, given the turns before (scenarios.Scenario.
// ReplyTo); a turn without a reply ends the dialogue, and the words are
// the final words. Nil: no one answers.
type Person func(before []scenarios.Turn, calls int, words string) scenarios.Turn

// Play gives prompt to the model with the page's tools, runs the model's
// calls on the page, gives its questions to the person and their replies
// back to it, and answers the final words (nil when the model gave none)
// and the record. A message of the model without tool calls is a question
// to the person when the person has a reply to it, else its final words.
func (a *Agent) Play(ctx context.Context, prompt string, page Page, person Person) (*string, Record) {
	ctx, cancel := context.WithTimeout(ctx, a.cfg.Timeout)
	defer cancel()
	rec := Record{Format: Format, Agent: a.name, BaseURL: a.cfg.BaseURL, Model: a.cfg.Model, MaxTurns: a.cfg.Turns}
	done := func(final *string, stop, fault string) (*string, Record) {
		a.rec.mu.Lock()
		rec.Exchanges = append([]Exchange{}, a.rec.ex...)
		a.rec.ex, a.rec.turn = nil, 0
		a.rec.mu.Unlock()
		for _, x := range rec.Exchanges {
			if x.Usage != nil {
				rec.Usage.Prompt += x.Usage.Prompt
				rec.Usage.Completion += x.Usage.Completion
				rec.Usage.Total += x.Usage.Total
			}
		}
		rec.Stop, rec.Fault = stop, fault
		return final, rec
	}
	messages := []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(System), openai.UserMessage(prompt)}
	calls := 0
	act := func(ctx context.Context, c scenarios.Call) record.Result {
		calls++
		return page.Act(ctx, c)
	}
	for turn := 1; turn <= a.cfg.Turns; turn++ {
		a.rec.mu.Lock()
		a.rec.turn = turn
		a.rec.mu.Unlock()
		tools := offer(page.Tools())
		if a.cfg.PageActions {
			tools = append(tools, clickTool)
		}
		params := openai.ChatCompletionNewParams{Model: a.cfg.Model, Messages: messages, Tools: tools}
		completion, err := a.client.Chat.Completions.New(ctx, params)
		if err != nil {
			why := err.Error()
			if ctx.Err() != nil {
				why = fmt.Sprintf("no answer within --model-timeout %s (%v)", a.cfg.Timeout, err)
			}
			return done(nil, "fault", fmt.Sprintf("the model %s at %s, turn %d: %s", a.cfg.Model, a.cfg.BaseURL, turn, why))
		}
		if len(completion.Choices) == 0 {
			return done(nil, "fault", fmt.Sprintf("the model %s at %s, turn %d: an answer without a choice", a.cfg.Model, a.cfg.BaseURL, turn))
		}
		msg := completion.Choices[0].Message
		if len(msg.ToolCalls) == 0 {
			words := msg.Content
			if person == nil {
				return done(&words, "final", "")
			}
			t := person(rec.Dialogue, calls, words)
			if !t.Answered() {
				stop := "final"
				if scenarios.IsQuestion(words) {
					stop = "no_reply" // the person has no reply (left) to the question: the dialogue ends with it
				}
				return done(&words, stop, "")
			}
			rec.Dialogue = append(rec.Dialogue, t)
			messages = append(messages, msg.ToParam(), openai.UserMessage(t.Says))
			continue
		}
		messages = append(messages, msg.ToParam())
		for _, tc := range msg.ToolCalls {
			var answer string
			if tc.Function.Name == PageClick && a.cfg.PageActions {
				answer = a.click(ctx, turn, tc, page, &rec)
			} else {
				answer = call(ctx, tc, act)
			}
			messages = append(messages, openai.ToolMessage(answer, tc.ID))
		}
	}
	return done(nil, "turns", "")
}

// clickTool is page_click as the request offers it.
var clickTool = openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
	Name:        PageClick,
	Description: openai.String("Click an element of the page, as a person would. Not a tool of the page: a browser agent's own action."),
	Parameters: shared.FunctionParameters{"type": "object", "required": []string{"selector"},
		"properties": map[string]any{"selector": map[string]any{"type": "string", "description": "a CSS selector of the element"}}},
})

// click runs one page_click and answers what the model is told of it.
func (a *Agent) click(ctx context.Context, turn int, tc openai.ChatCompletionMessageToolCallUnion, page Page, rec *Record) string {
	var in struct {
		Selector string `json:"selector"`
	}
	if err := json.Unmarshal([]byte(tc.Function.Arguments), &in); err != nil || strings.TrimSpace(in.Selector) == "" {
		return `page_click takes {"selector": "a CSS selector"}`
	}
	c := Click{Turn: turn, Selector: in.Selector}
	err := errors.New("no page to click in")
	if page.Click != nil {
		err = page.Click(ctx, in.Selector)
	}
	if err != nil {
		c.Error = err.Error()
		rec.Clicks = append(rec.Clicks, c)
		return fmt.Sprintf("no click on %s: %v", in.Selector, err)
	}
	rec.Clicks = append(rec.Clicks, c)
	return "Clicked " + in.Selector + "."
}

// offer is the catalog as the request's tools: each tool's input schema as
// its parameters (one without a type is an object's). A tool of a schema
// that is no JSON object cannot be offered and is left out.
func offer(c record.Catalog) []openai.ChatCompletionToolUnionParam {
	var out []openai.ChatCompletionToolUnionParam
	seen := map[string]bool{}
	for _, t := range c {
		if seen[t.Name] {
			continue // the same name in two frames: the page API calls the first
		}
		seen[t.Name] = true
		schema := map[string]any{}
		if len(t.InputSchema) > 0 {
			if err := json.Unmarshal(t.InputSchema, &schema); err != nil || schema == nil {
				continue
			}
		}
		if typ, ok := schema["type"]; !ok {
			schema["type"] = "object"
		} else if typ != "object" {
			continue
		}
		def := shared.FunctionDefinitionParam{Name: t.Name, Parameters: shared.FunctionParameters(schema)}
		if t.Description != "" {
			def.Description = openai.String(t.Description)
		}
		out = append(out, openai.ChatCompletionFunctionTool(def))
	}
	return out
}

// call runs one tool call through the page and answers what the model is
// told of it. A call of a tool the page does not offer is sent all the
// same, so that the judge sees it (tool_not_in_catalog).
func call(ctx context.Context, tc openai.ChatCompletionMessageToolCallUnion, act Act) string {
	if tc.Type != "" && tc.Type != "function" {
		return fmt.Sprintf("only function tools can be called, not %q", tc.Type)
	}
	input := map[string]any{}
	if args := strings.TrimSpace(tc.Function.Arguments); args != "" && args != "null" {
		if err := json.Unmarshal([]byte(args), &input); err != nil {
			return "the arguments are not a JSON object: " + err.Error()
		}
	}
	r := act(ctx, scenarios.Call{Tool: tc.Function.Name, Input: input, Transport: vocab.PageAPI})
	if r.Status != vocab.Completed {
		return strings.TrimSpace(fmt.Sprintf("the tool ended %s: %s", r.Status, r.ErrorText))
	}
	if len(r.Output) > 0 {
		return string(r.Output)
	}
	return r.OutputText
}
