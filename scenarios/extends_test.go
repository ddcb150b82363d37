package scenarios

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"go.yaml.in/yaml/v4"
)

// jsonOfTree is a tree's document as JSON.
func jsonOfTree(t *testing.T, tr *tree) []byte {
	t.Helper()
	var p problems
	b, err := json.Marshal(instanceOf(tr.root, nil, &p))
	if err != nil || !p.empty() {
		t.Fatalf("%v %v", err, p.placed(tr.file, tr))
	}
	return b
}

func sameJSONDoc(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		t.Fatalf("not JSON: %s / %s", a, b)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

// The merge of a companion into its base is RFC 7396's, as the maintained
// implementation (evanphx/json-patch, already judging content) computes
// it, for every companion of the repository.
func TestEveryCompanionMergesAsRFC7396Says(t *testing.T) {
	now := time.Date(2027, 6, 1, 9, 0, 0, 0, time.UTC)
	n := 0
	for _, p := range repositoryScenarioFiles(t) {
		data := mustRead(t, p)
		if !bytes.Contains(data, []byte("\nextends: ")) {
			continue
		}
		n++
		merged, probs := readTree(p, nil, now)
		if len(probs) > 0 {
			t.Fatal(probs)
		}
		// The two documents alone, the patch without its extends key.
		own := &tree{root: withoutKey(mustTree(t, p, data, now), ExtendsKey), file: p}
		// A companion that moves the clock moves its base's dates with it:
		// the base is read on the companion's day, as the loader reads it.
		var day *time.Time
		if clockLine.Match(data) || todayLine.Match(data) {
			d := dayOf(data, now)
			day = &d
		}
		bt, probs := readChain(filepath.Join(filepath.Dir(p), extendsValue(t, data)), nil, now, nil, day)
		if len(probs) > 0 {
			t.Fatal(probs)
		}
		base := &tree{root: bt.root, file: p}
		want, err := jsonpatch.MergePatch(jsonOfTree(t, base), jsonOfTree(t, own))
		if err != nil {
			t.Fatal(err)
		}
		if !sameJSONDoc(t, jsonOfTree(t, merged), want) {
			t.Errorf("%s: the merge is not RFC 7396's\n got %s\nwant %s", p, jsonOfTree(t, merged), want)
		}
	}
	if n < 15 {
		t.Errorf("only %d companions are patches", n)
	}
}

func mustTree(t *testing.T, file string, data []byte, now time.Time) *yamlNode {
	t.Helper()
	resolved, _, err := resolveDates(data, dayOf(data, now))
	if err != nil {
		t.Fatal(err)
	}
	return parseNode(t, resolved)
}

func extendsValue(t *testing.T, data []byte) string {
	t.Helper()
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "extends: "); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatal("no extends line")
	return ""
}

// EDIT-02's known-bad companions are patches of it, each a fraction of
// the copy it was.
func TestTheEDIT02CompanionsArePatches(t *testing.T) {
	files, _ := filepath.Glob("cases/drafts/EDIT-02.*.yaml")
	if len(files) != 6 {
		t.Fatalf("EDIT-02 has %d companions", len(files))
	}
	base, err := Load("cases/drafts/EDIT-02.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data := mustRead(t, f)
		if extendsValue(t, data) != "EDIT-02.yaml" {
			t.Errorf("%s does not extend EDIT-02.yaml", f)
		}
		if lines := bytes.Count(data, []byte("\n")); lines > 45 {
			t.Errorf("%s is %d lines: a copy, not a patch", f, lines)
		}
		sc, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		if sc.Start != base.Start || sc.Known == nil || sc.ID == base.ID {
			t.Errorf("%s: start %q, known %+v, id %s", f, sc.Start, sc.Known, sc.ID)
		}
		// The scenario as run is whole: it names no base, and scenario.json
		// can stand alone.
		b, _ := json.Marshal(sc)
		if bytes.Contains(b, []byte(`"extends"`)) || !bytes.Contains(b, []byte(`"start":"/drafts/d-webmcp-day/edit"`)) {
			t.Errorf("%s as run: %s", f, b)
		}
	}
}

