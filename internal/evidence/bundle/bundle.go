// Package bundle owns the evidence bundle: one self-contained folder per
// scenario run. It seals a record (redacted, judged), stores each fact of
// it once, writes it with a manifest of hashes, reads it back, and
// verifies it offline (hashes, then the judge again, to the same bytes).
// The page a person reads (index.html) is package report's, which imports
// this one: Write takes it rendered.
package bundle

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/evidence/redact"
	"github.com/agentready/agentready/netlog/har"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

// Format names the bundle layout; verify refuses others, saying which.
// Format 2 (2026-12) stores each fact once (once.go), each check names its
// evidence, and run.json says when a run was cut short. Format 3 writes
// scenario.json with the scenario file's own keys (prompt_data, not
// promptData; request: "METHOD /path"), so that it can be pasted back into a
// file; a format 2 scenario.json is refused, never read with the wrong keys.
const Format = "agentready-bundle/3"

// Files of a bundle. The optional ones are absent when their source was not
// recorded, and the judge then calls that source missing.
const (
	ManifestFile   = "manifest.json"
	ScenarioFile   = "scenario.json"
	RunFile        = "run.json"
	CatalogFile    = "catalog.json"
	TraceFile      = "trace.json"
	RequestsFile   = "requests.json" // optional: network capture
	HARFile        = "network.har"   // optional: network capture
	JournalFile    = "journal.json"  // optional: observer
	StateFile      = "state.json"
	UIFile         = "ui.json"
	ConsoleFile    = "console.json"
	VerdictFile    = "verdict.json"
	ScreenshotFile = "screenshot.png" // optional
	FailureFile    = "failure.png"    // optional: taken when the spec failed
	IndexFile      = "index.html"
	ModelFile      = "model.json" // optional: the exchanges of a model that played the agent
)

// FrameFile names the picture of the page taken at a phase's mark
// (optional; the report's filmstrip).
func FrameFile(p vocab.Phase) string { return "frame-" + string(p) + ".jpg" }

// Meta is what the manifest says about the run.
type Meta struct {
	Format       string    `json:"format"`
	ScenarioID   string    `json:"scenarioId"`
	RunID        string    `json:"runId"`
	Start        time.Time `json:"start"`
	End          time.Time `json:"end"`
	SuiteVersion string    `json:"suiteVersion"`
	SuiteCommit  string    `json:"suiteCommit,omitempty"`
	Chromium     string    `json:"chromium,omitempty"`
	Protocol     string    `json:"protocol,omitempty"`
	Features     []string  `json:"features,omitempty"` // the browser's feature switches (the WebMCP ones among them)
	WebMCP       string    `json:"webmcp,omitempty"`   // what the preflight saw of the page API
	// ExecuteToolInput is how this browser's executeTool took the run's
	// inputs: "object" (Chromium 156), "json-string" (the API's first
	// shape); "" when no call went through the page API.
	ExecuteToolInput string   `json:"executeToolInput,omitempty"`
	Variant          string   `json:"variant,omitempty"`
	BaseURL          string   `json:"baseUrl"`
	Redacted         []string `json:"redacted"` // the stand-ins used, by kind ("email: …"), never the values
	// RawVerdict is the raw record's outcome and codes: the bundle's
	// verdict must be the same (redact.go).
	RawVerdict *VerdictSummary `json:"rawVerdict,omitempty"`
}

// Manifest is manifest.json: the meta and a SHA-256 of every other file.
type Manifest struct {
	Meta
	Files map[string]string `json:"files"`
}

// Bundle is one recorded, judged run.
type Bundle struct {
	Meta       Meta
	Scenario   scenarios.Scenario
	Evidence   *scenarios.Evidence
	Verdict    judge.Verdict
	Screenshot []byte
	Failure    []byte
	Frames     []Frame // pictures at the phase marks, in order
}

// Frame is a JPEG of the page taken at a phase's mark. It is for people
// (the report's filmstrip): the judge reads none.
type Frame struct {
	Phase vocab.Phase
	Image []byte
}

