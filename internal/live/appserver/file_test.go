package appserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeFile(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "agentready.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadFileReadsEveryKey(t *testing.T) {
	p := writeFile(t, `app:
  command: [go, run, ., --addr, "127.0.0.1:{port}"]
  dir: .
  url: http://127.0.0.1:{port}/menu
  env: {LOG: debug}
  timeout: 90s
  fresh: run
`)
	spec, err := LoadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if spec.Command[4] != "127.0.0.1:{port}" || spec.URL != "http://127.0.0.1:{port}/menu" || spec.Env["LOG"] != "debug" ||
		spec.Timeout != 90*time.Second || spec.Fresh != PerRun || spec.Dir != filepath.Dir(p) || spec.From != p {
		t.Errorf("%+v", spec)
	}
}

func TestLoadFileDefaultsToAFreshAppPerScenario(t *testing.T) {
	spec, err := LoadFile(writeFile(t, "app: {command: [./app]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if spec.Fresh != PerScenario || spec.Timeout != 0 {
		t.Errorf("%+v", spec)
	}
}

func TestLoadFileNamesTheLineAndKeyOfEachProblem(t *testing.T) {
	for text, want := range map[string]string{
		"app: {command: ./app}\n":                       ":1:16: app.command is a list",
		"app:\n  command: []\n":                         ":2:12: app.command names no program",
		"app:\n  command: [x]\n  fresh: always\n":       `:3:10: app.fresh is scenario (a new app for each scenario) or run (one for the run), not "always"`,
		"app:\n  command: [x]\n  timeout: soon\n":       `:3:12: app.timeout is a positive duration such as 60s, not "soon"`,
		"app:\n  command: [x]\n  url: /menu\n":          ":3:8: app.url is the http(s) URL",
		"app:\n  command: [x]\n  comand: [y]\n":         `:3:3: unknown key app.comand: did you mean command?`,
		"app:\n  url: http://127.0.0.1:{port}/\n":       ":2:3: app needs command",
		"server:\n  command: [x]\n":                     `:1:1: unknown key "server" (a folder file has app and signin)`,
		"app:\n  command: [x]\n  dir: no-such-folder\n": "app.dir ",
		"app:\n  command: [x]\n  env: [A=1]\n":          ":3:8: app.env is a mapping",
	} {
		_, err := LoadFile(writeFile(t, text))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "agentready.yaml") {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}

func TestAFileWithoutAppHasNone(t *testing.T) {
	spec, err := LoadFile(writeFile(t, "# nothing yet\n"))
	if spec != nil || err != nil {
		t.Errorf("%v %v", spec, err)
	}
}
