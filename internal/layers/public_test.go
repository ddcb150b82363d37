package layers

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// usersSpec is the suite file a user writes for their own app, in their own
// module: it plays their scenario files and judges them, naming a verdict
// and its words. It imports every package of Public, and nothing else of ours.
const usersSpec = `package myapp_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentready/agentready/e2e/framework"
	"github.com/agentready/agentready/e2e/matchers"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
	EXTRA
)

func TestMyApp(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "my app")
}

var _ = SynchronizedBeforeSuite(func(ctx SpecContext) []byte {
	framework.CheckApp(ctx)
	return framework.NewRun()
}, func(ctx SpecContext, run []byte) {
	framework.SetUpRun(run)
	framework.SetUpBrowser(ctx)
})

var _ = Describe("ORDER-01", func() {
	It("prepares the order and leaves placing it to the person", func(ctx SpecContext) {
		all, broken := framework.LoadScenarioDir("scenarios")
		Expect(broken).To(BeEmpty())
		var sc scenarios.Scenario = all[0]
		var v judge.Verdict = framework.RunScenario(ctx, sc)
		Expect(v).To(matchers.HaveVerdict(vocab.Pass))
		Expect(v).To(matchers.HaveMeantVerdict(sc))
	})
})
`

// buildUsersSpec type-checks a user's spec in a module of its own that
// requires this one (replaced by this checkout), offline: the module cache
// already holds every dependency, as it does for the suite's own build.
func buildUsersSpec(t *testing.T, extraImport string) (string, error) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ours, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	requires := regexp.MustCompile(`(?ms)^require \(.*?^\)`).FindAllString(string(ours), -1)
	if len(requires) == 0 {
		t.Fatal("go.mod has no require block to carry over")
	}
	dir := t.TempDir()
	mod := "module example.com/myapp\n\ngo 1.26.0\n\nrequire " + Module + " v0.0.0\n\nreplace " + Module + " => " + root + "\n\n" + strings.Join(requires, "\n\n") + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"go.mod":        []byte(mod),
		"go.sum":        sum,
		"myapp_test.go": []byte(strings.Replace(usersSpec, "EXTRA", extraImport, 1)),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vet := exec.Command("go", "vet", "./...")
	vet.Dir = dir
	vet.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	out, err := vet.CombinedOutput()
	return string(out), err
}

// A user's own Ginkgo spec builds on the public packages alone.
func TestAUsersOwnSpecBuildsOnThePublicPackages(t *testing.T) {
	for _, p := range Public {
		if !strings.Contains(usersSpec, `"`+Module+"/"+p+`"`) {
			t.Errorf("the user's spec does not import %s: the test would not show it is reachable", p)
		}
	}
	if out, err := buildUsersSpec(t, ""); err != nil {
		t.Fatalf("a user's spec on %v does not build: %v\n%s", Public, err, out)
	}
}

// The check bites: the same spec reaching into internal/ does not build,
// and says why.
func TestAUsersSpecCannotReachInternal(t *testing.T) {
	out, err := buildUsersSpec(t, `_ "`+Module+`/internal/data/record"`)
	if err == nil || !strings.Contains(out, "use of internal package "+Module+"/internal/data/record not allowed") {
		t.Fatalf("a user's spec importing internal/data/record: %v\n%s", err, out)
	}
}
