package bundle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/judge/judgetest"
	"github.com/agentready/agentready/scenarios/vocab"
)

// records are the hand-made records these tests write as bundles: the
// known-good ones and every known-bad one.
func records() map[string]func(testing.TB) (scenarios.Scenario, *scenarios.Evidence) {
	out := map[string]func(testing.TB) (scenarios.Scenario, *scenarios.Evidence){
		"CONF-01": judgetest.Conf01, "CONF-01 content": judgetest.Conf01Content, "confirm": judgetest.Confirm}
	for _, c := range judgetest.KnownBad() {
		out[c.Name] = c.Make
	}
	return out
}

// asJSON is a value as JSON documents compare: key order and spacing aside.
func asJSON(t *testing.T, v any) any {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// What a bundle's files give back is the record they were written from,
// every value of it, though each fact is stored once.
func TestTheFilesGiveBackTheRecord(t *testing.T) {
	for name, make := range records() {
		t.Run(name, func(t *testing.T) {
			sc, ev := make(t)
			back, err := throughFiles(Bundle{Scenario: sc, Evidence: ev})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := asJSON(t, back.Evidence), asJSON(t, ev); !reflect.DeepEqual(got, want) {
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(want)
				t.Errorf("the record read back differs:\n%s\nwant\n%s", g, w)
			}
		})
	}
}

// A large tool output costs its size once: the call's answer, the trace's
// and the verdict's checks do not each hold it, and the page shows an
// excerpt. (The size of the bundle over the size of the output was 3.0
// before each fact was stored once.) 4 MB proves it as 20 MB did (the
// marker is counted, the ratio is the same) at a fifth of the race
// detector's 88 s; make bench-scale goes to 20 MB.
func TestALargeOutputIsStoredOnce(t *testing.T) {
	const size = 4 << 20
	sc, ev := judgetest.Conf01(t)
	// A 4 MB output: the expected fields, and a long note with a marker at its end.
	big := strings.Repeat("x", size) + "END-OF-THE-LARGE-OUTPUT"
	out, err := json.Marshal(map[string]any{"ok": false, "code": "CONFIRMATION_REQUIRED", "retryable": false, "eventId": judgetest.EventID, "note": big})
	if err != nil {
		t.Fatal(err)
	}
	ev.Calls[0].Result.Output, ev.Trace[2].Output = out, out
	b, err := Seal(Meta{RunID: "r"}, sc, ev)
	if err != nil {
		t.Fatal(err)
	}
	if b.Verdict.Outcome != vocab.Pass {
		t.Fatalf("the record should pass:\n%s", judge.Explain(b.Verdict))
	}
	dir := filepath.Join(t.TempDir(), sc.ID)
	if err := Write(dir, b, testPage); err != nil {
		t.Fatal(err)
	}
	total, holding := 0, []string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		total += len(data)
		if n := bytes.Count(data, []byte("END-OF-THE-LARGE-OUTPUT")); n > 0 {
			holding = append(holding, fmt.Sprintf("%s (%d)", e.Name(), n))
		}
	}
	if len(holding) != 1 || holding[0] != TraceFile+" (1)" {
		t.Errorf("the output is stored in %v, want once, in %s", holding, TraceFile)
	}
	ratio := float64(total) / float64(len(out))
	t.Logf("a %d-byte output makes a %d-byte bundle: %.3f times its size", len(out), total, ratio)
	if ratio > 1.05 {
		t.Errorf("the bundle is %.2f times the output's size, want about once", ratio)
	}
	if rep := Verify(dir); !rep.OK || rep.Outcome != vocab.Pass {
		t.Fatalf("verify: %+v", rep)
	}
	read, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(compact(read.Evidence.Calls[0].Result.Output), compact(json.RawMessage(out))) {
		t.Error("the call's output read back is not the output")
	}
}

// Re-judging a bundle gives its verdict.json, byte for byte, every time:
// every record written as a bundle verifies 50 times over.
func TestEveryBundleVerifies50Times(t *testing.T) {
	for name, make := range records() {
		t.Run(name, func(t *testing.T) {
			sc, ev := make(t)
			b, err := Seal(Meta{RunID: "r"}, sc, ev)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), "bundle")
			if err := Write(dir, b, testPage); err != nil {
				t.Fatal(err)
			}
			for i := range 50 {
				if rep := Verify(dir); !rep.OK || rep.Outcome != b.Verdict.Outcome {
					t.Fatalf("verify %d: %+v", i+1, rep)
				}
			}
		})
	}
}

// A bundle of the format before this one is refused with a message that
// says which it is and what to do, never read as this format; so is one
// that names no format or one unknown.
func TestAnOldFormatIsRefusedClearly(t *testing.T) {
	sc, ev := judgetest.Conf01(t)
	b, err := Seal(Meta{RunID: "r", SuiteVersion: "0.0.9"}, sc, ev)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), sc.ID)
	if err := Write(dir, b, testPage); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ format, says string }{
		{"agentready-bundle/1", "this bundle is in format agentready-bundle/1 (the layout before 2026-12"},
		{"agentready-bundle/2", "this bundle is in format agentready-bundle/2 (the layout of early 2026-12, whose scenario.json spelt the scenario's keys in camelCase"},
		{"", "the manifest names no format"},
		{"agentready-bundle/9", `this bundle is in format "agentready-bundle/9", which this agentready`},
	} {
		t.Run(tt.format, func(t *testing.T) {
			path := filepath.Join(dir, ManifestFile)
			var m map[string]any
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			m["format"] = tt.format
			if err := os.WriteFile(path, must(json.Marshal(m)), 0o644); err != nil {
				t.Fatal(err)
			}
			rep := Verify(dir)
			if rep.OK || len(rep.Problems) != 1 || rep.Problems[0].File != ManifestFile || !strings.Contains(rep.Problems[0].Problem, tt.says) {
				t.Errorf("verify: %+v, want one problem of %s saying %q", rep, ManifestFile, tt.says)
			}
			if tt.format == "agentready-bundle/1" && !strings.Contains(rep.Problems[0].Problem, "written by agentready 0.0.9") {
				t.Errorf("the refusal does not name what wrote it: %s", rep.Problems[0].Problem)
			}
			if _, err := Read(dir); err == nil || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("read: %v, want a refusal saying %q", err, tt.says)
			}
		})
	}
}