// run is run.json: the parts of the evidence that are not a source of their own.
type run struct {
	ScenarioID string                         `json:"scenarioId"`
	Env        scenarios.Env                  `json:"env"`
	Capture    json.RawMessage                `json:"capture"`
	Calls      []callFile                     `json:"calls"`
	Marks      map[vocab.Phase]scenarios.Mark `json:"marks"`
	Final      *string                        `json:"final"`
	// FinalInScenario: the final words are the scenario's (a transcript's),
	// stored in scenario.json; Final is then left out.
	FinalInScenario bool                      `json:"finalInScenario,omitempty"`
	Cut             vocab.Code                `json:"cut,omitempty"`
	Faults          []scenarios.Fault         `json:"faults,omitempty"`
	Unmet           []string                  `json:"unmet,omitempty"`
	ProbeReads      []scenarios.ProbeRead     `json:"probeReads,omitempty"`
	PageToolsHung   []string                  `json:"pageToolsHung,omitempty"`
	Windows         []scenarios.Window        `json:"windows,omitempty"`
	ClockNotWaited  []record.NotWaited        `json:"clockNotWaited,omitempty"`
	Leave           *scenarios.Leave          `json:"leave,omitempty"`
	Direct          []scenarios.DirectRecord  `json:"direct,omitempty"`
	Pages           map[vocab.Phase]string    `json:"pages,omitempty"`
	Reviews         []scenarios.Review        `json:"reviews,omitempty"`
	AppOutput       []string                  `json:"appOutput,omitempty"`
	CatalogSettles  []scenarios.CatalogSettle `json:"catalogSettles,omitempty"`
	Dialogs         []record.Dialog           `json:"dialogs,omitempty"`
	Dialogue        []scenarios.Turn          `json:"dialogue,omitempty"`
	Replays         *scenarios.Replays        `json:"replays,omitempty"`
	// Attack is the attack the harness planted, its text and the calls'
	// marks; when each planting happened is in the trace (attack_planted).
	Attack *scenarios.PlantedAttack `json:"attack,omitempty"`
	SignIn *scenarios.SignInRecord  `json:"signIn,omitempty"`
	Popups []record.Popup           `json:"popups,omitempty"`
}

type catalogFile struct {
	Catalog record.Catalog `json:"catalog"`
	// FromTrace: the catalog is the tools the first FromTrace events of the
	// trace registered (record.CatalogAt), stored there; Catalog is then
	// left out.
	FromTrace *int              `json:"fromTrace,omitempty"`
	PageTools []record.PageTool `json:"pageTools"`
	// Exposure is what the top document's getTools({fromOrigins}) listed
	// of cross-origin frames' tools, read with the catalog.
	Exposure []record.Exposure `json:"exposure,omitempty"`
}

// Seal redacts the record and judges it: what a bundle holds, and what
// verify will reach again from the files alone. The verdict is the judge's
// answer on the redacted record, held to the raw record's (redact.go).
func Seal(meta Meta, sc scenarios.Scenario, ev *scenarios.Evidence) (Bundle, error) {
	return seal(meta, sc, ev)
}

func seal(meta Meta, sc scenarios.Scenario, ev *scenarios.Evidence, opts ...redact.Option) (Bundle, error) {
	red, rsc, rev, err := redactRecord(sc, ev, opts...)
	if err != nil {
		return Bundle{}, err
	}
	meta.Format = Format
	meta.ScenarioID = sc.ID
	meta.Redacted = placeholderList(red)
	b := Bundle{Meta: meta, Scenario: rsc, Evidence: rev}
	// Judge exactly what verify will read back.
	back, err := throughFiles(b)
	if err != nil {
		return Bundle{}, err
	}
	b.Scenario, b.Evidence = back.Scenario, back.Evidence
	b.Verdict = judge.Judge(b.Scenario, b.Evidence)
	return keepVerdict(b, judge.Judge(sc, ev), red, sc, ev)
}

func sameVerdict(a, b judge.Verdict) bool {
	return a.Outcome == b.Outcome && slices.Equal(a.Codes, b.Codes)
}

// throughFiles answers the scenario and evidence as a bundle's files give
// them back.
func throughFiles(b Bundle) (Bundle, error) {
	files, err := b.sourceFiles()
	if err != nil {
		return Bundle{}, err
	}
	return fromFiles(files)
}

