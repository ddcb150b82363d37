// Package layers keeps the suite's import rules as data: the floors its
// packages stand on, bottom to top, and the packages that must stay pure
// whatever they reach through others. Its test holds the real import graph
// (go list) to them; ARCHITECTURE.md draws the same floors. A new package
// goes on a floor here, or that test fails and says so.
package layers

import (
	"fmt"
	"slices"
	"strings"
)

// Module is the suite's module path; patterns below are relative to it.
const Module = "github.com/agentready/agentready"

// A Floor is a layer of packages. A package imports packages of its own
// floor or of floors below it, never above (only what it ships counts: a
// test may import anything).
type Floor struct {
	Name     string
	Packages []string // patterns: "netlog" is that package, "internal/live/..." it and all below
	Why      string
}

// Floors, bottom to top.
var Floors = []Floor{
	{"words", []string{"scenarios/vocab", "internal/kit/...", "internal/layers"},
		"the words every layer speaks, declared once; small helpers that import nothing of the suite"},
	{"apps", []string{"fixtures/..."},
		"our apps under test; they stand in for a user's app, so they import only each other (see Apart)"},
	{"data", []string{"internal/data/..."},
		"what a run records, as plain data; the one request matcher; a signed-in person's saved state"},
	{"witnesses", []string{"netlog/...", "internal/live/..."},
		"what watches a live page or app: the browser, its WebMCP tools, its network, the app's endpoints and process"},
	{"format", []string{"scenarios"},
		"the scenario format: load, validate, the Evidence of a run"},
	{"judge", []string{"scenarios/judge/..."},
		"evidence in, verdict out; pure (see Pure)"},
	{"sources", []string{"internal/sources/..."},
		"agents' transcripts from elsewhere (an Inspector trace, webmcp-evals cases) read as scenarios"},
	{"pages", []string{"pages", "internal/pagecheck/..."},
		"a page without a scenario: the reference app's page objects; any page's tools listed, linted, smoke-called"},
	{"runner", []string{"scenarios/runner"},
		"plays one scenario in a tab and records its evidence"},
	{"evidence", []string{"internal/evidence/..."},
		"the bundle: redact, seal, store each fact once, write, read, verify (offline: see Pure)"},
	{"reporters", []string{"internal/reporters/..."},
		"what people read of bundles: a bundle's page, a run's rows and reporters, shards merged"},
	{"runs", []string{"internal/runs/..."},
		"plays scenarios against their target and seals them, with whatever plays the agent; attacks; the mutant gate"},
	{"harness", []string{"e2e/framework", "e2e/matchers"},
		"the Ginkgo suite's small core and its Gomega matchers"},
	{"entry points", []string{"e2e", "cmd/...", "bench/...", "ci/..."},
		"what a person or CI starts: the specs, the command, the bench, CI's helpers"},
}

// Public is what a user's own Ginkgo specs, in a module of their own, import
// to play their scenarios and judge them; Go keeps internal/ out of reach.
var Public = []string{"e2e/framework", "e2e/matchers", "scenarios", "scenarios/judge", "scenarios/vocab"}

// A Rule binds packages to stay away from imports, directly or through any
// package they link.
type Rule struct {
	Name     string
	Packages []string // patterns relative to Module
	Forbid   []string // import paths: module-relative patterns, or a full path ("github.com/chromedp/...")
	Why      string
}

// Pure: what judges and verifies links nothing that talks to a browser, or
// asserts like a test, so that verify re-judges a bundle anywhere, offline.
var Pure = []Rule{
	{
		Name:     "the judge is pure",
		Packages: []string{"scenarios", "scenarios/vocab", "scenarios/judge/...", "internal/data/..."},
		Forbid:   append([]string{"github.com/chromedp/..."}, talksToABrowser...),
		Why:      "the judge is a function of a scenario and its evidence; it reads no browser type either",
	},
	{
		Name:     "verify is offline",
		Packages: []string{"internal/evidence/...", "netlog/har"},
		Forbid:   append([]string{"github.com/chromedp/chromedp"}, talksToABrowser...),
		Why:      "verify re-judges bundles with no browser; HAR's types from cdproto are data, and allowed",
	},
}

