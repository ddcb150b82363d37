package agentmodel

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/agentready/agentready/internal/reporters/results"
	"github.com/agentready/agentready/scenarios"
)

// Replay is an agent that plays a recording back, like a VCR cassette:
// path is a bundle (its model.json) or a run folder (each scenario's
// bundle, <path>/<id>/model.json; of a run of --runs k, the n-th play of a
// scenario replays <path>/<id>.run-<n>). No key and no network: each request is
// answered with the recorded answer of its turn, once its tools are the
// tools the recording offered; a page that now offers a different tool or
// schema, or a conversation longer than the recording, is a harness fault
// naming what differs.
//
// pageActions offers page_click as the recorded run did (--model-page-actions).
func Replay(path string, pageActions bool) (*Agent, error) {
	if path == "" {
		return nil, errors.New("--agent replay:DIR needs a bundle or a run folder after the colon")
	}
	if info, err := os.Stat(path); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("--agent replay:%s: not a folder of a recorded run or bundle", path)
	}
	zero := 0
	a := newAgent(Config{BaseURL: "http://replay.invalid/v1", Model: "recorded", Retries: &zero, PageActions: pageActions}, "replay")
	a.replay = &cassette{path: path, plays: map[string]int{}}
	return a, nil
}

// cassette is a recording to replay: one bundle, or a run folder.
type cassette struct {
	path  string
	mu    sync.Mutex
	plays map[string]int // by scenario: how many plays were given a recording
}

// file is the recording the next play of sc replays: the bundle's own, or
// in a run folder the scenario's bundle; of a run of --runs k, the play's
// run (<id>.run-<n>, the n-th play of sc) while there is one.
func (c *cassette) file(sc scenarios.Scenario) string {
	c.mu.Lock()
	c.plays[sc.ID]++
	n := c.plays[sc.ID]
	c.mu.Unlock()
	for _, f := range []string{
		filepath.Join(c.path, File),
		filepath.Join(c.path, results.RunName(sc.ID, n), File),
	} {
		if _, err := os.Stat(f); err == nil {
			return f
		}
	}
	return filepath.Join(c.path, sc.ID, File)
}

// client answers the HTTP client that replays scenario sc's recording.
// The recording is redacted: the stand-ins of the prompt's data (the
// bundle's scenario.json holds them at the same keys) are put back to the
// scenario's own values in the answers, so that the model's calls carry
// what the prompt gave, as when it was recorded.
func (c *cassette) client(sc scenarios.Scenario) *http.Client {
	file := c.file(sc)
	t := &tape{file: file}
	var back []string
	var attackErr error
	if data, err := os.ReadFile(filepath.Join(filepath.Dir(file), "scenario.json")); err == nil {
		var was scenarios.Scenario
		if json.Unmarshal(data, &was) == nil {
			for _, k := range slices.Sorted(maps.Keys(sc.PromptData)) {
				if v, ok := was.PromptData[k]; ok && v.Value != "" && v.Value != sc.PromptData[k].Value {
					back = append(back, v.Value, sc.PromptData[k].Value)
				}
			}
			attackErr = sameAttack(was.Attack, sc.Attack)
		}
	}
	t.back = strings.NewReplacer(back...)
	data, err := os.ReadFile(file)
	if err == nil && attackErr != nil {
		err = attackErr
	}
	if err == nil {
		var rec Record
		if err = json.Unmarshal(data, &rec); err == nil && rec.Format != Format {
			err = fmt.Errorf("its format is %q, not %q", rec.Format, Format)
		}
		for _, x := range rec.Exchanges {
			if x.Status == http.StatusOK && len(x.Response) > 0 {
				t.answers = append(t.answers, x)
			}
		}
	}
	if err != nil {
		t.err = fmt.Errorf("the recording %s cannot be replayed: %w", file, err)
	}
	return &http.Client{Transport: t}
}

// sameAttack says how the attack a play plants differs from the one its
// recording was made under (nil when it does not): the model's answers
// were to what it read then, so a replay under another attack, or none,
// would measure nothing (give the same --attack to the replay). The
// address is not compared: the bundle's copy may be redacted.
func sameAttack(was, now *scenarios.Attack) error {
	words := func(a *scenarios.Attack) string {
		if a == nil {
			return "no attack"
		}
		return fmt.Sprintf("the attack {pattern: %s, in: %s, tool: %s, call: %s}", a.Pattern, a.In, a.Tool, a.Call)
	}
	if words(was) == words(now) {
		return nil
	}
	return fmt.Errorf("it was recorded under %s and this play plants %s: replay it under the same attack (--attack)", words(was), words(now))
}

// tape answers the recorded answers in order.
type tape struct {
	file    string
	err     error
	answers []Exchange
	n       int
	back    *strings.Replacer // stand-ins back to the prompt's values
}

func (t *tape) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		defer req.Body.Close()
	}
	if t.err != nil {
		return nil, t.err
	}
	if t.n >= len(t.answers) {
		return nil, fmt.Errorf("the recording %s has %d answers and the conversation asks for more: the page answered differently from when it was recorded", t.file, len(t.answers))
	}
	x := t.answers[t.n]
	t.n++
	sent, _ := io.ReadAll(req.Body)
	if why := sameTools(x.Request, sent); why != "" {
		return nil, fmt.Errorf("turn %d: the page offers other tools than when %s was recorded: %s", x.Turn, t.file, why)
	}
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(t.back.Replace(string(x.Response)))), Request: req}, nil
}

// sameTools says how the tools of two requests differ ("" when they do
// not): the names first, then each tool's definition.
func sameTools(recorded, sent []byte) string {
	type fn struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	var a, b struct {
		Tools []json.RawMessage `json:"tools"`
	}
	_ = json.Unmarshal(recorded, &a)
	_ = json.Unmarshal(sent, &b)
	byName := func(tools []json.RawMessage) (map[string]string, []string) {
		m := map[string]string{}
		var names []string
		for _, raw := range tools {
			var f fn
			_ = json.Unmarshal(raw, &f)
			var v any
			_ = json.Unmarshal(raw, &v)
			canon, _ := json.Marshal(v) // map keys sorted
			m[f.Function.Name] = string(canon)
			names = append(names, f.Function.Name)
		}
		slices.Sort(names)
		return m, names
	}
	was, wasNames := byName(a.Tools)
	now, nowNames := byName(b.Tools)
	var diff []string
	for _, n := range nowNames {
		if _, ok := was[n]; !ok {
			diff = append(diff, "a new tool "+n)
		} else if was[n] != now[n] {
			diff = append(diff, "the tool "+n+" with another description or schema")
		}
	}
	for _, n := range wasNames {
		if _, ok := now[n]; !ok {
			diff = append(diff, "no tool "+n)
		}
	}
	if len(diff) == 0 {
		return ""
	}
	return strings.Join(diff, "; ")
}