func marshal(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// MarshalVerdict is verdict.json's exact bytes.
func MarshalVerdict(v judge.Verdict) ([]byte, error) { return marshal(v) }

// sourceFiles are the files the judge reads, by name.
func (b Bundle) sourceFiles() (map[string][]byte, error) {
	ev := b.Evidence
	capture, _ := json.Marshal(ev.Capture)
	r := run{ScenarioID: ev.ScenarioID, Env: ev.Env, Capture: capture, Calls: storeCalls(b.Scenario, ev), Marks: ev.Marks, Final: ev.Final, Cut: ev.Cut, Faults: ev.Faults,
		Unmet: ev.Unmet, ProbeReads: ev.ProbeReads, PageToolsHung: ev.PageToolsHung, Windows: ev.Windows, ClockNotWaited: ev.ClockNotWaited, Leave: ev.Leave, Direct: ev.Direct, Pages: ev.Pages, Reviews: ev.Reviews, AppOutput: ev.AppOutput,
		CatalogSettles: ev.CatalogSettles, Dialogs: ev.Dialogs, Dialogue: ev.Dialogue, Replays: ev.Replays, Attack: ev.Attack, SignIn: ev.SignIn, Popups: ev.Popups}
	if ev.Calls == nil {
		r.Calls = nil
	}
	if ev.Final != nil && b.Scenario.Agent.Final != nil && *ev.Final == *b.Scenario.Agent.Final {
		r.Final, r.FinalInScenario = nil, true
	}
	cat := catalogFile{Catalog: ev.Catalog, PageTools: ev.PageTools, Exposure: ev.Exposure}
	if n := catalogFromTrace(ev); n != nil {
		cat.Catalog, cat.FromTrace = nil, n
	}
	parts := map[string]any{
		ScenarioFile: b.Scenario,
		RunFile:      r,
		CatalogFile:  cat,
		TraceFile:    ev.Trace,
		StateFile:    ev.States,
		UIFile:       ev.UI,
		ConsoleFile:  ev.Console,
	}
	if ev.Requests != nil {
		parts[RequestsFile] = ev.Requests
	}
	if ev.Journal != nil {
		parts[JournalFile] = ev.Journal
	}
	if len(ev.Model) > 0 {
		parts[ModelFile] = ev.Model
	}
	files := map[string][]byte{}
	for name, v := range parts {
		data, err := marshal(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		files[name] = data
	}
	return files, nil
}

// fromFiles reassembles the scenario and the evidence from a bundle's files.
func fromFiles(files map[string][]byte) (Bundle, error) {
	var b Bundle
	var r run
	var cat catalogFile
	ev := &scenarios.Evidence{}
	decode := func(name string, dst any, required bool) error { return decodeFile(files, name, dst, required) }
	var requests record.Log
	var journal record.Journal
	var states map[vocab.Phase]*record.Snapshot
	var ui map[vocab.Phase][]record.Element
	err := errors.Join(
		decode(ScenarioFile, &b.Scenario, true),
		decode(RunFile, &r, true),
		decode(CatalogFile, &cat, true),
		decode(TraceFile, &ev.Trace, true),
		decode(StateFile, &states, true),
		decode(UIFile, &ui, true),
		decode(ConsoleFile, &ev.Console, true),
		decode(RequestsFile, &requests, false),
		decode(JournalFile, &journal, false),
		decode(ModelFile, &ev.Model, false),
	)
	if err != nil {
		return Bundle{}, err
	}
	calls, err := restoreCalls(b.Scenario, ev.Trace, r.Calls)
	if fe := (scenarios.FieldError{}); errors.As(err, &fe) {
		return Bundle{}, &DamageError{File: RunFile, Field: fe.Field, Err: errors.New(fe.Problem)}
	} else if err != nil {
		return Bundle{}, &DamageError{File: RunFile, Field: "calls", Err: err}
	}
	ev.ScenarioID, ev.Env, ev.Calls, ev.Marks, ev.Final, ev.Cut, ev.Faults, ev.Unmet = r.ScenarioID, r.Env, calls, r.Marks, r.Final, r.Cut, r.Faults, r.Unmet
	ev.AppOutput, ev.CatalogSettles = r.AppOutput, r.CatalogSettles
	if len(ev.Model) > 0 { // kept compact, as recorded
		var c bytes.Buffer
		if err := json.Compact(&c, ev.Model); err == nil {
			ev.Model = c.Bytes()
		}
	}
	ev.Dialogs, ev.Dialogue, ev.Attack, ev.Popups = r.Dialogs, r.Dialogue, r.Attack, r.Popups
	ev.Replays, ev.SignIn = r.Replays, r.SignIn
	if r.FinalInScenario {
		if b.Scenario.Agent.Final == nil {
			return Bundle{}, damage(RunFile, "finalInScenario", "takes the final words from the scenario, which has none")
		}
		final := *b.Scenario.Agent.Final
		ev.Final = &final
	}
	ev.ProbeReads, ev.Windows, ev.Direct, ev.Pages, ev.Reviews = r.ProbeReads, r.Windows, r.Direct, r.Pages, r.Reviews
	ev.PageToolsHung, ev.ClockNotWaited = r.PageToolsHung, r.ClockNotWaited
	ev.Leave = r.Leave
	if err := decodeFile(map[string][]byte{RunFile: r.Capture}, RunFile, &ev.Capture, true); err != nil {
		// A capture that does not read would turn every source off in
		// silence: every absence would then read as "not recorded".
		err.(*DamageError).Field = "capture" + dotted(err.(*DamageError).Field)
		return Bundle{}, err
	}
	ev.Catalog, ev.PageTools, ev.Exposure = cat.Catalog, cat.PageTools, cat.Exposure
	if n := cat.FromTrace; n != nil {
		if *n < 0 || *n > len(ev.Trace) {
			return Bundle{}, damage(CatalogFile, "fromTrace", "the catalog is the trace's first %d events, of %d", *n, len(ev.Trace))
		}
		ev.Catalog = record.CatalogAt(ev.Trace, *n)
	}
	ev.States, ev.UI = states, ui
	if errs := ev.Check(b.Scenario); len(errs) > 0 {
		var all []error
		for _, e := range errs {
			all = append(all, &DamageError{File: fileOf(e.Field), Field: e.Field, Err: errors.New(e.Problem)})
		}
		return Bundle{}, errors.Join(all...)
	}
	if _, ok := files[RequestsFile]; ok {
		ev.Requests = requests
		if ev.Requests == nil {
			ev.Requests = record.Log{}
		}
	}
	if _, ok := files[JournalFile]; ok {
		ev.Journal = journal
		if ev.Journal == nil {
			ev.Journal = record.Journal{}
		}
	}
	// A source whose file is gone was not recorded, whatever run.json says.
	ev.Capture.Network = ev.Capture.Network && ev.Requests != nil
	ev.Capture.Observer = ev.Capture.Observer && ev.Journal != nil
	b.Evidence = ev
	return b, nil
}

// Write writes the bundle into dir (made anew), index (its rendered page,
// report.HTML) as index.html: every file to a temporary name first, the
// whole folder under a temporary name, renamed at the end, so that a crash
// never leaves a bundle that looks whole. The page is the caller's so that
// the bundle does not import its own renderer (report.Write does both).
func Write(dir string, b Bundle, index []byte) error {
	if len(index) == 0 {
		return errors.New("bundle.Write: no index page (render it with report.HTML, or use report.Write)")
	}
	files, err := b.sourceFiles()
	if err != nil {
		return err
	}
	if files[VerdictFile], err = MarshalVerdict(b.Verdict); err != nil {
		return err
	}
	if b.Evidence.Requests != nil {
		har, err := har.HAR(b.Evidence.Requests, har.HARInfo{Creator: "agentready", CreatorVersion: b.Meta.SuiteVersion, Browser: "Chromium", BrowserVersion: b.Meta.Chromium})
		if err != nil {
			return err
		}
		files[HARFile] = append(har, '\n')
	}
	if len(b.Screenshot) > 0 {
		files[ScreenshotFile] = b.Screenshot
	}
	if len(b.Failure) > 0 {
		files[FailureFile] = b.Failure
	}
	for _, f := range b.Frames {
		if len(f.Image) > 0 {
			files[FrameFile(f.Phase)] = f.Image
		}
	}
	files[IndexFile] = index
	m := Manifest{Meta: b.Meta, Files: map[string]string{}}
	for name, data := range files {
		m.Files[name] = sha256Hex(data)
	}
	if files[ManifestFile], err = marshal(m); err != nil {
		return err
	}

	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".partial-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := writeAtomic(filepath.Join(tmp, name), files[name]); err != nil {
			return err
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	return os.Rename(tmp, dir)
}

func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	// No fsync: a file cut short by a crash of the machine fails verify
	// (its hash), and syncing every file tripled the time of a bundle.
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// readFiles reads every regular file of a bundle folder.
func readFiles(dir string) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != dir {
				rel, _ := filepath.Rel(dir, path)
				files[rel+"/"] = nil // a folder inside a bundle is an extra file
				return fs.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files[rel] = data
		return nil
	})
	return files, err
}
