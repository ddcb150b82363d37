//go:build linux

package appserver

import (
	"strconv"
	"strings"

	"github.com/prometheus/procfs"
)

// heldBefore answers the pid of a process that listens on the loopback
// port and was started before the app's own process leader (pid): another
// program that took the port the suite chose between the suite's check and
// the app's start (a free port is free only when asked), on an address that
// receives the app URL's connections (host), whose answers are
// not the app's. A listener started with or after the app (the app, its
// children, a proxy it starts) is the app's; what /proc does not show (a
// process of another user) is taken to be the app's, as before. It reads
// /proc through prometheus/procfs (docs/decisions/2026-12-07-the-apps-port.md).
func heldBefore(host string, port, pid int) (int, bool) {
	fs, err := procfs.NewDefaultFS()
	if err != nil {
		return 0, false
	}
	inodes := map[uint64]bool{}
	for _, read := range []func() (procfs.NetTCP, error){fs.NetTCP, fs.NetTCP6} {
		lines, err := read()
		if err != nil {
			continue
		}
		for _, l := range lines {
			if l.LocalPort == uint64(port) && l.St == tcpListen && receives(l.LocalAddr, host) {
				inodes[l.Inode] = true
			}
		}
	}
	if len(inodes) == 0 {
		return 0, false
	}
	app, err := fs.Proc(pid)
	if err != nil {
		return 0, false
	}
	appStat, err := app.Stat()
	if err != nil {
		return 0, false
	}
	procs, err := fs.AllProcs()
	if err != nil {
		return 0, false
	}
	for _, p := range procs {
		targets, err := p.FileDescriptorTargets()
		if err != nil || !holdsSocket(targets, inodes) {
			continue
		}
		st, err := p.Stat()
		if err != nil || st.PGRP == appStat.PGRP || st.Starttime >= appStat.Starttime {
			return 0, false // the app's, or one started with or after it
		}
		return p.PID, true
	}
	return 0, false
}

// tcpListen is TCP_LISTEN in /proc/net/tcp's st column.
const tcpListen = 0x0A

func holdsSocket(targets []string, inodes map[uint64]bool) bool {
	for _, t := range targets {
		if n, ok := strings.CutPrefix(t, "socket:["); ok {
			if inode, err := strconv.ParseUint(strings.TrimSuffix(n, "]"), 10, 64); err == nil && inodes[inode] {
				return true
			}
		}
	}
	return false
}
