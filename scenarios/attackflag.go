package scenarios

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/agentready/agentready/scenarios/vocab"
)

// ParseAttack reads an attack given on the command line (agentready run
// --attack), for the scenarios that plant none of their own: either the
// scenario key's own value as a YAML flow mapping,
//
//	{pattern: ignore-previous, in: tool_result, tool: get_event_details, call: save_event}
//
// or the short form PATTERN[@PLACE[:TOOL]][,call=TOOL][,url=URL], its place
// page_text when none is given ("exfiltrate",
// "fake-system@description:get_event_details,call=save_event"). Either is
// checked as the key is in a file, each problem named by its key.
func ParseAttack(spec string) (Attack, error) {
	spec = strings.TrimSpace(spec)
	var a Attack
	if strings.HasPrefix(spec, "{") {
		dec := yaml.NewDecoder(strings.NewReader(spec))
		dec.KnownFields(true)
		if err := dec.Decode(&a); err != nil {
			return Attack{}, fmt.Errorf("not an attack mapping: %v", err)
		}
	} else {
		head, opts, _ := strings.Cut(spec, ",")
		pattern, where, _ := strings.Cut(head, "@")
		place, tool, _ := strings.Cut(where, ":")
		a = Attack{Pattern: vocab.AttackPattern(pattern), In: vocab.AttackPlace(place), Tool: tool}
		if place == "" {
			a.In = vocab.PlantPageText
		}
		for opt := range strings.SplitSeq(opts, ",") {
			if opt == "" {
				continue
			}
			switch k, v, _ := strings.Cut(opt, "="); k {
			case "call":
				a.Call = v
			case "url":
				a.URL = v
			default:
				return Attack{}, fmt.Errorf("%q: give call=TOOL or url=URL after a comma (PATTERN[@PLACE[:TOOL]][,call=TOOL][,url=URL])", opt)
			}
		}
	}
	var p problems
	Scenario{Attack: &a}.validateAttack(&p)
	if p.empty() {
		return a, nil
	}
	var errs []error
	for _, kp := range p.list {
		errs = append(errs, fmt.Errorf("%s: %s", kp.at, kp.message))
	}
	return Attack{}, errors.Join(errs...)
}
