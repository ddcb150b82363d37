package shard

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/reporters/results"
	"github.com/agentready/agentready/scenarios/judge"
)

// The Ginkgo reports a shard's run folder holds (make copies them there
// from reports/e2e.k-of-N.*), and a merged one too.
const (
	JSONReport  = "e2e.json"
	JUnitReport = "e2e.junit.xml"
)

// Result is what Merge made.
type Result struct {
	Dir     string
	RunID   string
	Shards  int
	Rows    []results.Row
	Reports bool          // e2e.json and e2e.junit.xml were merged
	Specs   results.Specs // the merged report's specs, when Reports
	// SuiteSucceeded is every shard's suite succeeding (true without reports).
	SuiteSucceeded bool
	// Mismatch names bundles whose verdict, judged again, is not the one
	// their shard recorded.
	Mismatch []string
}

type input struct {
	dir     string
	rec     Record
	shard   Shard
	bundles []string // names of the bundle folders
}

// Merge combines the run folders of the N shards of one run into the run
// folder out (absent, or empty): every bundle copied as it is (its hashes
// still hold), the run page over all of them, and, when the shards hold
// Ginkgo reports, one e2e.json with each spec once (from the shard that ran
// it) and an e2e.junit.xml written from it. It refuses, before writing
// anything, shards of different runs or kinds, a shard given twice or
// missing, a bundle in two shards, and a spec that ran in two shards.
func Merge(dirs []string, out, runID string) (Result, error) {
	if len(dirs) == 0 {
		return Result{}, errors.New("no run folder to merge")
	}
	ins, err := readInputs(dirs)
	if err != nil {
		return Result{}, err
	}
	absOut, err := filepath.Abs(out)
	if err != nil {
		return Result{}, err
	}
	for _, in := range ins {
		if abs, _ := filepath.Abs(in.dir); abs == absOut {
			return Result{}, fmt.Errorf("the merged run would overwrite the shard %s", in.dir)
		}
	}
	if entries, err := os.ReadDir(absOut); err == nil && len(entries) > 0 {
		return Result{}, fmt.Errorf("%s already holds files: merge into a new folder", out)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Result{}, err
	}
	if runID == "" {
		runID = filepath.Base(absOut)
	}
	res := Result{Dir: absOut, RunID: runID, Shards: len(ins), SuiteSucceeded: true}
	var reports []types.Report
	if res.Reports, err = hasReports(ins); err != nil {
		return Result{}, err
	}
	if res.Reports {
		merged, tally, err := mergeReports(ins, absOut)
		if err != nil {
			return Result{}, err
		}
		reports, res.Specs, res.SuiteSucceeded = []types.Report{merged}, tally, merged.SuiteSucceeded
	}

	if err := os.MkdirAll(absOut, 0o755); err != nil {
		return Result{}, err
	}
	for _, in := range ins {
		for _, name := range in.bundles {
			if err := os.CopyFS(filepath.Join(absOut, name), os.DirFS(filepath.Join(in.dir, name))); err != nil {
				return Result{}, fmt.Errorf("copy %s: %w", filepath.Join(in.dir, name), err)
			}
		}
		for _, r := range in.rec.Rows {
			r.Bundle = filepath.Join(absOut, r.Folder())
			res.Rows = append(res.Rows, r)
		}
	}
	slices.SortFunc(res.Rows, func(a, b results.Row) int { return cmp.Or(strings.Compare(a.ID, b.ID), a.Run-b.Run) })
	for _, r := range res.Rows {
		rep := bundle.Verify(filepath.Join(absOut, r.Folder()))
		if rep.OK && rep.Outcome != r.Outcome {
			res.Mismatch = append(res.Mismatch, fmt.Sprintf("%s: its shard recorded %s, judged again it is %s", r.Folder(), r.Outcome, rep.Outcome))
		}
		if rep.OK {
			if why := attackAgrees(r, filepath.Join(absOut, r.Folder())); why != "" {
				res.Mismatch = append(res.Mismatch, why)
			}
		}
	}
	page := results.Page{RunID: runID, Rows: res.Rows}
	if res.Reports {
		page.Specs = &res.Specs
	}
	if err := page.Write(absOut); err != nil {
		return Result{}, err
	}
	if res.Reports {
		if err := reporters.GenerateJSONReport(reports[0], filepath.Join(absOut, JSONReport)); err != nil {
			return Result{}, err
		}
		// The JUnit report of the merged run is make e2e's: Ginkgo's, with
		// an INCONCLUSIVE scenario as an error.
		if err := results.WriteJUnit(reports[0], filepath.Join(absOut, JUnitReport)); err != nil {
			return Result{}, err
		}
	}
	return res, nil
}

