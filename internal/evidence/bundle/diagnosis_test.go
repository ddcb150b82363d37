package bundle

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/judge/judgetest"
	"github.com/agentready/agentready/scenarios/vocab"
)

// The diagnosis is part of verdict.json: verify judges the bundle again to
// the same bytes, diagnosis included, and a verdict.json whose diagnosis
// was taken out (its hash made right) no longer verifies.
func TestVerifyJudgesTheDiagnosisAgain(t *testing.T) {
	sc, ev := judgetest.Confirm(t)
	sc.Expect.Requests[1].Count = 2
	b, err := Seal(Meta{RunID: "r"}, sc, ev)
	if err != nil {
		t.Fatal(err)
	}
	if b.Verdict.Diagnosis == nil || b.Verdict.Diagnosis.Link != vocab.LinkRequest ||
		!slices.Equal(b.Verdict.Diagnosis.Later, []vocab.Link{vocab.LinkServer}) {
		t.Fatalf("want the request first, the journal's count later:\n%s", judge.Explain(b.Verdict))
	}
	dir := filepath.Join(t.TempDir(), sc.ID)
	if err := Write(dir, b, testPage); err != nil {
		t.Fatal(err)
	}
	if rep := Verify(dir); !rep.OK || rep.Outcome != vocab.Fail {
		t.Fatalf("verify: %+v", rep)
	}
	data, err := os.ReadFile(filepath.Join(dir, VerdictFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"diagnosis": {`) {
		t.Fatalf("verdict.json has no diagnosis:\n%s", data)
	}
	read, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if read.Verdict.Diagnosis == nil || read.Verdict.Diagnosis.Summary != b.Verdict.Diagnosis.Summary {
		t.Errorf("read back: %+v", read.Verdict.Diagnosis)
	}
	// Without its diagnosis, the verdict is not what the evidence gives.
	v := b.Verdict
	v.Diagnosis = nil
	stripped, err := MarshalVerdict(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, VerdictFile), stripped, 0o644); err != nil {
		t.Fatal(err)
	}
	var m Manifest
	raw, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	m.Files[VerdictFile] = sha256Hex(stripped)
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), must(json.Marshal(m)), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := Verify(dir)
	if rep.OK || len(rep.Problems) != 1 || rep.Problems[0].File != VerdictFile {
		t.Errorf("a verdict without its diagnosis verified: %+v", rep)
	}
}
