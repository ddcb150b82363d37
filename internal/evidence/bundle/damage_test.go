package bundle

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// seeds are real bundles the suite wrote (make e2e, 2026-12-06: dialogs,
// popups and replays, a dialogue, direct requests, an attack, a sign-in,
// reviews, probe reads, a cross-site frame's tools, a human step), with
// what the judge reads: no pictures, no page, no HAR. Their manifests are
// sealed again over the files kept.
func seeds(t testing.TB) map[string]map[string][]byte {
	t.Helper()
	dirs, err := filepath.Glob("testdata/bundles/*")
	if err != nil || len(dirs) < 8 {
		t.Fatalf("seed bundles: %v (%d)", err, len(dirs))
	}
	out := map[string]map[string][]byte{}
	for _, dir := range dirs {
		files, err := readFiles(dir)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(dir)] = reseal(t, files)
	}
	return out
}

// reseal writes the manifest again over the files there are: damage as an
// adversary with write access makes it, past the hashes.
func reseal(t testing.TB, files map[string][]byte) map[string][]byte {
	t.Helper()
	var m Manifest
	if err := json.Unmarshal(files[ManifestFile], &m); err != nil {
		t.Fatalf("a seed's manifest: %v", err)
	}
	m.Files = map[string]string{}
	for name, data := range files {
		if name != ManifestFile {
			m.Files[name] = sha256Hex(data)
		}
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	out := maps.Clone(files)
	out[ManifestFile] = data
	return out
}

// records are the files that hold one record (an object); the others hold
// lists or maps, which the writer spells null when empty.
var recordFiles = []string{ManifestFile, ScenarioFile, RunFile, CatalogFile}

// judged are the files the judge reads, beside the manifest.
var judged = []string{ScenarioFile, RunFile, CatalogFile, TraceFile, StateFile, UIFile, ConsoleFile, RequestsFile, JournalFile}

func TestTheSeedsRead(t *testing.T) {
	for id, files := range seeds(t) {
		if _, err := fromFiles(files); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
}

// The acceptance of issue 43.9: a bundle damaged in its indices, types,
// nulls, length or depth, resealed, is damaged (the command's exit 2), and
// its problem names the file (and the field, where there is one).
func TestADamagedBundleIsAnErrorNamingItsFile(t *testing.T) {
	all := seeds(t)
	type harm struct {
		name, file, field string
		do                func(data []byte) []byte
	}
	var harms []harm
	for _, file := range append([]string{ManifestFile}, judged...) {
		if slices.Contains(recordFiles, file) {
			harms = append(harms, harm{"null", file, "", func([]byte) []byte { return []byte("null") }})
		}
		harms = append(harms,
			harm{"truncated", file, "", func(d []byte) []byte { return d[:len(d)/2] }},
			harm{"deeper than the bound", file, "", func([]byte) []byte {
				return []byte(strings.Repeat("[", 20000) + strings.Repeat("]", 20000))
			}},
			harm{"of another type", file, "", func([]byte) []byte { return []byte(`"a string"`) }},
		)
	}
	harms = append(harms,
		harm{"a call at index -1", RunFile, "calls[0].index", setJSON("calls.0.index", -1)},
		harm{"a call at an index its phase lacks", RunFile, "calls[0].index", setJSON("calls.0.index", 1<<30)},
		harm{"a call index of another type", RunFile, "calls.CallRecord.index", setJSON("calls.0.index", "first")},
		harm{"a call in no phase", RunFile, "calls[0].phase", setJSON("calls.0.phase", "lunch")},
		harm{"capture of another type", RunFile, "capture", setJSON("capture", "all")},
		harm{"a mark below zero", RunFile, "marks.agent.trace", setJSON("marks.agent.trace", -3)},
	)
	for _, h := range harms {
		t.Run(h.file+" "+h.name, func(t *testing.T) {
			files := all["CONF-01.attempt-2"]
			data, ok := files[h.file]
			if !ok {
				t.Skipf("the seed has no %s", h.file)
			}
			damaged := maps.Clone(files)
			damaged[h.file] = h.do(data)
			if h.file != ManifestFile {
				damaged = reseal(t, damaged)
			}
			rep := verifyFiles("b", damaged)
			if !rep.Damaged || rep.OK {
				t.Fatalf("not damaged: %+v", rep)
			}
			named := slices.ContainsFunc(rep.Problems, func(p Problem) bool {
				return p.File == h.file && strings.HasPrefix(p.Problem, h.field)
			})
			if !named {
				t.Errorf("no problem names %s %s: %+v", h.file, h.field, rep.Problems)
			}
		})
	}
}

// setJSON answers a harm that sets the value at a dotted path (an array's
// element by its number) in a JSON document.
func setJSON(path string, v any) func([]byte) []byte {
	return func(data []byte) []byte {
		var doc any
		if err := json.Unmarshal(data, &doc); err != nil {
			panic(err)
		}
		keys := strings.Split(path, ".")
		at := doc
		for i, k := range keys {
			last := i == len(keys)-1
			switch node := at.(type) {
			case map[string]any:
				if last {
					node[k] = v
				}
				at = node[k]
			case []any:
				var n int
				fmt.Sscan(k, &n)
				if last {
					node[n] = v
				}
				at = node[n]
			default:
				panic(fmt.Sprintf("no %s in the document", path))
			}
		}
		out, _ := json.Marshal(doc)
		return out
	}
}

// Every value of every file the judge reads, damaged one at a time in
// each way (a number below zero and past any length, null, a value of
// another type, an empty one, a word no one knows), is read and judged, or
// refused as damage: never a panic.
func TestEveryValueDamagedNeverPanics(t *testing.T) {
	if testing.Short() {
		t.Skip("walks every value of every seed")
	}
	all := seeds(t)
	ids := slices.Sorted(maps.Keys(all))
	tried := 0
	for _, id := range ids {
		for _, file := range judged {
			data, ok := all[id][file]
			if !ok {
				continue
			}
			var doc any
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			every := sampled[file]
			seen := 0
			walk(doc, "", func(path string, set func(any)) {
				if seen++; every > 1 && seen%every != 0 {
					return
				}
				for _, v := range harmful {
					set(v)
					out, _ := json.Marshal(doc)
					set(nil) // undone by the caller's restore below
					files := maps.Clone(all[id])
					files[file] = out
					tried++
					func() {
						defer func() {
							if r := recover(); r != nil {
								t.Errorf("%s %s %s = %v: panic: %v", id, file, path, v, r)
							}
						}()
						verifyFiles(id, reseal(t, files))
					}()
				}
			})
		}
	}
	t.Logf("%d damaged bundles read and judged", tried)
}

// sampled: each file is walked one value in so many, the same ones every
// run (the ten seeds put a field at different places, so what one skips
// another takes), to keep the unit run (with -race) near 20 s. AGENTREADY_WALK_ALL=1 walks
// every value (42 819 bundles, about two minutes without -race; done for
// issue 43: no panic).
var sampled = func() map[string]int {
	if os.Getenv("AGENTREADY_WALK_ALL") != "" {
		return nil
	}
	return map[string]int{ScenarioFile: 3, RunFile: 11, CatalogFile: 5, TraceFile: 97, RequestsFile: 97, JournalFile: 97, StateFile: 13, UIFile: 13, ConsoleFile: 13}
}()

var harmful = []any{-1, 1 << 40, nil, "x", map[string]any{}, []any{}, true}

// walk calls visit for every value in doc with a setter; it restores each
// value after visiting it.
func walk(node any, path string, visit func(path string, set func(any))) {
	switch n := node.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(n)) {
			old := n[k]
			visit(path+"."+k, func(v any) {
				if v == nil {
					n[k] = nil
				} else {
					n[k] = v
				}
			})
			n[k] = old
			walk(old, path+"."+k, visit)
		}
	case []any:
		for i := range n {
			old := n[i]
			visit(fmt.Sprintf("%s[%d]", path, i), func(v any) { n[i] = v })
			n[i] = old
			walk(old, fmt.Sprintf("%s[%d]", path, i), visit)
		}
	}
}

