package bundle

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Read loads a written bundle back as it was sealed: the meta, scenario,
// evidence, verdict and pictures. It checks no hash (Verify does): it is
// for rendering a bundle again and for the run's page.
func Read(dir string) (Bundle, error) {
	files, err := readFiles(dir)
	if err != nil {
		return Bundle{}, err
	}
	var m Manifest
	if err := json.Unmarshal(files[ManifestFile], &m); err != nil {
		return Bundle{}, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestFile), err)
	}
	if err := m.formatErr(); err != nil {
		return Bundle{}, fmt.Errorf("%s: %w", dir, err)
	}
	b, err := fromFiles(files)
	if err != nil {
		return Bundle{}, err
	}
	b.Meta = m.Meta
	if err := json.Unmarshal(files[VerdictFile], &b.Verdict); err != nil {
		return Bundle{}, fmt.Errorf("%s: %w", filepath.Join(dir, VerdictFile), err)
	}
	b.Screenshot, b.Failure = files[ScreenshotFile], files[FailureFile]
	for _, p := range []vocab.Phase{vocab.PhaseAgent, vocab.PhaseHuman, vocab.PhaseEnd} {
		if img, ok := files[FrameFile(p)]; ok {
			b.Frames = append(b.Frames, Frame{Phase: p, Image: img})
		}
	}
	return b, nil
}

// Summary is what a run's page says of one bundle: its manifest's meta,
// the scenario's title and the verdict it means to reach, and the verdict.
type Summary struct {
	Meta    Meta
	Title   string
	Known   *scenarios.Known
	Verdict judge.Verdict
}

// ReadSummary reads a bundle's manifest, scenario and verdict, nothing else.
func ReadSummary(dir string) (Summary, error) {
	var s Summary
	var m Manifest
	var sc scenarios.Scenario
	for name, dst := range map[string]any{ManifestFile: &m, ScenarioFile: &sc, VerdictFile: &s.Verdict} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return Summary{}, err
		}
		if err := json.Unmarshal(data, dst); err != nil {
			return Summary{}, fmt.Errorf("%s: %w", filepath.Join(dir, name), err)
		}
	}
	s.Meta, s.Title, s.Known = m.Meta, sc.Title, sc.Known
	return s, nil
}
