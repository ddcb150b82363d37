package scenarios

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/theory/jsonpath"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios/vocab"
)

// A carried value is a value of a call's input that an earlier call
// answered, written where the value goes:
//
//	input: {id: {$from: call/agent/0, path: "$.tasks[?@.text=='buy bread'].id"}}
//
// $from names the earlier call as the run's record names it (call/PHASE/N:
// the Nth step of setup or human, the Nth call of agent, from 0); path is
// an RFC 9535 JSONPath into that call's result that picks exactly one
// value. The runner resolves it as it makes the call, records the call with
// the value in place (what was sent) and what it took (CallRecord.Carried),
// so that the judge, and verify offline, read the same bytes.
const (
	carriedFrom = "$from"
	carriedPath = "path"
)

// Carried is one carried value as the runner resolved it.
type Carried struct {
	// At is where the value went in the input, as a JSON pointer ("/id").
	At    string          `json:"at"`
	From  string          `json:"from"`
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value"`
}

// carriedRef reads v as a carried value: a map of exactly $from and path.
func carriedRef(v any) (from, path string, ok bool, err error) {
	m, isMap := v.(map[string]any)
	if !isMap {
		return "", "", false, nil
	}
	raw, has := m[carriedFrom]
	if !has {
		return "", "", false, nil
	}
	from, _ = raw.(string)
	path, _ = m[carriedPath].(string)
	for k := range m {
		if k != carriedFrom && k != carriedPath {
			return "", "", true, fmt.Errorf("a carried value is {%s: call/PHASE/N, %s: JSONPATH}; %q is neither", carriedFrom, carriedPath, k)
		}
	}
	switch {
	case from == "":
		return "", "", true, fmt.Errorf("%s names the earlier call whose result the value is taken from: call/agent/0, say", carriedFrom)
	case path == "":
		return "", "", true, fmt.Errorf("%s is the JSONPath into %s's result that picks the value: $.task.id, say", carriedPath, from)
	}
	return from, path, true, nil
}

// ParseCallName reads call/PHASE/N.
func ParseCallName(s string) (vocab.Phase, int, error) {
	parts := strings.Split(s, "/")
	if len(parts) == 3 && parts[0] == string(vocab.RefCall) {
		ph := vocab.Phase(parts[1])
		n, err := strconv.Atoi(parts[2])
		if err == nil && n >= 0 && (ph == vocab.PhaseSetup || ph == vocab.PhaseAgent || ph == vocab.PhaseHuman) {
			return ph, n, nil
		}
	}
	return "", 0, fmt.Errorf("%q names no call: write call/setup/N, call/agent/N or call/human/N (N from 0)", s)
}

// walkCarried calls f with each carried value of v and its JSON pointer,
// depth first in a stable order.
func walkCarried(v any, at string, f func(at, from, path string, err error)) {
	from, path, ok, err := carriedRef(v)
	if ok {
		f(at, from, path, err)
		return
	}
	switch v := v.(type) {
	case map[string]any:
		for _, k := range keys(v) {
			walkCarried(v[k], at+"/"+pointerToken(k), f)
		}
	case []any:
		for i, e := range v {
			walkCarried(e, at+"/"+strconv.Itoa(i), f)
		}
	}
}