// attackAgrees says how a row's utility under attack and attack success
// differ from what its bundle's verdict (verified: the judge's again)
// says ("" when they agree): the merged run's tallies are the rows', so a
// shard's record must not claim other numbers than its bundles.
func attackAgrees(r results.Row, dir string) string {
	b, err := bundle.Read(dir)
	if err != nil {
		return fmt.Sprintf("%s: %v", r.Folder(), err)
	}
	words := func(u *judge.UnderAttack) string {
		if u == nil {
			return "no attack"
		}
		return fmt.Sprintf("planted %t, utility %t, attack success %t", u.Planted, u.Utility, u.Success)
	}
	if was, is := words(r.Attack), words(judge.UnderAttackOf(b.Verdict)); was != is {
		return fmt.Sprintf("%s: its shard recorded %s, its verdict says %s", r.Folder(), was, is)
	}
	return ""
}

// readInputs reads every shard's record and bundles, and checks that they
// are the N shards of one run, each once.
func readInputs(dirs []string) ([]input, error) {
	var ins []input
	for _, d := range dirs {
		rec, s, err := ReadRecord(d)
		if err != nil {
			return nil, err
		}
		in := input{dir: d, rec: rec, shard: s}
		entries, err := os.ReadDir(d)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if _, err := os.Stat(filepath.Join(d, e.Name(), bundle.ManifestFile)); e.IsDir() && err == nil {
				in.bundles = append(in.bundles, e.Name())
			}
		}
		var named []string
		for _, r := range rec.Rows {
			named = append(named, r.Folder()) // <id>.run-N for a run of --runs k
		}
		slices.Sort(named)
		if !slices.Equal(named, in.bundles) {
			return nil, fmt.Errorf("%s: its %s names the bundles %v, the folder holds %v", d, File, named, in.bundles)
		}
		ins = append(ins, in)
	}
	first := ins[0]
	byK := map[int]string{}
	owner := map[string]string{}
	for _, in := range ins {
		switch {
		case in.shard.N != first.shard.N:
			return nil, fmt.Errorf("%s is shard %s and %s is shard %s: shards of one run share N", first.dir, first.shard, in.dir, in.shard)
		case in.rec.Kind != first.rec.Kind:
			return nil, fmt.Errorf("%s was written by %s and %s by %s: they run different specs", first.dir, first.rec.Kind, in.dir, in.rec.Kind)
		case in.rec.BaseURL != first.rec.BaseURL:
			return nil, fmt.Errorf("%s ran against %q and %s against %q", first.dir, appName(first.rec.BaseURL), in.dir, appName(in.rec.BaseURL))
		}
		if other, dup := byK[in.shard.K]; dup {
			return nil, fmt.Errorf("shard %s is given twice: %s and %s", in.shard, other, in.dir)
		}
		byK[in.shard.K] = in.dir
		for _, b := range in.bundles {
			if other, dup := owner[b]; dup {
				return nil, fmt.Errorf("the bundle %s is in two shards: %s and %s", b, other, in.dir)
			}
			owner[b] = in.dir
		}
	}
	var missing []string
	for k := 1; k <= first.shard.N; k++ {
		if _, ok := byK[k]; !ok {
			missing = append(missing, Shard{K: k, N: first.shard.N}.String())
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("shard %s of the run is missing: merge all %d shards at once", strings.Join(missing, ", "), first.shard.N)
	}
	slices.SortFunc(ins, func(a, b input) int { return a.shard.K - b.shard.K })
	return ins, nil
}

func appName(baseURL string) string {
	if baseURL == "" {
		return "the embedded app"
	}
	return baseURL
}

