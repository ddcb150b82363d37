// Package inspector reads a Model Context Tool Inspector "Copy trace" (the
// Chrome extension that lets a Gemini model call a page's WebMCP tools) and
// turns it into a scenario: the person's prompt, the agent's calls with
// their inputs, its final words, and expectations scaffolded from what the
// trace recorded, for a person to edit. It is pure: bytes in, bytes out.
//
// A trace is a JSON array of entries, each an object with one key:
//
//	{"userPrompt": {"message": "…" | [{"functionResponse": {name, response: {result} | {error}}}], "config": {tools: [{functionDeclarations: [{name, description, parametersJsonSchema}]}]}}}
//	{"response": <a GenerateContentResponse: candidates[0].content.parts[]: {functionCall: {name, args}} or {text}>}
//	{"error": {…}}
//
// The Inspector declares each tool to the model as _<frameId>_<name> (the
// extension's frame id, 0 for the top document) and splits the name the
// model calls back at the first two underscores; so does Parse.
package inspector

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
)

// Trace is what a trace says, in the order it happened.
type Trace struct {
	Prompt string        // the person's message, word for word
	Tools  []Declaration // the tools declared with the prompt: the start page's catalog as the model saw it
	Calls  []Call        // the model's function calls, in order
	Final  *string       // the model's last words, when its last response called nothing; nil otherwise
	Errors []string      // the error entries, as the JSON the Inspector wrote
}

// Declaration is one tool as the Inspector declared it to the model.
type Declaration struct {
	Name        string
	Frame       int
	Description string
	Schema      map[string]any // parametersJsonSchema
}

// Call is one function call of the model and the Inspector's answer to it.
type Call struct {
	Tool     string
	Frame    int
	Args     map[string]any
	Response *Response // nil: the trace holds no answer to this call
}

// Response is the Inspector's answer to a call: the tool's result (what
// executeTool answered, a string that usually holds JSON), or the error it
// met.
type Response struct {
	Result   any
	IsError  bool
	ErrorMsg string
}

// prefixed is the Inspector's declared name: _<frameId>_<tool name>.
var prefixed = regexp.MustCompile(`^_([0-9]+)_(.+)$`)

// SplitName strips the Inspector's _<frameId>_ prefix from a declared or
// called function name.
func SplitName(declared string) (name string, frame int, err error) {
	m := prefixed.FindStringSubmatch(declared)
	if m == nil {
		return "", 0, fmt.Errorf("function name %q lacks the Inspector's _<frameId>_ prefix (e.g. _0_%s)", declared, strings.TrimLeft(declared, "_"))
	}
	frame, err = strconv.Atoi(m[1])
	if err != nil {
		return "", 0, fmt.Errorf("function name %q: frame id %q: %w", declared, m[1], err)
	}
	return m[2], frame, nil
}

// Parse reads a trace. Anything it does not understand is an error that
// names the entry: a trace that cannot be read faithfully is not guessed at.
func Parse(data []byte) (*Trace, error) {
	var entries []json.RawMessage
	if err := record.DecodeOne(data, &entries); err != nil {
		return nil, fmt.Errorf("not a trace (a JSON array of entries): %w", err)
	}
	if len(entries) == 0 {
		return nil, errors.New("the trace is empty: copy it after the model answered")
	}
	p := &parser{tr: &Trace{}}
	for i, raw := range entries {
		if err := p.entry(raw); err != nil {
			return nil, fmt.Errorf("entry %d: %w", i, err)
		}
	}
	if p.tr.Prompt == "" {
		return nil, errors.New("the trace holds no user prompt (a userPrompt entry whose message is text)")
	}
	return p.tr, nil
}

type parser struct {
	tr      *Trace
	pending []int // indexes in tr.Calls of the calls the last response made, waiting for their answers
	prompts int
	// lastCalled tells whether the latest response called a function: its
	// text, if any, is then not the model's last word.
	lastCalled bool
}