func pointerToken(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

// validateCarried checks every call's carried values in the order the run
// makes the calls: setup's steps, the agent's calls, the person's steps.
func (sc Scenario) validateCarried(p *problems) {
	type made struct {
		phase vocab.Phase
		n     int
	}
	var calls []made
	earlier := func(ph vocab.Phase, n int) bool { return slices.Contains(calls, made{ph, n}) }
	steps := func(ph vocab.Phase, steps []Step) {
		for i, s := range steps {
			if s.Call != nil {
				checkCarried(pathOf(string(ph), i, "call"), s.Call.Input, earlier, p)
				calls = append(calls, made{ph, i})
			}
		}
	}
	steps(vocab.PhaseSetup, sc.Setup)
	for i, c := range sc.Agent.Calls {
		checkCarried(pathOf("agent", "calls", i), c.Input, earlier, p)
		calls = append(calls, made{vocab.PhaseAgent, i})
	}
	steps(vocab.PhaseHuman, sc.Human)
}

// checkCarried refuses, at load, a carried value that cannot be resolved
// whatever the page answers: a bad spelling, a path that is no JSONPath, a
// call that is not made before this one (earlier says which are).
func checkCarried(key keyPath, input map[string]any, earlier func(vocab.Phase, int) bool, p *problems) {
	walkCarried(any(input), "", func(at, from, path string, err error) {
		k := key.key("input")
		for _, seg := range strings.Split(strings.TrimPrefix(at, "/"), "/") {
			if seg != "" {
				k = k.key(strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~"))
			}
		}
		if err != nil {
			p.bad(k, "%v", err)
			return
		}
		ph, n, err := ParseCallName(from)
		if err != nil {
			p.bad(k.key(carriedFrom), "%v", err)
			return
		}
		if !earlier(ph, n) {
			p.bad(k.key(carriedFrom), "%s is not a call made before this one: a value is carried from an earlier call's result", from)
		}
		if _, err := jsonpath.Parse(path); err != nil {
			p.bad(k.key(carriedPath), "%q is no JSONPath (RFC 9535): %v", path, err)
		}
	})
}

// ResolveCarried answers input with every carried value replaced by what
// the earlier call it names answered (calls are the record so far), and
// what it took; an error says which value could not be taken and why.
func ResolveCarried(input map[string]any, calls []CallRecord) (map[string]any, []Carried, error) {
	var carried []Carried
	var errs []string
	walkCarried(any(input), "", func(at, from, path string, err error) {
		if err != nil {
			errs = append(errs, at+": "+err.Error())
			return
		}
		v, err := TakeCarried(from, path, calls)
		if err != nil {
			errs = append(errs, at+": "+err.Error())
			return
		}
		raw, _ := json.Marshal(v)
		carried = append(carried, Carried{At: at, From: from, Path: path, Value: raw})
	})
	if len(errs) > 0 {
		return nil, nil, fmt.Errorf("carried value %s", strings.Join(errs, "; "))
	}
	if len(carried) == 0 {
		return input, nil, nil
	}
	out := replaceCarried(any(input), "", carried).(map[string]any)
	return out, carried, nil
}

func replaceCarried(v any, at string, carried []Carried) any {
	return mapCarried(v, at, func(at string) any {
		k := slices.IndexFunc(carried, func(c Carried) bool { return c.At == at })
		var out any
		_ = json.Unmarshal(carried[k].Value, &out)
		return out
	})
}

// anyForCarried answers v with each carried value as {$any: true}: calls:
// as_transcript holds the agent's input to the transcript's, and a carried
// value is held to what its earlier call answered by the judge's carried
// checks instead (judge/carried.go).
func anyForCarried(v any) any {
	return mapCarried(v, "", func(string) any { return map[string]any{"$any": true} })
}

// mapCarried answers a copy of v with each carried value replaced by f of
// its JSON pointer.
func mapCarried(v any, at string, f func(at string) any) any {
	if _, _, ok, _ := carriedRef(v); ok {
		return f(at)
	}
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = mapCarried(e, at+"/"+pointerToken(k), f)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = mapCarried(e, at+"/"+strconv.Itoa(i), f)
		}
		return out
	}
	return v
}

// TakeCarried reads the one value path picks in the result of the call
// from names. The path reads the result as the judge does
// (record.Result.Value); when it picks nothing there and the result is an
// MCP-shaped answer whose text is JSON, it reads that JSON.
func TakeCarried(from, path string, calls []CallRecord) (any, error) {
	ph, n, err := ParseCallName(from)
	if err != nil {
		return nil, err
	}
	k := slices.IndexFunc(calls, func(c CallRecord) bool { return c.Phase == ph && c.Index == n })
	if k < 0 {
		return nil, fmt.Errorf("%s was not made", from)
	}
	c := calls[k]
	if c.Result.Status != vocab.Completed {
		return nil, fmt.Errorf("%s did not complete (%s), so it answered nothing to take", from, c.Result.Status)
	}
	p, err := jsonpath.Parse(path)
	if err != nil {
		return nil, fmt.Errorf("%q is no JSONPath: %v", path, err)
	}
	root := c.Result.Value()
	nodes := p.Select(root)
	if len(nodes) == 0 {
		if inner, ok := record.MCPTextJSON(root); ok {
			nodes = p.Select(inner)
		}
	}
	switch len(nodes) {
	case 0:
		return nil, fmt.Errorf("%s in the result of %s (%s) picks nothing", path, from, c.Call.Tool)
	case 1:
		return nodes[0], nil
	}
	return nil, fmt.Errorf("%s in the result of %s (%s) picks %d values; a carried value is one", path, from, c.Call.Tool, len(nodes))
}

// TakeValue is the one string (or number, as written) path picks in a JSON
// answer: a token a read of the app answers (csrf.from). Nothing, several
// values, or another kind is an error that says so.
func TakeValue(body json.RawMessage, path string) (string, error) {
	p, err := jsonpath.Parse(path)
	if err != nil {
		return "", fmt.Errorf("%q is no JSONPath: %v", path, err)
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil || len(body) == 0 {
		return "", fmt.Errorf("the answer is not JSON, so %s picks nothing", path)
	}
	nodes := p.Select(v)
	if len(nodes) != 1 {
		return "", fmt.Errorf("%s picks %d values in the answer; a token is one", path, len(nodes))
	}
	switch n := nodes[0].(type) {
	case string:
		return n, nil
	case float64:
		return strconv.FormatFloat(n, 'f', -1, 64), nil
	}
	return "", fmt.Errorf("%s picks a %T, not a token", path, nodes[0])
}
