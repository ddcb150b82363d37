// Package github holds the GitHub Actions workflow a project copies to run
// agentready in its CI (agentready.yml), and the tests that keep it true:
// actionlint finds nothing in it, and its shell steps, run with bash as the
// runner would run them (matrix, env and artifacts substituted), play the
// scenarios of an app of ours (Little Oven, agentready serve --app plain)
// in N shards and merge them into one verified run with its JUnit report
// and job summary.
package github

import (
	"encoding/xml"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/rhysd/actionlint"
	"go.yaml.in/yaml/v3"
)

const workflowFile = "agentready.yml"

type workflow struct {
	Env  map[string]string `yaml:"env"`
	Jobs map[string]struct {
		Needs    any `yaml:"needs"`
		Strategy struct {
			Matrix map[string][]any `yaml:"matrix"`
		} `yaml:"strategy"`
		Steps []step `yaml:"steps"`
	} `yaml:"jobs"`
}

type step struct {
	Name string            `yaml:"name"`
	If   string            `yaml:"if"`
	Run  string            `yaml:"run"`
	Uses string            `yaml:"uses"`
	With map[string]string `yaml:"with"`
}

func lint(t *testing.T, path string) []*actionlint.Error {
	t.Helper()
	l, err := actionlint.NewLinter(io.Discard, &actionlint.LinterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.LintFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return errs
}

// actionlint (v1.7.12, the go tool of go.mod) finds nothing in the
// workflow, and does find a mistake put into it.
func TestTheWorkflowPassesActionlint(t *testing.T) {
	for _, e := range lint(t, workflowFile) {
		t.Errorf("%s:%d:%d: %s [%s]", workflowFile, e.Line, e.Column, e.Message, e.Kind)
	}
	data, err := os.ReadFile(workflowFile)
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]string{
		"an unknown key":        strings.Replace(string(data), "runs-on:", "runs-onn:", 1),
		"a matrix value unseen": strings.Replace(string(data), "${{ matrix.shard }}/$SHARDS", "${{ matrix.part }}/$SHARDS", 1),
	} {
		p := filepath.Join(t.TempDir(), workflowFile)
		if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if len(lint(t, p)) == 0 {
			t.Errorf("actionlint finds nothing in a workflow with %s", name)
		}
	}
}

var expression = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// expand writes out the workflow's expressions as the runner would.
func expand(t *testing.T, s string, vals map[string]string) string {
	t.Helper()
	return expression.ReplaceAllStringFunc(s, func(m string) string {
		key := expression.FindStringSubmatch(m)[1]
		v, ok := vals[key]
		if !ok {
			t.Fatalf("the workflow uses %s, which this test does not know: teach it", m)
		}
		return v
	})
}

// runner plays a workflow's jobs in a folder, as GitHub's runner would:
// each step's run: with bash -e, upload and download of artifacts as
// copies, every process a step starts in its own group, ended at the end
// of the job.
type runner struct {
	t         *testing.T
	dir       string // the job's checkout (the workspace)
	artifacts string
	env       []string
	groups    []int
}

func (r *runner) step(s step, vals map[string]string) error {
	t := r.t
	switch {
	case strings.HasPrefix(s.Uses, "actions/checkout@"):
		return nil // the workspace is laid out by the test
	case strings.HasPrefix(s.Uses, "actions/upload-artifact@"):
		from := filepath.Join(r.dir, expand(t, s.With["path"], vals))
		return os.CopyFS(filepath.Join(r.artifacts, expand(t, s.With["name"], vals)), os.DirFS(from))
	case strings.HasPrefix(s.Uses, "actions/download-artifact@"):
		names, _ := filepath.Glob(filepath.Join(r.artifacts, s.With["pattern"]))
		for _, n := range names {
			if err := os.CopyFS(filepath.Join(r.dir, s.With["path"], filepath.Base(n)), os.DirFS(n)); err != nil {
				return err
			}
		}
		return nil
	case strings.HasPrefix(s.Uses, "mikepenz/action-junit-report@"):
		_, err := os.Stat(filepath.Join(r.dir, expand(t, s.With["report_paths"], vals)))
		return err
	case s.Uses != "":
		t.Fatalf("the workflow uses %s, which this test does not play: teach it", s.Uses)
	}
	cmd := exec.Command("bash", "-e", "-c", expand(t, s.Run, vals))
	cmd.Dir, cmd.Env = r.dir, r.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := os.Create(filepath.Join(r.dir, "step.log"))
	if err != nil {
		return err
	}
	defer out.Close()
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return err
	}
	r.groups = append(r.groups, cmd.Process.Pid)
	err = cmd.Wait()
	log, _ := os.ReadFile(out.Name())
	t.Logf("step %q:\n%s", s.Name+s.Uses, log)
	return err
}

