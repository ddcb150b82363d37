package main

import (
	"bytes"
	"strings"
	"testing"
)

// Every command and subcommand answers -h (and --help) with its usage and
// exit 0, and does nothing else: no browser, no server, no file. The list
// is the usage's own, so a new command is held to it.
func TestEveryCommandAnswersHelp(t *testing.T) {
	var commands [][]string
	for _, line := range strings.Split(usage, "\n") {
		if f := strings.Fields(line); len(line) > 2 && line[:2] == "  " && line[2] != ' ' && len(f) > 1 {
			commands = append(commands, []string{f[0]})
		}
	}
	if len(commands) < 15 {
		t.Fatalf("read %d commands from the usage: %v", len(commands), commands)
	}
	commands = append(commands, []string{"attack", "embed"}, []string{"import", "inspector"}, []string{"import", "model"})
	for _, cmd := range commands {
		for _, h := range []string{"-h", "--help"} {
			var out, errs bytes.Buffer
			code := run(append(append([]string{}, cmd...), h), &out, &errs)
			if code != 0 || !strings.Contains(out.String()+errs.String(), "usage: agentready "+cmd[0]) {
				t.Errorf("agentready %s %s: exit %d\n%s%s", strings.Join(cmd, " "), h, code, out.String(), errs.String())
			}
		}
	}
}