// FuzzVerify: any bytes in place of any file the judge reads, the manifest
// sealed over them, are read and judged or refused as damage, never a
// panic. Seeded with every file of every seed; run it with
// go test -fuzz FuzzVerify ./internal/evidence/bundle.
func FuzzVerify(f *testing.F) {
	all := seeds(f)
	ids := slices.Sorted(maps.Keys(all))
	for i, id := range ids {
		for k, file := range judged {
			if data, ok := all[id][file]; ok {
				f.Add(uint8(i), uint8(k), data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, seed, file uint8, data []byte) {
		files := maps.Clone(all[ids[int(seed)%len(ids)]])
		files[judged[int(file)%len(judged)]] = data
		rep := verifyFiles("fuzzed", reseal(t, files))
		if !rep.OK && len(rep.Problems) == 0 {
			t.Fatalf("not verified, and no problem named: %+v", rep)
		}
	})
}

// A file cut short and not sealed again (a copy that stopped) is changed
// and damaged in one problem of its own file: the hash and the reading
// name one file once, and verify's exit is still 2.
func TestATruncatedFileIsOneProblemOfItsFile(t *testing.T) {
	files := maps.Clone(seeds(t)["CONF-01.attempt-2"])
	files[RunFile] = files[RunFile][:len(files[RunFile])/2]
	rep := verifyFiles("b", files)
	if !rep.Damaged || len(rep.Problems) != 1 || rep.Problems[0].File != RunFile ||
		!strings.HasPrefix(rep.Problems[0].Problem, "changed: ") || !strings.Contains(rep.Problems[0].Problem, "; and it does not read: ") {
		t.Errorf("want one problem of %s, changed and unreadable: %+v", RunFile, rep)
	}
}

// A journal mark of -1 is what the runner writes when its journal read
// failed at the mark: the record says so, and is no damage.
func TestAJournalReadThatFailedAtAMarkIsNoDamage(t *testing.T) {
	files := reseal(t, func() map[string][]byte {
		f := maps.Clone(seeds(t)["CONF-01.attempt-2"])
		f[RunFile] = setJSON("marks.human.journal", -1)(f[RunFile])
		return f
	}())
	if rep := verifyFiles("b", files); rep.Damaged {
		t.Errorf("a failed journal read at a mark is read as damage: %+v", rep.Problems)
	}
}
