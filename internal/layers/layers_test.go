package layers

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// graph is the module's real import graph, as go list sees it (what each
// package ships; tests are free to import anything).
func graph(t *testing.T) []Package {
	t.Helper()
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports,Deps", Module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	var pkgs []Package
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath    string
			Imports, Deps []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list's JSON: %v", err)
		}
		pkgs = append(pkgs, Package{p.ImportPath, p.Imports, p.Deps})
	}
	if len(pkgs) < 40 {
		t.Fatalf("go list listed only %d packages: the rules would hold on nothing", len(pkgs))
	}
	return pkgs
}

func TestTheSuiteKeepsItsImportRules(t *testing.T) {
	for _, v := range Check(graph(t), Floors, Pure, Apart) {
		t.Error(v)
	}
}

// Each rule, broken once on the real graph, is seen with its own words.
func TestEveryRuleBrokenIsSeen(t *testing.T) {
	cases := []struct {
		name   string
		break_ func([]Package) []Package
		want   Violation
	}{
		{"the record imports the runner, floors above it",
			addImport("internal/data/record", "scenarios/runner"),
			Violation{"internal/data/record", "scenarios/runner", `floor "data" imports floor "runner", above it`}},
		{"the bundle imports its report",
			addImport("internal/evidence/bundle", "internal/reporters/report"),
			Violation{"internal/evidence/bundle", "internal/reporters/report", `floor "evidence" imports floor "reporters", above it`}},
		{"the judge links chromedp through another package",
			addDep("scenarios/judge", "github.com/chromedp/chromedp"),
			Violation{"scenarios/judge", "github.com/chromedp/chromedp", "the judge is pure"}},
		{"the judge links a browser package of the suite",
			addDep("scenarios/judge", Module+"/internal/live/browser"),
			Violation{"scenarios/judge", "internal/live/browser", "the judge is pure"}},
		{"verify links Gomega",
			addDep("internal/evidence/bundle", "github.com/onsi/gomega"),
			Violation{"internal/evidence/bundle", "github.com/onsi/gomega", "verify is offline"}},
		{"the reference app imports the suite's words",
			addImport("fixtures/refapp", "scenarios/vocab"),
			Violation{"fixtures/refapp", "scenarios/vocab", "apps import no suite package"}},
		{"a new package on no floor",
			func(g []Package) []Package { return append(g, Package{Path: Module + "/internal/newthing"}) },
			Violation{"internal/newthing", "", "on no floor: place it in internal/layers (Floors) and ARCHITECTURE.md"}},
	}
	g := graph(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Check(c.break_(clone(g)), Floors, Pure, Apart)
			if !slices.Contains(got, c.want) {
				t.Errorf("not seen: %v\ngot %v", c.want, got)
			}
			if len(got) != 1 {
				t.Errorf("one break, %d violations: %v", len(got), got)
			}
		})
	}
	t.Run("a floor that names a package no longer there", func(t *testing.T) {
		floors := slices.Clone(Floors)
		floors[0].Packages = append(slices.Clone(floors[0].Packages), "internal/gone")
		want := Violation{"internal/gone", "", `floor "words" names a pattern that matches no package`}
		if got := Check(g, floors, Pure, Apart); !slices.Equal(got, []Violation{want}) {
			t.Errorf("got %v, want %v", got, want)
		}
	})
}

// The forbidden names are real ones: each is linked somewhere in the
// module, so a misspelt path cannot make a rule hold on nothing.
func TestEveryForbiddenNameIsLinkedSomewhere(t *testing.T) {
	g := graph(t)
	for _, r := range Pure {
		for _, pat := range r.Forbid {
			if !slices.ContainsFunc(g, func(p Package) bool {
				return slices.ContainsFunc(p.Deps, func(d string) bool { return forbidden([]string{pat}, d) })
			}) {
				t.Errorf("%s: nothing in the module links %s", r.Name, pat)
			}
		}
	}
}

// ARCHITECTURE.md draws the same floors, in the same order.
func TestTheMapDrawsTheseFloors(t *testing.T) {
	data, err := os.ReadFile("../../ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	var drawn []string
	for _, line := range strings.Split(string(data), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) > 3 && strings.HasPrefix(line, "| ") {
			name := strings.Trim(strings.TrimSpace(cells[1]), "*")
			if slices.ContainsFunc(Floors, func(f Floor) bool { return f.Name == name }) {
				drawn = append(drawn, name)
			}
		}
	}
	var want []string
	for i := len(Floors) - 1; i >= 0; i-- { // the map reads top to bottom
		want = append(want, Floors[i].Name)
	}
	if !slices.Equal(drawn, want) {
		t.Errorf("ARCHITECTURE.md's floors, top to bottom, are %v; internal/layers has %v", drawn, want)
	}
}

func clone(g []Package) []Package {
	out := make([]Package, len(g))
	for i, p := range g {
		out[i] = Package{p.Path, slices.Clone(p.Imports), slices.Clone(p.Deps)}
	}
	return out
}

func addImport(from, to string) func([]Package) []Package {
	return func(g []Package) []Package {
		for i := range g {
			if g[i].Path == Module+"/"+from {
				g[i].Imports = append(g[i].Imports, Module+"/"+to)
			}
		}
		return g
	}
}

func addDep(from, dep string) func([]Package) []Package {
	return func(g []Package) []Package {
		for i := range g {
			if g[i].Path == Module+"/"+from {
				g[i].Deps = append(g[i].Deps, dep)
			}
		}
		return g
	}
}