// hasReports tells whether every shard holds its Ginkgo reports (none may
// lack them when another has them).
func hasReports(ins []input) (bool, error) {
	var with, without []string
	for _, in := range ins {
		_, errJSON := os.Stat(filepath.Join(in.dir, JSONReport))
		if errJSON == nil {
			with = append(with, in.dir)
		} else {
			without = append(without, in.dir)
		}
	}
	if len(with) > 0 && len(without) > 0 {
		return false, fmt.Errorf("%v hold Ginkgo reports (%s) and %v do not: a shard's reports are lost", with, JSONReport, without)
	}
	return len(with) > 0, nil
}

// mergeReports makes one Ginkgo report of the shards' own: each spec once,
// from the shard that ran it (the others left it out or skipped it), the
// suite's nodes of every shard, and the bundles' new places.
func mergeReports(ins []input, outDir string) (types.Report, results.Specs, error) {
	type ran struct {
		shard Shard
		index int
	}
	var merged types.Report
	var specs []types.SpecReport
	ranIn := map[string]ran{}
	skippedOnly := map[string]types.SpecReport{}
	var skippedOrder []string
	for i, in := range ins {
		path := filepath.Join(in.dir, JSONReport)
		data, err := os.ReadFile(path)
		if err != nil {
			return types.Report{}, results.Specs{}, err
		}
		var reports []types.Report
		if err := json.Unmarshal(data, &reports); err != nil {
			return types.Report{}, results.Specs{}, fmt.Errorf("%s is not a Ginkgo JSON report: %w", path, err)
		}
		if len(reports) != 1 {
			return types.Report{}, results.Specs{}, fmt.Errorf("%s holds %d suites; a shard runs the one e2e suite", path, len(reports))
		}
		r := reports[0]
		if i == 0 {
			merged = r
			merged.SpecReports, merged.SpecialSuiteFailureReasons = nil, nil
			merged.PreRunStats = types.PreRunStats{}
		} else if r.SuiteDescription != merged.SuiteDescription {
			return types.Report{}, results.Specs{}, fmt.Errorf("%s is the suite %q, %s the suite %q", ins[0].dir, merged.SuiteDescription, in.dir, r.SuiteDescription)
		}
		if r.StartTime.Before(merged.StartTime) {
			merged.StartTime = r.StartTime
		}
		if r.EndTime.After(merged.EndTime) {
			merged.EndTime = r.EndTime
		}
		merged.SuiteSucceeded = merged.SuiteSucceeded && r.SuiteSucceeded
		for _, why := range r.SpecialSuiteFailureReasons {
			merged.SpecialSuiteFailureReasons = append(merged.SpecialSuiteFailureReasons, "shard "+in.shard.String()+": "+why)
		}
		merged.PreRunStats.SpecsThatWillRun += r.PreRunStats.SpecsThatWillRun
		for _, s := range r.SpecReports {
			s.ReportEntries = results.MoveBundles(s.ReportEntries, outDir)
			if s.LeafNodeType != types.NodeTypeIt {
				// Every shard ran the suite's own nodes: each keeps its shard's name.
				s.LeafNodeText = strings.TrimSpace(s.LeafNodeText + " (shard " + in.shard.String() + ")")
				specs = append(specs, s)
				continue
			}
			key := s.FullText()
			if s.State.Is(types.SpecStateSkipped | types.SpecStatePending) {
				if _, seen := skippedOnly[key]; !seen {
					skippedOnly[key] = s
					skippedOrder = append(skippedOrder, key)
				}
				continue
			}
			if prev, dup := ranIn[key]; dup && prev.shard != in.shard {
				return types.Report{}, results.Specs{}, fmt.Errorf("the spec %q ran in shard %s and in shard %s: the shards were not cut from one spec tree", key, prev.shard, in.shard)
			}
			ranIn[key] = ran{in.shard, len(specs)}
			specs = append(specs, s)
		}
	}
	for _, key := range skippedOrder {
		if _, ran := ranIn[key]; !ran {
			specs = append(specs, skippedOnly[key])
		}
	}
	merged.SpecReports = specs
	merged.RunTime = merged.EndTime.Sub(merged.StartTime)
	its := 0
	for _, s := range specs {
		if s.LeafNodeType == types.NodeTypeIt {
			its++
		}
	}
	merged.PreRunStats.TotalSpecs = its
	return merged, results.Tally(merged), nil
}
