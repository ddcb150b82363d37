package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/runs/agentmodel"
	"github.com/agentready/agentready/internal/runs/play"
	"github.com/agentready/agentready/scenarios"
)

// agentFlags are run's flags of a model playing the agent (package
// agentmodel) in place of the scenarios' transcripts.
type agentFlags struct {
	agent, url, model, keyEnv *string
	turns                     *int
	timeout                   *time.Duration
	pageActions               *bool
}

func addAgentFlags(fs *flag.FlagSet) agentFlags {
	return agentFlags{
		agent:       fs.String("agent", "", "who plays the scenarios' agent: openai (a model over the OpenAI-compatible Chat Completions API) or replay:DIR (a recorded run or bundle, played back without a key); default: the transcripts in the files"),
		url:         fs.String("model-url", defaultModelURL(), "with --agent openai: the endpoint's base URL (Ollama: http://localhost:11434/v1); default $AGENTREADY_MODEL_URL, else $OPENAI_BASE_URL as the openai SDKs read it, else OpenAI's"),
		model:       fs.String("model", os.Getenv("AGENTREADY_MODEL"), "with --agent openai: the model's name at the endpoint"),
		keyEnv:      fs.String("model-key-env", "OPENAI_API_KEY", "with --agent openai: the environment variable holding the API key (unset or empty: no key, as a local server takes)"),
		turns:       fs.Int("model-turns", agentmodel.DefaultTurns, "with --agent: model requests per scenario at most"),
		timeout:     fs.Duration("model-timeout", agentmodel.DefaultTimeout, "with --agent: the model's whole part of a scenario at most"),
		pageActions: fs.Bool("model-page-actions", false, "with --agent: offer the model page_click too (a click in the page, as a browser agent can make; what it causes is the agent's), besides the page's tools"),
	}
}

// modelURLSources are where the endpoint of --agent openai comes from
// when --model-url is not given, in order: the suite's own variable, then
// the one openai-go and most tools read (a user who points those at a
// local server must not have the run go to the public endpoint).
var modelURLSources = []string{"AGENTREADY_MODEL_URL", "OPENAI_BASE_URL"}

func defaultModelURL() string {
	for _, name := range modelURLSources {
		if v := os.Getenv(name); v != "" {
			return v
		}
	}
	return agentmodel.DefaultBaseURL
}

// endpoint says which endpoint --agent openai will call and where that
// came from, for the run's header: "" without --agent openai.
func (f agentFlags) endpoint(fs *flag.FlagSet) string {
	if *f.agent != "openai" {
		return ""
	}
	from := "the default"
	switch {
	case given(fs, "model-url"):
		from = "--model-url"
	default:
		for _, name := range modelURLSources {
			if os.Getenv(name) != "" {
				from = "$" + name
				break
			}
		}
	}
	return fmt.Sprintf("agent: openai, model %q at %s (from %s)", *f.model, *f.url, from)
}

// live answers play.Options.Live for --agent (nil without it), or an
// error naming the flag, before anything is started.
func (f agentFlags) live(fs *flag.FlagSet) (func(scenarios.Scenario, *browser.Tab) play.Live, error) {
	if *f.agent == "" {
		for _, name := range []string{"model-url", "model", "model-key-env", "model-turns", "model-timeout", "model-page-actions"} {
			if given(fs, name) {
				return nil, fmt.Errorf("--%s is for a model playing the agent: give --agent openai too", name)
			}
		}
		return nil, nil
	}
	var a *agentmodel.Agent
	var err error
	switch kind, rest, _ := strings.Cut(*f.agent, ":"); kind {
	case "openai":
		if rest != "" {
			return nil, fmt.Errorf("--agent %q: openai takes nothing after it (the endpoint is --model-url)", *f.agent)
		}
		a, err = agentmodel.New(agentmodel.Config{BaseURL: *f.url, Model: *f.model, Key: os.Getenv(*f.keyEnv), Turns: *f.turns, Timeout: *f.timeout, PageActions: *f.pageActions})
	case "replay":
		a, err = agentmodel.Replay(rest, *f.pageActions)
	default:
		return nil, fmt.Errorf("--agent %q: give openai or replay:DIR", *f.agent)
	}
	if err != nil {
		return nil, err
	}
	return a.Live, nil
}
