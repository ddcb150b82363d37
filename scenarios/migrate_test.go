package scenarios

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/theory/jsonpath"
	"golang.org/x/tools/txtar"
)

var updateFixed = flag.Bool("update-fixed", false, "rewrite testdata/deprecated/*.fixed.yaml from what check --fix writes")

var warnsLine = regexp.MustCompile(`(?m)^# warns: (.+)$`)

// Each deprecated spelling has a file in testdata/deprecated named by its
// ID that writes it, saying the warnings loading gives (# warns:), and the
// file check --fix makes of it (<ID>.fixed.yaml), which an editor's schema
// takes and which loads, without a warning, to the very same scenario.
func TestEveryDeprecatedSpellingLoadsWithItsWarningAndIsFixed(t *testing.T) {
	editor := editorSchema(t)
	for _, d := range Deprecations {
		t.Run(d.ID, func(t *testing.T) {
			src := filepath.Join("testdata", "deprecated", d.ID+".yaml")
			text := mustRead(t, src)
			sc, err := Load(src)
			if err != nil {
				t.Fatalf("a deprecated spelling does not load: %v", err)
			}
			var got []string
			for _, w := range sc.Deprecated {
				got = append(got, strings.TrimPrefix(w.Error(), "testdata/deprecated/"))
			}
			want := warnsLine.FindAllStringSubmatch(string(text), -1)
			if len(want) == 0 {
				t.Fatal("the file says no warning it gives (# warns: …)")
			}
			if len(got) != len(want) {
				t.Fatalf("loading warns\n%s\nwant %d warnings", strings.Join(got, "\n"), len(want))
			}
			for i, w := range want {
				if !strings.HasPrefix(got[i], w[1]) {
					t.Errorf("warning %d is\n%s\nwant it to start\n%s", i, got[i], w[1])
				}
				if !strings.Contains(got[i], "("+d.ID+", since "+d.Since+"; refused from "+d.Removed+")") {
					t.Errorf("warning %d does not name its deprecation and its versions: %s", i, got[i])
				}
			}

			dir := t.TempDir()
			file := filepath.Join(dir, d.ID+".yaml")
			if err := os.WriteFile(file, text, 0o644); err != nil {
				t.Fatal(err)
			}
			fixed, changes, err := Fix(file)
			if err != nil || len(changes) == 0 {
				t.Fatalf("Fix: %v, %d changes", err, len(changes))
			}
			golden := filepath.Join("testdata", "deprecated", d.ID+".fixed.yaml")
			if *updateFixed {
				if err := os.WriteFile(golden, fixed, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(fixed, mustRead(t, golden)) {
				t.Errorf("check --fix writes\n%s\nnot %s (go test ./scenarios -run TestEveryDeprecatedSpelling -update-fixed)", fixed, golden)
			}
			if changed := changedLines(text, fixed); changed > 2*len(want)+4 {
				t.Errorf("the fix changed %d lines for %d spellings: it rewrites more than the spellings", changed, len(want))
			}
			after, err := Load(golden)
			if err != nil || len(after.Deprecated) > 0 {
				t.Fatalf("the fixed file: %v, warnings %v", err, after.Deprecated)
			}
			if a, b := jsonOfScenario(t, sc), jsonOfScenario(t, after); a != b {
				t.Errorf("the fixed file loads to another scenario:\n%s\n%s", a, b)
			}
			v, err := asAnEditorReadsIt(t, golden)
			if err != nil {
				t.Fatal(err)
			}
			if err := editor.Validate(v); err != nil {
				t.Errorf("an editor refuses the fixed file: %v", err)
			}
		})
	}
}

// changedLines counts the lines of a that b does not hold as they were.
func changedLines(a, b []byte) int {
	have := map[string]int{}
	for _, l := range strings.Split(string(b), "\n") {
		have[l]++
	}
	n := 0
	for _, l := range strings.Split(string(a), "\n") {
		if have[l] > 0 {
			have[l]--
		} else {
			n++
		}
	}
	return n
}

func jsonOfScenario(t *testing.T, sc Scenario) string {
	t.Helper()
	sc.File = ""
	b, err := json.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Every scenario file shape the repository has held since its first
// commit loads today (testdata/history.txtar, make-history.sh), and check
// --fix rewrites each to a file that loads without a warning to the same
// scenario. Every deprecation that history wrote is met.
func TestTheHistoryOfTheFormatLoads(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "history.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var files []string
	for _, f := range ar.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(p, ".yaml") && filepath.Base(p) != FolderFile {
			files = append(files, p)
		}
	}
	if len(files) < 50 {
		t.Fatalf("only %d files in the history", len(files))
	}
	met := map[string]int{}
	loaded := map[string]string{}
	for _, p := range files {
		sc, err := Load(p)
		if err != nil {
			t.Errorf("a file of the repository's history does not load:\n%v", err)
			continue
		}
		for _, w := range ofFile(p, sc.Deprecated) {
			met[regexp.MustCompile(`deprecated \(([a-z-]+),`).FindStringSubmatch(w.Message)[1]]++
		}
		loaded[p] = jsonOfScenario(t, sc)
	}
	// Bases first: a companion's scenario is its base's, fixed or not.
	for _, p := range files {
		fixed, _, err := Fix(p)
		if err != nil {
			t.Errorf("check --fix: %v", err)
			continue
		}
		if fixed != nil {
			if err := WriteFixed(p, fixed); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, p := range files {
		sc, err := Load(p)
		if err != nil {
			t.Errorf("after check --fix: %v", err)
			continue
		}
		if len(sc.Deprecated) > 0 {
			t.Errorf("after check --fix it still warns: %v", sc.Deprecated[0])
		}
		if got := jsonOfScenario(t, sc); got != loaded[p] {
			t.Errorf("%s loads to another scenario after check --fix", p)
		}
	}
	for _, id := range []string{"request-keys", "human-request", "state-seats-counts", "schema-match-contains"} {
		if met[id] == 0 {
			t.Errorf("the history never wrote %s: the corpus lost the files that did", id)
		}
	}
	t.Logf("%d files; deprecated spellings met: %v", len(files), met)
}

// A YAML number or true/false where the format takes text is that text,
// as written; where a number is meant, text is still refused. An editor's
// schema says the same.
func TestTextKeysTakeNumbersAndBooleansAsWritten(t *testing.T) {
	const file = `id: T-01
title: 2
start: /book
prompt: Book 2 seats on 2027-01-09 with a gift wrap.
prompt_data: {passengers: 2, giftWrap: {value: true, from: gift wrap}, date: 2027-01-09}
agent:
  final: 42
expect:
  answer: {must_mention: [11, 1.50, yes]}
  ui:
    agent:
      - {selector: "#n", text_contains: 0x10}
`
	sc, err := Parse("t.yaml", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	got := []string{sc.Title, sc.PromptData["passengers"].Value, sc.PromptData["giftWrap"].Value, sc.PromptData["date"].Value,
		*sc.Agent.Final, strings.Join(sc.Expect.Answer.MustMention, ","), sc.Expect.UI["agent"][0].TextContains}
	want := []string{"2", "2", "true", "2027-01-09", "42", "11,1.50,yes", "0x10"}
	if !slices.Equal(got, want) {
		t.Errorf("read as %q, want %q", got, want)
	}
	path := filepath.Join(t.TempDir(), "t.yaml")
	if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := asAnEditorReadsIt(t, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := editorSchema(t).Validate(v); err != nil {
		t.Errorf("an editor refuses numbers where text is meant: %v", err)
	}
	// A key that takes a word or a form the loader checks is no free text:
	// an editor flags a number there, as the loader does.
	for _, bad := range []string{"start: 404", "capture: {leave: false}", "capture: {dialogs: 1}"} {
		doc := file
		if strings.HasPrefix(bad, "start") {
			doc = strings.Replace(doc, "start: /book", bad, 1)
		} else {
			doc += bad + "\n"
		}
		p := filepath.Join(t.TempDir(), "t.yaml")
		if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		v, err := asAnEditorReadsIt(t, p)
		if err != nil {
			t.Fatal(err)
		}
		if editorSchema(t).Validate(v) == nil {
			t.Errorf("an editor takes %s", bad)
		}
		if _, err := Parse("t.yaml", []byte(doc)); err == nil {
			t.Errorf("the loader takes %s", bad)
		}
	}

	for _, bad := range []struct{ yaml, want string }{
		{`expect: {requests: [{request: POST /x, count: one}]}`, `expect.requests[0].count: expected a whole number, found text "one"`},
		{`expect: {writes: {agent: "1"}}`, `expect.writes.agent: expected a whole number, found text "1"`},
		{`expect: {requests: [{request: 5, count: 0}]}`, `expect.requests[0].request`},
		{`agent: {calls: [{tool: t, transport: 1}]}`, `agent.calls[0].transport`},
		{`prompt_data: {x: [1, 2]}`, `prompt_data.x: expected a mapping or text, found a list`},
	} {
		_, err := Parse("t.yaml", []byte("id: T-01\ntitle: t\nstart: /\nprompt: p\n"+bad.yaml+"\n"))
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: got %v, want %q", bad.yaml, err, bad.want)
		}
	}
}

// A name the JSONPath shorthand cannot hold is written in brackets, and
// the path selects the member.
func TestAMigratedStatePathSelectsItsMember(t *testing.T) {
	doc := map[string]any{"observer": map[string]any{"seatsLeft": map[string]any{"evt-webmcp-intro": 8.0, "o'neil \"x\"": 1.0}, "counts": map[string]any{"tasks": 7.0}}}
	for name, want := range map[string]any{"evt-webmcp-intro": 8.0, `o'neil "x"`: 1.0} {
		p, err := jsonpath.Parse("$.observer.seatsLeft" + member(name))
		if err != nil {
			t.Fatalf("%s: %v", member(name), err)
		}
		if got := p.Select(doc); len(got) != 1 || got[0] != want {
			t.Errorf("%s selects %v", member(name), got)
		}
	}
	if member("tasks") != ".tasks" {
		t.Errorf("member(tasks) = %s", member("tasks"))
	}
}

// The README lists every deprecation with its versions, and nothing else.
func TestTheDeprecationsAreDocumented(t *testing.T) {
	readme := string(mustRead(t, "README.md"))
	rows := regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\| ([0-9.]+) \\| ([0-9.]+) \\|").FindAllStringSubmatch(readme, -1)
	var got []string
	for _, r := range rows {
		got = append(got, r[1]+" "+r[2]+" "+r[3])
	}
	var want []string
	for _, d := range Deprecations {
		want = append(want, d.ID+" "+d.Since+" "+d.Removed)
	}
	if !slices.Equal(got, want) {
		t.Errorf("scenarios/README.md lists the deprecations\n%q\nwant\n%q", got, want)
	}
}

// What a second read found check --fix and the migration did wrong, each a
// case: a name written by alias is not taken for the anchor's name, a node
// shared by alias is not rewritten under every name, a step of setup is
// migrated, comments inside and after a rewritten node stay once, an
// apostrophe in a path is no quote, a comment in a flow collection over
// lines is not lost (the file is left alone), CRLF stays CRLF, and a
// linked file is written where it is.
func TestFixKeepsWhatItDoesNotRewrite(t *testing.T) {
	const head = "id: T-01\ntitle: t\nstart: /order\nprompt: p\n"
	for _, c := range []struct {
		name, in, out, loadErr, fixErr string
	}{
		{name: "a seats name by alias", in: head + "prompt_data: {e: &ev evt-1}\nexpect:\n  state:\n    agent: {seats: {*ev : 8}}\n",
			loadErr: "expect.state.agent.seats: unknown key"},
		{name: "a shared equals", in: head + "human: [{click: \"#x\"}]\nexpect:\n  state:\n    agent: {equals: &eq {$.observer.version: 1}}\n    human: {equals: *eq, counts: {tasks: 2}}\n",
			loadErr: "expect.state.human.counts: unknown key"},
		{name: "a step of setup", in: head + "setup:\n  - request: {method: POST, path: /api/tasks, expect: {status: 201}}\n",
			out: head + "setup:\n  - send: {request: POST /api/tasks, expect: {status: 201}}\n"},
		{name: "comments in and after a block", in: head + "human: [{click: \"#x\"}]\nexpect:\n  requests:\n    - phase: human\n      method: POST\n      # the endpoint\n      path: /x   # once\n      count: 1\n      # the click's\n    - {request: POST /x, phase: agent, count: 0}\n",
			out: head + "human: [{click: \"#x\"}]\nexpect:\n  requests:\n    - phase: human\n      # the endpoint\n      request: POST /x # once\n      count: 1\n      # the click's\n    - {request: POST /x, phase: agent, count: 0}\n"},
		{name: "an apostrophe in a path", in: head + "expect:\n  requests:\n    - {method: GET, path: /api/o'neil, phase: agent, count: 0}  # O'Neil\n# keep}\n",
			out: head + "expect:\n  requests:\n    - {request: GET /api/o'neil, phase: agent, count: 0}  # O'Neil\n# keep}\n"},
		{name: "a comment in a flow over lines", in: head + "expect:\n  requests:\n    - {method: POST,   # the order\n       path: /x, phase: agent, count: 0}\n",
			fixErr: "a comment inside"},
		{name: "CRLF", in: strings.ReplaceAll(head+"expect:\n  requests:\n    - method: POST\n      path: /x\n      phase: agent\n      count: 0\n", "\n", "\r\n"),
			out: strings.ReplaceAll(head+"expect:\n  requests:\n    - request: POST /x\n      phase: agent\n      count: 0\n", "\n", "\r\n")},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "T-01.yaml")
			if err := os.WriteFile(file, []byte(c.in), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Load(file)
			if c.loadErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.loadErr) {
					t.Fatalf("load: %v, want %q", err, c.loadErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			out, _, err := Fix(file)
			if c.fixErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.fixErr) {
					t.Errorf("fix: %v, want %q", err, c.fixErr)
				}
				return
			}
			if err != nil || string(out) != c.out {
				t.Errorf("fix: %v\n%q\nwant\n%q", err, out, c.out)
			}
		})
	}

	dir := t.TempDir()
	shared, linked := filepath.Join(dir, "shared.yaml"), filepath.Join(dir, "linked.yaml")
	if err := os.WriteFile(shared, []byte(head+"expect:\n  catalog: {schemas: {t: {type: object}}, schema_match: contains}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("shared.yaml", linked); err != nil {
		t.Fatal(err)
	}
	out, _, err := Fix(linked)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteFixed(linked, out); err != nil {
		t.Fatal(err)
	}
	if target, err := os.Readlink(linked); err != nil || target != "shared.yaml" || !strings.Contains(string(mustRead(t, shared)), "schema_match: subset") {
		t.Errorf("the link is %q (%v), the file it names:\n%s", target, err, mustRead(t, shared))
	}
}
