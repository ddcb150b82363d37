// Package appserver starts a user's app for a run of scenarios, the way
// Playwright's webServer does: a command with its arguments, environment
// and working folder, on a free loopback port the suite picks and passes
// ({port} in the arguments, environment and URL, and $PORT), ready when its
// URL answers over HTTP (polled with a growing pause, bounded), and stopped
// with its whole process group (SIGTERM, then SIGKILL after StopBound) on
// every path. What it writes on stdout and stderr is kept (Output) for the
// bundle and for the error that says why it did not start.
//
// A start that fails is the harness's problem, never the app's verdict:
// Start answers a *StartError naming the command and its last lines.
package appserver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Fresh says how often the app is started.
type Fresh string

const (
	// PerScenario starts the app afresh for each scenario: clean state.
	PerScenario Fresh = "scenario"
	// PerRun starts it once for the whole run.
	PerRun Fresh = "run"
)

// Bounds of a start and a stop.
const (
	// DefaultTimeout bounds the wait for the app's URL, as Playwright's
	// webServer does (60 s): a cold `go run` or `npm start` compiles first.
	DefaultTimeout = 60 * time.Second
	// StopBound is how long the app has after SIGTERM before its process
	// group is killed.
	StopBound = 5 * time.Second
	// lastLines is how many of the app's last output lines an error quotes.
	lastLines = 10
)

// drainBound bounds the wait for the app's last output after it ended.
const drainBound = time.Second

// stopBound is StopBound, shortened by tests of an app that ignores SIGTERM.
var stopBound = StopBound

// PortVar is the environment variable the app finds its port in (as on
// Heroku and in most frameworks' defaults), and Placeholder the word the
// suite replaces with the port in the arguments, environment and URL.
const (
	PortVar     = "PORT"
	Placeholder = "{port}"
)

// Spec is how to start the app.
type Spec struct {
	Command []string          // the program and its arguments; no shell (give [sh, -c, "…"] for one)
	Env     map[string]string // added to the suite's own environment
	Dir     string            // the working folder; "" for the suite's
	URL     string            // waited for: ready when it answers 2xx, 3xx or 400–403
	Timeout time.Duration     // bounds the wait for URL; 0 for DefaultTimeout
	Fresh   Fresh
	// From names where the spec was declared (a file), for errors.
	From string
}

// Extra is what a scenario adds to the start of its own app: arguments
// after the spec's, environment over the spec's.
type Extra struct {
	Args []string
	Env  map[string]string
}

// Empty tells whether the scenario adds nothing.
func (e Extra) Empty() bool { return len(e.Args) == 0 && len(e.Env) == 0 }

// Server is a started app.
type Server struct {
	URL     string // the URL waited for, its port filled in
	BaseURL string // the URL's origin: scenarios' paths are joined to it
	Port    int
	// Ports are the ports of {port:NAME}, by name.
	Ports map[string]int
	Line  string // the command as started, for messages

	cmd    *exec.Cmd
	out    *Output
	exited chan struct{}
	copied chan struct{} // closed when the last writer of the output has closed it
	// waitErr is cmd.Wait's answer, set before exited is closed.
	waitErr  error
	stopOnce sync.Once
	stopErr  error
}

// StartError is an app that did not start: its command not found, an exit
// before its URL answered, or a URL that never answered within the bound.
type StartError struct {
	Line string   // the command as started
	From string   // where it was declared
	Why  string   // what happened
	Last []string // its last output lines
}

