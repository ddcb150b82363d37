package browser

import (
	"bufio"
	"context"
	"errors"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentready/agentready/internal/kit/hang"
)

func TestFindChromiumNamesThePackageWhenMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := FindChromium("")
	if !errors.Is(err, ErrPreflight) {
		t.Fatalf("want ErrPreflight, got %v", err)
	}
	for _, want := range []string{"apt-get install -y chromium", EnvChromium, EnvBrowserURL, "never downloads"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q:\n%s", want, err)
		}
	}
}

func TestFindChromiumRejectsAMissingPath(t *testing.T) {
	_, err := FindChromium("/nonexistent/chromium")
	if !errors.Is(err, ErrPreflight) || !strings.Contains(err.Error(), "/nonexistent/chromium") {
		t.Fatalf("want a preflight error naming the path, got %v", err)
	}
}

func TestMajorOf(t *testing.T) {
	for product, want := range map[string]int{"Chrome/156.0.8078.108": 156, "HeadlessChrome/159.0.1.2": 159, "": 0, "weird": 0} {
		if got := majorOf(product); got != want {
			t.Errorf("majorOf(%q) = %d, want %d", product, got, want)
		}
	}
}

// The headless shell judges a right app wrongly (PAY-01's cross-site frame):
// it is refused by name; the full browser, headless or not, is not.
func TestTheHeadlessShellIsRefused(t *testing.T) {
	err := checkNotHeadlessShell("HeadlessChrome/156.0.8078.114")
	if !errors.Is(err, ErrPreflight) || !strings.Contains(err.Error(), "chromium-headless-shell") || !strings.Contains(err.Error(), "apt-get install -y chromium") {
		t.Errorf("the headless shell: %v", err)
	}
	if err := checkNotHeadlessShell("Chrome/156.0.8078.114"); err != nil {
		t.Errorf("the full browser refused: %v", err)
	}
	// By its binary's name, before it starts (nothing is left running).
	shell := filepath.Join(t.TempDir(), "chromium-headless-shell")
	if err := os.WriteFile(shell, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := FindChromium(shell); !errors.Is(err, ErrPreflight) || !strings.Contains(err.Error(), "chromium-headless-shell") {
		t.Errorf("FindChromium(%s) = %v, want it refused", shell, err)
	}
	full := filepath.Join(t.TempDir(), "chromium")
	if err := os.WriteFile(full, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := FindChromium(full); err != nil || got != full {
		t.Errorf("FindChromium(%s) = %q, %v", full, got, err)
	}
}

func requireChromium(t *testing.T) string {
	t.Helper()
	path, err := FindChromium(os.Getenv(EnvChromium))
	if err != nil {
		t.Fatalf("these tests need Chromium (make deps installs it): %v", err)
	}
	return path
}

func TestLaunchPassesPreflightWithWebMCPOn(t *testing.T) {
	b := launched(t)
	if b.Version.Major < MinMajorVersion {
		t.Errorf("version %+v", b.Version)
	}
	// The evidence records the feature switches the browser runs with and
	// what the preflight saw: both WebMCP names (later builds renamed
	// WebMCPTesting to WebMCP) and the BackForwardCache turned off.
	if got := strings.Join(b.Version.Features, " "); !strings.Contains(got, "--enable-features="+Features) || !strings.Contains(got, "BackForwardCache") {
		t.Errorf("features %q, want --enable-features=%s and BackForwardCache disabled", got, Features)
	}
	if b.Version.WebMCP != "document.modelContext is on" {
		t.Errorf("preflight saw %q", b.Version.WebMCP)
	}
	tab, err := b.NewTab(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	tab.Close()

	// After Close, NewTab answers at once; it used to block for ever on the
	// tab opened ahead, which nobody would open again.
	b.Close()
	done := make(chan error, 1)
	go func() { _, err := b.NewTab(t.Context()); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrClosed) {
			t.Errorf("NewTab after Close = %v, want ErrClosed", err)
		}
	case <-time.After(hang.Bound):
		t.Fatalf("NewTab after Close still blocks after %v", hang.Bound)
	}
}

func TestPreflightFailsFastWithoutTheWebMCPFeatures(t *testing.T) {
	requireChromium(t)
	start := time.Now()
	b, err := Launch(Options{Flags: map[string]any{"enable-features": "NoSuchFeature"}})
	if err == nil {
		b.Close()
		t.Fatal("preflight passed with WebMCP off")
	}
	if !errors.Is(err, ErrPreflight) {
		t.Fatalf("want ErrPreflight, got %v", err)
	}
	for _, want := range []string{"document.modelContext is undefined", "--enable-features=" + Features, "156"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q:\n%s", want, err)
		}
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("preflight took %s: it should fail fast", d)
	}
}

// startedByHand starts Chromium as a person would, with the suite's flags,
// and answers its http://host:port; the browser ends with the test.
func startedByHand(t *testing.T) string {
	t.Helper()
	path := requireChromium(t)
	profile, err := os.MkdirTemp("", "agentready-attach-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(profile) })
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--enable-features=" + Features, "--disable-features=" + DisabledFeatures, "--user-data-dir=" + profile, "--remote-debugging-port=0", "about:blank"}
	args = append(args, AttachFlags...) // the preflight refuses an attached browser without them
	ctx, cancel := context.WithTimeout(context.Background(), hang.Bound)
	cmd := exec.CommandContext(ctx, path, args...)
	// Chromium's helper processes can outlive the main one and keep writing
	// to the profile: end the whole group, then remove the profile.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	stderr, err := cmd.StderrPipe()
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	var wsURL string
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if _, url, ok := strings.Cut(sc.Text(), "DevTools listening on "); ok {
			wsURL = strings.TrimSpace(url)
			break
		}
	}
	if wsURL == "" {
		t.Fatal("Chromium did not print its DevTools address")
	}
	go func() {
		for sc.Scan() {
		}
	}()
	u, err := url.Parse(wsURL)
	if err != nil {
		t.Fatal(err)
	}
	return "http://" + u.Host
}

// TestAttachToARunningBrowser starts Chromium by hand, as a team pointing the
// suite at a browser pool would, and attaches through its debugging port.
func TestAttachToARunningBrowser(t *testing.T) {
	host := startedByHand(t)
	// Attached by its http://host:port (the websocket read from
	// /json/version), a tab still follows its workers.
	b, err := Launch(Options{URL: host})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	tab, err := b.NewTab(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	s := newSites(t)
	if err := tab.Navigate(t.Context(), s.A+"/workers"); err != nil {
		t.Fatal(err)
	}
	waitPosts(t, tab, workerPosts)
}
