// Package shard splits one run of the suite among N machines and puts it
// together again. A spec or scenario belongs to shard k of N by a stable
// hash of its ID (the scenario ID for a spec made from a scenario file, the
// spec's full text for any other spec), never by Ginkgo's random order: the
// same ID lands in the same shard on every machine, in every run, whatever
// else is added. Each shard writes its own run folder with a record of
// itself (shard.json); Merge combines the folders of all N shards, bundles,
// reports and run page, into one run folder that verifies like any other.
package shard

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agentready/agentready/internal/reporters/results"
)

// Env names the shard a Ginkgo run is (k/N); make sets it from SHARD.
const Env = "AGENTREADY_SHARD"

// OtherShard is the label the e2e framework gives, when the spec tree is
// built, to each suite spec that belongs to another shard, so that
// --label-filter='!other-shard' leaves it out.
const OtherShard = "other-shard"

// Shard is part K of N; the zero Shard is the whole run.
type Shard struct{ K, N int }

// Parse reads "k/N" (1 ≤ k ≤ N); "" is the whole run.
func Parse(s string) (Shard, error) {
	if strings.TrimSpace(s) == "" {
		return Shard{}, nil
	}
	ks, ns, ok := strings.Cut(strings.TrimSpace(s), "/")
	k, errK := strconv.Atoi(ks)
	n, errN := strconv.Atoi(ns)
	switch {
	case !ok || errK != nil || errN != nil:
		return Shard{}, fmt.Errorf("shard %q is not k/N (e.g. 1/2: the first of two shards)", s)
	case n < 1 || k < 1 || k > n:
		return Shard{}, fmt.Errorf("shard %q: k must be 1 to N and N at least 1 (e.g. 1/2 and 2/2)", s)
	}
	return Shard{K: k, N: n}, nil
}

// FromEnv reads AGENTREADY_SHARD.
func FromEnv() (Shard, error) {
	s, err := Parse(os.Getenv(Env))
	if err != nil {
		return Shard{}, fmt.Errorf("%s: %w", Env, err)
	}
	return s, nil
}

// On tells whether the run is split at all.
func (s Shard) On() bool { return s.N > 0 }

// String is "k/N" ("" for the whole run).
func (s Shard) String() string {
	if !s.On() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// Tag is "k-of-N", as run folders and report files are named.
func (s Shard) Tag() string {
	if !s.On() {
		return ""
	}
	return fmt.Sprintf("%d-of-%d", s.K, s.N)
}

// Of is the shard (1 to n) an ID belongs to: the first 8 bytes of its
// SHA-256, modulo n. SHA-256 rather than Go's map hash or FNV because it is
// the same in every language a CI script might compute it in.
func Of(id string, n int) int {
	if n <= 1 {
		return 1
	}
	sum := sha256.Sum256([]byte(id))
	return int(binary.BigEndian.Uint64(sum[:8])%uint64(n)) + 1
}

// Has tells whether the ID is this shard's; every ID is the whole run's.
func (s Shard) Has(id string) bool { return !s.On() || Of(id, s.N) == s.K }

// RunID is the run folder's name for a shard of the run base: "base.k-of-N"
// (base itself for the whole run, and when it already ends so).
func RunID(base string, s Shard) string {
	if !s.On() || strings.HasSuffix(base, "."+s.Tag()) {
		return base
	}
	return base + "." + s.Tag()
}

// Base is the run a shard's run ID belongs to: "X" for "X.k-of-N".
func Base(runID string, s Shard) string { return strings.TrimSuffix(runID, "."+s.Tag()) }

// File is a shard's record in its run folder.
const File = "shard.json"

// Format names the record's layout.
const Format = "agentready-shard/2" // 2: the rows are results.Row

// Kinds of runs a shard comes from: the two cover different specs, so
// shards of both kinds never merge.
const (
	KindGinkgo = "make e2e" // the Ginkgo suite: scenario specs and the suite's own
	KindRun    = "agentready run"
)

// Record is shard.json: which shard of which run this folder is, and the
// row of each bundle it holds (package results' model of a run).
type Record struct {
	Format  string        `json:"format"`
	Shard   string        `json:"shard"` // k/N
	Run     string        `json:"run"`   // the run the shards make up together
	RunID   string        `json:"runId"` // this shard's own run (its folder's name)
	Kind    string        `json:"kind"`
	BaseURL string        `json:"baseUrl,omitempty"` // the user's app; "" for the embedded one
	Rows    []results.Row `json:"rows"`
}

// WriteRecord writes shard.json into a shard's run folder (made if need be).
func WriteRecord(dir string, s Shard, kind, baseURL string, rows []results.Row) error {
	if !s.On() {
		return errors.New("shard.WriteRecord: the whole run is no shard")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	runID := filepath.Base(dir)
	rec := Record{Format: Format, Shard: s.String(), Run: Base(runID, s), RunID: runID, Kind: kind, BaseURL: baseURL, Rows: rows}
	if rec.Rows == nil {
		rec.Rows = []results.Row{}
	}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, File), append(data, '\n'), 0o644)
}

// ReadRecord reads a shard's run folder's record.
func ReadRecord(dir string) (Record, Shard, error) {
	data, err := os.ReadFile(filepath.Join(dir, File))
	if errors.Is(err, os.ErrNotExist) {
		return Record{}, Shard{}, fmt.Errorf("%s is not a shard's run folder (no %s): only runs made with SHARD=k/N or --shard k/N merge", dir, File)
	}
	if err != nil {
		return Record{}, Shard{}, err
	}
	var rec Record
	if err := json.Unmarshal(data, &rec); err != nil {
		return Record{}, Shard{}, fmt.Errorf("%s: %w", filepath.Join(dir, File), err)
	}
	if rec.Format != Format {
		return Record{}, Shard{}, fmt.Errorf("%s: format %q, want %q", filepath.Join(dir, File), rec.Format, Format)
	}
	s, err := Parse(rec.Shard)
	if err != nil || !s.On() {
		return Record{}, Shard{}, fmt.Errorf("%s: %v", filepath.Join(dir, File), cmpErr(err, "no shard"))
	}
	return rec, s, nil
}

func cmpErr(err error, msg string) error {
	if err != nil {
		return err
	}
	return errors.New(msg)
}