func (e *StartError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the app's command `%s`", e.Line)
	if e.From != "" {
		fmt.Fprintf(&b, " (%s)", e.From)
	}
	b.WriteString(" " + e.Why)
	if len(e.Last) == 0 {
		b.WriteString("; it wrote nothing")
	} else {
		fmt.Fprintf(&b, "; its last lines:\n")
		for _, l := range e.Last {
			b.WriteString("  | " + l + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// Start starts the app of spec with a scenario's extra on a free loopback
// port and answers once its URL answers. An app that cannot start is a
// *StartError, and nothing of it is left running. Stop ends it.
func Start(ctx context.Context, spec Spec, extra Extra) (*Server, error) {
	if len(spec.Command) == 0 || spec.Command[0] == "" {
		return nil, fmt.Errorf("%s: app.command names no program", cmp.Or(spec.From, "the app"))
	}
	port, err := freePort()
	if err != nil {
		return nil, fmt.Errorf("no free loopback port for the app: %w", err)
	}
	// {port:NAME} is a free port of its own for each name (an app that
	// needs a second one: its auth server, its websocket): one per name,
	// the same wherever the name is written.
	named := map[string]int{}
	for _, text := range slices.Concat(spec.Command, extra.Args, slices.Collect(maps.Values(spec.Env)), slices.Collect(maps.Values(extra.Env)), []string{spec.URL}) {
		for _, m := range namedPort.FindAllStringSubmatch(text, -1) {
			if _, ok := named[m[1]]; ok {
				continue
			}
			p, err := freePort()
			for err == nil && (p == port || slices.Contains(slices.Collect(maps.Values(named)), p)) {
				p, err = freePort()
			}
			if err != nil {
				return nil, fmt.Errorf("no free loopback port for the app's %s: %w", m[0], err)
			}
			named[m[1]] = p
		}
	}
	fill := func(s string) string {
		s = namedPort.ReplaceAllStringFunc(s, func(m string) string { return strconv.Itoa(named[namedPort.FindStringSubmatch(m)[1]]) })
		return strings.ReplaceAll(s, Placeholder, strconv.Itoa(port))
	}
	argv := make([]string, 0, len(spec.Command)+len(extra.Args))
	for _, a := range slices.Concat(spec.Command, extra.Args) {
		argv = append(argv, fill(a))
	}
	s := &Server{Port: port, Ports: named, Line: quoteLine(argv), out: NewOutput(outputCap), exited: make(chan struct{}), copied: make(chan struct{})}
	s.URL = fill(cmp.Or(spec.URL, "http://127.0.0.1:"+Placeholder+"/"))
	u, err := url.Parse(s.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s: app.url %q is not an http(s) URL", cmp.Or(spec.From, "the app"), spec.URL)
	}
	s.BaseURL = u.Scheme + "://" + u.Host
	fail := func(why string) *StartError {
		return &StartError{Line: s.Line, From: spec.From, Why: why, Last: s.out.LastLines(lastLines)}
	}

	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = spec.Dir
	env := map[string]string{PortVar: strconv.Itoa(port)}
	for k, v := range spec.Env {
		env[k] = fill(v)
	}
	for k, v := range extra.Env {
		env[k] = fill(v)
	}
	cmd.Env = os.Environ()
	for _, k := range slices.Sorted(maps.Keys(env)) {
		cmd.Env = append(cmd.Env, k+"="+env[k])
	}
	// The app writes into a pipe of our own, not one exec.Cmd makes: Wait
	// then answers when the app's process ends, not when the last child
	// that inherited its stdout closes it (a `sh -c` whose child still runs).
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("a pipe for the app's output: %w", err)
	}
	go func() { _, _ = io.Copy(s.out, r); r.Close(); close(s.copied) }()
	cmd.Stdout, cmd.Stderr = w, w
	cmd.SysProcAttr = sysProcAttr()
	err = cmd.Start()
	w.Close()
	if err != nil {
		why := "could not be started: " + err.Error()
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
			why = fmt.Sprintf("could not be started: %q is not found (on $PATH, or from the folder %s)", argv[0], cmp.Or(spec.Dir, "."))
		}
		return nil, fail(why)
	}
	s.cmd = cmd
	go func() { s.waitErr = cmd.Wait(); close(s.exited) }()

	bound := cmp.Or(spec.Timeout, DefaultTimeout)
	if err := s.waitReady(ctx, bound); err != nil {
		s.Stop()
		var se *StartError
		if errors.As(err, &se) {
			se.Last = s.out.LastLines(lastLines)
		}
		return nil, err
	}
	return s, nil
}

// waitReady polls the URL until it answers, the process exits, the bound
// passes or ctx ends. The pause between polls grows from 50 ms to 1 s
// (Playwright's webServer uses 100, 250, 500, 1000 ms): an app that is up
// in 100 ms is not kept waiting for a second, and a slow one is not asked
// forty times a second.
func (s *Server) waitReady(parent context.Context, bound time.Duration) error {
	ctx, cancel := context.WithTimeout(parent, bound)
	defer cancel()
	client := &http.Client{Timeout: time.Second,
		// A redirect is an answer: the app is up (its login page, say).
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	pause := 50 * time.Millisecond
	last := "it never answered"
	for {
		if answered, why := s.poll(ctx, client); answered {
			return nil
		} else if why != "" {
			last = why
		}
		timer := time.NewTimer(pause)
		select {
		case <-s.exited:
			timer.Stop()
			s.drain()
			return &StartError{Line: s.Line, Why: fmt.Sprintf("exited (%s) before %s answered", exitWords(s.waitErr), s.URL)}
		case <-ctx.Done():
			timer.Stop()
			if parent.Err() == nil {
				return &StartError{Line: s.Line, Why: fmt.Sprintf("was started, but %s did not answer within %s (%s)", s.URL, bound, last)}
			}
			return fmt.Errorf("the start of `%s` was cut short: %w", s.Line, parent.Err())
		case <-timer.C:
		}
		pause = min(pause*2, time.Second)
	}
}

// poll asks the URL once: answered when it is up; otherwise why not, for
// the error at the end of the bound.
func (s *Server) poll(ctx context.Context, client *http.Client) (answered bool, why string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL, nil)
	if err != nil {
		return false, err.Error()
	}
	res, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return false, ""
		}
		return false, "last: " + err.Error()
	}
	res.Body.Close()
	// Another program may have taken the port between the suite's choice and
	// the app's start: its answers are not the app's.
	if host, port := s.loopbackPort(); port > 0 {
		if other, held := heldBefore(host, port, s.cmd.Process.Pid); held {
			return false, fmt.Sprintf("last: port %d answers, but another program (pid %d, older than the app) listens on it", port, other)
		}
	}
	// Playwright's rule: 2xx, 3xx and 400–403 mean a server is there (a
	// page behind a sign-in answers 401 or 403); 404 and 5xx mean not yet.
	if res.StatusCode <= 403 {
		return true, ""
	}
	return false, fmt.Sprintf("last: status %d", res.StatusCode)
}

