package bundle

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Problem is one reason a bundle does not verify.
type Problem struct {
	File    string `json:"file"`
	Problem string `json:"problem"`
}

// Report is what verify found for one bundle.
type Report struct {
	Bundle     string        `json:"bundle"`
	ScenarioID string        `json:"scenarioId,omitempty"`
	OK         bool          `json:"ok"`
	Outcome    vocab.Outcome `json:"outcome,omitempty"`
	// Damaged: a file of the bundle cannot be read as what it stands for
	// (not JSON, a wrong type, null where a record is due, an index that
	// points nowhere, a word the format does not have, nesting past the
	// bound): bad input, which the command answers with exit 2, rather
	// than a record that reads and judges otherwise (exit 1).
	Damaged  bool      `json:"damaged,omitempty"`
	Problems []Problem `json:"problems"`
}

// Verify checks a bundle offline: every file against the manifest's hash (a
// changed, missing or extra file is named), then the judge again on the
// recorded evidence, whose verdict must equal verdict.json byte for byte. It
// needs no browser and no network.
func Verify(dir string) Report {
	files, err := readFiles(dir)
	if err != nil {
		return Report{Bundle: dir, Problems: []Problem{{File: dir, Problem: fmt.Sprintf("cannot read the bundle: %v", err)}}}
	}
	return verifyFiles(dir, files)
}

// verifyFiles is Verify on files already read (name → bytes).
func verifyFiles(dir string, files map[string][]byte) Report {
	rep := Report{Bundle: dir, Problems: []Problem{}}
	bad := func(file, format string, args ...any) {
		rep.Problems = append(rep.Problems, Problem{File: file, Problem: fmt.Sprintf(format, args...)})
	}
	damaged := func(err error) {
		rep.Damaged = true
		var de *DamageError
		for _, e := range unjoin(err) {
			if errors.As(e, &de) {
				// One problem per file: a changed file that no longer reads
				// says both in one line.
				if i := slices.IndexFunc(rep.Problems, func(p Problem) bool { return p.File == de.File }); i >= 0 {
					rep.Problems[i].Problem += "; and it does not read: " + de.Problem()
					continue
				}
				bad(de.File, "%s", de.Problem())
			} else {
				bad(dir, "cannot read the evidence: %v", e)
			}
		}
	}
	var m Manifest
	if _, ok := files[ManifestFile]; !ok {
		// No manifest: a part of a bundle, which does not verify; its
		// files were never claimed to be a record, so nothing is damaged.
		bad(ManifestFile, "missing: this folder is no whole bundle")
		return rep
	}
	if err := decodeFile(files, ManifestFile, &m, true); err != nil {
		damaged(err)
		return rep
	}
	rep.ScenarioID = m.ScenarioID
	if err := m.formatErr(); err != nil {
		bad(ManifestFile, "%v", err)
		return rep
	}
	for _, name := range slices.Sorted(maps.Keys(m.Files)) {
		data, ok := files[name]
		switch {
		case !ok:
			bad(name, "missing (the manifest lists it)")
		case sha256Hex(data) != m.Files[name]:
			bad(name, "changed: SHA-256 %s, the manifest says %s", sha256Hex(data), m.Files[name])
		}
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if _, listed := m.Files[name]; !listed && name != ManifestFile {
			bad(name, "extra: not in the manifest")
		}
	}
	b, err := fromFiles(files)
	if err != nil {
		// Read even when a hash differs: a file that no longer reads is
		// damage, whatever else was changed.
		damaged(err)
		return rep
	}
	if len(rep.Problems) > 0 {
		return rep
	}
	if b.Scenario.ID != m.ScenarioID || b.Evidence.ScenarioID != m.ScenarioID {
		bad(ScenarioFile, "scenario %q and evidence %q do not match the manifest's %q", b.Scenario.ID, b.Evidence.ScenarioID, m.ScenarioID)
		return rep
	}
	verdict := judge.Judge(b.Scenario, b.Evidence)
	again, err := MarshalVerdict(verdict)
	if err != nil {
		bad(VerdictFile, "cannot render the verdict: %v", err)
		return rep
	}
	if !bytes.Equal(again, files[VerdictFile]) {
		why := ""
		if m.SuiteVersion != SuiteVersion || (m.SuiteCommit != "" && m.SuiteCommit != SuiteCommit()) {
			why = fmt.Sprintf(" (recorded by agentready %s %s; this is %s %s: verify with the recording's version)", m.SuiteVersion, m.SuiteCommit, SuiteVersion, SuiteCommit())
		}
		bad(VerdictFile, "judging the recorded evidence again gives %s %v, not the verdict recorded%s", verdict.Outcome, verdict.Codes, why)
		return rep
	}
	if why := redactionProblem(m, verdict); why != "" {
		bad(ManifestFile, "%s", why)
		return rep
	}
	rep.OK, rep.Outcome = true, verdict.Outcome
	return rep
}

// formats says what each format this verify knows of was: the older ones
// are named, so that their refusal says why.
var formats = map[string]string{
	"agentready-bundle/1": "the layout before 2026-12, which stored a tool's output up to three times and whose checks named no evidence",
	"agentready-bundle/2": "the layout of early 2026-12, whose scenario.json spelt the scenario's keys in camelCase (promptData) and requests as {method, path}",
}

// formatErr refuses a manifest of another format than this agentready
// writes, saying which it is and what to verify it with: an old bundle is
// never read as a new one (its files would be taken for what they are not).
func (m Manifest) formatErr() error {
	if m.Format == Format {
		return nil
	}
	by := strings.TrimSpace("agentready " + m.SuiteVersion + " " + m.SuiteCommit)
	if what, ok := formats[m.Format]; ok {
		return fmt.Errorf("this bundle is in format %s (%s), written by %s; this agentready (%s %s) reads only %s: verify it with the agentready that wrote it, or record it again",
			m.Format, what, by, SuiteVersion, SuiteCommit(), Format)
	}
	if m.Format == "" {
		return fmt.Errorf("the manifest names no format: this is no agentready bundle (this agentready reads %s)", Format)
	}
	return fmt.Errorf("this bundle is in format %q, which this agentready (%s %s) does not know (it reads %s): it was written by %s", m.Format, SuiteVersion, SuiteCommit(), Format, by)
}
