package shard_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/agentready/agentready/internal/reporters/shard"
)

// dryRun lists the specs the real e2e suite would run, and those it would
// report as skipped, for one shard ("" for the whole run), by a Ginkgo dry
// run of the suite's test binary (nothing is started).
func dryRun(t *testing.T, bin, part, filter string, env ...string) (ran, skipped []types.SpecReport) {
	t.Helper()
	report := filepath.Join(t.TempDir(), "dry.json")
	cmd := exec.Command(bin, "-ginkgo.dry-run", "-ginkgo.label-filter="+filter, "-ginkgo.json-report="+report)
	cmd.Dir = filepath.Join("..", "..", "..", "e2e")
	cmd.Env = append(os.Environ(), append(env, shard.Env+"="+part, "AGENTREADY_EVIDENCE="+t.TempDir())...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("dry run of shard %q: %v\n%s", part, err, out)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var reports []types.Report
	if err := json.Unmarshal(data, &reports); err != nil || len(reports) != 1 {
		t.Fatalf("dry run report: %v", err)
	}
	for _, s := range reports[0].SpecReports {
		switch {
		case s.LeafNodeType != types.NodeTypeIt:
		case s.State == types.SpecStateSkipped:
			skipped = append(skipped, s)
		default:
			ran = append(ran, s)
		}
	}
	return ran, skipped
}

// shardID is what a spec is sharded by: its scenario's ID for a spec made
// from a scenario file, its full text for any other.
func shardID(s types.SpecReport) string {
	if slices.Contains(s.Labels(), "scenario-file") {
		id, _, _ := strings.Cut(s.LeafNodeText, ": ")
		return id
	}
	return s.FullText()
}

// The union of the N shards of the real suite is the whole suite, every
// spec in exactly one shard, the one its ID hashes to; a spec made from a
// scenario file of another shard is not even in the tree (never counted as
// skipped). Against a user's app (only scenario specs) no shard skips
// anything at all.
func TestEverySpecOfTheSuiteRunsInExactlyOneShard(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "e2e.test")
	build := exec.Command("go", "test", "-c", "-o", bin, "./e2e")
	build.Dir = filepath.Join("..", "..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the e2e suite: %v\n%s", err, out)
	}
	user := []string{"AGENTREADY_BASE_URL=http://127.0.0.1:1", "AGENTREADY_SCENARIOS=fixtures/plainapp/scenarios"}
	for _, mode := range []struct {
		name, filter string
		env          []string
	}{
		{"embedded app", "!other-shard", []string{"AGENTREADY_BASE_URL="}},
		{"a user's app", "scenario-file && !other-shard", user},
	} {
		whole, _ := dryRun(t, bin, "", strings.TrimSuffix(strings.TrimSuffix(mode.filter, "!other-shard"), " && "), mode.env...)
		if len(whole) < 5 {
			t.Fatalf("%s: the whole suite has %d specs", mode.name, len(whole))
		}
		all := map[string]bool{}
		for _, s := range whole {
			all[s.FullText()] = true
		}
		for _, n := range []int{2, 3, 5} {
			in := map[string]string{}
			for k := 1; k <= n; k++ {
				part := fmt.Sprintf("%d/%d", k, n)
				ran, skipped := dryRun(t, bin, part, mode.filter, mode.env...)
				for _, s := range ran {
					if prev, dup := in[s.FullText()]; dup {
						t.Errorf("%s: %q runs in shard %s and in shard %s", mode.name, s.FullText(), prev, part)
					}
					in[s.FullText()] = part
					if got := shard.Of(shardID(s), n); got != k {
						t.Errorf("%s: %q runs in shard %s, its ID %q hashes to %d", mode.name, s.FullText(), part, shardID(s), got)
					}
				}
				for _, s := range skipped {
					if slices.Contains(s.Labels(), "scenario-file") {
						t.Errorf("%s, shard %s: the scenario spec %q is in the tree, skipped", mode.name, part, s.FullText())
					}
					if !slices.Contains(s.Labels(), shard.OtherShard) {
						t.Errorf("%s, shard %s: %q is skipped without being another shard's", mode.name, part, s.FullText())
					}
				}
				if mode.env[0] != "AGENTREADY_BASE_URL=" && len(skipped) > 0 {
					t.Errorf("%s, shard %s: %d specs skipped", mode.name, part, len(skipped))
				}
			}
			for text := range all {
				if in[text] == "" {
					t.Errorf("%s: %q runs in none of %d shards", mode.name, text, n)
				}
			}
			if len(in) != len(all) {
				t.Errorf("%s: the %d shards run %d specs, the whole suite %d", mode.name, n, len(in), len(all))
			}
		}
	}
}
