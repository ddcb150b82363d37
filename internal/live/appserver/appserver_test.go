package appserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/kit/hang"
)

// fakeApp is testdata/fakeapp, built once for the package's tests.
var fakeApp string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "appserver-test-")
	if err != nil {
		panic(err)
	}
	fakeApp = filepath.Join(dir, "fakeapp")
	if out, err := exec.Command("go", "build", "-o", fakeApp, "./testdata/fakeapp").CombinedOutput(); err != nil {
		panic(string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// Alive tells whether pid is a process that runs: a zombie (killed, not yet
// reaped by a PID 1 that may never reap it) is not.
func Alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the command's closing parenthesis.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] != 'Z'
}

func get(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b)
}

func TestStartPassesThePortAndEnvironmentAndStopEndsIt(t *testing.T) {
	spec := Spec{Command: []string{fakeApp, "-addr", "127.0.0.1:{port}"}, Env: map[string]string{"GREETING": "hello-{port}"}, URL: "http://127.0.0.1:{port}/ready"}
	s, err := Start(context.Background(), spec, Extra{Args: []string{"extra-arg"}, Env: map[string]string{"GREETING": "scenario"}})
	if err != nil {
		t.Fatal(err)
	}
	pid := s.cmd.Process.Pid
	if want := "http://127.0.0.1:" + strconv.Itoa(s.Port); s.BaseURL != want || s.URL != want+"/ready" {
		t.Errorf("base %q url %q, want %q and its /ready", s.BaseURL, s.URL, want)
	}
	// The scenario's environment wins over the file's.
	if body := get(t, s.BaseURL+"/"); !strings.Contains(body, "greeting=scenario") {
		t.Errorf("the app answered %q: the scenario's GREETING did not reach it", body)
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if Alive(pid) {
		t.Errorf("pid %d still runs after Stop", pid)
	}
	out := string(s.Output().Since(0))
	if !strings.Contains(out, "PORT="+strconv.Itoa(s.Port)) || !strings.Contains(out, "args=[extra-arg]") {
		t.Errorf("the app's output %q lacks its $PORT or the scenario's argument", out)
	}
	if _, err := http.Get(s.BaseURL + "/"); err == nil {
		t.Error("the app still answers after Stop")
	}
}

func TestTheFileEnvironmentFillsThePort(t *testing.T) {
	s, err := Start(context.Background(), Spec{Command: []string{fakeApp}, Env: map[string]string{"GREETING": "at-{port}"}}, Extra{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	if body := get(t, s.BaseURL+"/"); !strings.Contains(body, "greeting=at-"+strconv.Itoa(s.Port)) {
		t.Errorf("the app answered %q, want its GREETING with the port filled in", body)
	}
}

func startError(t *testing.T, spec Spec) *StartError {
	t.Helper()
	s, err := Start(context.Background(), spec, Extra{})
	if err == nil {
		s.Stop()
		t.Fatal("Start answered a server")
	}
	var se *StartError
	if !errors.As(err, &se) {
		t.Fatalf("%v is not a StartError", err)
	}
	return se
}

func TestACommandNotFoundIsNamed(t *testing.T) {
	se := startError(t, Spec{Command: []string{"no-such-app-xyz", "serve"}, From: "cases/agentready.yaml"})
	msg := se.Error()
	for _, want := range []string{"`no-such-app-xyz serve`", "cases/agentready.yaml", `"no-such-app-xyz" is not found`} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
}

func TestAnAppThatExitsEarlyIsNamedWithItsLastLines(t *testing.T) {
	start := time.Now()
	se := startError(t, Spec{Command: []string{fakeApp, "-exit", "3"}, Timeout: time.Minute})
	msg := se.Error()
	for _, want := range []string{"exited (exit status 3)", "cannot open the database", "fakeapp starting"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
	// The exit is an event: nobody waits for the minute's bound.
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the exit was seen after %s", d)
	}
}

func TestAnAppThatNeverAnswersIsNamedAndStopped(t *testing.T) {
	for name, args := range map[string][]string{"never listens": {"-never"}, "answers 404": {"-status", "404"}} {
		t.Run(name, func(t *testing.T) {
			spec := Spec{Command: append([]string{fakeApp}, args...), Timeout: 700 * time.Millisecond}
			s, err := Start(context.Background(), spec, Extra{})
			var se *StartError
			if !errors.As(err, &se) {
				if s != nil {
					s.Stop()
				}
				t.Fatalf("%v is not a StartError", err)
			}
			if !strings.Contains(se.Error(), "did not answer within 700ms") || !strings.Contains(se.Error(), "fakeapp starting") {
				t.Errorf("%q does not say the bound and the app's lines", se.Error())
			}
			if pid := pidOf(t, se.Last); !waitGone(pid) {
				t.Errorf("the app (pid %d) still runs after a start that failed", pid)
			}
		})
	}
}

var pidLine = regexp.MustCompile(`pid=(\d+)`)

// pidOf reads the pid the fake app prints first.
func pidOf(t *testing.T, lines []string) int {
	t.Helper()
	m := pidLine.FindStringSubmatch(strings.Join(lines, "\n"))
	if m == nil {
		t.Fatalf("no pid in %q", lines)
	}
	pid, _ := strconv.Atoi(m[1])
	return pid
}

func TestA401OrARedirectIsAnAppThatIsUp(t *testing.T) {
	for _, status := range []string{"401", "302"} {
		s, err := Start(context.Background(), Spec{Command: []string{fakeApp, "-status", status}, Timeout: 10 * time.Second}, Extra{})
		if err != nil {
			t.Fatalf("status %s: %v", status, err)
		}
		s.Stop()
	}
}

var childLine = regexp.MustCompile(`child (\d+)`)

func childPid(t *testing.T, s *Server) int {
	t.Helper()
	m := childLine.FindStringSubmatch(string(s.Output().Since(0)))
	if m == nil {
		t.Fatalf("no child line in %q", s.Output().Since(0))
	}
	pid, _ := strconv.Atoi(m[1])
	return pid
}

func TestStopEndsTheWholeGroupEvenWhatIgnoresSIGTERM(t *testing.T) {
	stopBound = 300 * time.Millisecond
	defer func() { stopBound = StopBound }()
	for name, args := range map[string][]string{"leader ends on SIGTERM": {"-child"}, "leader ignores SIGTERM": {"-child", "-ignore-term"}} {
		t.Run(name, func(t *testing.T) {
			s, err := Start(context.Background(), Spec{Command: append([]string{fakeApp}, args...)}, Extra{})
			if err != nil {
				t.Fatal(err)
			}
			leader, child := s.cmd.Process.Pid, childPid(t, s)
			if !Alive(child) {
				t.Fatalf("the child %d is not running", child)
			}
			err = s.Stop()
			if strings.Contains(name, "ignores") != (err != nil) {
				t.Errorf("Stop: %v", err)
			}
			for _, pid := range []int{leader, child} {
				if waitGone(pid) {
					continue
				}
				t.Errorf("pid %d still runs after Stop", pid)
			}
		})
	}
}

// waitGone: a process signalled to death is gone a moment later (the
// signal is delivered asynchronously); the wait for it is bounded, and a
// zombie counts as gone. A short poll is the honest wait here: the process
// is the app's child, not ours, so there is no wait(2) for it, and a pidfd
// (the one event Linux offers) is refused by some container seccomp
// profiles that CI machines run under.
func waitGone(pid int) bool {
	deadline := time.Now().Add(hang.Bound)
	for Alive(pid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond) // no event to wait for: see the comment above
	}
	return true
}

func TestACancelledStartLeavesNothing(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	s, err := Start(ctx, Spec{Command: []string{fakeApp, "-never"}}, Extra{})
	if err == nil {
		s.Stop()
		t.Fatal("a cancelled start answered a server")
	}
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "cut short") {
		t.Errorf("%v does not say it was cut short", err)
	}
}

func TestOutputKeepsTheLastBytesAndSaysWhatWasDropped(t *testing.T) {
	o := NewOutput(10)
	o.Write([]byte("0123456789"))
	mark := o.Mark()
	o.Write([]byte("abcdef\n"))
	if got := string(o.Since(mark)); got != "abcdef\n" {
		t.Errorf("since the mark: %q", got)
	}
	if got := string(o.Since(0)); !strings.HasPrefix(got, "[agentready: 7 bytes") || !strings.HasSuffix(got, "789abcdef\n") {
		t.Errorf("since 0: %q", got)
	}
	if got := o.LastLines(1); len(got) != 1 || got[0] != "789abcdef" {
		t.Errorf("last line: %q", got)
	}
}

// A program that already listens on the port the app's URL names answers,
// but it is not the app: the start is not taken as up, and its error says
// who answered (Linux, where /proc shows the listener's process).
func TestAnotherProgramOnTheAppsPortIsNotTheApp(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("who listens on a port is read from /proc")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	other := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})}
	go func() { _ = other.Serve(l) }()
	defer other.Close()
	port := l.Addr().(*net.TCPAddr).Port
	spec := Spec{Command: []string{fakeApp, "-never"}, URL: fmt.Sprintf("http://127.0.0.1:%d/", port), Timeout: 700 * time.Millisecond}
	s, err := Start(context.Background(), spec, Extra{})
	var se *StartError
	if !errors.As(err, &se) {
		if s != nil {
			s.Stop()
		}
		t.Fatalf("%v is not a StartError: the other program's answer was taken for the app's", err)
	}
	want := fmt.Sprintf("another program (pid %d, older than the app) listens on it", os.Getpid())
	if !strings.Contains(se.Error(), want) {
		t.Errorf("%q does not say %q", se.Error(), want)
	}
}

// {port:NAME} is a free port of its own per name, the same wherever the
// name is written, and none is {port}'s.
func TestNamedPortsAreFreePortsOfTheirOwn(t *testing.T) {
	spec := Spec{Command: []string{fakeApp, "{port:auth}", "{port:ws}", "{port:auth}"}, Env: map[string]string{"GREETING": "auth={port:auth}"}, Timeout: hang.Bound}
	s, err := Start(context.Background(), spec, Extra{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	auth, ws := s.Ports["auth"], s.Ports["ws"]
	if auth == 0 || ws == 0 || auth == ws || auth == s.Port || ws == s.Port {
		t.Fatalf("ports: main %d, named %v", s.Port, s.Ports)
	}
	want := fmt.Sprintf("GREETING=auth=%d args=[%d %d %d]", auth, auth, ws, auth)
	if !slices.ContainsFunc(s.Output().LastLines(10), func(l string) bool { return strings.Contains(l, want) }) {
		t.Errorf("the app's lines %q lack %q", s.Output().LastLines(10), want)
	}
}