// loopbackPort is the host and port of the app's URL when it is on this
// machine's loopback, else 0.
func (s *Server) loopbackPort() (string, int) {
	u, err := url.Parse(s.URL)
	if err != nil {
		return "", 0
	}
	if ip := net.ParseIP(u.Hostname()); (ip == nil || !ip.IsLoopback()) && u.Hostname() != "localhost" {
		return "", 0
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil {
		return u.Hostname(), map[string]int{"http": 80, "https": 443}[u.Scheme]
	}
	return u.Hostname(), port
}

// receives tells whether a socket listening on listen gets the
// connections made to host: its own address, a wildcard of its family (::
// also takes IPv4, as Linux's default dual stack does), or either
// loopback for localhost. A listener on [::1] is not one on 127.0.0.1.
func receives(listen net.IP, host string) bool {
	ip := net.ParseIP(host)
	switch {
	case ip == nil: // localhost: whichever loopback it resolves to
		return listen.IsLoopback() || listen.IsUnspecified()
	case listen.IsUnspecified():
		return listen.To4() == nil || ip.To4() != nil
	}
	return listen.Equal(ip)
}

// Exited tells whether the app's process has ended, and how.
func (s *Server) Exited() (bool, string) {
	select {
	case <-s.exited:
		return true, exitWords(s.waitErr)
	default:
		return false, ""
	}
}

// Output is what the app has written on stdout and stderr.
func (s *Server) Output() *Output { return s.out }

// Stop ends the app: SIGTERM to its process group, SIGKILL to the group
// when it has not exited after StopBound. It is safe to call more than
// once and answers the first call's error (nil when the app ended).
func (s *Server) Stop() error {
	s.stopOnce.Do(func() { s.stopErr = s.stop() })
	return s.stopErr
}

// drain waits, bounded, for the app's last output to be copied: its last
// lines are what an error quotes.
func (s *Server) drain() {
	t := time.NewTimer(drainBound)
	defer t.Stop()
	select {
	case <-s.copied:
	case <-t.C:
	}
}

// stop signals the group; what the app wrote last is drained after.
func (s *Server) stop() error {
	defer s.drain()
	if s.cmd == nil || s.cmd.Process == nil {
		return nil
	}
	pid := s.cmd.Process.Pid
	select {
	case <-s.exited:
		// The leader is gone; its children in the group may not be.
		_ = killGroup(pid, true)
		return nil
	default:
	}
	_ = killGroup(pid, false)
	timer := time.NewTimer(stopBound)
	defer timer.Stop()
	select {
	case <-s.exited:
		// Children that ignore SIGTERM die with the group all the same.
		_ = killGroup(pid, true)
		return nil
	case <-timer.C:
	}
	_ = killGroup(pid, true)
	select {
	case <-s.exited:
		return fmt.Errorf("the app `%s` did not end within %s of SIGTERM and was killed", s.Line, stopBound)
	case <-time.After(stopBound):
		return fmt.Errorf("the app `%s` (pid %d) did not end even after SIGKILL", s.Line, pid)
	}
}

// exitWords says how a process ended.
func exitWords(err error) string {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return "status 0"
	case errors.As(err, &ee):
		return ee.ProcessState.String()
	default:
		return err.Error()
	}
}

// namedPort is {port:NAME}: a port of its own per name (letters, digits,
// - and _).
var namedPort = regexp.MustCompile(`\{port:([A-Za-z0-9_-]+)\}`)

// freePort asks the kernel for a free loopback port. It is free when
// answered; another process could take it before the app binds it, which
// the app then says (and Start answers a StartError with its words).
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// quoteLine writes argv as a person would type it.
func quoteLine(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`") {
			a = strconv.Quote(a)
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}