func writeScenario(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const baseForPatches = `id: BASE-01
title: a base
start: /order
prompt: Order a croissant.
human:
  - click: "#place"
expect:
  writes: {human: 1}
  ui:
    human:
      - {selector: "#status", text: Placed}
known: {outcome: PASS}
`

func TestAPatchChangesRemovesAndReplaces(t *testing.T) {
	dir := t.TempDir()
	writeScenario(t, dir, "BASE-01.yaml", baseForPatches)
	p := writeScenario(t, dir, "BASE-01.bad.yaml", "extends: BASE-01.yaml\nid: BASE-01.bad\nvariant: broken\nexpect:\n  writes: {human: 0}\n  ui: null\nhuman:\n  - click: \"#other\"\nknown: {outcome: FAIL, codes: [write_attempt]}\n")
	sc, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if sc.ID != "BASE-01.bad" || sc.Title != "a base" || sc.Variant != "broken" || sc.Expect.Writes["human"] != 0 || sc.Expect.UI != nil ||
		len(sc.Human) != 1 || sc.Human[0].Click != "#other" || sc.Family != "BASE-01" || sc.File != p {
		t.Errorf("patched: %+v", sc)
	}
}

func TestAProblemOfAPatchNamesTheFileItIsIn(t *testing.T) {
	dir := t.TempDir()
	base := writeScenario(t, dir, "BASE-01.yaml", baseForPatches)
	// A typo in the patch is the patch's; what the patch leaves the base
	// holding wrongly (a person's UI with no human steps) is at the base's
	// line.
	p := writeScenario(t, dir, "BASE-01.bad.yaml", "extends: BASE-01.yaml\nid: BASE-01.bad\nvariant: broken\nhuman: null\nexpect:\n  writez: {human: 0}\n")
	_, err := Load(p)
	if err == nil {
		t.Fatal("it loaded")
	}
	for _, want := range []string{p + ":6:3: expect.writez: unknown key; did you mean writes?", base + ":10:5: expect.ui.human: the scenario has no human steps"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q:\n%v", want, err)
		}
	}
}

func TestACycleOfExtendsNamesEveryFile(t *testing.T) {
	dir := t.TempDir()
	a := writeScenario(t, dir, "A.yaml", "extends: B.yaml\nid: A\n")
	b := writeScenario(t, dir, "B.yaml", "extends: A.yaml\nid: B\n")
	_, err := Load(a)
	if err == nil || !strings.Contains(err.Error(), "a cycle of extends: "+a+" extends "+b+" extends "+a) || !strings.Contains(err.Error(), b+":1:10: extends") {
		t.Fatalf("a cycle: %v", err)
	}
	self := writeScenario(t, dir, "C.yaml", "extends: C.yaml\nid: C\n")
	if _, err := Load(self); err == nil || !strings.Contains(err.Error(), "a cycle of extends") {
		t.Fatalf("a file that extends itself: %v", err)
	}
}

func TestAMissingOrBrokenBaseIsNamed(t *testing.T) {
	dir := t.TempDir()
	p := writeScenario(t, dir, "X.yaml", "id: X\nextends: nowhere.yaml\n")
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), p+":2:10: extends: "+filepath.Join(dir, "nowhere.yaml")+": no such file") {
		t.Fatalf("a missing base: %v", err)
	}
	writeScenario(t, dir, "broken.yaml", "id: [x\n")
	p = writeScenario(t, dir, "Y.yaml", "extends: broken.yaml\nid: Y\n")
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "broken.yaml")+":1:5: YAML:") || !strings.Contains(err.Error(), "which "+p+" extends") {
		t.Fatalf("a base that is no YAML: %v", err)
	}
	p = writeScenario(t, dir, "Z.yaml", "extends: [a, b]\nid: Z\n")
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), p+":1:10: extends: is the path") {
		t.Fatalf("an extends that is no path: %v", err)
	}
}

// A bundle's scenario.json, pasted into a file, loads as the scenario it
// records: the keys are the file's.
func TestScenarioJSONPastedIntoAFileLoadsAsTheSameScenario(t *testing.T) {
	for _, p := range repositoryScenarioFiles(t) {
		sc, err := Load(p)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.MarshalIndent(sc, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		// Its contract file, if any, is inline now. Its storage state file
		// is named as written (it holds a session, and is not kept in the
		// bundle): it is copied beside the pasted file.
		pasted := filepath.Join(t.TempDir(), filepath.Base(p))
		if err := os.WriteFile(pasted, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if in := sc.SignIn; in != nil && in.StorageState != "" {
			state, err := os.ReadFile(filepath.Join(filepath.Dir(in.From), in.StorageState))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(filepath.Dir(pasted), in.StorageState), state, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		back, err := Load(pasted)
		if err != nil {
			t.Errorf("%s: its scenario.json does not load:\n%v", p, err)
			continue
		}
		back.File = sc.File
		again, _ := json.Marshal(back)
		first, _ := json.Marshal(sc)
		if !bytes.Equal(first, again) {
			t.Errorf("%s: pasted back, it is another scenario:\n%s\n%s", p, first, again)
		}
	}
}

type yamlNode = yaml.Node

func parseNode(t *testing.T, data []byte) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Content[0]
}
