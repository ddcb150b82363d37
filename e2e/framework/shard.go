package framework

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2" //nolint:revive
	"github.com/onsi/ginkgo/v2/types"

	"github.com/agentready/agentready/internal/reporters/results"
	"github.com/agentready/agentready/internal/reporters/shard"
)

// Shard is this run's part of the specs (AGENTREADY_SHARD=k/N; the zero
// Shard runs them all). Which spec is whose is decided when the spec tree
// is built, from the spec's ID, never from Ginkgo's random order:
//
//   - a spec made from a scenario file belongs to its scenario ID's shard,
//     and the others' are left out of the tree (LoadScenarios hands out
//     only this shard's scenarios), so they are neither run nor counted;
//   - any other spec belongs to its full text's shard. Ginkgo cannot leave
//     out a spec once It is called, so the others' are labelled
//     other-shard, and --label-filter='!other-shard' skips them before any
//     setup; run without that filter they fail at once, saying so.
var Shard shard.Shard

var shardErr error

// ScenarioFileLabel labels the container of the specs made from scenario
// files (e2e's MarkScenarioFile): their shard is their scenario's.
const ScenarioFileLabel = "scenario-file"

func init() {
	Shard, shardErr = shard.FromEnv()
	if shardErr != nil || Shard.On() {
		AddTreeConstructionNodeArgsTransformer(shardSpecs)
	}
}

// shardSpecs labels, as the tree is built, each spec of another shard.
func shardSpecs(nodeType types.NodeType, _ Offset, text string, args []any) (string, []any, []error) {
	if shardErr != nil {
		return text, args, []error{fmt.Errorf("no spec was run: %w", shardErr)}
	}
	if nodeType != types.NodeTypeIt {
		return text, args, nil
	}
	tree := CurrentTreeConstructionNodeReport()
	for _, labels := range tree.ContainerHierarchyLabels {
		if slices.Contains(labels, ScenarioFileLabel) {
			return text, args, nil
		}
	}
	key := SpecKey(tree.ContainerHierarchyTexts, text)
	if Shard.Has(key) {
		return text, args, nil
	}
	owner := shard.Shard{K: shard.Of(key, Shard.N), N: Shard.N}
	msg := fmt.Sprintf("this spec is shard %s's, not this shard's (%s): run a shard with --label-filter='!%s' (make e2e SHARD=%s does)",
		owner, Shard, shard.OtherShard, Shard)
	for i, a := range args {
		if a != nil && reflect.TypeOf(a).Kind() == reflect.Func {
			args[i] = func(SpecContext) { Fail(msg) }
		}
	}
	return text, append(args, Label(shard.OtherShard)), nil
}

// SpecKey is a spec's full text as Ginkgo reports it (SpecReport.FullText):
// the non-empty container texts and the spec's own, joined by spaces.
func SpecKey(containers []string, text string) string {
	return strings.Join(slices.DeleteFunc(append(slices.Clone(containers), text), func(t string) bool { return t == "" }), " ")
}

// writeShardRecord leaves this shard's record in its run folder, for
// `agentready merge`.
func writeShardRecord(rows []results.Row) {
	if !Shard.On() || Run.Dir == "" {
		return
	}
	if err := shard.WriteRecord(Run.Dir, Shard, shard.KindGinkgo, App.BaseURL, rows); err != nil {
		fmt.Println("shard record:", err)
	}
}