func (p *parser) entry(raw json.RawMessage) error {
	var e map[string]json.RawMessage
	if err := record.DecodeOne(raw, &e); err != nil {
		return fmt.Errorf("not an object with one key: %w", err)
	}
	if len(e) != 1 {
		keys := make([]string, 0, len(e))
		for k := range e {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		return fmt.Errorf("an entry has exactly one key (userPrompt, response or error), not %v", keys)
	}
	for key, v := range e {
		switch key {
		case "userPrompt":
			return p.userPrompt(v)
		case "response":
			return p.response(v)
		case "error":
			p.tr.Errors = append(p.tr.Errors, compact(v))
			p.pending = nil
			p.lastCalled = false
			p.tr.Final = nil
			return nil
		default:
			return fmt.Errorf("unknown entry %q (expected userPrompt, response or error)", key)
		}
	}
	return nil
}

func (p *parser) userPrompt(raw json.RawMessage) error {
	var up struct {
		Message json.RawMessage `json:"message"`
		Config  *struct {
			Tools []struct {
				FunctionDeclarations []struct {
					Name                 string         `json:"name"`
					Description          string         `json:"description"`
					ParametersJSONSchema map[string]any `json:"parametersJsonSchema"`
				} `json:"functionDeclarations"`
			} `json:"tools"`
		} `json:"config"`
	}
	if err := json.Unmarshal(raw, &up); err != nil {
		return fmt.Errorf("userPrompt: %w", err)
	}
	msg := bytes.TrimSpace(up.Message)
	switch {
	case len(msg) == 0:
		return errors.New("userPrompt: no message")
	case msg[0] == '"':
		var text string
		if err := json.Unmarshal(msg, &text); err != nil {
			return fmt.Errorf("userPrompt.message: %w", err)
		}
		p.prompts++
		if p.prompts > 1 {
			return errors.New("a second user prompt: a scenario has one prompt (press Reset in the Inspector before the run you copy)")
		}
		if strings.TrimSpace(text) == "" {
			return errors.New("userPrompt.message: empty")
		}
		p.tr.Prompt = text
		if up.Config != nil {
			for _, t := range up.Config.Tools {
				for _, d := range t.FunctionDeclarations {
					name, frame, err := SplitName(d.Name)
					if err != nil {
						return fmt.Errorf("userPrompt.config: %w", err)
					}
					p.tr.Tools = append(p.tr.Tools, Declaration{Name: name, Frame: frame, Description: d.Description, Schema: d.ParametersJSONSchema})
				}
			}
		}
		return nil
	case msg[0] == '[':
		return p.functionResponses(msg)
	}
	return errors.New("userPrompt.message is neither text nor a list of function responses (a Gemini Live trace is not supported)")
}

func (p *parser) functionResponses(msg json.RawMessage) error {
	if p.prompts == 0 {
		return errors.New("function responses before any user prompt")
	}
	var parts []struct {
		FunctionResponse *struct {
			Name     string                     `json:"name"`
			Response map[string]json.RawMessage `json:"response"`
		} `json:"functionResponse"`
	}
	if err := json.Unmarshal(msg, &parts); err != nil {
		return fmt.Errorf("userPrompt.message: %w", err)
	}
	for i, part := range parts {
		fr := part.FunctionResponse
		if fr == nil {
			return fmt.Errorf("userPrompt.message[%d]: not a functionResponse", i)
		}
		if len(p.pending) == 0 {
			return fmt.Errorf("userPrompt.message[%d]: a response to %s, which the model did not call", i, fr.Name)
		}
		name, _, err := SplitName(fr.Name)
		if err != nil {
			return fmt.Errorf("userPrompt.message[%d]: %w", i, err)
		}
		call := &p.tr.Calls[p.pending[0]]
		if name != call.Tool {
			return fmt.Errorf("userPrompt.message[%d]: a response to %s where the model called %s", i, name, call.Tool)
		}
		p.pending = p.pending[1:]
		res := &Response{}
		result, hasResult := fr.Response["result"]
		errMsg, hasError := fr.Response["error"]
		switch {
		case hasResult && !hasError && len(fr.Response) == 1:
			if err := json.Unmarshal(result, &res.Result); err != nil {
				return fmt.Errorf("userPrompt.message[%d].functionResponse.response.result: %w", i, err)
			}
		case hasError && !hasResult && len(fr.Response) == 1:
			res.IsError = true
			var s string
			if json.Unmarshal(errMsg, &s) != nil {
				s = compact(errMsg)
			}
			res.ErrorMsg = s
		default:
			return fmt.Errorf("userPrompt.message[%d].functionResponse.response: has neither result nor error alone", i)
		}
		call.Response = res
	}
	return nil
}

func (p *parser) response(raw json.RawMessage) error {
	if p.prompts == 0 {
		return errors.New("a model response before any user prompt")
	}
	var r struct {
		Candidates []struct {
			Content struct {
				Parts []struct {
					Text         *string `json:"text"`
					Thought      bool    `json:"thought"`
					FunctionCall *struct {
						Name string         `json:"name"`
						Args map[string]any `json:"args"`
					} `json:"functionCall"`
				} `json:"parts"`
			} `json:"content"`
		} `json:"candidates"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("response: not a GenerateContentResponse: %w", err)
	}
	p.pending = nil
	p.lastCalled = false
	var text []string
	if len(r.Candidates) > 0 {
		for i, part := range r.Candidates[0].Content.Parts {
			switch {
			case part.FunctionCall != nil:
				name, frame, err := SplitName(part.FunctionCall.Name)
				if err != nil {
					return fmt.Errorf("response.candidates[0].content.parts[%d].functionCall: %w", i, err)
				}
				args := part.FunctionCall.Args
				if args == nil {
					args = map[string]any{}
				}
				p.pending = append(p.pending, len(p.tr.Calls))
				p.tr.Calls = append(p.tr.Calls, Call{Tool: name, Frame: frame, Args: args})
				p.lastCalled = true
			case part.Text != nil && !part.Thought:
				text = append(text, *part.Text)
			}
		}
	}
	p.tr.Final = nil
	if !p.lastCalled {
		if words := strings.TrimSpace(strings.Join(text, "")); words != "" {
			p.tr.Final = &words
		}
	}
	return nil
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}
