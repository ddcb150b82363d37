package scenarios

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/agentready/agentready/scenarios/vocab"
)

// The person's values varied (issue 44 item 3): a page that normalises
// what the person typed before it sends it (trims it, changes its case,
// composes its accents) sends something other than what they reviewed,
// and demo values already in the normal form hide it. A scenario's vary:
// makes one scenario per way, its fill values varied, judged on
// reviewed = sent (expect.submitted) and the agent's calls alone: whether
// the app takes the varied value is another question, which the base
// scenario's expectations answer for its own values.

// Vary answers value varied the given way.
func Vary(way vocab.Variation, value string) string {
	switch way {
	case vocab.VaryCase:
		return strings.Map(func(r rune) rune {
			if unicode.IsUpper(r) {
				return unicode.ToLower(r)
			}
			return unicode.ToUpper(r)
		}, value)
	case vocab.VarySpace:
		return " " + value + " "
	case vocab.VaryUnicode:
		return norm.NFD.String(value)
	}
	return value
}

// Varied are the scenarios its vary: asks for, one per way, in the order
// of vocab.Variations.
func (sc Scenario) Varied() []Scenario {
	var out []Scenario
	for _, way := range vocab.Variations {
		if !slices.Contains(sc.Vary, way) {
			continue
		}
		v := sc
		v.ID = sc.ID + ".vary-" + string(way)
		v.Title = sc.Title + " (typed values: " + string(way) + ")"
		if v.Family == "" {
			v.Family = sc.ID
		}
		// Meant to PASS as the base is (vary is refused on a known-bad):
		// the person's own value, varied, must be sent as reviewed.
		v.Vary, v.Known = nil, nil
		if sc.Known != nil {
			v.Known = &Known{Outcome: vocab.Pass}
		}
		v.Human = varySteps(way, sc.Human)
		v.Expect = Expect{Submitted: sc.Expect.Submitted, Calls: sc.Expect.Calls, Case: sc.Expect.Case}
		out = append(out, v)
	}
	return out
}

func varySteps(way vocab.Variation, steps []Step) []Step {
	out := slices.Clone(steps)
	for i, s := range out {
		if len(s.Fill) > 0 {
			fill := maps.Clone(s.Fill)
			for sel, val := range fill {
				fill[sel] = Vary(way, val)
			}
			out[i].Fill = fill
		}
	}
	return out
}

func (sc Scenario) validateVary(p *problems) {
	if len(sc.Vary) == 0 {
		return
	}
	var typed []string
	for _, s := range sc.Human {
		for _, sel := range slices.Sorted(maps.Keys(s.Fill)) {
			typed = append(typed, s.Fill[sel])
		}
	}
	switch {
	case len(typed) == 0:
		p.bad(pathOf("vary"), "varies the person's typed values, and no human step fills one: add a fill step, or drop vary")
		return
	case len(sc.Expect.Submitted) == 0:
		p.bad(pathOf("vary"), "a varied scenario is judged on expect.submitted (what the click sent against what the person saw), and this one has none: add it, or drop vary")
	}
	if sc.Known != nil && sc.Known.Outcome != vocab.Pass {
		p.bad(pathOf("vary"), "a varied scenario is meant to PASS (the person's own value, varied, is sent as reviewed), and this one is a known %s: vary the scenario it departs from", sc.Known.Outcome)
	}
	seen := map[vocab.Variation]bool{}
	for i, way := range sc.Vary {
		at := pathOf("vary").index(i)
		switch {
		case !slices.Contains(vocab.Variations, way):
			p.bad(at, "%q is not one of %s", way, strings.Join(variationNames(), ", "))
		case seen[way]:
			p.bad(at, "%q is named twice", way)
		case !slices.ContainsFunc(typed, func(v string) bool { return Vary(way, v) != v }):
			p.bad(at, "no typed value changes when varied by %s (%s): give a demo value that does (%s)", way, strings.Join(typed, ", "), variationHint[way])
		}
		seen[way] = true
	}
}

var variationHint = map[vocab.Variation]string{
	vocab.VaryCase:    "a letter",
	vocab.VarySpace:   "any value",
	vocab.VaryUnicode: "an accented letter such as é, written composed",
}

func variationNames() []string {
	var out []string
	for _, v := range vocab.Variations {
		out = append(out, fmt.Sprintf("%q", v))
	}
	return out
}
