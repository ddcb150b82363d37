package judge

import (
	"os/exec"
	"strings"
	"testing"
)

// The judge is a pure function of a scenario and its evidence: nothing it
// links may talk to a browser, or assert like a test. This keeps verify
// offline and the judge re-runnable anywhere.
func TestTheJudgeImportsNoBrowserOrTestCode(t *testing.T) {
	assertNoDeps(t, ".", "github.com/chromedp/chromedp", "github.com/chromedp/cdproto", "github.com/onsi/gomega", "github.com/onsi/ginkgo")
}

// verify (package bundle) judges bundles offline: it links no browser
// driver and no test framework. (HAR types from cdproto/har are data, and
// allowed there.) The agentready command as a whole links chromedp for
// `run`; its verify uses nothing but package bundle.
func TestVerifyLinksNoBrowserCode(t *testing.T) {
	assertNoDeps(t, "../../bundle", "github.com/chromedp/chromedp", "github.com/onsi/gomega", "github.com/onsi/ginkgo")
}

func assertNoDeps(t *testing.T, pkg string, forbidden ...string) {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 5 {
		t.Fatalf("go list -deps %s listed only %v: the check would pass on nothing", pkg, deps)
	}
	for _, d := range deps {
		for _, f := range forbidden {
			if d == f || strings.HasPrefix(d, f+"/") {
				t.Errorf("%s depends on %s", pkg, d)
			}
		}
	}
}

// The check bites: the runner, which drives a browser, does list chromedp.
func TestTheDepsCheckSeesBrowserCodeWhereItIs(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "../runner").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "github.com/chromedp/chromedp\n") {
		t.Fatal("the runner's deps lack chromedp: go list -deps does not show what the check looks for")
	}
}