// endJob ends every process the job's steps left running (the app), by
// its process group.
func (r *runner) endJob() {
	for _, g := range r.groups {
		_ = syscall.Kill(-g, syscall.SIGTERM)
	}
	r.groups = nil
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// The workflow's shell steps play Little Oven's scenarios in two shards
// against the app they start, and merge them into one verified run with a
// JUnit report and a job summary; a merge that lacks a shard, or a bundle
// changed on its way, fails the merge job.
func TestTheWorkflowsStepsRunAShardedRunAgainstALocalApp(t *testing.T) {
	if testing.Short() {
		t.Skip("plays scenarios in Chromium")
	}
	data, err := os.ReadFile(workflowFile)
	if err != nil {
		t.Fatal(err)
	}
	var wf workflow
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "agentready"), "../../cmd/agentready")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root := t.TempDir()
	artifacts := filepath.Join(root, "artifacts")
	summary, ghPath := filepath.Join(root, "summary.md"), filepath.Join(root, "path")
	vals := map[string]string{"github.run_id": "42", "github.run_attempt": "1"}
	env := map[string]string{}
	for k, v := range wf.Env {
		env[k] = expand(t, v, vals)
	}
	env["APP_ADDR"] = freeAddr(t)
	for k, v := range env {
		vals["env."+k] = v
	}
	osEnv := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "GITHUB_STEP_SUMMARY="+summary, "GITHUB_PATH="+ghPath)
	for k, v := range env {
		osEnv = append(osEnv, k+"="+v)
	}
	workspace := func(name string) string {
		dir := filepath.Join(root, name)
		if err := os.CopyFS(filepath.Join(dir, env["SCENARIOS"]), os.DirFS("../../fixtures/plainapp/scenarios")); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	// What the install step does is the test's (it builds agentready from
	// this checkout; the machine has Chromium): it must be what a user's
	// job needs and nothing else.
	checkInstall := func(s step) {
		for _, want := range []string{"go install \"github.com/agentready/agentready/cmd/agentready@${AGENTREADY_VERSION}\"", "GITHUB_PATH"} {
			if !strings.Contains(s.Run, want) {
				t.Errorf("the install step lacks %q", want)
			}
		}
	}

	shardJob := wf.Jobs["shard"]
	shards := shardJob.Strategy.Matrix["shard"]
	if fmt.Sprint(len(shards)) != env["SHARDS"] {
		t.Fatalf("the matrix lists %d shards, SHARDS says %s", len(shards), env["SHARDS"])
	}
	for _, k := range shards {
		vals["matrix.shard"] = fmt.Sprint(k)
		r := &runner{t: t, dir: workspace(fmt.Sprintf("shard-%v", k)), artifacts: artifacts, env: osEnv}
		for _, s := range shardJob.Steps {
			if s.Name == "install" {
				checkInstall(s)
				continue
			}
			if err := r.step(s, vals); err != nil {
				r.endJob()
				t.Fatalf("shard %v, step %q: %v", k, s.Name, err)
			}
		}
		r.endJob()
	}
	delete(vals, "matrix.shard")

	merge := func(name string, prepare func(artifacts string)) (*runner, error) {
		arts := filepath.Join(root, name+"-artifacts")
		if err := os.CopyFS(arts, os.DirFS(artifacts)); err != nil {
			t.Fatal(err)
		}
		prepare(arts)
		r := &runner{t: t, dir: filepath.Join(root, name), artifacts: arts, env: osEnv}
		if err := os.MkdirAll(r.dir, 0o755); err != nil {
			t.Fatal(err)
		}
		defer r.endJob()
		var failed error
		for _, s := range wf.Jobs["merge"].Steps {
			if s.Name == "install" {
				checkInstall(s)
				continue
			}
			if failed != nil && s.If != "always()" {
				continue
			}
			if err := r.step(s, vals); err != nil && failed == nil {
				failed = fmt.Errorf("step %q: %w", s.Name+s.Uses, err)
			}
		}
		return r, failed
	}
	r, err := merge("merge", func(string) {})
	if err != nil {
		t.Fatalf("the merge job failed: %v", err)
	}
	run := filepath.Join(r.dir, "evidence", env["RUN_ID"])
	var junit struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Cases    []struct {
			Name string `xml:"name,attr"`
		} `xml:"testsuite>testcase"`
	}
	jdata, err := os.ReadFile(filepath.Join(run, "e2e.junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(jdata, &junit); err != nil {
		t.Fatal(err)
	}
	scs, _ := filepath.Glob("../../fixtures/plainapp/scenarios/*.yaml")
	if junit.Tests != len(scs) || len(junit.Cases) != len(scs) || junit.Failures != 0 {
		t.Errorf("the JUnit report has %d tests (%d cases), %d failures; the app has %d scenarios", junit.Tests, len(junit.Cases), junit.Failures, len(scs))
	}
	if _, err := os.Stat(filepath.Join(run, "index.html")); err != nil {
		t.Error(err)
	}
	if s, _ := os.ReadFile(summary); !strings.Contains(string(s), fmt.Sprintf("### merge: %d passed, 0 failed", len(scs))) {
		t.Errorf("the job summary says:\n%s", s)
	}

	// Known bad: a shard that never uploaded, and a bundle changed between
	// the shard and the merge, each fail the merge job.
	if _, err := merge("merge-missing-shard", func(arts string) { _ = os.RemoveAll(filepath.Join(arts, "shard-2")) }); err == nil {
		t.Error("a merge without shard 2 passed")
	}
	if _, err := merge("merge-changed-bundle", func(arts string) {
		verdicts, _ := filepath.Glob(filepath.Join(arts, "shard-1", "*", "verdict.json"))
		if len(verdicts) == 0 {
			t.Fatal("shard 1 uploaded no bundle")
		}
		if err := os.WriteFile(verdicts[0], []byte(`{"outcome":"PASS"}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}); err == nil {
		t.Error("a merge with a changed bundle passed")
	}
}

// The GitLab template's scripts run the same way: two parallel shards
// against the app they start, and a merge that verifies and writes JUnit.
func TestTheGitLabTemplatesScriptsRunAShardedRun(t *testing.T) {
	if testing.Short() {
		t.Skip("plays scenarios in Chromium")
	}
	var gl struct {
		Variables map[string]string `yaml:"variables"`
		Shard     struct {
			Parallel     int      `yaml:"parallel"`
			BeforeScript []string `yaml:"before_script"`
			Script       []string `yaml:"script"`
		} `yaml:"shard"`
		Merge struct {
			Script    []string `yaml:"script"`
			Artifacts struct {
				Reports struct {
					JUnit string `yaml:"junit"`
				} `yaml:"reports"`
			} `yaml:"artifacts"`
		} `yaml:"merge"`
	}
	data, err := os.ReadFile("../gitlab/agentready.gitlab-ci.yml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &gl); err != nil {
		t.Fatal(err)
	}
	if len(gl.Shard.BeforeScript) == 0 || !strings.Contains(gl.Shard.BeforeScript[0], "go install \"github.com/agentready/agentready/cmd/agentready@") {
		t.Fatalf("the shard job installs agentready otherwise: %v", gl.Shard.BeforeScript)
	}
	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "agentready"), "../../cmd/agentready").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root := t.TempDir()
	vars := map[string]string{"CI_PIPELINE_ID": "77", "CI_NODE_TOTAL": fmt.Sprint(gl.Shard.Parallel)}
	for k, v := range gl.Variables {
		vars[k] = os.Expand(v, func(n string) string { return vars[n] })
	}
	vars["APP_ADDR"] = freeAddr(t)
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	// The job's own lines, without installing Chromium (the machine has it).
	script := func(lines []string) string {
		var keep []string
		for _, l := range lines {
			if !strings.HasPrefix(l, "apt-get ") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	work := filepath.Join(root, "work")
	if err := os.CopyFS(filepath.Join(work, vars["SCENARIOS"]), os.DirFS("../../fixtures/plainapp/scenarios")); err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= gl.Shard.Parallel; k++ {
		r := &runner{t: t, dir: work, env: append(env, fmt.Sprintf("CI_NODE_INDEX=%d", k))}
		err := r.step(step{Name: fmt.Sprintf("shard %d", k), Run: script(gl.Shard.Script)}, nil)
		r.endJob()
		if err != nil {
			t.Fatalf("shard %d: %v", k, err)
		}
	}
	r := &runner{t: t, dir: work, env: env}
	defer r.endJob()
	if err := r.step(step{Name: "merge", Run: script(gl.Merge.Script)}, nil); err != nil {
		t.Fatalf("merge: %v", err)
	}
	junit := os.Expand(gl.Merge.Artifacts.Reports.JUnit, func(n string) string { return vars[n] })
	if _, err := os.Stat(filepath.Join(work, junit)); err != nil {
		t.Errorf("the JUnit report the job names: %v", err)
	}
}