// talksToABrowser: the suite's packages that drive or watch a browser, and
// the test frameworks (which assert rather than judge).
var talksToABrowser = []string{"netlog", "internal/live/...", "scenarios/runner", "github.com/onsi/..."}

// Apart: our apps stand in for a user's, which knows nothing of the suite.
var Apart = Rule{
	Name:     "apps import no suite package",
	Packages: []string{"fixtures/..."},
	Why:      "an app under test that linked the suite would prove nothing about apps that do not",
}

// A Package is one node of the import graph: its path, what it imports
// (direct) and what it links (every dependency, transitively).
type Package struct {
	Path    string
	Imports []string
	Deps    []string
}

// A Violation is one import that breaks a rule.
type Violation struct {
	Package, Import, Rule string
}

func (v Violation) String() string {
	return fmt.Sprintf("%s imports %s: %s", v.Package, v.Import, v.Rule)
}

// Check holds the graph to the floors, the pure rules and the apps' rule.
// Every package of the module must be on exactly one floor, and every
// pattern of the data must match a package (stale data is a violation too).
func Check(graph []Package, floors []Floor, pure []Rule, apart Rule) []Violation {
	var out []Violation
	floorOf := map[string]int{}
	used := map[string]bool{}
	for _, p := range graph {
		if !inModule(p.Path) {
			continue
		}
		rel := relative(p.Path)
		on := -1
		for i, f := range floors {
			for _, pat := range f.Packages {
				if match(pat, rel) {
					used[pat] = true
					if on >= 0 && on != i {
						out = append(out, Violation{rel, "", fmt.Sprintf("on two floors, %q and %q", floors[on].Name, f.Name)})
					}
					on = i
				}
			}
		}
		if on < 0 {
			out = append(out, Violation{rel, "", "on no floor: place it in internal/layers (Floors) and ARCHITECTURE.md"})
			continue
		}
		floorOf[rel] = on
	}
	for _, f := range floors {
		for _, pat := range f.Packages {
			if !used[pat] {
				out = append(out, Violation{pat, "", fmt.Sprintf("floor %q names a pattern that matches no package", f.Name)})
			}
		}
	}
	for _, p := range graph {
		rel := relative(p.Path)
		from, ok := floorOf[rel]
		if !ok {
			continue
		}
		for _, imp := range p.Imports {
			to, ok := floorOf[relative(imp)]
			if inModule(imp) && ok && to > from {
				out = append(out, Violation{rel, relative(imp), fmt.Sprintf("floor %q imports floor %q, above it", floors[from].Name, floors[to].Name)})
			}
		}
		for _, r := range pure {
			if !matchAny(r.Packages, rel) {
				continue
			}
			for _, d := range p.Deps {
				if forbidden(r.Forbid, d) {
					out = append(out, Violation{rel, relative(d), r.Name})
				}
			}
		}
		if matchAny(apart.Packages, rel) {
			for _, imp := range p.Imports {
				if inModule(imp) && !matchAny(apart.Packages, relative(imp)) {
					out = append(out, Violation{rel, relative(imp), apart.Name})
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b Violation) int {
		return strings.Compare(a.String(), b.String())
	})
	return slices.Compact(out)
}

func forbidden(patterns []string, dep string) bool {
	for _, pat := range patterns {
		if strings.Contains(strings.SplitN(pat, "/", 2)[0], ".") {
			if match(pat, dep) {
				return true
			}
		} else if inModule(dep) && match(pat, relative(dep)) {
			return true
		}
	}
	return false
}

func matchAny(patterns []string, path string) bool {
	return slices.ContainsFunc(patterns, func(p string) bool { return match(p, path) })
}

// match is go list's "..." at the end of a pattern: the package and all below.
func match(pattern, path string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return path == base || strings.HasPrefix(path, base+"/")
	}
	return path == pattern
}

func inModule(path string) bool { return path == Module || strings.HasPrefix(path, Module+"/") }

func relative(path string) string {
	if path == Module {
		return "."
	}
	return strings.TrimPrefix(path, Module+"/")
}
