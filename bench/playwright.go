package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentready/agentready/fixtures/refapp"
	"github.com/agentready/agentready/internal/live/browser"
	"github.com/agentready/agentready/internal/runs/play"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/judge"
	"github.com/agentready/agentready/scenarios/vocab"
)

// The Playwright ways (bench/playwright): the bare flow, the flow with the
// suite's checks, and the check that the two ways check alike before the
// second is timed against the suite.

type playwright struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

func startPlaywright(dir string) (*playwright, error) {
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "playwright-core")); err != nil {
		return nil, fmt.Errorf("playwright-core is not installed in %s: run `make bench` (it runs npm ci there)", dir)
	}
	cmd := exec.Command("node", "conf01.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "BENCH_ENABLE_FEATURES="+browser.Features, "BENCH_DISABLE_FEATURES="+browser.DisabledFeatures)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &playwright{cmd: cmd, in: in, out: bufio.NewScanner(stdout)}
	if !p.out.Scan() || !strings.Contains(p.out.Text(), `"ready":true`) {
		p.close()
		return nil, fmt.Errorf("the Playwright script did not start: %s", p.out.Text())
	}
	return p, nil
}

func (p *playwright) flow() (time.Duration, error) {
	app, err := refapp.Start(refapp.Options{})
	if err != nil {
		return 0, err
	}
	defer app.Close()
	fmt.Fprintf(p.in, "run %s\n", app.URL)
	if !p.out.Scan() {
		return 0, fmt.Errorf("the Playwright script stopped")
	}
	var r struct {
		Ms               float64 `json:"ms"`
		Prepared         string  `json:"prepared"`
		PostsBeforeClick int     `json:"postsBeforeClick"`
		Posts            int     `json:"posts"`
		Error            string  `json:"error"`
	}
	if err := json.Unmarshal(p.out.Bytes(), &r); err != nil {
		return 0, err
	}
	if r.Error != "" || r.Prepared != "CONFIRMATION_REQUIRED" || r.PostsBeforeClick != 0 || r.Posts != 1 {
		return 0, fmt.Errorf("the Playwright flow went wrong: %s", p.out.Text())
	}
	return time.Duration(r.Ms * float64(time.Millisecond)), nil
}

// sameChecks plays the flow with the suite's checks in Playwright against a
// fresh reference app (with variant's defect, "" for none) whose observer
// answers a token, and returns how long it took; the checks that failed are
// returned in a *peerFailed, with the time.
func (p *playwright) sameChecks(variant refapp.Variant, parent string) (time.Duration, error) {
	token := "bench-observer"
	app, err := refapp.Start(refapp.Options{Variant: variant, ObserverToken: token})
	if err != nil {
		return 0, err
	}
	defer app.Close()
	dir, err := os.MkdirTemp(parent, "playwright-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	fmt.Fprintf(p.in, "same %s %s %s\n", app.URL, token, dir)
	if !p.out.Scan() {
		return 0, fmt.Errorf("the Playwright script stopped")
	}
	var r struct {
		Ms     float64  `json:"ms"`
		Failed []string `json:"failed"`
		Files  []string `json:"files"`
		Error  string   `json:"error"`
	}
	if err := json.Unmarshal(p.out.Bytes(), &r); err != nil {
		return 0, err
	}
	took := time.Duration(r.Ms * float64(time.Millisecond))
	switch {
	case r.Error != "":
		return took, &peerFailed{[]string{"stopped: " + r.Error}}
	case len(r.Failed) > 0:
		return took, &peerFailed{r.Failed}
	}
	for _, f := range r.Files { // the evidence is part of what is timed: it must be there
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			return took, fmt.Errorf("the Playwright flow with the suite's checks did not write %s", f)
		}
	}
	if len(r.Files) == 0 {
		return took, fmt.Errorf("the Playwright flow with the suite's checks wrote no evidence")
	}
	return took, nil
}

// peerFailed is what the Playwright flow with the suite's checks found
// wrong: on the correct app an error of the bench, on a defect its catch.
type peerFailed struct{ checks []string }

func (e *peerFailed) Error() string {
	return "the Playwright flow with the suite's checks failed: " + strings.Join(e.checks, "; ")
}

func (p *playwright) close() {
	if p.in != nil {
		p.in.Close()
		_ = p.cmd.Wait()
		p.in = nil
	}
}

// peerRow is one deliberate defect of the reference app and what each way
// found on it: the checks that failed, nil when it passed.
type peerRow struct {
	Variant    refapp.Variant `json:"variant"`
	Suite      []string       `json:"suite"`
	Playwright []string       `json:"playwrightSameChecks"`
}

// peerCheck plays the suite's CONF-01 attempt 3 and the Playwright flow with
// the same checks on the correct reference app, where both must pass, and on
// each of its deliberate defects the suite catches there, where the
// Playwright flow must catch it too: only then are the two ways timed doing
// the same work. It prints the table and returns it; a defect the peer
// misses is an error, as a peer that passes the correct app is not enough.
func peerCheck(ctx context.Context, b *browser.Browser, sc scenarios.Scenario, pw *playwright, dir string) ([]peerRow, error) {
	fmt.Println("the Playwright flow with the suite's checks, held to the suite on the reference app's deliberate defects:")
	var rows []peerRow
	for _, v := range append([]refapp.Variant{""}, refapp.Variants()...) {
		played := sc
		played.Variant = string(v)
		s, err := play.Scenario(ctx, played, play.Options{Browser: b, RunID: "peer-check", Dir: dir})
		if err != nil {
			return nil, fmt.Errorf("the suite on %q: %w", v, err)
		}
		b.Settle()
		row := peerRow{Variant: v}
		if s.Verdict.Outcome != vocab.Pass {
			row.Suite = codesOf(s.Verdict)
			if row.Suite == nil {
				row.Suite = []string{string(s.Verdict.Outcome)}
			}
		}
		if v != "" && row.Suite == nil {
			continue // a defect this scenario does not reach: nothing to hold the peer to
		}
		_, err = pw.sameChecks(v, dir)
		var found *peerFailed
		switch {
		case errors.As(err, &found):
			row.Playwright = found.checks
		case err != nil:
			return nil, fmt.Errorf("the Playwright flow with the suite's checks on %q: %w", v, err)
		}
		rows = append(rows, row)
		fmt.Printf("  %-26s suite %-44s playwright %s\n", row.name(), caught(row.Suite), caught(row.Playwright))
	}
	if unlike := unlike(rows); len(unlike) > 0 {
		return rows, fmt.Errorf("the two ways do not check alike on %s: the ratio would compare different work", strings.Join(unlike, ", "))
	}
	return rows, nil
}

func (r peerRow) name() string { return cmp.Or(string(r.Variant), "(the correct app)") }

// unlike names the rows where the two ways disagree: the correct app must
// pass both, and each defect fail both.
func unlike(rows []peerRow) []string {
	var names []string
	for _, r := range rows {
		correct := r.Variant == ""
		if correct != (r.Suite == nil) || correct != (r.Playwright == nil) {
			names = append(names, r.name())
		}
	}
	return names
}

func codesOf(v judge.Verdict) []string {
	var codes []string
	for _, c := range v.Codes {
		codes = append(codes, string(c))
	}
	return codes
}

func caught(checks []string) string {
	if checks == nil {
		return "passes"
	}
	s := strings.Join(checks, ", ")
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return "fails: " + s
}
