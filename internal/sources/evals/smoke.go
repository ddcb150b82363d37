package evals

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/agentready/agentready/internal/data/match"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Steps answers the calls smoke mode replays, as webmcp-evals smoke does:
// every call that is not optional, in the order the file writes them (an
// unordered group in its written order; an optional call may or may not
// come, so it is not made). A replayed call needs concrete arguments: one
// without arguments, or whose arguments hold a constraint, is an error
// (there is no value to send).
func (c Case) Steps() ([]Call, error) {
	var steps []Call
	var walk func(at string, nodes []Node) error
	walk = func(at string, nodes []Node) error {
		for i, n := range nodes {
			here := fmt.Sprintf("%s[%d]", at, i)
			switch {
			case n.group != "":
				if err := walk(here+"."+n.group, append(n.Ordered, n.Unordered...)); err != nil {
					return err
				}
			case n.Call.Optional:
			case n.Call.Arguments == nil:
				return fmt.Errorf("%s (%s): smoke mode sends the arguments, and there are none: give an arguments object with concrete values", here, n.Call.FunctionName)
			default:
				if err := match.Concrete(n.Call.Arguments); err != nil {
					return fmt.Errorf("%s (%s).arguments: smoke mode sends concrete values: %w", here, n.Call.FunctionName, err)
				}
				steps = append(steps, *n.Call)
			}
		}
		return nil
	}
	return steps, walk("expectedCall", c.Expected)
}

// SkipReason says why smoke mode cannot run the case, or "".
func (c Case) SkipReason() string {
	if c.NoCall {
		return "expects no call (expectedCall: null): smoke mode replays calls and has no model to hold back"
	}
	if steps, err := c.Steps(); err == nil && len(steps) == 0 {
		return "every expected call is optional: smoke mode has nothing to replay"
	}
	return ""
}

// Plan is one case as smoke mode runs it.
type Plan struct {
	Case     Case
	Skip     string             // why it is not run; "" when it is
	Scenario scenarios.Scenario // what is run, when it is
}

// Smoke plans every case of a file for smoke mode against url (the page
// each case starts on). A case that cannot be replayed as written is an
// error for the whole file, before anything runs; a case smoke mode has
// nothing to do for is skipped, with the reason.
func Smoke(file string, cases []Case, pageURL string) ([]Plan, error) {
	start, err := startOf(pageURL)
	if err != nil {
		return nil, err
	}
	stem := idStem(file)
	var plans []Plan
	var errs []error
	for _, c := range cases {
		p := Plan{Case: c, Skip: c.SkipReason()}
		if p.Skip == "" {
			sc, err := c.Scenario(fmt.Sprintf("%s.%02d", stem, c.Index+1), start, file)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: case %d%s: %w", file, c.Index, quoted(c.Name), err))
				continue
			}
			p.Scenario = sc
		}
		plans = append(plans, p)
	}
	return plans, errors.Join(errs...)
}

// Scenario is the case as a scenario: the replayed calls as the agent's
// transcript, each expected to complete and, when the case gives a result,
// to answer what it says (match: constraints); the calls in order as
// calls.exactly. The prompt is the last thing the person said.
func (c Case) Scenario(id, start, file string) (scenarios.Scenario, error) {
	steps, err := c.Steps()
	if err != nil {
		return scenarios.Scenario{}, err
	}
	sc := scenarios.Scenario{ID: id, Title: c.Title(), Area: "evals", Start: start, Prompt: c.prompt(), File: file,
		Expect: scenarios.Expect{Calls: &scenarios.CallsExpect{Exactly: scenarios.List[scenarios.CallSketch]{}}}}
	sc.Family, _, _ = strings.Cut(id, ".")
	for _, s := range steps {
		x := &scenarios.CallExpect{Status: vocab.Completed}
		if s.HasResult {
			x.Match = scenarios.MatchConstraints
			if o, ok := s.Result.(map[string]any); ok {
				x.Output = o
			} else {
				b, err := jsonOf(s.Result)
				if err != nil {
					return scenarios.Scenario{}, err
				}
				x.OutputJSON = b
			}
		}
		sc.Agent.Calls = append(sc.Agent.Calls, scenarios.Call{Tool: s.FunctionName, Input: s.Arguments, Expect: x})
		sc.Expect.Calls.Exactly = append(sc.Expect.Calls.Exactly, scenarios.CallSketch{Tool: s.FunctionName, Input: s.Arguments})
	}
	if err := sc.Validate(); err != nil {
		return scenarios.Scenario{}, err
	}
	return sc, nil
}

// prompt is the last thing the person said, or the case's title.
func (c Case) prompt() string {
	for i := len(c.Messages) - 1; i >= 0; i-- {
		if m := c.Messages[i]; m.Role == "user" && m.Type == "message" && strings.TrimSpace(m.Content) != "" {
			return m.Content
		}
	}
	return c.Title()
}

// startOf answers the page's path (and query) for a scenario's start.
func startOf(pageURL string) (string, error) {
	u, err := url.Parse(pageURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("--url %q is not an http(s) URL of the page the cases start on", pageURL)
	}
	start := u.EscapedPath()
	if start == "" {
		start = "/"
	}
	if u.RawQuery != "" {
		start += "?" + u.RawQuery
	}
	return start, nil
}

// Origin answers the scheme and host of the page's URL: the app's base URL.
func Origin(pageURL string) (string, error) {
	u, err := url.Parse(pageURL)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("--url %q is not a URL", pageURL)
	}
	return u.Scheme + "://" + u.Host, nil
}

var notID = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// idStem makes a scenario ID's family from the file's name: evals.json
// becomes evals, my pizza.evals.json my-pizza-evals.
func idStem(file string) string {
	base := file[strings.LastIndexAny(file, `/\`)+1:]
	base = strings.TrimSuffix(base, ".json")
	stem := strings.Trim(notID.ReplaceAllString(base, "-"), "-_")
	if stem == "" {
		return "evals"
	}
	return stem
}

func jsonOf(v any) ([]byte, error) { return json.Marshal(v) }
