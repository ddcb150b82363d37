package bundle

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/agentready/agentready/vocab"
)

// Read loads a written bundle back as it was sealed: the meta, scenario,
// evidence, verdict and pictures. It checks no hash (Verify does): it is
// for rendering a bundle again and for the run's page.
func Read(dir string) (Bundle, error) {
	files, err := readFiles(dir)
	if err != nil {
		return Bundle{}, err
	}
	b, err := fromFiles(files)
	if err != nil {
		return Bundle{}, err
	}
	var m Manifest
	if err := json.Unmarshal(files[ManifestFile], &m); err != nil {
		return Bundle{}, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestFile), err)
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
